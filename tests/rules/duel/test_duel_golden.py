"""Golden Duel playthroughs: replay each stored game and compare it with a fresh one."""

from __future__ import annotations

import difflib

import pytest

from companion.rules.duel import read_record, replay_record
from tests.rules.duel.golden_duel import GAMES, GOLDEN, golden_name, golden_text


@pytest.mark.parametrize("game", GAMES, ids=lambda g: golden_name(*g))
def test_golden_playthrough_is_unchanged(game):
    stored = (GOLDEN / golden_name(*game)).read_text(encoding="utf-8")
    fresh = golden_text(*game)
    diff = "\n".join(difflib.unified_diff(stored.splitlines(), fresh.splitlines(), lineterm=""))
    assert not diff, f"regenerate with tests/rules/duel/golden_duel.py if intended:\n{diff}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: golden_name(*g))
def test_golden_record_replays_with_matching_digests(game):
    text = (GOLDEN / golden_name(*game)).read_text(encoding="utf-8")
    record = read_record(text)
    final = None
    for i, (_line, _turn, _before, after) in enumerate(record.replay(), start=1):
        assert after.digest() == record.comments[i]
        final = after
    assert final is not None
    outcome = final.outcome()
    assert outcome is not None and outcome.summary() == record.headers["Result"]
    states, replayed = replay_record(text)
    assert replayed == outcome and len(states) == len(record.turns) + 1
