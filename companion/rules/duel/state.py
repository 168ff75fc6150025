"""The Splendor Duel game state: an immutable value, one turn at a time.

``state.apply(turn)`` checks a whole :class:`~companion.rules.duel.turns.Turn`
against the rules and returns the next state, or raises
:class:`~companion.rules.errors.IllegalAction` whose message names the broken
rule with its numbers.  Undo is keeping the previous value.

Where every token is: on the ``board`` (25 cells), in the ``bag`` (spent,
returned and not yet replenished tokens) or held by a player.  The 3
privileges are in the ``privileges`` supply above the board or held.

The engine never owns the deck order or the bag draw: a card that refills the
pyramid and the tokens a replenish places are *reveals* carried by the turn
(from the camera, a player, or a seeded :class:`~companion.rules.duel.simulate.DuelDeck`).
A card reserved blind is a :class:`Hidden` placeholder until it is bought.

Decisions where the rulebook is silent:

* The players are seated in turn order: ``players[0]`` moves first and
  ``players[1]`` starts with the privilege the rulebook gives "their opponent".
* A "token" or "steal" ability that has something to take must take it (the
  rulebook says "take", and only "if there are no such tokens, ignore").
* When a player could do no mandatory action, a turn without a replenish is
  refused with the forced-replenish rule, whatever action it names.
* A player cannot be left without any legal turn at the start of a turn: both
  players hold at most 10 tokens, so at least 2 of the 22 gems and pearls are
  on the board or in the bag, and either can be taken or the bag replenished.
  There is therefore no "pass" in Duel.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import CELLS, SPIRAL
from companion.rules.duel.cards import LEVELS, JewelCard, Royal
from companion.rules.duel.outcome import Outcome
from companion.rules.duel.tokens import COLOURS, DuelTokens, Token
from companion.rules.errors import SetupError
from companion.rules.hidden import Hidden as Hidden  # re-exported: callers import it from here

if TYPE_CHECKING:
    from companion.rules.duel.turns import Action, Turn

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
class GameState:
    """A Duel position between turns.

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

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(
        cls,
        names: Sequence[str],
        board: str | Sequence[Token],
        pyramid: Sequence[Sequence[str]],
    ) -> GameState:
        """Set a game up as the rulebook does, from what lies on the table.

        ``names``: the two players, the first player first.  ``board``: the
        25 tokens as placed along the spiral from the centre (a string of
        letters such as ``"wukp..."``, or tokens).  ``pyramid``: the ids of the
        5 level-1, 4 level-2 and 3 level-3 face-up cards (in that order).
        """
        if len(names) != 2:
            raise SetupError(f"Splendor Duel is for 2 players, not {len(names)}")
        if len({n.strip() for n in names}) != 2 or any(not n.strip() for n in names):
            raise SetupError("the two players need different, non-empty names")
        if isinstance(board, str):
            kinds = tuple(Token.from_letter(t) for t in board)
        else:
            kinds = tuple(board)
        if len(kinds) != len(CELLS) or DuelTokens.of(*kinds) != ALL_TOKENS:
            raise SetupError(
                f"the board starts with all 25 tokens ({ALL_TOKENS.describe()}),"
                f" not {DuelTokens.of(*kinds).describe()}"
            )
        cells: list[Token | None] = [None] * len(CELLS)
        for cell, kind in zip(SPIRAL, kinds, strict=True):
            cells[cell] = kind
        if len(pyramid) != 3:
            raise SetupError(f"the pyramid has 3 rows (levels 1-3), not {len(pyramid)}")
        rows: list[tuple[JewelCard | None, ...]] = []
        for level, ids in zip(LEVELS, pyramid, strict=True):
            row = tuple(catalogue.card(i) for i in ids)
            if len(row) != PYRAMID_WIDTH[level]:
                raise SetupError(
                    f"the pyramid shows {PYRAMID_WIDTH[level]} level-{level} cards, not {len(row)}"
                )
            wrong = [c.id for c in row if c.level != level]
            if wrong:
                raise SetupError(f"{', '.join(wrong)} is not a level {level} card")
            rows.append(row)
        shown = [c for row in rows for c in row]
        if len(set(shown)) != len(shown):
            raise SetupError("the same card is shown twice in the pyramid")
        return cls(
            players=(Player(names[0].strip()), Player(names[1].strip(), privileges=1)),
            board=tuple(cells),
            bag=DuelTokens(),
            privileges=PRIVILEGES - 1,
            pyramid=tuple(rows),
            decks=(
                DECK_SIZES[1] - PYRAMID_WIDTH[1],
                DECK_SIZES[2] - PYRAMID_WIDTH[2],
                DECK_SIZES[3] - PYRAMID_WIDTH[3],
            ),
            royals=catalogue.royals(),
        )

    # -------------------------------------------------------------- questions
    @property
    def player(self) -> Player:
        """The player to move."""
        return self.players[self.current]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.current]

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

    # --------------------------------------------------------------- playing
    def apply(self, turn: Turn) -> GameState:
        """Play a whole turn and return the next state (this one is unchanged)."""
        from companion.rules.duel.table import play_turn  # table imports this module

        return play_turn(self, turn)

    def legal_actions(self) -> list[Action]:
        """Every mandatory action possible now, before any optional action.

        A purchase is listed once with its cheapest payment and no ability
        choice; :class:`~companion.rules.duel.planner.TurnPlanner` completes
        turns step by step (privileges, replenish, payment, choices, royals,
        returns).  Empty exactly when the board must be replenished first.
        """
        from companion.rules.duel.planner import TurnPlanner

        return TurnPlanner(self).actions()

    def payments(self, card: JewelCard | str) -> list[DuelTokens]:
        """Every exact payment the player to move can make for ``card``, least gold first."""
        from companion.rules.duel.planner import payments

        if isinstance(card, str):
            card = catalogue.card(card)
        return payments(self.price(card), self.player.tokens)

    def describe_turn(self, turn: Turn) -> str:
        from companion.rules.duel.words import describe_turn

        return describe_turn(self, turn)

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


def spiral_text(state: GameState) -> str:
    """The board's tokens read along the spiral (``.`` for empty): a setup header."""
    return "".join(_letter(state.board[c]) for c in SPIRAL)


def _letter(kind: Token | None) -> str:
    return kind.letter if kind is not None else "."
