"""A hypothesis state machine over the public API: any sequence of legal
turns (and attempted illegal ones) keeps the invariants, never mutates an
earlier state (undo is keeping the old value), and an illegal turn changes
nothing."""

from __future__ import annotations

import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.rules import GameState, IllegalAction, Turn
from companion.rules.splendor.deck import Deck
from companion.rules.splendor.players import POLICIES, choose_turn
from tests.rules.test_properties import check_invariants


class SplendorMachine(RuleBasedStateMachine):
    @initialize(players=st.integers(2, 4), seed=st.integers(0, 10_000))
    def deal(self, players: int, seed: int) -> None:
        self.deck = Deck(seed)
        self.rng = random.Random(seed)
        self.state: GameState = self.deck.deal([f"P{i}" for i in range(players)])
        self.history: list[tuple[GameState, str]] = []

    def _reveal(self, level: int) -> str | None:
        card = self.deck.draw(level)
        return card.id if card else None

    @precondition(lambda self: not self.state.is_over())
    @rule(policy=st.sampled_from(sorted(POLICIES)))
    def play_legal_turn(self, policy: str) -> None:
        turn = choose_turn(self.state, POLICIES[policy], self.rng, self._reveal)
        self.history.append((self.state, self.state.to_text()))
        self.state = self.state.apply(turn)

    @precondition(lambda self: not self.state.is_over())
    @rule(text=st.sampled_from(["take yy", "take rrr", "pass", "reserve deck3 return wwwwwwwwwww",
                                "take wug noble n1", "buy 3k4 pay kkkkkkk"]))
    def illegal_turn_changes_nothing(self, text: str) -> None:
        before = self.state.to_text()
        try:
            self.state.apply(Turn.parse(text))
        except IllegalAction as exc:
            assert str(exc)
        assert self.state.to_text() == before

    @precondition(lambda self: bool(self.history))
    @rule()
    def undo(self) -> None:
        self.state, _ = self.history.pop()

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "state"):
            check_invariants(self.state)
            for old, text in self.history[-3:]:
                assert old.to_text() == text, "an earlier state was mutated"


SplendorMachine.TestCase.settings = settings(
    max_examples=15, stateful_step_count=60, deadline=None
)
TestSplendorMachine = SplendorMachine.TestCase
