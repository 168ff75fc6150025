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

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules import contract
from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import CELLS, SPIRAL
from companion.rules.duel.cards import LEVELS, JewelCard
from companion.rules.duel.planner import TurnPlanner, payments
from companion.rules.duel.position import (
    ALL_TOKENS,
    DECK_SIZES,
    PRIVILEGES,
    PYRAMID_WIDTH,
    RESERVE_LIMIT,
    ROYAL_CROWNS,
    TOKEN_LIMIT,
    WIN_COLOUR_POINTS,
    WIN_CROWNS,
    WIN_POINTS,
    Owned,
    Player,
    Position,
    Reserved,
    player_names,
)
from companion.rules.duel.table import play_turn
from companion.rules.duel.tokens import DuelTokens, Token
from companion.rules.duel.turns import Action, Turn
from companion.rules.duel.words import describe_turn
from companion.rules.errors import SetupError
from companion.rules.hidden import Hidden

# Re-exported: callers import the position's parts from here, beside the state.
__all__ = [
    "ALL_TOKENS",
    "DECK_SIZES",
    "PRIVILEGES",
    "PYRAMID_WIDTH",
    "RESERVE_LIMIT",
    "ROYAL_CROWNS",
    "TOKEN_LIMIT",
    "WIN_COLOUR_POINTS",
    "WIN_CROWNS",
    "WIN_POINTS",
    "GameState",
    "Hidden",
    "Owned",
    "Player",
    "Reserved",
    "player_names",
    "spiral_text",
]


@dataclass(frozen=True)
class GameState(Position):
    """A Duel position that can be played: the value the rest of the project holds.

    The fields and questions are :class:`~companion.rules.duel.position.Position`'s;
    this class adds the set-up and the moves, which run the resolution code
    of :mod:`~companion.rules.duel.table` and :mod:`~companion.rules.duel.planner`.
    """

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


    # --------------------------------------------------------------- playing
    def apply(self, turn: Turn) -> GameState:
        """Play a whole turn and return the next state (this one is unchanged)."""
        return play_turn(self, turn)

    def legal_actions(self) -> list[Action]:
        """Every mandatory action possible now, before any optional action.

        A purchase is listed once with its cheapest payment and no ability
        choice; :class:`~companion.rules.duel.planner.TurnPlanner` completes
        turns step by step (privileges, replenish, payment, choices, royals,
        returns).  Empty exactly when the board must be replenished first.
        """
        return TurnPlanner(self).actions()

    def payments(self, card: JewelCard | str) -> list[DuelTokens]:
        """Every exact payment the player to move can make for ``card``, least gold first."""
        if isinstance(card, str):
            card = catalogue.card(card)
        return payments(self.price(card), self.player.tokens)

    def describe_turn(self, turn: Turn) -> str:
        return describe_turn(self, turn)


def spiral_text(state: GameState) -> str:
    """The board's tokens read along the spiral (``.`` for empty): a setup header."""
    return "".join(_letter(state.board[c]) for c in SPIRAL)


def _letter(kind: Token | None) -> str:
    return kind.letter if kind is not None else "."


#: The state implements the engine contract (:mod:`companion.rules.contract`):
#: checked by mypy here, where a missing or mistyped member would show.
_CONTRACT: type[contract.Position] = GameState
