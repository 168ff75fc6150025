"""The ``run`` and ``demo`` sub-commands: clear one-line failures, button-only games, resume."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.demo.splendor import Operator, demo_game
from companion.referee.splendor import Key, Press, Referee


def _fails(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) >= 1 and words in err[-1] and "Traceback" not in "".join(err)


def test_bad_arguments_fail_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    db = str(tmp_path / "g.db")
    _fails(capsys, ["run", "--players", "5", "--no-camera", "--db", db], "2 to 4 players")
    _fails(capsys, ["run", "--players", "3", "--names", "A,B", "--no-camera"], "2 names")
    _fails(capsys, ["run", "--players", "2", "--names", "A,A", "--no-camera"], "different")
    _fails(capsys, ["run", "--players", "3", "--camera", "recorded:/no/such/dir"], "--no-camera")
    _fails(capsys, ["run", "--players", "3", "--camera", "teleport:1"], "unknown camera")
    _fails(
        capsys,
        ["run", "--players", "3", "--no-camera", "--buttons", "script:/no/such/file"],
        "cannot read button script",
    )
    _fails(capsys, ["run", "--players", "2", "--no-camera", "--screen", "big"], "WxH")
    _fails(capsys, ["demo", "--recording", str(tmp_path)], "not a recording")


def _button_script(turns: int) -> tuple[str, list[str]]:
    """What players press to set the demo game up and play ``turns`` turns by hand."""
    record, states = demo_game()
    ref = Referee(record.players)
    operator = Operator(states[0], record.turns)
    presses: list[str] = []

    def drain() -> None:
        while (press := operator.next_press(ref)) is not None:
            presses.append(press)
            ref.handle(Press(Key(press)))

    drain()
    for shown in range(1, turns + 1):
        operator.saw_frame(shown)
        drain()
    assert len(ref.history) == turns
    return "\n".join(presses) + "\n", [str(t) for t in record.turns[:turns]]


def _live_turns(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT notation FROM turns WHERE taken_back_at IS NULL ORDER BY seq"
        ).fetchall()
    return [r[0] for r in rows]


def test_a_game_entered_with_the_buttons_alone_and_resumed(tmp_path: Path) -> None:
    script, turns = _button_script(3)
    lines = script.splitlines()
    setup_and_two = len(lines) - lines[::-1].index("confirm")  # cut after the 3rd turn
    first = tmp_path / "first.txt"
    # The first sitting: set-up and two turns, then the power goes.
    two_turn_script, _ = _button_script(2)
    first.write_text(two_turn_script)
    db = tmp_path / "games.db"
    names = "Ann,Bob,Cy"
    argv = ["run", "--players", "3", "--names", names, "--no-camera", "--db", str(db)]
    assert main([*argv, "--buttons", f"script:{first}"]) == 0
    assert _live_turns(db) == turns[:2]
    # The second sitting resumes and plays the third turn (its presses only).
    third = lines[len(two_turn_script.splitlines()) : setup_and_two]
    second = tmp_path / "second.txt"
    second.write_text("\n".join(third) + "\n")
    assert main([*argv, "--resume", "yes", "--buttons", f"script:{second}"]) == 0
    assert _live_turns(db) == turns


def test_undo_from_the_buttons_is_logged(tmp_path: Path) -> None:
    script, turns = _button_script(2)
    path = tmp_path / "s.txt"
    path.write_text(script + "undo\n")
    db = tmp_path / "games.db"
    argv = ["run", "--players", "3", "--names", "Ann,Bob,Cy", "--no-camera", "--db", str(db)]
    assert main([*argv, "--buttons", f"script:{path}"]) == 0
    assert _live_turns(db) == turns[:1]


@pytest.mark.slow
def test_run_referees_recorded_pictures_with_scripted_buttons(tmp_path: Path) -> None:
    """``run --camera recorded:DIR``: each picture a still table, in step with the buttons."""
    from companion.demo.splendor import Frames, load_recording, play
    from companion.referee.driver import TableLoop
    from companion.referee.splendor.observe import from_observation
    from tests.conftest import ROOT
    from vision.layout import build_layout
    from vision.read import read_frame

    recording = ROOT / "tests" / "data" / "demo"
    game, _ = load_recording(recording)
    record, states = demo_game()
    layout = build_layout(3)
    # What a player who knows the game presses while these pictures are read.
    loop = TableLoop(
        Referee(record.players),
        reader=lambda image: from_observation(read_frame(image, layout), 3),
        echo=lambda line: None,
    )
    steps = play(loop, Frames(recording, game), len(game.turns) + 1, None,
                 Operator(states[0], record.turns))
    script = tmp_path / "buttons.txt"
    script.write_text("\n".join(s.value for s in steps if s.kind == "button") + "\n")
    db = tmp_path / "games.db"
    argv = ["run", "--players", "3", "--names", "Ann,Bob,Cy", "--db", str(db),
            "--camera", f"recorded:{recording / 'frames'}", "--buttons", f"script:{script}"]
    assert main(argv) == 0
    assert _live_turns(db) == [str(t) for t in game.turns]


def test_the_screen_offers_to_resume_or_start_afresh(tmp_path: Path) -> None:
    script, turns = _button_script(1)
    db = tmp_path / "games.db"
    argv = ["run", "--players", "3", "--names", "Ann,Bob,Cy", "--no-camera", "--db", str(db)]
    first = tmp_path / "first.txt"
    first.write_text(script)
    assert main([*argv, "--buttons", f"script:{first}"]) == 0
    # CONFIRM on "Resume" and nothing else: the game and its turn are still there.
    keep = tmp_path / "keep.txt"
    keep.write_text("confirm\n")
    assert main([*argv, "--buttons", f"script:{keep}"]) == 0
    assert _live_turns(db) == turns
    # NEXT to "Start a new game", CONFIRM: the old game is abandoned, a new one set up.
    fresh = tmp_path / "fresh.txt"
    fresh.write_text("next\nconfirm\n" + script)
    assert main([*argv, "--buttons", f"script:{fresh}"]) == 0
    with sqlite3.connect(db) as con:
        games = con.execute("SELECT id FROM games ORDER BY id").fetchall()
        last = con.execute(
            "SELECT notation FROM turns WHERE game_id = ? ORDER BY seq", (games[-1][0],)
        ).fetchall()
    assert len(games) == 2 and [r[0] for r in last] == turns


def test_a_stored_lens_that_cannot_be_read_fails_with_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``[camera] lens`` names the file of ``calibrate --lens``: a bad one is said at start."""
    from tests.conftest import ROOT

    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nlens = "{tmp_path / "no-lens.json"}"\n', encoding="utf-8")
    monkeypatch.setenv("SPLENDOR_COMPANION_CONFIG", str(config))
    frames = ROOT / "tests" / "data" / "demo" / "frames"
    _fails(capsys, ["run", "--players", "3", "--db", str(tmp_path / "g.db"),
                    "--camera", f"recorded:{frames}", "--buttons", "script:/dev/null"],
           "no such lens file")
