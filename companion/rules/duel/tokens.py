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

from collections.abc import Iterator
from enum import Enum

from companion.rules.errors import NotationError
from companion.rules.gems import Gem, TokenCounts


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


class DuelTokens(TokenCounts[Token]):
    """An immutable multiset of Duel tokens: a count for each of the 7 kinds.

    Text form: the letters repeated in canonical order (``"wwupy"``), ``"-"``
    when empty; :meth:`parse` also accepts a count before a letter (``"2w1p"``).
    Everything but the kinds is Splendor's :class:`~companion.rules.gems.TokenCounts`.
    """

    __slots__ = ()
    _counts: Counts
    KINDS = tuple(Token)

    @classmethod
    def index_of(cls, kind: Token) -> int:
        return _INDEX[kind]

    @classmethod
    def kind_of(cls, letter: str) -> Token:
        return Token.from_letter(letter)

    @property
    def counts(self) -> Counts:
        return self._counts

    def kinds(self) -> Iterator[Token]:
        """Each token, one at a time, in canonical order."""
        return self.each()
