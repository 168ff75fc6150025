"""A hypothesis state machine over the public Duel API: any sequence of
planned turns, attempted illegal turns and undos keeps the invariants, never
mutates an earlier state (undo is keeping the old value), and an illegal turn
changes nothing."""

from __future__ import annotations

import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.rules.duel import GameState, parse_turn
from companion.rules.duel.cards import JewelCard
from companion.rules.duel.simulate import POLICIES, DuelDeck, choose_turn
from companion.rules.errors import RulesError
from tests.rules.duel.test_duel_properties import check_invariants

#: Turns that are illegal in most positions (and must change nothing when refused).
ODD_TURNS = [
    "take e1,e2,e3",
    "take a1,c3",
    "privilege a1,a2,a3 take c3",
    "replenish wwww take c3",
    "reserve deck3 gold c3",
    "buy 3x1 pay wwwwwwww",
    "buy 1j1 pay wwwwp as g",
    "take a5 return wwwwwwwwwww",
    "take c3 royal r1",
]

Snapshot = tuple[GameState, str, dict[int, list[JewelCard]], list[list[JewelCard]]]


class DuelMachine(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 10_000))
    def deal(self, seed: int) -> None:
        self.deck = DuelDeck(seed)
        self.rng = random.Random(seed)
        self.state: GameState = self.deck.deal(("Ann", "Bob"))
        self.hidden: list[list[JewelCard]] = [[], []]
        self.history: list[Snapshot] = []

    def _snapshot(self) -> Snapshot:
        piles = {level: list(pile) for level, pile in self.deck.cards.items()}
        return self.state, self.state.to_text(), piles, [list(h) for h in self.hidden]

    @precondition(lambda self: not self.state.is_over())
    @rule(policy=st.sampled_from(sorted(POLICIES)))
    def play_planned_turn(self, policy: str) -> None:
        self.history.append(self._snapshot())
        mover = self.state.current
        turn, after = choose_turn(
            self.state, POLICIES[policy], self.rng, self.deck, self.hidden[mover]
        )
        assert self.state.apply(turn) == after
        self.state = after

    @precondition(lambda self: not self.state.is_over())
    @rule(text=st.sampled_from(ODD_TURNS))
    def illegal_turn_changes_nothing(self, text: str) -> None:
        before = self.state.to_text()
        try:
            self.state.apply(parse_turn(text))
        except RulesError as exc:
            assert str(exc)
        assert self.state.to_text() == before

    @precondition(lambda self: bool(self.history))
    @rule()
    def undo(self) -> None:
        self.state, _, piles, self.hidden = self.history.pop()
        self.deck.cards = piles

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "state"):
            check_invariants(self.state)
            for old, text, _, _ in self.history[-3:]:
                assert old.to_text() == text, "an earlier state was mutated"


DuelMachine.TestCase.settings = settings(max_examples=12, stateful_step_count=50, deadline=None)
TestDuelMachine = DuelMachine.TestCase
