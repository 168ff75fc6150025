"""Gem colours and token counts.

Colours and their one-letter codes are shared by the notation, the records,
the screen and the vision package.  The letters follow the common Splendor
convention: ``w`` white (diamond), ``u`` blue (sapphire, ``b`` would clash
with black), ``g`` green (emerald), ``r`` red (ruby), ``k`` black (onyx) and
``y`` gold (yellow, the joker).  The order white, blue, green, red, black is
the order of the cost circles printed on the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from enum import Enum

from companion.rules.errors import NotationError


class Gem(Enum):
    """A token colour. ``GOLD`` is the joker; the other five are gems."""

    WHITE = "w"
    BLUE = "u"
    GREEN = "g"
    RED = "r"
    BLACK = "k"
    GOLD = "y"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        """The colour's name as a player says it ("red")."""
        return self.name.lower()

    @property
    def stone(self) -> str:
        """The gem's name as the rulebook says it ("ruby")."""
        return _STONES[self]

    @classmethod
    def from_letter(cls, letter: str) -> Gem:
        try:
            return _BY_LETTER[letter.lower()]
        except KeyError:
            raise NotationError(
                f"'{letter}' is not a token letter (use w u g r k, and y for gold)"
            ) from None

    @classmethod
    def from_name(cls, name: str) -> Gem:
        """Accept a colour name, a stone name or a letter ("red", "ruby", "r")."""
        key = name.strip().lower()
        for gem in cls:
            if key in (gem.label, gem.stone, gem.letter):
                return gem
        raise NotationError(f"'{name}' is not a gem colour")


_STONES = {
    Gem.WHITE: "diamond",
    Gem.BLUE: "sapphire",
    Gem.GREEN: "emerald",
    Gem.RED: "ruby",
    Gem.BLACK: "onyx",
    Gem.GOLD: "gold",
}
_BY_LETTER = {gem.value: gem for gem in Gem}

#: The five gem colours in card order (white, blue, green, red, black); no gold.
COLOURS: tuple[Gem, ...] = (Gem.WHITE, Gem.BLUE, Gem.GREEN, Gem.RED, Gem.BLACK)
#: The six token kinds: the five colours then gold.
TOKENS: tuple[Gem, ...] = (*COLOURS, Gem.GOLD)
_INDEX = {gem: i for i, gem in enumerate(TOKENS)}
for _i, _gem in enumerate(TOKENS):
    # A plain attribute lookup is several times faster than hashing an Enum
    # member, and Tokens[gem] is the engine's innermost operation.
    _gem._index = _i  # type: ignore[attr-defined]


class Tokens:
    """An immutable multiset of tokens: a count for each of the six kinds.

    Used for supplies, holdings, costs, payments and bonuses alike.  Text form
    is the letters repeated in the canonical order, e.g. ``"wwuy"``; the empty
    multiset is ``"-"``.
    """

    __slots__ = ("_counts",)
    _counts: tuple[int, int, int, int, int, int]

    def __init__(self, counts: Mapping[Gem, int] | Iterable[int] = ()) -> None:
        if isinstance(counts, Mapping):
            values = [0] * 6
            for gem, n in counts.items():
                values[_INDEX[gem]] += n
        else:
            values = list(counts)
            values += [0] * (6 - len(values))
        if len(values) != 6:
            raise ValueError(f"expected 6 counts, got {len(values)}")
        if min(values) < 0:
            raise ValueError(f"negative token count in {values}")
        object.__setattr__(self, "_counts", tuple(values))

    @classmethod
    def _raw(cls, counts: tuple[int, int, int, int, int, int]) -> Tokens:
        """Wrap counts already known to be six non-negative ints (the hot path)."""
        new = object.__new__(cls)
        object.__setattr__(new, "_counts", counts)
        return new

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tokens is immutable")

    def __reduce__(self) -> tuple[type[Tokens], tuple[tuple[int, ...]]]:
        """Pickle by the counts (cards and nobles cross to vision's worker processes)."""
        return (Tokens, (self._counts,))

    # -- construction -------------------------------------------------------
    @classmethod
    def of(cls, *gems: Gem) -> Tokens:
        counts = [0] * 6
        for gem in gems:
            counts[_INDEX[gem]] += 1
        return cls(counts)

    @classmethod
    def parse(cls, text: str) -> Tokens:
        """Read ``"wwuy"`` (any order, any case) or ``"-"`` for none.

        A digit before a letter repeats it: ``"2w1u"`` equals ``"wwu"``.
        """
        text = text.strip()
        if text in ("-", ""):
            return cls()
        counts = [0] * 6
        repeat = ""
        for ch in text:
            if ch.isdigit():
                repeat += ch
                continue
            n = int(repeat) if repeat else 1
            repeat = ""
            counts[_INDEX[Gem.from_letter(ch)]] += n
        if repeat:
            raise NotationError(f"'{text}' ends with a number and no token letter")
        return cls(counts)

    # -- access ---------------------------------------------------------------
    def __getitem__(self, gem: Gem) -> int:
        return self._counts[gem._index]  # type: ignore[attr-defined]

    def items(self) -> Iterator[tuple[Gem, int]]:
        return zip(TOKENS, self._counts, strict=True)

    def gems(self) -> Iterator[Gem]:
        """Each token, one at a time, in canonical order."""
        for gem, n in self.items():
            for _ in range(n):
                yield gem

    def colours(self) -> tuple[Gem, ...]:
        """The kinds present at least once."""
        return tuple(gem for gem, n in self.items() if n)

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        return self._counts

    def total(self) -> int:
        return sum(self._counts)

    def __len__(self) -> int:
        return self.total()

    def __bool__(self) -> bool:
        return any(self._counts)

    # -- arithmetic -----------------------------------------------------------
    def __add__(self, other: Tokens) -> Tokens:
        a, b = self._counts, other._counts
        return Tokens._raw(
            (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])
        )

    def __sub__(self, other: Tokens) -> Tokens:
        """Difference; raises ``ValueError`` if it would go below zero."""
        return Tokens(a - b for a, b in zip(self._counts, other._counts, strict=True))

    def covers(self, other: Tokens) -> bool:
        """True when every count here is at least the count in ``other``."""
        return all(a >= b for a, b in zip(self._counts, other._counts, strict=True))

    def without_gold(self) -> Tokens:
        return Tokens((*self._counts[:5], 0))

    # -- comparison and text --------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tokens) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(self._counts)

    def __str__(self) -> str:
        return "".join(gem.letter * n for gem, n in self.items()) or "-"

    def __repr__(self) -> str:
        return f"Tokens.parse({str(self)!r})"

    def describe(self) -> str:
        """Words for the screen: "2 red, 1 gold"; "nothing" when empty."""
        parts = [f"{n} {gem.label}" for gem, n in self.items() if n]
        return ", ".join(parts) or "nothing"
