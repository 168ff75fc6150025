"""Golden playthroughs: replay each stored game and compare it with a fresh one."""

from __future__ import annotations

import difflib

import pytest

from companion.rules.splendor.record import read_record
from tests.rules.golden_splendor import GAMES, GOLDEN, golden_name, golden_text


@pytest.mark.parametrize("game", GAMES, ids=lambda g: golden_name(*g))
def test_golden_playthrough_is_unchanged(game):
    stored = (GOLDEN / golden_name(*game)).read_text(encoding="utf-8")
    fresh = golden_text(*game)
    diff = "\n".join(difflib.unified_diff(stored.splitlines(), fresh.splitlines(), lineterm=""))
    assert not diff, f"regenerate with tests/rules/golden_splendor.py if intended:\n{diff}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: golden_name(*g))
def test_golden_record_replays_with_matching_digests(game):
    record = read_record((GOLDEN / golden_name(*game)).read_text(encoding="utf-8"))
    final = None
    for i, (_line, _turn, _before, after) in enumerate(record.replay(), start=1):
        assert after.digest() == record.comments[i]
        final = after
    assert final is not None
    outcome = final.outcome()
    assert outcome is not None and outcome.summary() == record.headers["Result"]


def test_a_built_record_replays_with_the_line_numbers_of_its_text():
    from companion.rules.splendor.simulate import play_game

    record, states = play_game(5, 3)
    assert record.final_state() == states[-1]
    reread = read_record(record.text())
    assert reread.lines == record.line_numbers()
