"""The computer seat's mind: the analysis search choosing a turn at a strength level.

A computer player at the physical table uses the same determinised search
as the after-game analysis (:mod:`.splendor.search` for Splendor, :mod:`.duel.search`
for Duel); what changes with the level is only how many playouts it spends
per turn (:data:`LEVELS`).  The position it searches is the referee's state,
which holds what any player at that seat may know and nothing more: the
market and pyramid, every player's tokens and cards, the reserves seen face
up; never the decks' order (the table shuffles by hand, so the engine never
had it) nor another player's blind reserve (those are sampled).

Decisions where issue 39 was silent:

* A computer seat never reserves blind from a deck.  Its card would have to
  be shown to the companion and kept hidden from the person moving the
  computer's pieces, which the table cannot do; the hint may still name a
  blind reserve, since a person holds their own cards.
* In Duel the computer never spends privileges and replenishes only when it
  must (the search's candidates, :func:`.duel.search.candidates`): a
  replenish is a draw from the bag that nobody can know before it is made.
  When nothing can be done without a replenish, :func:`duel_choice` gives
  None and the players enter that turn for the computer with the buttons.
* The win chances a hint names are the search's means for the options that
  lasted longest in sequential halving (at most three), so they rest on
  the most playouts the search spent.

Everything is seeded by the caller: the same position, level and seed give
the same turn, so games against the computer are repeatable in tests.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from companion.analysis.duel import search as duel_search
from companion.analysis.halving import halving
from companion.analysis.splendor import search
from companion.rules.duel import state as duel
from companion.rules.duel.turns import Turn as DuelTurn
from companion.rules.fast.duel import tables as duel_tables
from companion.rules.fast.duel.convert import to_turn
from companion.rules.fast.duel.state import play_move
from companion.rules.fast.splendor import tables as splendor_tables
from companion.rules.gems import Tokens
from companion.rules.splendor import state as splendor
from companion.rules.splendor.actions import Turn as SplendorTurn

T = TypeVar("T")


@dataclass(frozen=True)
class Level:
    """A strength: the playouts the search spends on one turn, per game.

    ``budget`` 1 gives each candidate one playout per halving round: a
    player that mostly sees the obvious.  A Duel playout costs about 2.5
    times a Splendor one, so Duel gets fewer.  The budgets were chosen so
    that level 3 answers within 2 s and level 5 within 10 s on the Pi 4
    estimate's slow end (``tests/bench/bench_seat.py`` measures both, and
    the win rates that say each level beats the one below).
    """

    number: int
    budget: int
    duel_budget: int
    words: str


LEVELS: dict[int, Level] = {
    1: Level(1, 1, 1, "beginner: one playout per option"),
    2: Level(2, 40, 20, "casual: a quick look ahead"),
    3: Level(3, 200, 100, "club: the default"),
    4: Level(4, 600, 250, "strong"),
    5: Level(5, 1500, 600, "full search"),
}
DEFAULT_LEVEL = 3
#: The level whose search a hint uses: the default's, so a hint is as quick.
HINT_LEVEL = DEFAULT_LEVEL
#: Playouts that estimate the chance of a turn that had no rival.
LONE_PLAYOUTS = 24
#: At most this many options are named with their win chances.
NAMED_OPTIONS = 3


@dataclass(frozen=True)
class Option(Generic[T]):
    """A turn the search compared, its win chance for the mover and the playouts behind it."""

    turn: T
    chance: float
    playouts: int


@dataclass(frozen=True)
class Choice(Generic[T]):
    """The search's turn (without the card revealed: that comes from the table),
    ``example`` the same turn with a revealed card the search sampled (to say what
    follows, such as a Duel "play again"), and the best ``options`` (at most three)."""

    turn: T
    example: T
    options: tuple[Option[T], ...]
    playouts: int


# ------------------------------------------------------------------ Splendor
def splendor_choice(state: splendor.GameState, budget: int, seed: int,
                    blind: bool = False) -> Choice[SplendorTurn]:
    """The turn the search plays in ``state`` (``blind``: reserving from a deck allowed)."""
    sampler = search.Sampler(state)
    pool = search.candidates(state, sampler.base)
    if not blind:
        kept = [t for t in pool
                if not splendor_tables.RESERVE_DECK <= t[0] < splendor_tables.BUY]
        pool = kept or pool
    ranking, spent = halving(pool, lambda t, s: search._run(sampler, t, s), state.current,
                             budget, seed, LONE_PLAYOUTS)
    options = tuple(Option(_splendor_turn(state, t), mean, n)
                    for t, mean, n in ranking[:NAMED_OPTIONS])
    best = options[0].turn
    return Choice(best, best, options, spent)


def _splendor_turn(state: splendor.GameState, fast: search.FastTurn) -> SplendorTurn:
    action = search.readable_action(state, fast)
    returned = Tokens(fast[2]) if fast[2] is not None else Tokens()
    noble = splendor_tables.NOBLE_ID[fast[3]] if fast[3] >= 0 else None
    return SplendorTurn(action, None, returned, noble)


# ---------------------------------------------------------------------- Duel
def duel_choice(state: duel.GameState, budget: int, seed: int,
                blind: bool = False) -> Choice[DuelTurn] | None:
    """The turn the search plays in ``state``, or None when every turn needs a replenish."""
    sampler = duel_search.DuelSampler(state)
    base = sampler.base
    pool = duel_search.candidates(base, None)
    if not blind:
        pool = [m for m in pool
                if not duel_tables.RESERVE_DECK <= m[2] < duel_tables.BUY] or pool
    if not pool:
        return None
    ranking, spent = halving(pool, lambda m, s: duel_search._run(sampler, m, s),
                             state.current, budget, seed, LONE_PLAYOUTS)
    options: list[Option[DuelTurn]] = []
    example: DuelTurn | None = None
    for move, mean, n in ranking[:NAMED_OPTIONS]:
        probe = base.copy()
        revealed = play_move(probe, move, random.Random(seed))
        full = to_turn(base, move, revealed)
        example = example or full
        options.append(Option(replace(full, reveal=None), mean, n))
    assert example is not None
    return Choice(options[0].turn, example, tuple(options), spent)


__all__ = ["DEFAULT_LEVEL", "HINT_LEVEL", "LEVELS", "Choice", "Level", "Option",
           "duel_choice", "halving", "splendor_choice"]
