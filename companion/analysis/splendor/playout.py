"""The playout policy: how simulated players finish a game from a position.

Why not random play: random Splendor games last twice as long as real ones
and are won by chance, so their win counts say little about a position.
The playout player is a quick greedy one, like the readable ``greedy``
policy: buy the card worth most points it can afford, else take the gems
that bring it nearest to its cheapest card, with a little randomness so
that playouts from one position differ.
"""

from __future__ import annotations

import random

from companion.rules.fast.splendor.state import FastState
from companion.rules.fast.splendor.tables import (
    BUY,
    CARD_COST,
    CARD_POINTS,
    PASS,
    RESERVE_SLOT,
    TAKES,
)

#: Chance that a playout turn is any legal action instead of the greedy one,
#: so playouts from one position differ; chosen, not tuned (the strength it
#: gives: tests/bench/bench_engine_analysis.py --only strength).
EXPLORE = 0.1
#: A playout still running after this many turns is scored as it stands:
#: greedy games end in under 120 turns; players who only swap tokens may not.
PLAYOUT_TURNS = 300


def target_need(s: FastState) -> list[int]:
    """Gems the mover still lacks for its nearest card (market or reserve), per colour."""
    p = s.current
    t = s.tokens[p]
    b = s.bonus[p]
    best: list[int] = [0, 0, 0, 0, 0]
    best_score = 1 << 30
    for card in (*s.market, *s.reserved[p]):
        if card < 0:
            continue
        cost = CARD_COST[card]
        need = [0, 0, 0, 0, 0]
        short = 0
        for c in range(5):
            n = cost[c] - b[c] - t[c]
            if n > 0:
                need[c] = n
                short += n
        score = 3 * short - CARD_POINTS[card]
        if score < best_score:
            best_score, best = score, need
    return best


def choose_return(options: tuple[tuple[int, ...], ...], need: list[int]) -> tuple[int, ...]:
    """The return that gives back the fewest gems still needed, and never gold if avoidable."""
    best = options[0]
    best_cost = 1 << 30
    for back in options:
        cost = 4 * back[5]
        for c in range(5):
            if back[c]:
                cost += back[c] * (2 if need[c] else 1)
        if cost < best_cost:
            best, best_cost = back, cost
    return best


def greedy_action(s: FastState, actions: list[int], rng: random.Random,
                  explore: float = EXPLORE) -> int:
    """The playout player's main action among ``actions`` (in increasing code order);
    ``explore`` is the chance of any of them instead (a computer seat's greedy level: 0)."""
    if rng.random() < explore:
        return actions[int(rng.random() * len(actions))]
    last = actions[-1]
    if BUY <= last < PASS:
        best, best_value = last, -1.0
        for a in actions:
            if a >= BUY:
                value = CARD_POINTS[a - BUY] + rng.random() * 0.5
                if value > best_value:
                    best, best_value = a, value
        return best
    need = target_need(s)
    best, best_value = actions[0], -1.0
    for a in actions:
        if a >= RESERVE_SLOT:
            break
        take = TAKES[a]
        value = (
            min(take[0], need[0]) + min(take[1], need[1]) + min(take[2], need[2])
            + min(take[3], need[3]) + min(take[4], need[4])
        ) * 4 + sum(take) + rng.random()
        if value > best_value:
            best, best_value = a, value
    return best


def greedy_turn(s: FastState, rng: random.Random) -> None:
    """Play one playout turn in place."""
    actions = s.legal_actions()
    action = greedy_action(s, actions, rng)
    returned = None
    if action < BUY:
        options = s.return_options(action)
        if len(options) > 1 or any(options[0]):
            returned = choose_return(options, target_need(s))
    s.play(action, None, returned)


def playout(s: FastState, rng: random.Random) -> list[float]:
    """Finish the game in place; return each seat's share of the win (1, 1/2, 0 ...)."""
    limit = s.turn + PLAYOUT_TURNS
    while not s.is_over() and s.turn < limit:
        greedy_turn(s, rng)
    winners = s.winners()
    share = 1.0 / len(winners)
    result = [0.0] * s.n
    for w in winners:
        result[w] = share
    return result
