"""A Duel position as a value: the table between turns and the questions asked of it.

:class:`Position` holds where every token, card, privilege and royal is and
answers questions about it (whose turn, prices, digest); it cannot play.
:class:`~companion.rules.duel.state.GameState` is the same value with its
moves (``apply``, ``legal_actions``, ``describe_turn``), which run the
resolution code in :mod:`~companion.rules.duel.table`,
:mod:`~companion.rules.duel.planner` and :mod:`~companion.rules.duel.words`.

Why two layers: those modules read positions and build the next one, and
the state calls them; with one class the two sides imported each other at
call time.  Now the imports point one way only::

    tokens, board, cards, outcome  <-  position  <-  table  <-  planner, words  <-  state

The resolution code builds the next position with :func:`dataclasses.replace`,
which keeps the class it was given, so a ``GameState`` always leads to a
``GameState``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import CELLS
from companion.rules.duel.cards import LEVELS, JewelCard, Royal
from companion.rules.duel.outcome import Outcome
from companion.rules.duel.tokens import COLOURS, DuelTokens, Token
from companion.rules.hidden import Hidden

#: Immediate wins (the Victory tile).
WIN_POINTS = 20
WIN_CROWNS = 10
WIN_COLOUR_POINTS = 10
#: Most tokens held at the end of a turn.
TOKEN_LIMIT = 10
#: Most reserved cards.
RESERVE_LIMIT = 3
#: Privilege scrolls in the game.
PRIVILEGES = 3
#: A royal card is taken on reaching each of these crown counts.
ROYAL_CROWNS = (3, 6)
#: Face-up pyramid cards per level.
PYRAMID_WIDTH = {1: 5, 2: 4, 3: 3}
#: The 25 tokens: 4 of each gem, 2 pearls, 3 gold.
ALL_TOKENS = DuelTokens((4, 4, 4, 4, 4, 2, 3))
DECK_SIZES = {level: len(catalogue.cards_of_level(level)) for level in LEVELS}


Reserved = JewelCard | Hidden


@dataclass(frozen=True, slots=True)
class Owned:
    """A purchased card and the colour it counts as (a joker: the colour it joined)."""

    card: JewelCard
    colour: Token | None

    def __str__(self) -> str:
        if self.card.is_joker and self.colour is not None:
            return f"{self.card.id}={self.colour.letter}"
        return self.card.id


@dataclass(frozen=True)
class Player:
    """What one player has in front of them."""

    name: str
    tokens: DuelTokens = field(default_factory=DuelTokens)
    privileges: int = 0
    cards: tuple[Owned, ...] = ()
    reserved: tuple[Reserved, ...] = ()
    royals: tuple[Royal, ...] = ()

    @cached_property
    def bonuses(self) -> tuple[int, int, int, int, int]:
        """Discount per gem colour (w u g r k); double-bonus cards count twice."""
        counts = [0] * 5
        for owned in self.cards:
            if owned.colour is not None:
                counts[owned.colour.index] += owned.card.bonus
        return (counts[0], counts[1], counts[2], counts[3], counts[4])

    @cached_property
    def points(self) -> int:
        return sum(o.card.points for o in self.cards) + sum(r.points for r in self.royals)

    @cached_property
    def crowns(self) -> int:
        return sum(o.card.crowns for o in self.cards)

    @property
    def honours(self) -> tuple[Royal, ...]:
        """The royal cards, by the engine contract's name (:mod:`companion.rules.contract`)."""
        return self.royals

    def colour_points(self, colour: Token) -> int:
        """Prestige points on this player's cards of one colour (jokers count as joined)."""
        return sum(o.card.points for o in self.cards if o.colour is colour)

    def best_colour(self) -> tuple[Token, int]:
        """The colour with the most points on cards, and those points."""
        return max(((c, self.colour_points(c)) for c in COLOURS), key=lambda cp: cp[1])


def _ordinal_name(index: int) -> str:
    return f"Player {index + 1}"


def player_names(count: int = 2) -> tuple[str, ...]:
    return tuple(_ordinal_name(i) for i in range(count))


