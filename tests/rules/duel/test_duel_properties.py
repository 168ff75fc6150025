"""Invariants over random legal Duel games, and random turns that must never crash.

In every state of every game: the 25 tokens and the 3 privileges are all
accounted for, nobody ends a turn above 10 tokens or 3 reserved cards, the 67
cards are each in exactly one place, royals match the crown marks reached,
scores add up, and every game ends with a winner who meets a victory
condition.  Hypothesis picks the seeds and the policies; examples are bounded
so the suite stays fast.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import CELLS, LINES
from companion.rules.duel.outcome import Termination
from companion.rules.duel.simulate import MAX_TURNS, play_game
from companion.rules.duel.state import (
    ALL_TOKENS,
    PRIVILEGES,
    ROYAL_CROWNS,
    GameState,
    Hidden,
)
from companion.rules.duel.tokens import KINDS, DuelTokens, Token
from companion.rules.duel.turns import Buy, ReserveCard, ReserveDeck, RoyalPick, Take, Turn
from companion.rules.errors import RulesError

CARDS_PER_LEVEL = {1: 30, 2: 24, 3: 13}
POLICY_NAMES = ["random", "greedy"]
SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_invariants(state: GameState) -> None:
    assert state.token_census() == ALL_TOKENS
    assert state.privileges + sum(p.privileges for p in state.players) == PRIVILEGES
    assert len(state.royals) + sum(len(p.royals) for p in state.players) == 4
    placed: list[str] = [c.id for c in state.pyramid_cards()]
    for level in (1, 2, 3):
        shown = sum(1 for c in state.pyramid[level - 1] if c)
        held = sum(
            1
            for p in state.players
            for c in (*(o.card for o in p.cards), *p.reserved)
            if c.level == level
        )
        assert shown + held + state.decks[level - 1] == CARDS_PER_LEVEL[level]
    for p in state.players:
        assert p.tokens.total() <= 10
        assert len(p.reserved) <= 3
        assert len(p.royals) == sum(1 for mark in ROYAL_CROWNS if p.crowns >= mark)
        assert p.points == sum(o.card.points for o in p.cards) + sum(r.points for r in p.royals)
        placed += [o.card.id for o in p.cards]
        placed += [c.id for c in p.reserved if not isinstance(c, Hidden)]
        for o in p.cards:
            if o.card.is_joker:
                assert o.colour is not None
    assert len(placed) == len(set(placed)), "a card is in two places"


def check_winner(state: GameState) -> None:
    outcome = state.outcome()
    assert outcome is not None
    winner = next(p for p in state.players if p.name == outcome.winner)
    met = {
        Termination.POINTS: winner.points >= 20,
        Termination.CROWNS: winner.crowns >= 10,
        Termination.COLOUR: winner.best_colour()[1] >= 10,
    }
    assert met[outcome.termination]
    loser = next(p for p in state.players if p.name != outcome.winner)
    assert loser.points < 20 or loser.crowns < 10  # the loser never won earlier unnoticed


@SETTINGS
@given(
    seed=st.integers(0, 2**31),
    policies=st.tuples(st.sampled_from(POLICY_NAMES), st.sampled_from(POLICY_NAMES)),
)
def test_every_random_game_keeps_the_invariants_and_ends(seed, policies):
    record, states = play_game(seed, ("A", "B"), policies, check=True)
    assert len(states) == len(record.turns) + 1 <= MAX_TURNS + 1
    for state in states:
        check_invariants(state)
    assert all(s.outcome() is None for s in states[:-1])
    check_winner(states[-1])


_kinds = st.sampled_from(KINDS)
_tokens = st.lists(_kinds, max_size=8).map(lambda ks: DuelTokens.of(*ks))
_cells = st.lists(st.sampled_from(CELLS), min_size=0, max_size=4).map(tuple)
_card_ids = st.sampled_from([c.id for c in catalogue.cards()])
_actions = st.one_of(
    st.builds(Take, _cells),
    st.builds(ReserveCard, _card_ids, st.sampled_from(CELLS)),
    st.builds(ReserveDeck, st.sampled_from([1, 2, 3]), st.sampled_from(CELLS)),
    st.builds(
        Buy,
        _card_ids,
        _tokens,
        st.none() | _kinds,
        st.none() | st.sampled_from(CELLS),
        st.none() | _kinds,
    ),
)
_turns = st.builds(
    Turn,
    _actions,
    st.lists(st.sampled_from(CELLS), max_size=3).map(tuple),
    st.none() | st.lists(_kinds, max_size=6).map(tuple),
    st.none() | _card_ids,
    st.lists(
        st.builds(RoyalPick, st.sampled_from(["r1", "r2", "r3", "r4"]), st.none() | _kinds),
        max_size=2,
    ).map(tuple),
    _tokens,
)

_GAME = play_game(2024, ("A", "B"), ("random", "greedy"))[1]


@settings(max_examples=300, deadline=None)
@given(index=st.integers(0, len(_GAME) - 2), turn=_turns)
def test_any_turn_is_either_played_or_refused_with_a_rules_error(index, turn):
    state = _GAME[index]
    try:
        after = state.apply(turn)
    except RulesError as exc:
        assert str(exc)  # a message for the screen
        return
    check_invariants(after)
    assert str(turn) and turn.action is not None


# ------------------------------------------- the planner lists every legal action
def _returned_after(state: GameState, gained: DuelTokens) -> DuelTokens:
    held = state.player.tokens + gained
    need = max(held.total() - 10, 0)
    return DuelTokens.of(*list(held.kinds())[:need])


def _reveal_for(state: GameState, level: int) -> str | None:
    if not state.decks[level - 1]:
        return None
    return min(c.id for c in state.unseen(level))


@pytest.mark.parametrize("index", range(0, 60, 7))
def test_the_planner_lists_exactly_the_takes_and_reserves_apply_accepts(index):
    states = _GAME
    state = states[min(index, len(states) - 2)]
    listed = set(state.legal_actions())
    for line in LINES:
        take = Take(line)
        gained = DuelTokens.of(*(k for c in line if (k := state.board[c]) is not None))
        try:
            state.apply(Turn(take, returned=_returned_after(state, gained)))
            accepted = True
        except RulesError:
            accepted = False
        assert accepted == (take in listed), take
    gold = DuelTokens.of(Token.GOLD)
    for cell in CELLS:
        for card in state.pyramid_cards():
            reserve = ReserveCard(card.id, cell)
            turn = Turn(reserve, reveal=_reveal_for(state, card.level),
                        returned=_returned_after(state, gold))
            assert _accepted(state, turn) == (reserve in listed), reserve
        for level in (1, 2, 3):
            deck = ReserveDeck(level, cell)
            turn = Turn(deck, returned=_returned_after(state, gold))
            assert _accepted(state, turn) == (deck in listed), deck


def _accepted(state: GameState, turn: Turn) -> bool:
    try:
        state.apply(turn)
    except RulesError:
        return False
    return True


# ------------------------------------------------ legal turns, slightly changed
_RECORD, _STATES = play_game(77, ("A", "B"), ("greedy", "random"))
PARTS = ["privileges", "replenish", "reveal", "royals", "returned", "action"]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_legal_turn_changed_in_one_part_is_played_or_refused_cleanly(data):
    index = data.draw(st.integers(0, len(_RECORD.turns) - 1))
    state, turn = _STATES[index], _RECORD.turns[index]
    part = data.draw(st.sampled_from(PARTS))
    cells = st.lists(st.sampled_from(CELLS), max_size=3).map(tuple)
    draws = st.none() | st.lists(_kinds, max_size=8).map(tuple)
    picks = st.builds(RoyalPick, st.sampled_from(["r1", "r2", "r3", "r4"]), st.none() | _kinds)
    if part == "privileges":
        turn = replace(turn, privileges=data.draw(cells))
    elif part == "replenish":
        turn = replace(turn, replenish=data.draw(draws))
    elif part == "reveal":
        turn = replace(turn, reveal=data.draw(st.none() | _card_ids))
    elif part == "royals":
        turn = replace(turn, royals=data.draw(st.lists(picks, max_size=2).map(tuple)))
    elif part == "returned":
        turn = replace(turn, returned=data.draw(_tokens))
    else:
        action = turn.action
        if isinstance(action, Buy):
            joker = data.draw(st.none() | _kinds)
            action = replace(action, payment=data.draw(_tokens), joker=joker)
        elif isinstance(action, Take):
            action = Take(data.draw(_cells))
        else:
            action = replace(action, gold=data.draw(st.sampled_from(CELLS)))
        turn = replace(turn, action=action)
    try:
        after = state.apply(turn)
    except RulesError as exc:
        assert str(exc)
        return
    check_invariants(after)
