"""Gem colours and token counts.

Colours and their one-letter codes are shared by the notation, the records,
the screen and the vision package.  The letters follow the common Splendor
convention: ``w`` white (diamond), ``u`` blue (sapphire, ``b`` would clash
with black), ``g`` green (emerald), ``r`` red (ruby), ``k`` black (onyx) and
``y`` gold (yellow, the joker).  The order white, blue, green, red, black is
the order of the cost circles printed on the cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from enum import Enum
from typing import Generic, Protocol, Self, TypeVar

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


class TokenKind(Protocol):
    """A kind of token as the multiset needs it: its letter and its spoken name."""

    @property
    def letter(self) -> str: ...

    @property
    def label(self) -> str: ...


K = TypeVar("K", bound=TokenKind)


class TokenCounts(Generic[K]):
    """An immutable multiset of one game's tokens: a count for each kind, in order.

    Shared by Splendor's :class:`Tokens` (six kinds) and Duel's
    :class:`~companion.rules.duel.tokens.DuelTokens` (seven: the pearl too),
    which were two copies of these lines.  A subclass names its kinds in
    canonical order (:attr:`KINDS`, also the order of the counts) and how a
    letter is read (:meth:`kind_of`); the two games' multisets never compare
    equal, even with the same counts.  Text form: the letters repeated in
    canonical order (``"wwuy"``), ``"-"`` when empty.
    """

    __slots__ = ("_counts",)
    _counts: tuple[int, ...]
    #: The kinds in canonical order (set by each game's subclass).
    KINDS: tuple[K, ...]

    def __init__(self, counts: Mapping[K, int] | Iterable[int] = ()) -> None:
        size = len(self.KINDS)
        if isinstance(counts, Mapping):
            values = [0] * size
            for kind, n in counts.items():
                values[self.index_of(kind)] += n
        else:
            values = list(counts)
            values += [0] * (size - len(values))
        if len(values) != size:
            raise ValueError(f"expected {size} counts, got {len(values)}")
        if min(values) < 0:
            raise ValueError(f"negative token count in {values}")
        object.__setattr__(self, "_counts", tuple(values))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type[Self], tuple[tuple[int, ...]]]:
        """Pickle by the counts (cards and nobles cross to vision's worker processes)."""
        return (type(self), (self._counts,))

    # -- what each game says ------------------------------------------------
    @classmethod
    def index_of(cls, kind: K) -> int:
        """Position of ``kind`` in :attr:`KINDS`."""
        return cls.KINDS.index(kind)

    @classmethod
    def kind_of(cls, letter: str) -> K:
        """The kind a letter names; raises :class:`NotationError` naming the game's letters."""
        raise NotImplementedError

    # -- construction -------------------------------------------------------
    @classmethod
    def of(cls, *kinds: K) -> Self:
        counts = [0] * len(cls.KINDS)
        for kind in kinds:
            counts[cls.index_of(kind)] += 1
        return cls(counts)

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read ``"wwuy"`` (any order, any case) or ``"-"`` for none.

        A digit before a letter repeats it: ``"2w1u"`` equals ``"wwu"``.
        """
        text = text.strip()
        if text in ("-", ""):
            return cls()
        counts = [0] * len(cls.KINDS)
        repeat = ""
        for ch in text:
            if ch.isdigit():
                repeat += ch
                continue
            n = int(repeat) if repeat else 1
            repeat = ""
            counts[cls.index_of(cls.kind_of(ch))] += n
        if repeat:
            raise NotationError(f"'{text}' ends with a number and no token letter")
        return cls(counts)

    # -- access ---------------------------------------------------------------
    def __getitem__(self, kind: K) -> int:
        return self._counts[self.index_of(kind)]

    def items(self) -> Iterator[tuple[K, int]]:
        return zip(self.KINDS, self._counts, strict=True)

    def each(self) -> Iterator[K]:
        """Each token, one at a time, in canonical order."""
        for kind, n in self.items():
            for _ in range(n):
                yield kind

    @property
    def counts(self) -> tuple[int, ...]:
        return self._counts

    def total(self) -> int:
        return sum(self._counts)

    def __len__(self) -> int:
        return self.total()

    def __bool__(self) -> bool:
        return any(self._counts)

    # -- arithmetic -----------------------------------------------------------
    def __add__(self, other: Self) -> Self:
        return type(self)(a + b for a, b in zip(self._counts, other._counts, strict=True))

    def __sub__(self, other: Self) -> Self:
        """Difference; raises ``ValueError`` if it would go below zero."""
        return type(self)(a - b for a, b in zip(self._counts, other._counts, strict=True))

    def covers(self, other: Self) -> bool:
        """True when every count here is at least the count in ``other``."""
        return all(a >= b for a, b in zip(self._counts, other._counts, strict=True))

    # -- what the two games' rules agree on ------------------------------------
    def payments_for(self, price: Self) -> list[Self]:
        """Every exact payment of ``price`` from these tokens, least gold first.

        Gold (the last kind) may stand in for any other kind, even one held,
        so each split between a kind and gold is a different payment.  Both
        rulebooks say so (Duel's pearls included); the order is that of the
        itertools product, stably sorted by the gold spent.
        """
        need, have = price._counts, self._counts
        gold = len(need) - 1
        ranges = [range(min(need[i], have[i]), -1, -1) for i in range(gold)]
        total = sum(need[:gold])
        result = []
        for paid in itertools.product(*ranges):
            spent = total - sum(paid)
            if spent <= have[gold]:
                result.append(type(self)((*paid, spent)))
        result.sort(key=lambda t: t._counts[gold])
        return result

    def returns(self, count: int) -> list[Self]:
        """Every multiset of ``count`` tokens that can be given back from these."""
        if count <= 0:
            return [type(self)()]
        options = []
        for combo in itertools.combinations_with_replacement(self.KINDS, count):
            back = self.of(*combo)
            if self.covers(back):
                options.append(back)
        return options

    # -- comparison and text --------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(self._counts)

    def __str__(self) -> str:
        return "".join(kind.letter * n for kind, n in self.items()) or "-"

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def describe(self) -> str:
        """Words for the screen: "2 red, 1 gold"; "nothing" when empty."""
        return ", ".join(f"{n} {kind.label}" for kind, n in self.items() if n) or "nothing"


class Tokens(TokenCounts[Gem]):
    """Splendor's tokens: a count for each of the six kinds (five gems, gold).

    Used for supplies, holdings, costs, payments and bonuses alike.  Text form
    is the letters repeated in the canonical order, e.g. ``"wwuy"``; the empty
    multiset is ``"-"``.  The shared lines are :class:`TokenCounts`'; adding
    and indexing are rewritten here for speed, being the engine's innermost
    operations.
    """

    __slots__ = ()
    _counts: tuple[int, int, int, int, int, int]
    KINDS = TOKENS

    @classmethod
    def index_of(cls, kind: Gem) -> int:
        return _INDEX[kind]

    @classmethod
    def kind_of(cls, letter: str) -> Gem:
        return Gem.from_letter(letter)

    @classmethod
    def _raw(cls, counts: tuple[int, int, int, int, int, int]) -> Tokens:
        """Wrap counts already known to be six non-negative ints (the hot path)."""
        new = object.__new__(cls)
        object.__setattr__(new, "_counts", counts)
        return new

    def __getitem__(self, gem: Gem) -> int:
        return self._counts[gem._index]  # type: ignore[attr-defined]

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        return self._counts

    def gems(self) -> Iterator[Gem]:
        """Each token, one at a time, in canonical order."""
        return self.each()

    def colours(self) -> tuple[Gem, ...]:
        """The kinds present at least once."""
        return tuple(gem for gem, n in self.items() if n)

    def __add__(self, other: Tokens) -> Tokens:
        a, b = self._counts, other._counts
        return Tokens._raw(
            (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])
        )

    def without_gold(self) -> Tokens:
        return Tokens((*self._counts[:5], 0))