@dataclass(frozen=True)
class Position:
    """A Duel position between turns (see :class:`~companion.rules.duel.state.GameState`).

    ``board[cell]`` is the token on a cell or ``None`` (cells: see
    :mod:`companion.rules.duel.board`); ``pyramid[level - 1][slot]`` a face-up
    card or ``None`` once that deck ran out; ``decks[level - 1]`` the cards
    left face down; ``privileges`` the scrolls above the board; ``royals`` the
    royal cards still available.  ``turn`` counts turns played; ``current`` is
    the player to move (the same player again after a "play again").
    ``result`` is set when a turn ends with a victory condition met.
    """

    players: tuple[Player, Player]
    board: tuple[Token | None, ...]
    bag: DuelTokens
    privileges: int
    pyramid: tuple[tuple[JewelCard | None, ...], ...]
    decks: tuple[int, int, int]
    royals: tuple[Royal, ...]
    current: int = 0
    turn: int = 0
    result: Outcome | None = None

    # -------------------------------------------------------------- questions
    @property
    def player(self) -> Player:
        """The player to move."""
        return self.players[self.current]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.current]

    @property
    def round(self) -> int:
        """The round being played, from 1: two turns a round, a "play again" included."""
        return self.turn // len(self.players) + 1

    @property
    def honours(self) -> tuple[Royal, ...]:
        """The royal cards still available, by the engine contract's name."""
        return self.royals

    def is_over(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None`` (as python-chess)."""
        return self.result

    def board_tokens(self) -> DuelTokens:
        return DuelTokens.of(*(t for t in self.board if t is not None))

    def cells_holding(self, kind: Token) -> tuple[int, ...]:
        return tuple(c for c in CELLS if self.board[c] is kind)

    def pyramid_cards(self) -> Iterator[JewelCard]:
        for row in self.pyramid:
            yield from (c for c in row if c is not None)

    def seen_cards(self) -> set[JewelCard]:
        """Cards visible to the table: pyramid, purchases, reserves known by id."""
        seen = set(self.pyramid_cards())
        for p in self.players:
            seen.update(o.card for o in p.cards)
            seen.update(c for c in p.reserved if isinstance(c, JewelCard))
        return seen

    def unseen(self, level: int) -> frozenset[JewelCard]:
        """Cards of ``level`` not visible: in the deck or reserved blind."""
        seen = self.seen_cards()
        return frozenset(c for c in catalogue.cards_of_level(level) if c not in seen)

    def find_in_pyramid(self, card_id: str) -> tuple[int, int] | None:
        """(level - 1, slot) of a face-up card, or ``None``."""
        for r, row in enumerate(self.pyramid):
            for s, c in enumerate(row):
                if c is not None and c.id == card_id:
                    return r, s
        return None

    def price(self, card: JewelCard, player: Player | None = None) -> DuelTokens:
        """What ``card`` costs after bonuses (pearls are never discounted)."""
        bonuses = (player or self.player).bonuses
        cost = card.cost.counts
        return DuelTokens(
            (*(max(cost[i] - bonuses[i], 0) for i in range(5)), cost[5], 0)
        )

    # ----------------------------------------------------------------- text
    def to_text(self) -> str:
        """A canonical, human-readable dump of the state (used for hashing and tests)."""
        board = "/".join(
            "".join(t.letter if t else "." for t in self.board[r * 5 : r * 5 + 5])
            for r in range(5)
        )
        lines = [
            f"turn {self.turn} current {self.current}"
            f" result {self.result.winner if self.result else '-'}",
            f"board {board} bag {self.bag} privileges {self.privileges}",
            f"royals {' '.join(r.id for r in self.royals) or '-'}",
        ]
        for level, row, deck in zip(LEVELS, self.pyramid, self.decks, strict=True):
            shown = " ".join(c.id if c else "-" for c in row)
            lines.append(f"pyramid{level} {shown} deck {deck}")
        for p in self.players:
            lines.append(
                f"player {p.name}: tokens {p.tokens} privileges {p.privileges}"
                f" cards {' '.join(str(o) for o in p.cards) or '-'}"
                f" reserved {' '.join(str(c) for c in p.reserved) or '-'}"
                f" royals {' '.join(r.id for r in p.royals) or '-'}"
            )
        return "\n".join(lines)

    def digest(self) -> str:
        """A short hash of everything the rules see: records store it after each turn."""
        return hashlib.sha256(self.to_text().encode()).hexdigest()[:16]

    def token_census(self) -> DuelTokens:
        """Every token of the game wherever it is: always :data:`ALL_TOKENS`."""
        return self.board_tokens() + self.bag + self.players[0].tokens + self.players[1].tokens

    def board_text(self) -> str:
        """The board as 5 lines, rank 5 at the top (``.`` for an empty cell)."""
        lines = []
        for r in range(5):
            row = " ".join(t.letter if t else "." for t in self.board[r * 5 : r * 5 + 5])
            lines.append(f"{5 - r} {row}")
        lines.append("  a b c d e")
        return "\n".join(lines)
