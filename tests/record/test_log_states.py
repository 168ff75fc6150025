"""The game log against a model: any sequence of confirm, undo, finish, reopen and resume.

A Hypothesis state machine drives one game of a seeded simulation through
the log while a plain list models what must be there; every step checks the
live turns, the taken-back count, and (on resume) the rebuilt state.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from companion.record import GameLog, setup_headers
from companion.rules.splendor.simulate import play_game

RECORD, STATES = play_game(21, ["Ann", "Bob"])
TURNS = [str(t) for t in RECORD.turns]


class LogMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="log-states-"))
        self.log = GameLog.open(self.folder / "games.db")
        self.gid = self.log.start_game("Splendor", RECORD.players, setup_headers(STATES[0]))
        self.live = 0  # the model: live turns are TURNS[: self.live]
        self.rows = 0
        self.taken_back = 0
        self.finished = False

    def teardown(self) -> None:
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    @precondition(lambda self: self.live < len(TURNS) and not self.finished)
    @rule()
    def confirm(self) -> None:
        number = self.log.append_turn(
            self.gid, TURNS[self.live], STATES[self.live + 1].digest(), b"\xff\xd8x\xff\xd9", 0.7
        )
        self.live += 1
        self.rows += 1
        assert number == self.live

    @rule()
    def undo(self) -> None:
        undone = self.log.undo_last(self.gid)
        if self.live == 0:
            assert undone is None
            return
        assert undone is not None and undone.notation == TURNS[self.live - 1]
        self.live -= 1
        self.taken_back += 1
        self.finished = False

    @precondition(lambda self: not self.finished)
    @rule()
    def finish(self) -> None:
        # The log records any result it is given (the referee decides when a game ends).
        self.log.finish(self.gid, f"stopped after {self.live} turns", ["Ann"], "test")
        self.finished = True

    @rule()
    def reopen(self) -> None:
        self.log.close()
        self.log = GameLog.open(self.folder / "games.db")
        assert self.log.notice is None

    @rule()
    def resume(self) -> None:
        record, state = self.log.resume(self.gid)
        assert state == STATES[self.live]
        assert [str(t) for t in record.turns] == TURNS[: self.live]

    @invariant()
    def matches_the_model(self) -> None:
        assert [t.notation for t in self.log.turns(self.gid)] == TURNS[: self.live]
        every = self.log.turns(self.gid, taken_back=True)
        assert len(every) == self.rows
        assert sum(t.taken_back for t in every) == self.taken_back
        summary = self.log.game(self.gid)
        assert summary.finished == self.finished
        assert [g.id for g in self.log.unfinished()] == ([] if self.finished else [self.gid])


LogMachine.TestCase.settings = settings(
    max_examples=25, stateful_step_count=40, deadline=None
)
test_the_log_matches_its_model = LogMachine.TestCase
