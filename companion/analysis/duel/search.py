"""Win chances of a Duel position by search: Splendor's method on the fast Duel engine.

The same determinised flat Monte Carlo with sequential halving as
:mod:`.search`: each playout first samples what the table cannot see (the
deck order and the cards reserved blind, :class:`DuelSampler`; the bag's
drawing order at every replenish), then finishes the game with the Duel
playout player (:mod:`.playout`).  The best and the played turn are
compared on the same fresh samples (common random numbers).

A Duel turn has more parts than a Splendor one.  The candidates are the
mandatory actions the mover can see (takes of a whole line — a shorter run
inside a longer takeable line is left out —, reserves with the first gold
cell, purchases), each completed by the playout player's choices (joker
colour, token cell, steal, royal, returns); privileges are not spent.  When
the turn played replenished the board, the candidates replenish with the
same draw, since the mover chose the action after seeing it.  The turn
played is always compared as it was played, privileges included.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.analysis.duel.playout import (
    best_royal,
    choices,
    choose_return,
    playout,
    target_need,
)
from companion.analysis.halving import draw_seed as _seed
from companion.analysis.halving import halving
from companion.analysis.unseen import Estimate, Redealer, chance_lost
from companion.rules.duel import cards as catalogue
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Buy, Turn
from companion.rules.fast.duel.convert import determinise, from_turn, to_turn
from companion.rules.fast.duel.state import DuelState, Move, play_move
from companion.rules.fast.duel.tables import (
    BUY,
    CARD_INDEX,
    CARD_LEVEL,
    LINE_MASK,
)
from companion.rules.hidden import Hidden

#: Share of a position's playouts spent finding the best turn; the rest
#: compares it with the turn played.  Chosen, not tuned (Splendor's value).
SEARCH_SHARE = 0.5


class DuelSampler(Redealer[DuelState]):
    """Determinisations of one table position: every unseen card placed at random.

    ``known`` pins cards behind the mover's blind reserves that the analyst
    knows (the one the turn buys).
    """

    def __init__(self, state: GameState, known: Sequence[str] = ()) -> None:
        super().__init__(determinise(state, random.Random(0), {state.current: list(known)}),
                         state.current, known, CARD_INDEX, CARD_LEVEL)


@dataclass(frozen=True)
class DuelReview:
    """The search's verdict on one Duel turn: the best turn as notation, both estimates."""

    mover: int
    best: Turn
    best_move: Move
    best_estimate: Estimate
    played_estimate: Estimate

    @property
    def loss(self) -> float:
        """Win chance the mover gave up by the turn played, 0..1 (never negative)."""
        return chance_lost(self.mover, self.best_estimate, self.played_estimate)


def _maximal_takes(s: DuelState) -> list[int]:
    """Takes not contained in a longer takeable line (taking fewer is rarely better)."""
    takes = s.takes()
    masks = [LINE_MASK[a] for a in takes]
    return [a for a, m in zip(takes, masks, strict=True)
            if not any(o != m and o & m == m for o in masks)]


def _complete(s: DuelState, privileges: tuple[int, ...], draw: tuple[int, ...] | None,
              action: int, gold: int, payment: tuple[int, ...] | None) -> Move:
    """A move with the playout player's choices, found by playing it on a copy."""
    probe = s.copy()
    joker = token = steal = -1
    if action >= BUY:
        joker, token, steal = choices(probe, action)
        if payment is None:
            payment = probe.simplest_payment(action - BUY)
    probe.act(action, gold, payment, joker, token, steal)
    royals = []
    while probe.due:
        pick = best_royal(probe)
        probe.take_royal(*pick)
        royals.append(pick)
    returned = None
    if probe.to_return():
        returned = choose_return(probe.return_options(), target_need(probe))
    return (privileges, draw, action, gold, payment, joker, token, steal, tuple(royals),
            returned)


def candidates(base: DuelState, draw: tuple[int, ...] | None,
               own: Sequence[str] = (), privileges: tuple[int, ...] = ()) -> list[Move]:
    """The mover's turns worth comparing (see the module docstring).

    ``draw``: the replenish to play first (None: none).  ``own`` names the
    mover's blind reserves it knows; only those of its blind cards are bought.
    ``privileges``: the cells the mover's privileges take first (a computer
    seat's level 5 spends them, :mod:`companion.analysis.seat`).
    """
    s = base.copy()
    for cell in privileges:
        s.use_privilege(cell)
    if draw is not None:
        s.replenish(draw)
    p = s.current
    known = {CARD_INDEX[c] for c in own}
    buys = [a for a in s.buys()
            if not (a - BUY in s.reserved[p]
                    and s.blind[p][s.reserved[p].index(a - BUY)]
                    and a - BUY not in known)]
    golds = s.gold_cells()
    reserves = s.reserves()
    moves = [_complete(s, privileges, draw, a, -1, None) for a in _maximal_takes(s)]
    moves += [_complete(s, privileges, draw, a, golds[0], None) for a in reserves]
    moves += [_complete(s, privileges, draw, a, -1, None) for a in buys]
    return moves


def _run(sampler: DuelSampler, move: Move, seed: int) -> list[float]:
    rng = random.Random(seed)
    s = sampler.sample(rng)
    play_move(s, move, rng)
    return playout(s, rng)


def _mean(results: Sequence[Sequence[float]]) -> tuple[float, ...]:
    return tuple(sum(r[p] for r in results) / len(results) for p in (0, 1))


def best_move(mover: int, pool: list[Move], sampler: DuelSampler, budget: int,
              seed: int) -> Move:
    """Sequential halving over ``pool`` with ``budget`` playouts; the winner."""
    alive = list(pool)
    if len(alive) == 1:
        return alive[0]
    ranking, _ = halving(alive, lambda t, draw: _run(sampler, t, draw), mover, budget, seed)
    return ranking[0][0]


def _known_purchase(state: GameState, played: Turn) -> list[str]:
    """The card a played purchase took from a blind reserve, if it did (now known)."""
    a = played.action
    if not isinstance(a, Buy):
        return []
    card = catalogue.card(a.card)
    held = state.player.reserved
    if Hidden(card.level) in held and state.find_in_pyramid(card.id) is None \
            and card not in held:
        return [card.id]
    return []


def review_turn(state: GameState, played: Turn, budget: int, seed: int) -> DuelReview:
    """Find the best turn in ``state`` and compare it with ``played`` (``budget`` playouts)."""
    sampler = DuelSampler(state, _known_purchase(state, played))
    base = sampler.base
    played_move = from_turn(base, played)
    draw = played_move[1]
    pool = candidates(base, draw) or [played_move]
    search = int(budget * SEARCH_SHARE)
    best = best_move(state.current, pool, sampler, search, seed)
    final = max(2, budget - search)
    words = to_turn(base, best)
    if played_move == best:
        runs = [_run(sampler, best, _seed(seed, 999, k)) for k in range(final)]
        est = Estimate(_mean(runs), final)
        return DuelReview(state.current, words, best, est, est)
    half = max(1, final // 2)
    best_runs, played_runs = [], []
    for k in range(half):
        draw_seed = _seed(seed, 999, k)
        best_runs.append(_run(sampler, best, draw_seed))
        played_runs.append(_run(sampler, played_move, draw_seed))
    return DuelReview(state.current, words, best, Estimate(_mean(best_runs), half),
                      Estimate(_mean(played_runs), half))

