"""The Splendor Duel components: 67 jewel cards and 4 royal cards.

The catalogues are ``companion/data/duel_cards.csv`` and ``duel_royals.csv``
(copied unchanged from the cross-checked ``shared/data``; never reordered).

Stable ids
----------
* A jewel card's id is its level, a kind letter and its rank among the cards
  of that level and kind in CSV row order, counted from 1.  The kind letter is
  the bonus colour (``w u g r k``, as :mod:`companion.rules.duel.tokens`),
  ``j`` for the grey joker cards (the "5-Gem"/wild ability) and ``x`` for the
  three grey pure-points cards without a bonus.  Level 1 has ``1w1``…``1w5``
  (and so for each colour), ``1j1``…``1j4`` and ``1x1``; level 2 ``2w1``…``2w4``,
  ``2j1``…``2j3``, ``2x1``; level 3 ``3w1``, ``3w2``, ``3j1``, ``3j2``, ``3x1``.
* A royal card's id is ``r`` and its CSV row: ``r1`` (2 points, steal),
  ``r2`` (2 points, play again), ``r3`` (2 points, privilege), ``r4`` (3 points).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources

from companion.rules.duel.tokens import KINDS, DuelTokens, Token
from companion.rules.errors import NotationError

LEVELS: tuple[int, int, int] = (1, 2, 3)


class Ability(Enum):
    """What a card or royal does when its owner gains it (``duel_board.md`` §6)."""

    AGAIN = "again"
    """Take another turn immediately after this one."""
    TOKEN = "token"
    """Take 1 token of the card's colour from the board, if there is one."""
    PRIVILEGE = "privilege"
    """Take 1 privilege (from the opponent when the supply is empty)."""
    STEAL = "steal"
    """Take 1 gem or pearl (never gold) from the opponent, if they have one."""
    WILD = "wild"
    """Joker: joins one of the owner's colours and takes its colour."""

    @property
    def words(self) -> str:
        return _ABILITY_WORDS[self]


_ABILITY_WORDS = {
    Ability.AGAIN: "play again",
    Ability.TOKEN: "take a token of its colour from the board",
    Ability.PRIVILEGE: "take a privilege",
    Ability.STEAL: "take a gem or pearl from the opponent",
    Ability.WILD: "joker: joins one of your colours",
}


@dataclass(frozen=True, slots=True, eq=False)
class JewelCard:
    """A jewel card.  ``colour`` is ``None`` for the grey joker and points cards.

    Equal and hashed by id (ids are unique): sets of cards are built every
    turn, and hashing every field each time was a measurable cost.
    """

    id: str
    level: int
    colour: Token | None
    bonus: int
    points: int
    crowns: int
    abilities: frozenset[Ability]
    cost: DuelTokens

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JewelCard) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def is_joker(self) -> bool:
        return Ability.WILD in self.abilities

    @property
    def again(self) -> bool:
        return Ability.AGAIN in self.abilities

    @property
    def colour_letter(self) -> str | None:
        """The colour's letter; ``None`` for a grey card or a joker not yet played
        (the engine contract's ``CardFace``)."""
        return self.colour.letter if self.colour is not None else None

    def __str__(self) -> str:
        return self.id

    def describe(self) -> str:
        """Words for the screen: "level 2 red card 2r1 (1 point, 2 bonuses) costing …"."""
        if self.is_joker:
            kind = "joker"
        elif self.colour is None:
            kind = "grey"
        else:
            kind = self.colour.label
        bits = []
        if self.points:
            bits.append(f"{self.points} point{'s' if self.points != 1 else ''}")
        if self.crowns:
            bits.append(f"{self.crowns} crown{'s' if self.crowns != 1 else ''}")
        if self.bonus == 2:
            bits.append("2 bonuses")
        extra = f" ({', '.join(bits)})" if bits else ""
        return f"level {self.level} {kind} card {self.id}{extra} costing {self.cost.describe()}"


@dataclass(frozen=True, slots=True)
class Royal:
    """A royal card, taken on reaching 3 and 6 crowns."""

    id: str
    points: int
    ability: Ability | None

    def __str__(self) -> str:
        return self.id

    def describe(self) -> str:
        what = f", {self.ability.words}" if self.ability else ""
        return f"royal {self.id} ({self.points} points{what})"


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("companion.data").joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def _abilities(text: str) -> frozenset[Ability]:
    if text == "none":
        return frozenset()
    return frozenset(Ability(part) for part in text.split("+"))


@cache
def cards() -> tuple[JewelCard, ...]:
    """All 67 jewel cards, in CSV order."""
    result: list[JewelCard] = []
    rank: dict[tuple[int, str], int] = {}
    for row in _read_csv("duel_cards.csv"):
        level = int(row["level"])
        name = row["colour"]
        colour = None if name in ("joker", "none") else Token.from_name(name)
        letter = colour.letter if colour else ("j" if name == "joker" else "x")
        rank[level, letter] = rank.get((level, letter), 0) + 1
        cost = DuelTokens({kind: int(row[f"cost_{kind.label}"]) for kind in KINDS[:6]})
        result.append(
            JewelCard(
                id=f"{level}{letter}{rank[level, letter]}",
                level=level,
                colour=colour,
                bonus=int(row["bonus_count"]),
                points=int(row["points"]),
                crowns=int(row["crowns"]),
                abilities=_abilities(row["ability"]),
                cost=cost,
            )
        )
    return tuple(result)


@cache
def royals() -> tuple[Royal, ...]:
    """The 4 royal cards, in CSV order."""
    return tuple(
        Royal(f"r{i}", int(row["points"]), _royal_ability(row["ability"]))
        for i, row in enumerate(_read_csv("duel_royals.csv"), start=1)
    )


def _royal_ability(text: str) -> Ability | None:
    return None if text == "none" else Ability(text)


@cache
def _card_index() -> dict[str, JewelCard]:
    return {c.id: c for c in cards()}


@cache
def _royal_index() -> dict[str, Royal]:
    return {r.id: r for r in royals()}


def card(card_id: str) -> JewelCard:
    """The jewel card with this id; ``NotationError`` if there is none."""
    try:
        return _card_index()[card_id.strip().lower()]
    except KeyError:
        raise NotationError(
            f"'{card_id}' is not a Duel card id (level, kind letter w u g r k j x, rank:"
            " e.g. 1w3, 2j1, 3x1)"
        ) from None


def royal(royal_id: str) -> Royal:
    """The royal card with this id; ``NotationError`` if there is none."""
    try:
        return _royal_index()[royal_id.strip().lower()]
    except KeyError:
        raise NotationError(f"'{royal_id}' is not a royal card id (r1 … r4)") from None


@cache
def cards_of_level(level: int) -> tuple[JewelCard, ...]:
    return tuple(c for c in cards() if c.level == level)
