"""Splendor Duel token kinds and token counts.

Duel has seven kinds of token where Splendor has six: the five gem colours,
the **pearl** and gold.  The gem letters are those of
:mod:`companion.rules.gems` (``w`` white, ``u`` blue, ``g`` green, ``r`` red,
``k`` black, ``y`` gold) so records, screens and vision share one alphabet;
the pearl is ``p``.  A separate enum (rather than adding a pearl to
:class:`~companion.rules.gems.Gem`) keeps Splendor's types free of a token it
never has; :meth:`Token.gem` and :meth:`Token.from_gem` convert.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from enum import Enum

from companion.rules.errors import NotationError
from companion.rules.gems import Gem


class Token(Enum):
    """A Duel token kind: five gem colours, the pearl and gold."""

    WHITE = "w"
    BLUE = "u"
    GREEN = "g"
    RED = "r"
    BLACK = "k"
    PEARL = "p"
    GOLD = "y"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        """The kind as a player says it ("red", "pearl", "gold")."""
        return self.name.lower()

    @property
    def index(self) -> int:
        """Position in :data:`KINDS` (w u g r k p y), used for count tuples."""
        return _INDEX[self]

    @property
    def gem(self) -> Gem | None:
        """The Splendor :class:`Gem` of the same colour (``None`` for the pearl)."""
        return None if self is Token.PEARL else Gem(self.value)

    @classmethod
    def from_gem(cls, gem: Gem) -> Token:
        return cls(gem.value)

    @classmethod
    def from_letter(cls, letter: str) -> Token:
        try:
            return cls(letter.lower())
        except ValueError:
            raise NotationError(
                f"'{letter}' is not a Duel token letter (w u g r k, p for pearl, y for gold)"
            ) from None

    @classmethod
    def from_name(cls, name: str) -> Token:
        """Accept a colour name or a letter ("red", "r", "pearl", "p")."""
        key = name.strip().lower()
        for kind in cls:
            if key in (kind.label, kind.letter):
                return kind
        raise NotationError(f"'{name}' is not a Duel token kind")


#: All seven kinds in canonical order: the gem colours (card cost order), pearl, gold.
KINDS: tuple[Token, ...] = tuple(Token)
#: The five gem colours (cards give bonuses of these only).
COLOURS: tuple[Token, ...] = KINDS[:5]
#: What the "take tokens" action, privileges and steals may take: gems and pearls.
TAKEABLE: tuple[Token, ...] = KINDS[:6]
_INDEX = {kind: i for i, kind in enumerate(KINDS)}

Counts = tuple[int, int, int, int, int, int, int]


class DuelTokens:
    """An immutable multiset of Duel tokens: a count for each of the 7 kinds.

    Text form: the letters repeated in canonical order (``"wwupy"``), ``"-"``
    when empty; :meth:`parse` also accepts a count before a letter (``"2w1p"``).
    """

    __slots__ = ("_counts",)
    _counts: Counts

    def __init__(self, counts: Mapping[Token, int] | Iterable[int] = ()) -> None:
        if isinstance(counts, Mapping):
            values = [0] * 7
            for kind, n in counts.items():
                values[_INDEX[kind]] += n
        else:
            values = list(counts)
            values += [0] * (7 - len(values))
        if len(values) != 7:
            raise ValueError(f"expected 7 counts, got {len(values)}")
        if any(n < 0 for n in values):
            raise ValueError(f"negative token count in {values}")
        object.__setattr__(self, "_counts", tuple(values))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("DuelTokens is immutable")

    def __reduce__(self) -> tuple[type[DuelTokens], tuple[tuple[int, ...]]]:
        """Pickle by the counts, like :class:`companion.rules.gems.Tokens`."""
        return (DuelTokens, (self._counts,))

    @classmethod
    def of(cls, *kinds: Token) -> DuelTokens:
        counts = [0] * 7
        for kind in kinds:
            counts[_INDEX[kind]] += 1
        return cls(counts)

    @classmethod
    def parse(cls, text: str) -> DuelTokens:
        text = text.strip()
        if text in ("-", ""):
            return cls()
        counts = [0] * 7
        repeat = ""
        for ch in text:
            if ch.isdigit():
                repeat += ch
                continue
            counts[_INDEX[Token.from_letter(ch)]] += int(repeat) if repeat else 1
            repeat = ""
        if repeat:
            raise NotationError(f"'{text}' ends with a number and no token letter")
        return cls(counts)

    def __getitem__(self, kind: Token) -> int:
        return self._counts[_INDEX[kind]]

    @property
    def counts(self) -> Counts:
        return self._counts

    def items(self) -> Iterator[tuple[Token, int]]:
        return zip(KINDS, self._counts, strict=True)

    def kinds(self) -> Iterator[Token]:
        """Each token, one at a time, in canonical order."""
        for kind, n in self.items():
            for _ in range(n):
                yield kind

    def total(self) -> int:
        return sum(self._counts)

    def __len__(self) -> int:
        return self.total()

    def __bool__(self) -> bool:
        return any(self._counts)

    def __add__(self, other: DuelTokens) -> DuelTokens:
        return DuelTokens(a + b for a, b in zip(self._counts, other._counts, strict=True))

    def __sub__(self, other: DuelTokens) -> DuelTokens:
        """Difference; raises ``ValueError`` if it would go below zero."""
        return DuelTokens(a - b for a, b in zip(self._counts, other._counts, strict=True))

    def covers(self, other: DuelTokens) -> bool:
        return all(a >= b for a, b in zip(self._counts, other._counts, strict=True))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DuelTokens) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(self._counts)

    def __str__(self) -> str:
        return "".join(kind.letter * n for kind, n in self.items()) or "-"

    def __repr__(self) -> str:
        return f"DuelTokens.parse({str(self)!r})"

    def describe(self) -> str:
        """Words for the screen: "2 red, 1 pearl"; "nothing" when empty."""
        return ", ".join(f"{n} {kind.label}" for kind, n in self.items() if n) or "nothing"
