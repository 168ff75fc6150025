"""The Duel playout policy: how simulated players finish a Duel game from a position.

Why not random play: random Duel games drag on and are won by chance, so
their win counts say little about a position.  The playout player is a
quick greedy one, like Splendor's (:mod:`.playout`): buy the card worth most
(points, crowns, bonus) it can afford, else take the line that brings it
nearest to its cheapest card without handing the opponent a privilege, else
reserve; a little randomness makes playouts from one position differ.  It
never spends privileges and replenishes only when forced.
"""

from __future__ import annotations

import random

from companion.rules.fast.duel.state import TOKEN_LIMIT, DuelState
from companion.rules.fast.duel.tables import (
    BUY,
    CARD_BONUS,
    CARD_CROWNS,
    CARD_JOKER,
    CARD_NEED,
    CARD_POINTS,
    CARD_STEAL,
    CARD_TOKEN,
    LINE_CELLS,
    PEARL,
    RESERVE_SLOT,
    ROYAL_POINTS,
)

#: Chance that a playout turn is any legal action instead of the greedy one,
#: so playouts from one position differ; chosen, not tuned (Splendor's value).
EXPLORE = 0.1
#: A playout still running after this many turns is scored by points as it
#: stands: greedy Duel games end in well under 100 turns.
PLAYOUT_TURNS = 300


def card_value(card: int) -> int:
    """What a purchase is worth to the playout player: points first, then crowns, bonus."""
    return 3 * CARD_POINTS[card] + 2 * CARD_CROWNS[card] + CARD_BONUS[card]


def target_need(s: DuelState) -> list[int]:
    """Gems and pearls the mover still lacks for its nearest card, per kind (6)."""
    p = s.current
    t = s.tokens[p]
    b = s.bonus[p]
    best = [0] * 6
    best_score = 1 << 30
    for card in (*s.pyramid, *s.reserved[p]):
        if card < 0:
            continue
        need = [0] * 6
        short = 0
        for k, n in CARD_NEED[card]:
            have = t[k] + (b[k] if k < PEARL else 0)
            if n > have:
                need[k] = n - have
                short += n - have
        score = 3 * short - card_value(card)
        if score < best_score:
            best_score, best = score, need
    return best


def choose_return(options: list[tuple[int, ...]], need: list[int]) -> tuple[int, ...]:
    """The return that gives back the fewest tokens still needed, and never gold if avoidable."""
    best = options[0]
    best_cost = 1 << 30
    for back in options:
        cost = 4 * back[6]
        for k in range(6):
            if back[k]:
                cost += back[k] * (2 if need[k] else 1)
        if cost < best_cost:
            best, best_cost = back, cost
    return best


def take_value(s: DuelState, line: int, need: list[int]) -> float:
    """How useful taking a line is: tokens needed, tokens at all, no privilege given away."""
    board = s.board
    useful = 0
    got = [0] * 6
    for cell in LINE_CELLS[line]:
        k = board[cell]
        got[k] += 1
    for k in range(6):
        if got[k]:
            useful += min(got[k], need[k])
    count = len(LINE_CELLS[line])
    gives = got[PEARL] == 2 or (count == 3 and max(got) == 3)
    return useful * 4 + count - (3 if gives else 0)


def choices(s: DuelState, action: int) -> tuple[int, int, int]:
    """(joker colour, token cell, steal kind) for a purchase: the strongest colour,
    the first cell, the kind the opponent holds most of."""
    joker = token = steal = -1
    card = action - BUY
    if CARD_JOKER[card]:
        b = s.bonus[s.current]
        joker = max(range(5), key=lambda c: b[c])
    if CARD_TOKEN[card]:
        cells = s.token_cells(card)
        token = cells[0] if cells else -1
    if CARD_STEAL[card]:
        their = s.tokens[1 - s.current]
        kinds = s.steal_kinds()
        steal = max(kinds, key=lambda k: their[k]) if kinds else -1
    return joker, token, steal


def best_royal(s: DuelState) -> tuple[int, int]:
    """The royal worth most points; a steal takes what the opponent holds most of."""
    options = s.royal_options()
    their = s.tokens[1 - s.current]
    return max(options, key=lambda o: (ROYAL_POINTS[o[0]], their[o[1]] if o[1] >= 0 else 0))


def greedy_action(s: DuelState, rng: random.Random) -> int:
    """The playout player's mandatory action (-1 when none is possible)."""
    buys = s.buys()
    if rng.random() < EXPLORE:
        actions = s.legal_actions()
        return actions[int(rng.random() * len(actions))] if actions else -1
    if buys:
        best, best_value = buys[0], -1.0
        for a in buys:
            value = card_value(a - BUY) + rng.random() * 0.5
            if value > best_value:
                best, best_value = a, value
        return best
    if s.gems:
        need = target_need(s)
        best, best_value = -1, -100.0
        for a in s.takes():
            value = take_value(s, a, need) + rng.random()
            if value > best_value:
                best, best_value = a, value
        return best
    reserves = s.reserves()
    if reserves:
        return reserves[int(rng.random() * len(reserves))]
    return -1


def greedy_turn(s: DuelState, rng: random.Random) -> None:
    """Play one playout turn in place."""
    if s.must_replenish():
        s.replenish(s.bag_draw(rng))
    action = greedy_action(s, rng)
    if action < 0 and any(s.bag):
        s.replenish(s.bag_draw(rng))
        action = greedy_action(s, rng)
    if action < 0:  # nothing at all to do (never seen): the turn passes
        s.finish()
        return
    joker = token = steal = -1
    if action >= BUY:
        joker, token, steal = choices(s, action)
    gold = -1
    if RESERVE_SLOT <= action < BUY:
        golds = s.gold_cells()
        gold = golds[int(rng.random() * len(golds))]
    s.act(action, gold, None, joker, token, steal)
    while s.due:
        s.take_royal(*best_royal(s))
    returned = None
    if sum(s.tokens[s.current]) > TOKEN_LIMIT:
        returned = choose_return(s.return_options(), target_need(s))
    s.finish(returned)


def playout(s: DuelState, rng: random.Random) -> list[float]:
    """Finish the game in place; return each seat's share of the win (1/0, or 1/2 each)."""
    limit = s.turn + PLAYOUT_TURNS
    while s.winner < 0 and s.turn < limit:
        greedy_turn(s, rng)
    if s.winner >= 0:
        return [1.0, 0.0] if s.winner == 0 else [0.0, 1.0]
    a, b = s.points
    return [1.0, 0.0] if a > b else [0.0, 1.0] if b > a else [0.5, 0.5]
