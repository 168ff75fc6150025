"""The strength and calibration figures: their arithmetic, and resumable seeded runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.analysis import figures
from companion.analysis.figures import (
    Task,
    brier,
    reliability,
    run,
    shares,
    strength_tasks,
    wilson,
)
from companion.rules.splendor.simulate import play_game

ROOT = Path(__file__).resolve().parents[2]


def test_wilson_interval_matches_the_textbook_values() -> None:
    # Wilson 95 % intervals as published for 0/10 (Newcombe 1998) and 5/10.
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    low, high = wilson(195, 200)
    assert low < 0.975 < high and high < 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_brier_and_reliability_on_a_hand_made_example() -> None:
    # Three positions where a player was given about 75 %: two won, one lost;
    # a sure 100 % that came true, a 5 % that came true, and a half share of a tie.
    pairs = [(0.72, 1.0), (0.75, 1.0), (0.78, 0.0), (1.0, 1.0), (0.05, 1.0), (0.5, 0.5)]
    expected = (0.28**2 + 0.25**2 + 0.78**2 + 0.0 + 0.95**2 + 0.0) / 6
    assert brier(pairs) == pytest.approx(expected)
    table = {(b.low, b.high): b for b in reliability(pairs)}
    assert sorted(table) == [(0, 10), (50, 60), (70, 80), (90, 100)]
    seventy = table[(70, 80)]
    assert seventy.count == 3
    assert seventy.predicted == pytest.approx(0.75)
    assert seventy.won == pytest.approx(2 / 3)
    assert table[(90, 100)].count == 1 and table[(90, 100)].won == 1.0
    assert table[(50, 60)].won == 0.5
    with pytest.raises(ValueError):
        brier([])


def test_shares_split_a_shared_win_and_need_a_finished_game() -> None:
    _, states = play_game(3, 3, "greedy")
    result = shares(states[-1])
    assert sum(result) == pytest.approx(1.0)
    assert all(s in (0.0, 1.0) or 0 < s < 1 for s in result)
    with pytest.raises(ValueError):
        shares(states[0])


def test_the_seat_of_the_search_rotates_with_the_seed() -> None:
    keys = [t.key for t in strength_tasks(4, 4, "greedy", 600)]
    assert keys == [f"strength/4p/greedy/600/{s}" for s in range(4)]


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_two_tiny_strength_games_are_stored_resumed_and_repeatable(tmp_path: Path) -> None:
    tasks = strength_tasks(2, 2, "random", budget=8)
    first = tmp_path / "a.jsonl"
    calls: list[tuple[int, int]] = []
    found = run(tasks, first, jobs=1, limit=1, progress=lambda d, t: calls.append((d, t)))
    assert len(found) == 1 and calls == [(1, 1)]  # a chunk of one game
    found = run(tasks, first, jobs=1)
    assert len(found) == 2 and len(_lines(first)) == 2
    again = run(tasks, first, jobs=1, progress=lambda d, t: calls.append((d, t)))
    assert again == found and len(_lines(first)) == 2 and calls == [(1, 1)]  # nothing replayed
    for result in found.values():
        assert result["won"] in (0.0, 0.5, 1.0) and result["turns"] > 0
    fresh = run(tasks, tmp_path / "b.jsonl", jobs=1)
    assert ({k: {**v, "seconds": 0} for k, v in fresh.items()}
            == {k: {**v, "seconds": 0} for k, v in found.items()})


def test_results_of_other_source_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    task = Task("strength", 0, 2, 8, "random")
    path.write_text(json.dumps({"key": task.key, "fingerprint": "old", "result": {"won": 1.0}})
                    + "\n")
    assert figures.load_results(path, figures.fingerprint()) == {}
    assert run([task], path, jobs=1, limit=0) == {}


def test_a_calibration_position_predicts_every_player(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.setattr(figures, "CALIBRATION_PLAY_BUDGET", 4)
    tasks = figures.calibration_tasks(2, budget=8)
    assert [t.players for t in tasks] == [2, 3]
    found = run(tasks, tmp_path / "c.jsonl", jobs=1)
    for task in tasks:
        result = found[task.key]
        assert len(result["predicted"]) == len(result["result"]) == task.players
        assert sum(result["predicted"]) == pytest.approx(1.0, abs=0.02)
        assert sum(result["result"]) == pytest.approx(1.0)


def test_the_bench_script_reports_two_tiny_games(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tests/bench/bench_engine_analysis.py"), "--only", "strength",
         "--players", "2", "--games", "2", "--budget", "8", "--jobs", "1",
         "--results", str(tmp_path)],
        capture_output=True, text=True, check=True, cwd=ROOT).stdout
    lines = [line for line in out.splitlines() if line.startswith("2 players")]
    assert len(lines) == 2  # greedy and random
    assert all(" of 2 = " in line and "95 % CI" in line and "baseline" in line
               for line in lines)


def test_a_game_that_never_ends_is_counted_as_stalled(monkeypatch: pytest.MonkeyPatch) -> None:
    def stall(seed: int, players: int, budget: int) -> None:
        raise RuntimeError(f"game {seed} did not end within 1000 turns")

    monkeypatch.setattr(figures, "self_play", stall)
    assert figures.play_calibration(figures.calibration_tasks(1, 8)[0]) == {"stalled": True}
