"""The Splendor components: 90 development cards and 10 nobles.

The catalogues are the CSV files in ``companion/data`` (copied unchanged from
the cross-checked ``shared/data``; see ``companion/data/README.md``).

Stable ids
----------
* A development card's id is its level, its bonus letter and its rank among
  the cards of that level and bonus in the CSV's row order, counted from 1:
  ``1w1`` … ``1w8``, ``2u3``, ``3k4``.  The CSV is never reordered, so ids do
  not change.  Letters are those of :mod:`companion.rules.gems`.
* A noble's id is ``n`` and its row in ``splendor_nobles.csv``: ``n1`` … ``n10``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.rules.errors import NotationError
from companion.rules.gems import COLOURS, Gem, Tokens

LEVELS: tuple[int, int, int] = (1, 2, 3)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A development card: what a player buys for its bonus and points.

    Equality and hashing go by id alone: ids are unique in the catalogue and
    cards are compared in the engine's hottest loops.
    """

    id: str
    level: int
    bonus: Gem
    points: int
    cost: Tokens

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __str__(self) -> str:
        return self.id

    @property
    def colour_letter(self) -> str:
        """The letter of the bonus's gem (the engine contract's ``CardFace``)."""
        return self.bonus.letter

    def describe(self) -> str:
        """Words for the screen: "level 2 red card (2 points) costing 5 black"."""
        pts = f" ({self.points} point{'s' if self.points != 1 else ''})" if self.points else ""
        return f"level {self.level} {self.bonus.label} card{pts} costing {self.cost.describe()}"


@dataclass(frozen=True, slots=True)
class Noble:
    """A noble tile: visits the first player whose bonuses meet its requirement."""

    id: str
    points: int
    requirement: Tokens

    def __str__(self) -> str:
        return self.id

    def describe(self) -> str:
        need = " + ".join(f"{n} {gem.label}" for gem, n in self.requirement.items() if n)
        return f"noble {self.id} ({need})"


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("companion.data").joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


@cache
def cards() -> tuple[Card, ...]:
    """All 90 development cards, in CSV order."""
    result: list[Card] = []
    rank: dict[tuple[int, Gem], int] = {}
    for row in _read_csv("splendor_cards.csv"):
        level = int(row["level"])
        bonus = Gem.from_name(row["bonus"])
        rank[level, bonus] = rank.get((level, bonus), 0) + 1
        cost = Tokens({gem: int(row[gem.label]) for gem in COLOURS})
        card_id = f"{level}{bonus.letter}{rank[level, bonus]}"
        result.append(Card(card_id, level, bonus, int(row["points"]), cost))
    return tuple(result)


@cache
def nobles() -> tuple[Noble, ...]:
    """All 10 nobles, in CSV order."""
    return tuple(
        Noble(f"n{i}", int(row["points"]), Tokens({gem: int(row[gem.label]) for gem in COLOURS}))
        for i, row in enumerate(_read_csv("splendor_nobles.csv"), start=1)
    )


@cache
def _card_index() -> dict[str, Card]:
    return {card.id: card for card in cards()}


@cache
def _noble_index() -> dict[str, Noble]:
    return {noble.id: noble for noble in nobles()}


def card(card_id: str) -> Card:
    """The card with this id; ``NotationError`` if there is none."""
    try:
        return _card_index()[card_id.strip().lower()]
    except KeyError:
        raise NotationError(
            f"'{card_id}' is not a card id (level, bonus letter, rank: e.g. 1w3, 2u1, 3k4)"
        ) from None


def noble(noble_id: str) -> Noble:
    """The noble with this id; ``NotationError`` if there is none."""
    try:
        return _noble_index()[noble_id.strip().lower()]
    except KeyError:
        raise NotationError(f"'{noble_id}' is not a noble id (n1 … n10)") from None


def find_card(card_id: str) -> Card | None:
    """The card with this id, or None (words for a turn name what they can)."""
    return _card_index().get(card_id.strip().lower())


def find_noble(noble_id: str) -> Noble | None:
    """The noble with this id, or None."""
    return _noble_index().get(noble_id.strip().lower())


def cards_of_level(level: int) -> tuple[Card, ...]:
    return tuple(c for c in cards() if c.level == level)
