"""The fast Duel engine and the readable one play the same game, step for step.

Each example deals a seeded Duel game in both engines, lets a randomly
weighted player choose every part of every turn (privileges, replenish and
its draw, the action, payment, joker colour, token cell, steal, royals,
returns) from the options the fast engine offers, and plays the same step in
a readable :class:`~companion.rules.duel.TurnPlanner`.  At every step the
options must agree; after every turn the whole state (board, bag, pyramid,
deck sizes, privileges, royals, both players, whose turn, the winner) must
be the same, and the turn translated to notation must replay through
:meth:`GameState.apply` to that state.  Styles weight the choices towards
takes (returns above 10 tokens, privileges given away), reserves (empty
decks, blind purchases, forced replenishes), purchases (abilities, royals,
victories) or privileges.
"""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.duel import GameState, TurnPlanner
from companion.rules.duel import cards as catalogue
from companion.rules.duel.simulate import MAX_TURNS, DuelDeck
from companion.rules.duel.tokens import KINDS, DuelTokens
from companion.rules.duel.turns import Buy, ReserveCard, ReserveDeck, RoyalPick, Take, Turn
from companion.rules.fast.duel.convert import from_turn, to_action, to_state, to_turn
from companion.rules.fast.duel.state import DuelState, Move, seeded_with_deck
from companion.rules.fast.duel.tables import (
    BUY,
    CARD_ID,
    CARD_JOKER,
    CARD_STEAL,
    CARD_TOKEN,
    RESERVE_SLOT,
    ROYAL_ID,
    cells_of,
)

#: Examples per run; FAST_DUEL_EQUIVALENCE_GAMES=10000 for a longer search.
GAMES = int(os.environ.get("FAST_DUEL_EQUIVALENCE_GAMES", "1000"))

#: (take, reserve, buy) weights of an action kind, chance to use each
#: privilege, chance of a voluntary replenish, chance of a non-simplest payment.
STYLES = {
    "uniform": (1.0, 1.0, 1.0, 0.3, 0.15, 0.5),
    "takes": (6.0, 0.3, 1.0, 0.2, 0.1, 0.2),
    "reserves": (1.0, 6.0, 0.5, 0.3, 0.3, 0.5),
    "buys": (1.0, 0.5, 8.0, 0.1, 0.1, 0.8),
    "privileges": (2.0, 1.0, 2.0, 0.9, 0.5, 0.3),
}
NAMES = ("A", "B")


def _pick(actions: list[int], w: tuple[float, ...], rng: random.Random) -> int:
    weights = [w[0] if a < RESERVE_SLOT else w[1] if a < BUY else w[2] for a in actions]
    return rng.choices(actions, weights)[0]


def _expected_actions(fast: DuelState) -> list[str]:
    """The fast engine's actions as the readable planner lists them (gold cells expanded)."""
    out = []
    move: Move
    for a in fast.legal_actions():
        golds = fast.gold_cells() if RESERVE_SLOT <= a < BUY else [-1]
        for gold in golds:
            move = ((), None, a, gold, None, -1, -1, -1, (), None)
            out.append(str(to_action(fast, move)))
    return sorted(out)


def _start(fast: DuelState, planner: TurnPlanner[GameState], privileges: list[int],
           draw: list[int] | None) -> None:
    for cell in privileges:
        planner.use_privilege(cell)
        fast.use_privilege(cell)
    if draw is not None:
        planner.replenish(tuple(KINDS[k] for k in draw))
        fast.replenish(draw)


