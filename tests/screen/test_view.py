"""ScreenView: the value the referee fills in, without pygame."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import FrozenInstanceError

import pytest

from companion.rules.splendor.describe import describe_turn
from companion.rules.splendor.simulate import play_game
from companion.screen import ButtonHints, Mode, ScreenView
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def game():
    return play_game(4, ("Ann", "Bob", "Cy"), "greedy")


def test_view_module_does_not_import_pygame():
    """The referee's state machine builds views and must stay free of pygame."""
    code = (
        "import sys; import companion.screen; from companion.screen import ScreenView, Mode;"
        " print('pygame' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "False"


def test_proposal_words_candidate_and_hints(game):
    record, states = game
    view = ScreenView.proposal(states[10], record.turns[10], 2, 4)
    assert view.mode is Mode.PROPOSAL
    assert view.text == describe_turn(states[10], record.turns[10])
    assert view.candidate == (2, 4)
    assert view.hints.confirm and view.hints.next and view.hints.back
    single = ScreenView.proposal(states[10], record.turns[10])
    assert single.hints.next == ""  # nothing to go to


def test_views_are_frozen_and_validated(game):
    _, states = game
    view = ScreenView.waiting(states[0])
    with pytest.raises(FrozenInstanceError):
        view.title = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="selected item 3"):
        ScreenView.choice(states[0], "Pick", ["a", "b"], 3)
    with pytest.raises(ValueError, match="candidate 4 of 3"):
        ScreenView(states[0], Mode.PROPOSAL, candidate=(4, 3))


def test_end_needs_a_finished_game(game):
    _, states = game
    with pytest.raises(ValueError, match="not over"):
        ScreenView.end(states[0])
    end = ScreenView.end(states[-1])
    outcome = states[-1].outcome()
    assert outcome is not None
    assert end.outcome == outcome and end.text == outcome.reason


def test_each_situation_has_its_mode_and_a_way_on(game):
    _, states = game
    s = states[5]
    views = [
        ScreenView.setup(states[0]),
        ScreenView.waiting(s),
        ScreenView.choice(s, "Return 1 token", ["Return 1 red", "Return 1 gold"]),
        ScreenView.error(s, "Bob took 2 red but only 3 red were in the supply"),
        ScreenView.end(states[-1]),
    ]
    assert [v.mode for v in views] == [Mode.SETUP, Mode.WAITING, Mode.CHOICE, Mode.ERROR, Mode.END]
    for v in views:
        assert v.title
        hints = v.hints
        assert isinstance(hints, ButtonHints)
        assert hints.confirm or hints.next or hints.back or hints.hold_back
    assert "Ann, Bob, Cy" in views[0].text
    assert views[1].hints.hold_back  # undo is always at hand between turns
