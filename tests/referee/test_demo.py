"""The recorded demo game, end to end and headless, through the real reader and screen.

The committed recording holds the first turns of the demo game (frames and
the button presses made while they were read).  They are played through the
real card reader, referee, screen and game log; the rest of the game goes on
with scripted readings (rendering and reading a whole game takes minutes, the
demo does that), so the final standings are checked too.

The buttons are pressed by the operator who knows the game, not replayed
from ``buttons.txt``: the reader is still being improved, and a replayed
script is only valid for the reads it was recorded against.  The test
insists that the camera's proposals were used (not everything entered by
hand).  Replaying a script is tested without pixels below.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.demo.splendor import (
    Frames,
    Operator,
    demo_game,
    load_recording,
    parse_steps,
    play,
)
from companion.record import GameLog
from companion.referee.driver import TableLoop
from companion.referee.splendor import Referee, predict
from companion.referee.splendor.observe import from_observation
from companion.screen.draw import Screen
from tests.conftest import ROOT

RECORDING = ROOT / "tests" / "data" / "demo"


class _StateFrames:
    """Stand-in frames for the rest of the game: a distinct flat image per state."""

    def get(self, index: int) -> np.ndarray:
        image = np.full((48, 64, 3), (index * 53) % 256, np.uint8)
        image[0, 0] = (index % 256, index // 256, 0)
        return image


@pytest.mark.slow
def test_the_recorded_game_end_to_end(tmp_path: Path) -> None:
    from vision.layout import build_layout
    from vision.read import read_frame

    record, states = demo_game()
    game, steps = load_recording(RECORDING)
    assert steps is not None and steps[0].kind == "frame"
    recorded = len(game.turns)
    assert 1 <= recorded < len(record.turns)
    assert game.turns == record.turns[:recorded]  # made from the demo game

    layout = build_layout(3)
    log = GameLog.open(tmp_path / "games.db")
    lines: list[str] = []
    loop = TableLoop(
        Referee(record.players),
        reader=lambda image: from_observation(read_frame(image, layout), 3),
        screen=Screen((800, 480)),
        log=log,
        shots=tmp_path / "screens",
        echo=lines.append,
    )
    frames = Frames(RECORDING, game)
    assert frames.missing == []  # nothing is rendered: the frames are committed
    at_table = Operator(states[0], record.turns)
    play(loop, frames, recorded + 1, None, at_table)
    assert loop.confirmed == [str(t) for t in record.turns[:recorded]]
    assert loop.timings.reads_ms  # the pixels really were read
    assert at_table.proposed >= recorded // 2  # mostly confirmed from the camera's proposal

    # The rest of the game with scripted readings of the true states.
    def scripted(image: np.ndarray) -> object:
        return predict(states[int(image[0, 0, 0]) + 256 * int(image[0, 0, 1])])

    loop.reader = scripted  # type: ignore[assignment]
    operator = Operator(states[0], record.turns)
    play(loop, _StateFrames(), len(states), None, operator, start=recorded + 1)

    assert loop.confirmed == [str(t) for t in record.turns]
    assert len(lines) == len(record.turns) and lines[0].strip().startswith("1. take")
    assert loop.outcome == states[-1].outcome()
    assert loop.finished
    game_id = loop.finished_game_id
    assert game_id is not None and loop.game_id is None
    logged = log.record(game_id)
    assert [str(t) for t in logged.turns] == [str(t) for t in record.turns]
    assert log.game(game_id).finished
    names = [p.name for p in loop.screenshots]
    assert names[0].endswith("setup.png") and names[-1].endswith("standings.png")
    assert all(p.stat().st_size > 1000 for p in loop.screenshots)
    log.close()


def test_a_button_script_replays_the_same_game() -> None:
    """What the operator pressed, replayed as a script, gives the same confirmed turns."""
    record, states = demo_game()

    def reader(image: np.ndarray) -> object:
        return predict(states[int(image[0, 0, 0]) + 256 * int(image[0, 0, 1])])

    first = TableLoop(Referee(record.players), reader=reader, echo=lambda s: None)
    script = play(first, _StateFrames(), len(states), None, Operator(states[0], record.turns))
    assert first.confirmed == [str(t) for t in record.turns]
    text = "\n".join(str(s) for s in script)
    again = TableLoop(Referee(record.players), reader=reader, echo=lambda s: None)
    play(again, _StateFrames(), len(states), parse_steps(text), None)
    assert again.confirmed == first.confirmed and again.outcome == states[-1].outcome()
