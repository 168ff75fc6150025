"""``splendor-companion analyse``: a whole game analysed, stored, reviewed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.analysis import GameAnalysis, analyse_record
from companion.cli import main
from companion.record import GameLog
from companion.record.analyses import load_analysis
from companion.review import review_html
from companion.rules.splendor.simulate import play_game
from tests.review.logged import log_game


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    path = tmp_path_factory.mktemp("analyse") / "games.db"
    gid, record, _ = log_game(path, seed=3, take_back=())
    return path, gid, len(record.turns)  # type: ignore[attr-defined]


def test_a_game_is_analysed_the_same_in_one_or_two_processes() -> None:
    record, _ = play_game(12, 2, "greedy")
    one = analyse_record(record, budget=8, seed=4, jobs=1)
    two = analyse_record(record, budget=8, seed=4, jobs=2)
    assert one == two
    assert GameAnalysis.from_json(one.to_json()) == one
    other = analyse_record(record, budget=8, seed=5, jobs=1)
    assert other != one
    assert len(one.turns) == len(record.turns)
    assert [t.mover for t in one.turns] == [i % 2 for i in range(len(record.turns))]
    assert sorted(one.final) == [0.0, 100.0]  # the game is over: the result, not a guess
    for t in one.turns:
        assert abs(sum(t.chances) - 100.0) < 0.5
        assert t.loss == pytest.approx(max(0.0, t.best_chance - t.played_chance), abs=0.11)


def test_analyse_stores_its_result_and_review_shows_it(logged, capsys) -> None:
    path, gid, turns = logged
    argv = ["analyse", str(gid), "--db", str(path), "--budget", "8", "--jobs", "1"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert f"{turns} turns, 8 playouts per position, seed 0" in out
    assert "analysing [" in err and "stored the analysis" in err
    with GameLog.open(path) as log:
        stored = load_analysis(log, gid)
        assert stored is not None and stored.budget == 8
        analysis = GameAnalysis.from_json(stored.data)
        page = review_html(log, gid)
    assert len(analysis.turns) == turns
    assert 'id="win-chart"' in page and 'id="accuracy"' in page
    assert page.count('class="flagged"') == len(analysis.flagged())
    assert main(argv) == 0  # the second time it is read back, not searched again
    again, err = capsys.readouterr()
    assert again == out and "was analysed on" in err


def test_an_analysis_of_a_game_played_on_is_not_shown(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    gid, record, states = log_game(path, seed=3, take_back=(), finish=False, upto=10)
    assert main(["analyse", str(gid), "--db", str(path), "--budget", "4", "--jobs", "1"]) == 0
    with GameLog.open(path) as log:
        assert load_analysis(log, gid) is not None
        turn = record.turns[10]  # type: ignore[attr-defined]
        log.append_turn(gid, str(turn), states[11].digest())
        assert load_analysis(log, gid) is None
        assert 'id="no-analysis"' in review_html(log, gid)


def test_a_record_file_is_analysed_and_written_as_json(tmp_path: Path, capsys) -> None:
    record, _ = play_game(2, 2, "greedy")
    path = tmp_path / "game.txt"
    path.write_text(record.text())
    out_json = tmp_path / "a.json"
    assert main(["analyse", "--record", str(path), "--budget", "4", "--jobs", "1",
                 "--json", str(out_json)]) == 0
    data = json.loads(out_json.read_text())
    assert len(data["turns"]) == len(record.turns) and data["budget"] == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyse"], "name a logged game"),
        (["analyse", "--record", "/nonexistent/x.txt"], "x.txt: no such file"),
        (["analyse", "--record", "RECORD", "--budget", "lots"], "--budget 'lots'"),
        (["analyse", "--record", "RECORD", "--jobs", "0"], "--jobs must be"),
        (["analyse", "--record", "DUEL"], "d.txt: line 1: the record has no Board header"),
        (["analyse", "--record", "CHESS"], "analysis is for Splendor and Splendor Duel games"),
    ],
)
def test_failures_are_one_line(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    record, _ = play_game(2, 2, "greedy")
    (tmp_path / "r.txt").write_text(record.text())
    (tmp_path / "d.txt").write_text('[Game "Splendor Duel"]\n')
    (tmp_path / "c.txt").write_text('[Game "Chess"]\n')
    argv = [a.replace("RECORD", str(tmp_path / "r.txt")).replace("DUEL", str(tmp_path / "d.txt"))
            .replace("CHESS", str(tmp_path / "c.txt")) for a in argv]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_a_budget_is_playouts_or_seconds_converted_once() -> None:
    from companion.commands.analyse import parse_budget, playouts_for

    assert parse_budget("800") == (800, None)
    assert parse_budget("1.5s") == (None, 1.5)
    record, _ = play_game(2, 2, "greedy")
    short, long = playouts_for(record, 0.05), playouts_for(record, 0.5)
    assert 4 <= short < long  # ten times the seconds, more playouts (timing noise aside)
