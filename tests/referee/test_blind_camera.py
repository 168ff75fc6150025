"""Issue 41, defect 1: a frame the camera cannot use never ends a game.

The lights go out, the lens is covered, a frame comes black, tiny or huge,
the camera sees another table or no marker for a minute: the referee says so
once (screen note, so speech), keeps the game, and carries on when the
picture comes back.  Driven by scripted events, as the other machine tests.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.referee import Blind, Light, Motion, Phase, SetLight, TableRead
from companion.referee.splendor import Referee, TableReading, predict
from companion.rules.splendor.actions import Turn
from companion.screen.view import Mode
from tests.conftest import ROOT
from tests.referee.referee_helpers import NAMES, new_state, press, referee_at, show

#: the demo's set-up frame: a laid-out 3-player table
SETUP = ROOT / "tests" / "data" / "demo" / "frames" / "0000.jpg"


def _blind(ref: Referee, reason: str, times: int = 5) -> list:
    effects = []
    for _ in range(times):
        effects += ref.handle(Motion()) + ref.handle(Blind(reason))
    return effects


def test_a_black_frame_is_said_once_and_the_game_goes_on() -> None:
    state = new_state()
    ref = referee_at(state)
    effects = _blind(ref, "frame is black: is the lens covered or the light off?")
    assert ref.phase is Phase.WATCH and ref.state == state
    view = ref.view()
    assert view.mode is Mode.WAITING and "black" in view.note
    # said once: one attention light for the whole dark spell, not one per frame
    assert effects.count(SetLight(Light.ATTENTION)) == 1
    # the picture comes back with a turn played in the dark: it is proposed
    turn = Turn.parse("take wug")
    show(ref, state.apply(turn))
    assert ref.phase is Phase.PROPOSE and "black" not in ref.view().note
    press(ref, "confirm")
    assert ref.state == state.apply(turn) and len(ref.history) == 1


def test_the_picture_back_on_an_unchanged_table_says_so() -> None:
    state = new_state()
    ref = referee_at(state)
    _blind(ref, "frame size 30x30 is not a camera picture of a table")
    assert "30x30" in ref.view().note
    effects = show(ref, state)
    assert ref.phase is Phase.WATCH and "30x30" not in ref.view().note
    assert "camera sees the table again" in ref.view().note
    assert SetLight(Light.TURN) in effects


def test_a_new_reason_is_said_again() -> None:
    ref = referee_at(new_state())
    first = _blind(ref, "frame is black: is the lens covered or the light off?")
    second = _blind(ref, "frame size 30x30 is not a camera picture of a table")
    assert first.count(SetLight(Light.ATTENTION)) == second.count(SetLight(Light.ATTENTION)) == 1
    assert "30x30" in ref.view().note


def test_a_black_set_up_frame_waits_for_the_table() -> None:
    ref = Referee(NAMES)
    _blind(ref, "frame is black: is the lens covered or the light off?")
    assert ref.phase is Phase.SETUP and "black" in ref.view().text
    state = new_state()
    show(ref, state)
    assert ref.setup_state == state


def test_no_marker_for_many_frames_is_said_once() -> None:
    """The same marker-less reading over and over (a minute of a covered mat):
    before, identical abstaining readings settled once and the note never came."""
    ref = referee_at(new_state())
    blank = TableReading(calibrated=False)
    effects = []
    for _ in range(20):
        effects += ref.handle(Motion())
        for _ in range(2):
            effects += ref.handle(TableRead(blank))
    assert "enter by hand" in ref.view().note
    assert effects.count(SetLight(Light.ATTENTION)) == 1
    show(ref, predict(ref.state))
    assert "enter by hand" not in ref.view().note


def test_the_loop_says_a_dark_spell_once_on_screen_and_by_speech(tmp_path: Path) -> None:
    """The loop hands the reader's ``VisionError`` to the referee: one line, one
    utterance for many black frames; then the table's own reading goes on."""
    from companion.referee.driver import TableLoop
    from companion.speech.announcer import Announcer
    from companion.speech.speaker import Speaker
    from tests.speech.fakes import FakeVoice
    from vision.errors import VisionError

    state = new_state()
    dark = True

    def reader(image: np.ndarray) -> TableReading:
        if dark:
            raise VisionError("frame is black: is the lens covered or the light off?")
        return predict(state)

    speaker = Speaker(FakeVoice(), out_dir=tmp_path)
    lines: list[str] = []
    loop = TableLoop(referee_at(state), reader=reader, echo=lines.append,
                     speech=Announcer(speaker))
    frame = np.full((48, 64, 3), 100, np.uint8)
    for i in range(6):  # each frame a little different: each is read
        frame[0, 0] = i
        loop.feed_frame(frame)
    dark = False
    frame[0, 0] = 99
    for _ in range(3):
        loop.feed_frame(frame)
    assert speaker.wait(timeout=30)
    said = [u.text for u in speaker.spoken if "black" in u.text]
    speaker.close()
    assert len(said) == 1 and lines == [
        "camera: frame is black: is the lens covered or the light off? (the game goes on)"]
    assert loop.referee.state == state and "again" in loop.referee.view().note


# ------------------------------------------------------------- the command
def _frames(folder: Path, *images: np.ndarray | Path) -> Path:
    folder.mkdir()
    for i, image in enumerate(images):
        if isinstance(image, Path):
            shutil.copy(image, folder / f"{i:04d}{image.suffix}")
        else:
            cv2.imwrite(str(folder / f"{i:04d}.png"), image)
    return folder


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, camera: str) -> tuple[str, str]:
    argv = ["run", "--players", "3", "--db", str(tmp_path / "g.db"), "--camera", camera,
            "--buttons", "script:/dev/null", "--screenshots", str(tmp_path / "shots")]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return out, err


@pytest.mark.parametrize("bad", [
    pytest.param(np.zeros((480, 640, 3), np.uint8), id="black"),
    pytest.param(np.full((30, 30, 3), 128, np.uint8), id="30x30"),
])
def test_run_on_a_bad_recorded_frame_goes_on(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, bad: np.ndarray) -> None:
    """Before: a ``VisionError`` traceback ended ``run``.  Now one line, and the
    set-up frame after it is read (its screenshot is taken)."""
    frames = _frames(tmp_path / "frames", bad, bad, SETUP)
    out, _err = _run(capsys, tmp_path, f"recorded:{frames}")
    said = [line for line in out.splitlines() if line.startswith("camera:")]
    assert len(said) == 1 and "the game goes on" in said[0]
    assert any("setup" in p.name for p in (tmp_path / "shots").iterdir())


def test_run_on_a_video_that_starts_black_goes_on(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    video = tmp_path / "dark.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (640, 480))
    for _ in range(6):
        writer.write(np.zeros((480, 640, 3), np.uint8))
    writer.release()
    out, _err = _run(capsys, tmp_path, f"video:{video}")
    assert [line for line in out.splitlines() if line.startswith("camera:")] == [
        "camera: frame is black: is the lens covered or the light off? (the game goes on)"]
