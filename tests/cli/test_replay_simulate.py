"""The replay and simulate commands, used as a player would."""

from __future__ import annotations

import pytest

from companion.cli import main
from tests.rules.golden_splendor import GOLDEN


def test_simulate_writes_records_that_replay_accepts(tmp_path, capsys):
    out = tmp_path / "games"
    argv = ["simulate", "--players", "3", "--games", "2", "--seed", "5", "--out", str(out)]
    assert main(argv) == 0
    files = sorted(out.glob("game-*.txt"))
    assert [f.name for f in files] == ["game-5.txt", "game-6.txt"]
    capsys.readouterr()
    assert main(["replay", str(files[0])]) == 0
    text = capsys.readouterr().out
    assert "Final standings:" in text and "wins" in text


def test_replay_names_the_line_of_the_first_illegal_turn(tmp_path, capsys):
    good = (GOLDEN / "seed1-2p-random.txt").read_text().splitlines()
    index = next(i for i, line in enumerate(good) if line.startswith("3. "))
    good[index] = "3. take rrr"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(good))
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert f"line {index + 1}: turn 3" in err[0] and "not 3 red" in err[0]


def test_replay_reports_unreadable_notation_with_its_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "Splendor"]\n\n1. take wug\n2. grab it\n')
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "line 4: cannot read turn 2: 'grab' is not an action" in err


def test_replay_checks_the_result_header(tmp_path, capsys):
    text = (GOLDEN / "seed1-2p-random.txt").read_text()
    lines = [
        '[Result "Nobody 99 (0 cards)"]' if line.startswith("[Result") else line
        for line in text.splitlines()
    ]
    path = tmp_path / "g.txt"
    path.write_text("\n".join(lines))
    assert main(["replay", "-q", str(path)]) == 1
    assert "the Result header says" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay", "/nonexistent/game.txt"], "no such file"),
        (["simulate", "--players", "5"], "2 to 4 players, not 5"),
        (["simulate", "--games", "0"], "--games 0: give 1 to"),
        (["simulate", "--policy", "clever"], "unknown policy"),
    ],
)
def test_bad_input_gives_one_clear_line(argv, message, capsys, tmp_path):
    assert main([*argv, *(["--out", str(tmp_path)] if argv[0] == "simulate" else [])]) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_every_command_has_help(capsys):
    from companion.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in sub.choices:  # type: ignore[union-attr]
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0
        assert "usage:" in capsys.readouterr().out


def test_duel_simulate_and_replay(tmp_path, capsys):
    out = tmp_path / "duel"
    argv = ["simulate", "--game", "duel", "--games", "1", "--seed", "2", "--out", str(out)]
    assert main(argv) == 0
    path = out / "duel-2.txt"
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert "wins" in capsys.readouterr().out
    lines = path.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("2. "))
    lines[index] = "2. take a1,e5"
    path.write_text("\n".join(lines))
    assert main(["replay", "-q", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"line {index + 1}" in err and len(err.strip().splitlines()) == 1


def test_duel_is_for_two_players(tmp_path, capsys):
    assert main(["simulate", "--game", "duel", "--players", "3", "--out", str(tmp_path)]) == 1
    assert "Splendor Duel is for 2 players, not 3" in capsys.readouterr().err
