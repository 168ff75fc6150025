"""``run --game duel`` and ``demo --game duel`` end to end: log, games, review, export, replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.demo.duel import Operator, presses
from companion.referee.duel.hooks import DuelReferee
from companion.referee.duel.loop import DuelLoop
from companion.rules.duel import play_game
from companion.rules.duel.view import view_of

SEED = 5


def _script(camera: bool, turns: int | None = None) -> tuple[str, str, list[str]]:
    """(record text, the button script the players press, the turns confirmed)."""
    record, states = play_game(SEED, ("Ann", "Bob"))
    count = len(record.turns) if turns is None else turns
    loop = DuelLoop(DuelReferee(("Ann", "Bob"), camera=camera), echo=lambda s: None)
    operator = Operator(states, record.turns)
    pressed: list[str] = []
    if camera:
        for index in range(count + 1):
            operator.shown = index
            loop.show(view_of(states[index]))
            pressed += presses(loop, operator)
    else:
        operator.shown = count  # the turns to enter by hand
        pressed += presses(loop, operator)
    # the same table may come from two notations (which of two cells a privilege took
    # before the take): the states must agree, the words may differ
    assert loop.referee.state == states[count]
    return record.text(), "\n".join(pressed) + "\n", list(loop.confirmed)


def test_run_duel_with_a_camera_logs_a_game_that_review_export_and_replay_take(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, script, expected = _script(camera=True)
    game, buttons, db = tmp_path / "game.txt", tmp_path / "buttons.txt", tmp_path / "log.db"
    game.write_text(text, encoding="utf-8")
    buttons.write_text(script, encoding="utf-8")
    assert main([
        "run", "--game", "duel", "--players", "2", "--names", "Ann,Bob",
        "--camera", f"game:{game}", "--buttons", f"script:{buttons}", "--db", str(db),
    ]) == 0
    out = capsys.readouterr().out
    assert "wins" in out
    assert main(["games", "--db", str(db)]) == 0
    assert "Splendor Duel" in capsys.readouterr().out
    exported = tmp_path / "export.txt"
    assert main(["export", "last", "--db", str(db), "--out", str(exported)]) == 0
    body = exported.read_text(encoding="utf-8")
    assert '[Game "Splendor Duel"]' in body
    for turn in expected:
        assert turn in body
    capsys.readouterr()
    assert main(["replay", str(exported)]) == 0
    assert "wins" in capsys.readouterr().out
    assert main(["review", "last", "--db", str(db)]) == 0
    assert main(["export", "last", "--format", "json", "--db", str(db)]) == 0
    assert '"notation"' in capsys.readouterr().out


def test_run_duel_with_the_buttons_alone_then_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, script, expected = _script(camera=False, turns=6)
    buttons, db = tmp_path / "buttons.txt", tmp_path / "log.db"
    buttons.write_text(script, encoding="utf-8")
    argv = ["run", "--game", "duel", "--players", "2", "--names", "Ann,Bob", "--no-camera",
            "--buttons", f"script:{buttons}", "--db", str(db)]
    assert main(argv) == 0
    assert main(["export", "last", "--db", str(db)]) == 0
    body = capsys.readouterr().out
    assert all(turn in body for turn in expected) and '[Result "*"]' in body
    buttons.write_text("", encoding="utf-8")
    assert main(argv) == 0  # resumes the unfinished game
    assert "Resumed Duel game 1 after 6 turns" in capsys.readouterr().out


def test_run_duel_refuses_bad_options_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    for argv, words in (
        (["--players", "3", "--no-camera"], "2 players"),
        (["--players", "2", "--camera", "usb:9"], "camera usb:9: cannot open USB camera 9"),
        (["--players", "2", "--camera", f"game:{tmp_path / 'none.txt'}"], "none.txt"),
    ):
        assert main(["run", "--game", "duel", *argv, "--db", db]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert err and words in err[-1] and "Traceback" not in "".join(err)


def test_demo_duel_plays_the_seeded_game_to_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--game", "duel", "--reader", "unsure", "--headless", "--quiet",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "0 silent wrong" in printed and "Winner:" in printed
    assert (out / "demo.sqlite").exists() and (out / "game.txt").exists()


def _live_presses() -> tuple[list[str], list[str], list[object], list[str]]:
    """(presses for the set-up, presses for the first turn, the two tables' views, the
    turns those presses confirm)."""
    record, states = play_game(SEED, ("Ann", "Bob"))
    loop = DuelLoop(DuelReferee(("Ann", "Bob"), camera=True), echo=lambda s: None)
    operator = Operator(states, record.turns)
    blocks: list[list[str]] = []
    for index in range(2):
        operator.shown = index
        loop.show(view_of(states[index]))
        blocks.append(list(presses(loop, operator)))
    return blocks[0], blocks[1], [view_of(states[0]), view_of(states[1])], list(loop.confirmed)


def test_run_duel_with_a_live_camera_reads_still_frames_and_logs_the_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run --game duel --camera usb:N``: frames watched for motion, still ones read by
    the Duel reader (stood in for here: a frame's grey level names its table), the
    proposals confirmed with the buttons, the game logged.  The camera shows the
    set-up for two seconds, then hands, then the table after the first turn."""
    import time

    import numpy as np

    import firmware.camera as cameras
    import vision.duel.read as duel_read

    setup_presses, turn_presses, views, confirmed = _live_presses()
    assert len(confirmed) == 1
    start = time.monotonic()

    class Table(cameras.FrameSource):
        def _open(self) -> None:
            self.last = -1.0

        def _read(self) -> cameras.Frame:
            time.sleep(0.01)
            t = time.monotonic() - start
            if t > 6.0:
                raise cameras.EndOfSource("the video ended")
            shown = 0 if t < 2.0 else 1
            moving = 2.0 <= t < 2.2
            image = (np.random.default_rng(int(t * 100)).integers(0, 255, (36, 64, 3), np.uint8)
                     if moving else np.full((36, 64, 3), 10 + 100 * shown, np.uint8))
            return cameras.Frame(image, t, f"frame at {t:.2f} s")

        def _close(self) -> None:
            pass

    monkeypatch.setattr(cameras, "parse_source", lambda spec, **kw: Table())
    monkeypatch.setattr(duel_read, "read_duel",
                        lambda image, calibration=None: views[int(image[0, 0, 0] > 60)])
    buttons, db = tmp_path / "buttons.txt", tmp_path / "log.db"
    buttons.write_text("wait 1.0\n" + "\n".join(setup_presses) + "\nwait 2.5\n"
                       + "\n".join(turn_presses) + "\n", encoding="utf-8")
    assert main(["run", "--game", "duel", "--players", "2", "--names", "Ann,Bob",
                 "--camera", "usb:0", "--buttons", f"script:{buttons}", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["export", "last", "--db", str(db)]) == 0
    body = capsys.readouterr().out
    assert '[Game "Splendor Duel"]' in body and confirmed[0] in body


def test_a_turn_whose_only_trace_is_an_unread_place_is_pointed_out() -> None:
    """A purchase pays into the bag and takes the card out of view: on the central
    mat it shows only as the place it left.  When the reader is unsure of that place
    the table reads as before, so the screen says which place it cannot see and that
    NEXT enters the turn; a complete reading takes the hint away again."""
    from dataclasses import replace

    record, states = play_game(SEED, ("Ann", "Bob"))
    loop = DuelLoop(DuelReferee(("Ann", "Bob"), camera=True), echo=lambda s: None)
    operator = Operator(states, record.turns)
    operator.shown = 0
    loop.show(view_of(states[0]))
    list(presses(loop, operator))
    assert loop.referee.history == [] and loop.referee.state == states[0]
    view = view_of(states[0])
    unsure = replace(view, pyramid=((None, *view.pyramid[0][1:]), *view.pyramid[1:]))
    loop.show(unsure)
    assert "cannot see pyramid level 1 place 1" in loop.referee.note
    assert "NEXT" in loop.referee.note
    loop.show(view)
    assert loop.referee.note == ""
