"""Win chances by search: determinised flat Monte Carlo with sequential halving.

Why this search: a position on a real table hides the deck order and the
cards reserved blind, so each playout first *determinises* it (samples the
unseen cards, :class:`Sampler`), then finishes the game with the playout
player (:mod:`.playout`).  At the root every candidate turn of the mover is
tried; sequential halving (Karnin et al. 2013) spends the playouts on the
candidates that stay in contention, which finds the best turn with far
fewer playouts than giving each the same share.  The best and the played
turn are then compared on the *same* fresh determinisations and playout
seeds (common random numbers), so the loss of win chance measures the
decision and not the luck of the draw.

Everything is seeded: the same position, budget and seed give the same
figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.analysis.halving import draw_seed as _seed
from companion.analysis.halving import halving
from companion.analysis.splendor.playout import choose_return, playout, target_need
from companion.analysis.unseen import Estimate, Redealer, chance_lost
from companion.rules.fast.splendor.convert import determinise, from_turn
from companion.rules.fast.splendor.state import FastState
from companion.rules.fast.splendor.tables import (
    BUY,
    CARD_ID,
    CARD_INDEX,
    CARD_LEVEL,
    PASS,
    RESERVE_DECK,
    RESERVE_SLOT,
    TAKES,
)
from companion.rules.gems import Tokens
from companion.rules.hidden import Hidden
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.catalogue import card as catalogue_card
from companion.rules.splendor.state import GameState

#: Share of a position's playouts spent finding the best turn; the rest
#: compares it with the turn played (150 paired playouts each at 600, a
#: standard error of 4 points or less).  Chosen, not tuned.
SEARCH_SHARE = 0.5

FastTurn = tuple[int, tuple[int, ...] | None, tuple[int, ...] | None, int]


class Sampler(Redealer[FastState]):
    """Determinisations of one table position: every unseen card placed at random.

    Built once per position (finding the unseen cards is the slow part);
    :meth:`sample` then only shuffles.  ``known`` pins cards behind the
    mover's blind reserves that the analyst knows (the one the turn buys).
    """

    def __init__(self, state: GameState, known: Sequence[str] = ()) -> None:
        super().__init__(determinise(state, random.Random(0), {state.current: list(known)}),
                         state.current, known, CARD_INDEX, CARD_LEVEL)


@dataclass(frozen=True)
class PositionReview:
    """The search's verdict on one turn of a game."""

    mover: int
    best: Action
    best_turn: FastTurn
    best_estimate: Estimate
    played_estimate: Estimate

    @property
    def loss(self) -> float:
        """Win chance the mover gave up by the turn played, 0..1 (never negative)."""
        return chance_lost(self.mover, self.best_estimate, self.played_estimate)


def readable_action(state: GameState, turn: FastTurn) -> Action:
    """The readable main action of a fast candidate (the mover sees the same market)."""
    action, payment, _, _ = turn
    if action < RESERVE_SLOT:
        return Take(Tokens(TAKES[action]))
    if action < RESERVE_DECK:
        row, slot = divmod(action - RESERVE_SLOT, 4)
        card = state.market[row][slot]
        assert card is not None
        return ReserveCard(card.id)
    if action < BUY:
        return ReserveDeck(action - RESERVE_DECK + 1)
    if action < PASS:
        assert payment is not None
        return Buy(CARD_ID[action - BUY], Tokens(payment))
    return Pass()


def candidates(state: GameState, base: FastState, own: Sequence[str] = ()) -> list[FastTurn]:
    """The mover's turns worth comparing: every legal main action it can see,
    with its simplest payment, the return that keeps the gems it needs and
    the first noble.  Purchases of its own blind reserves are included only
    for the cards in ``own`` (a computer player knows them; the table does
    not, though a turn played that buys one is still compared)."""
    turns: list[FastTurn] = []
    need = target_need(base)
    actions: list[Action] = [a for a in state.legal_actions() if not isinstance(a, Pass)]
    actions += [Buy(c, state.payments(c)[0]) for c in own if state.payments(c)]
    for a in actions or [Pass()]:
        code = from_turn(base, Turn(a))[0]
        payment = base.simplest_payment(code - BUY) if BUY <= code < PASS else None
        returned = None
        if code < BUY:
            options = base.return_options(code)
            if len(options) > 1 or any(options[0]):
                returned = choose_return(options, need)
        nobles = base.qualifying(code)
        turns.append((code, payment, returned, nobles[0] if nobles else -1))
    return turns


def _run(sampler: Sampler, turn: FastTurn, seed: int) -> list[float]:
    rng = random.Random(seed)
    s = sampler.sample(rng)
    s.play(*turn)
    return playout(s, rng)


def _mean(results: Sequence[Sequence[float]], n: int) -> tuple[float, ...]:
    return tuple(sum(r[p] for r in results) / len(results) for p in range(n))


def best_turn(state: GameState, budget: int, seed: int, sampler: Sampler | None = None,
              own: Sequence[str] = ()) -> tuple[FastTurn, list[FastTurn]]:
    """Sequential halving over the candidates with ``budget`` playouts; the winner and all.

    ``own`` names the cards behind the mover's blind reserves when the
    searcher knows them (a computer player): they are pinned and buyable.
    """
    sampler = sampler or Sampler(state, own)
    alive = candidates(state, sampler.base, own)
    pool = list(alive)
    if len(alive) == 1:
        return alive[0], pool
    ranking, _ = halving(alive, lambda t, draw: _run(sampler, t, draw), state.current,
                         budget, seed)
    return ranking[0][0], pool


def review_turn(state: GameState, played: Turn, budget: int, seed: int) -> PositionReview:
    """Find the best turn in ``state`` and compare it with ``played`` (``budget`` playouts)."""
    known = []
    if isinstance(played.action, Buy):
        held = state.player.reserved
        card = catalogue_card(played.action.card)
        if Hidden(card.level) in held and state.find_in_market(card.id) is None \
                and card not in held:
            known.append(card.id)
    sampler = Sampler(state, known)
    search = int(budget * SEARCH_SHARE)
    best, _ = best_turn(state, search, seed, sampler)
    played_fast = from_turn(sampler.base, played)
    final = max(2, budget - search)
    n = sampler.base.n
    if played_fast == best:
        runs = [_run(sampler, best, _seed(seed, 999, k)) for k in range(final)]
        est = Estimate(_mean(runs, n), final)
        return PositionReview(state.current, readable_action(state, best), best, est, est)
    half = final // 2
    best_runs, played_runs = [], []
    for k in range(half):
        draw = _seed(seed, 999, k)
        best_runs.append(_run(sampler, best, draw))
        played_runs.append(_run(sampler, played_fast, draw))
    return PositionReview(
        state.current,
        readable_action(state, best),
        best,
        Estimate(_mean(best_runs, n), half),
        Estimate(_mean(played_runs, n), half),
    )