def play_both(seed: int, style: str, seen: Counter[str] | None = None) -> None:
    """Play one game through both engines, asserting agreement at each step."""
    rng = random.Random(seed)
    w = STYLES[style]
    fast, _ = seeded_with_deck(seed)
    readable = DuelDeck(seed).deal(NAMES)
    assert to_state(fast, NAMES).to_text() == readable.to_text()
    while not fast.is_over():
        assert not readable.is_over()
        assert fast.turn < MAX_TURNS
        before = fast.copy()
        mover = fast.current
        planner = TurnPlanner(readable)
        # Privileges, each taken while the planner offers them.
        privileges: list[int] = []
        while True:
            offered = cells_of(fast.gems) if fast.privs[mover] else []
            assert offered == sorted(planner.privilege_cells())
            if not offered or rng.random() >= w[3]:
                break
            cell = rng.choice(offered)
            planner.use_privilege(cell)
            fast.use_privilege(cell)
            privileges.append(cell)
        assert fast.must_replenish() == planner.must_replenish()
        assert bool(any(fast.bag)) == planner.can_replenish()
        draw: list[int] | None = None
        if fast.must_replenish() or (any(fast.bag) and rng.random() < w[4]):
            draw = fast.bag_draw(rng)
            _start(fast, planner, [], draw)
        hidden = [catalogue.card(CARD_ID[c])
                  for c, b in zip(fast.reserved[mover], fast.blind[mover], strict=True) if b]
        actions = fast.legal_actions()
        assert _expected_actions(fast) == sorted(str(a) for a in planner.actions(hidden))
        if not actions:
            # The privileges took the last gems, or only the blind card's owner
            # knows it cannot be bought: the turn starts again, replenishing.
            if seen is not None:
                seen["restarts"] += 1
            fast = before.copy()
            planner = TurnPlanner(readable)
            privileges = []
            draw = fast.bag_draw(rng) if any(fast.bag) else None
            _start(fast, planner, [], draw)
            actions = fast.legal_actions()
            assert _expected_actions(fast) == sorted(str(a) for a in planner.actions(hidden))
        action = _pick(actions, w, rng)
        gold = joker = token = steal = -1
        payment: tuple[int, ...] | None = None
        if action >= BUY:
            card = action - BUY
            options = fast.payments(card)
            readable_card = catalogue.card(CARD_ID[card])
            assert [DuelTokens(o) for o in options] == planner.payments(readable_card)
            payment = options[0] if rng.random() >= w[5] else rng.choice(options)
            jokers = fast.joker_colours() if CARD_JOKER[card] else [-1]
            cells = (fast.token_cells(card) or [-1]) if CARD_TOKEN[card] else [-1]
            steals = (fast.steal_kinds() or [-1]) if CARD_STEAL[card] else [-1]
            combos = [(j, c, s) for j in jokers for c in cells for s in steals]
            probe: Move = ((), None, action, -1, payment, -1, -1, -1, (), None)
            base = to_action(fast, probe)
            assert isinstance(base, Buy)
            expected = planner.buy_options(Buy(base.card, base.payment), catalogue.card(base.card))
            got = [to_action(fast, ((), None, action, -1, payment, j, c, s, (), None))
                   for j, c, s in combos]
            assert got == expected
            joker, token, steal = rng.choice(combos)
        elif action >= RESERVE_SLOT:
            gold = rng.choice(fast.gold_cells())
        probe = ((), None, action, gold, payment, joker, token, steal, (), None)
        readable_action = to_action(fast, probe)
        planner.play(readable_action)
        revealed = fast.act(action, gold, payment, joker, token, steal)
        level = planner.reveal_level()
        assert (revealed >= 0) == (level is not None)
        if level is not None:
            planner.reveal(CARD_ID[revealed])
        royals: list[tuple[int, int]] = []
        while fast.due:
            assert planner.royals_due() == fast.due
            options_royal = fast.royal_options()
            assert [RoyalPick(ROYAL_ID[r], KINDS[k] if k >= 0 else None)
                    for r, k in options_royal] == planner.royal_options()
            pick = rng.choice(options_royal)
            planner.take_royal(RoyalPick(ROYAL_ID[pick[0]], KINDS[pick[1]] if pick[1] >= 0
                                         else None))
            fast.take_royal(*pick)
            royals.append(pick)
        assert planner.royals_due() == 0
        backs = fast.return_options()
        assert [DuelTokens(b) for b in backs] == planner.return_options()
        back = rng.choice(backs)
        returned = back if any(back) else None
        fast.finish(returned)
        turn, after = planner.finish(DuelTokens(back))
        move: Move = (tuple(privileges), tuple(draw) if draw is not None else None, action,
                      gold, payment, joker, token, steal, tuple(royals), returned)
        translated = to_turn(before, move, revealed)
        assert translated == turn
        assert Turn.parse(str(translated)) == turn
        replay = from_turn(before, turn)
        assert replay[2:4] == move[2:4] and replay[5:] == move[5:]
        readable = readable.apply(turn)
        assert readable == after
        assert to_state(fast, NAMES).to_text() == readable.to_text()
        if seen is not None:
            _count(seen, before, move, turn)
    outcome = readable.outcome()
    assert outcome is not None
    assert NAMES[fast.winner] == outcome.winner
    if seen is not None:
        seen[outcome.termination.name] += 1


def _count(seen: Counter[str], before: DuelState, move: Move, turn: Turn) -> None:
    a = turn.action
    if turn.privileges:
        seen["privileges"] += 1
    if turn.replenish is not None:
        seen["replenishes"] += 1
    if turn.royals:
        seen["royals"] += 1
    if turn.returned:
        seen["returns"] += 1
    if isinstance(a, ReserveDeck):
        seen["blind reserves"] += 1
    if isinstance(a, ReserveCard) and turn.reveal is None:
        seen["empty pyramid slots"] += 1
    if isinstance(a, Take) and len(a.cells) == 3:
        seen["three tokens"] += 1
    if isinstance(a, Buy):
        card = move[2] - BUY
        p = before.current
        if card in before.reserved[p] and before.blind[p][before.reserved[p].index(card)]:
            seen["blind purchases"] += 1
        for part, name in ((a.joker, "jokers"), (a.token, "token abilities"),
                           (a.steal, "steals")):
            if part is not None:
                seen[name] += 1
        if a.payment.counts[6] and any(a.payment.counts[:6]):
            seen["gold payments"] += 1
    if any(r.steal for r in turn.royals):
        seen["royal steals"] += 1


@settings(max_examples=GAMES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), style=st.sampled_from(sorted(STYLES)))
def test_fast_duel_engine_plays_as_the_readable_one(seed: int, style: str) -> None:
    play_both(seed, style)


def test_the_games_reach_every_rare_rule() -> None:
    """The styles do reach the corners the property test must cover."""
    seen: Counter[str] = Counter()
    for seed in range(100):
        play_both(seed, sorted(STYLES)[seed % len(STYLES)], seen)
    corners = ("privileges", "replenishes", "royals", "returns", "blind reserves",
               "blind purchases", "jokers", "token abilities", "steals", "royal steals",
               "gold payments", "three tokens", "POINTS", "CROWNS", "COLOUR")
    for corner in corners:
        assert seen[corner] > 0, f"no game reached {corner}: {dict(seen)}"


def test_seeded_deal_is_the_readable_simulators() -> None:
    """``seeded_with_deck`` deals what ``DuelDeck`` deals, and its generator goes on alike."""
    fast, rng = seeded_with_deck(7)
    deck = DuelDeck(7)
    assert to_state(fast, NAMES).to_text() == deck.deal(NAMES).to_text()
    assert rng.random() == deck.rng.random()
