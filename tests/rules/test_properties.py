"""Invariants over random legal games (hypothesis drives every choice).

In every state of every game of 2-4 players: the tokens and the 90 cards are
all accounted for, nobody ends a turn above 10 tokens or 3 reserved cards,
scores are card points plus nobles, and every game ends.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import GameState, Tokens, Turn
from companion.rules.splendor.actions import Buy, ReserveDeck
from companion.rules.splendor.catalogue import LEVELS, Card
from companion.rules.splendor.deck import Deck
from companion.rules.splendor.players import POLICIES, choose_turn
from companion.rules.splendor.simulate import MAX_TURNS
from companion.rules.splendor.state import GEMS_BY_PLAYERS, GOLD, Hidden

CARDS_PER_LEVEL = {1: 40, 2: 30, 3: 20}


def check_invariants(state: GameState) -> None:
    n = len(state.players)
    total = state.supply + sum((p.tokens for p in state.players), Tokens())
    assert total == Tokens((GEMS_BY_PLAYERS[n],) * 5 + (GOLD,)), total
    for level in LEVELS:
        on_table = sum(1 for c in state.market[level - 1] if c)
        held = sum(
            1
            for p in state.players
            for c in (*p.cards, *p.reserved)
            if (c.level if isinstance(c, Card | Hidden) else 0) == level
        )
        assert on_table + held + state.decks[level - 1] == CARDS_PER_LEVEL[level]
    seen = [c.id for c in state.market_cards()]
    for p in state.players:
        seen += [c.id for c in p.cards] + [c.id for c in p.reserved if isinstance(c, Card)]
        assert p.tokens.total() <= 10
        assert len(p.reserved) <= 3
        assert p.points == sum(c.points for c in p.cards) + 3 * len(p.nobles)
    assert len(seen) == len(set(seen)), "a card is in two places"
    assert len(state.nobles) + sum(len(p.nobles) for p in state.players) == n + 1


def play_checked(players: int, rng: random.Random, policy: str) -> GameState:
    deck = Deck(rng.random())
    state = deck.deal([f"P{i}" for i in range(players)])
    hidden: dict[int, list[Card]] = {i: [] for i in range(players)}

    def reveal(level: int) -> str | None:
        card = deck.draw(level)
        return card.id if card else None

    while not state.is_over():
        assert state.turn < MAX_TURNS, "the game did not end"
        mover = state.current
        turn = choose_turn(state, POLICIES[policy], rng, reveal, hidden[mover])
        if isinstance(turn.action, ReserveDeck):
            drawn = deck.draw(turn.action.level)
            assert drawn is not None
            hidden[mover].append(drawn)
        elif isinstance(turn.action, Buy):
            hidden[mover] = [c for c in hidden[mover] if c.id != turn.action.card]
        assert Turn.parse(str(turn)) == turn
        state = state.apply(turn)
        check_invariants(state)
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    rng=st.randoms(use_true_random=False),
    policy=st.sampled_from(sorted(POLICIES)),
)
def test_random_legal_games_keep_every_invariant_and_end(players, rng, policy):
    final = play_checked(players, rng, policy)
    outcome = final.outcome()
    assert outcome is not None
    assert {s.name for s in outcome.standings} == {p.name for p in final.players}
    best = max(p.points for p in final.players)
    assert all(final.players[[p.name for p in final.players].index(w)].points == best
               for w in outcome.winners)
    # everyone played the same number of turns unless the game ended in passes
    if outcome.termination.value == "points":
        assert final.turn % players == 0
