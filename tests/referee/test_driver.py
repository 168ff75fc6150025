"""The loop around the referee: frames become motion or readings, effects reach the world."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.referee.driver import TableLoop, button_event
from companion.referee.splendor import Referee, TableReading, predict
from companion.rules.splendor.actions import Turn
from firmware.buttons import Button, ButtonEvent, Gesture
from firmware.indicators import NullIndicators
from tests.referee.referee_helpers import new_state, tokens, with_player


def _frame(value: int) -> np.ndarray:
    return np.full((60, 80, 3), value, np.uint8)


def test_frames_lights_buzzer_and_buttons() -> None:
    state = with_player(new_state(), 2, tokens=tokens("rr"))
    state = replace(state, current=1)
    readings = {10: predict(state), 200: predict(with_player(state, 1, tokens=tokens("rr")))}
    reads: list[int] = []

    def reader(image: np.ndarray) -> TableReading:
        reads.append(int(image[0, 0, 0]))
        return readings[int(image[0, 0, 0])]

    lights = NullIndicators()
    lines: list[str] = []
    loop = TableLoop(Referee([p.name for p in state.players], state=state), reader=reader,
                     indicators=lights, echo=lines.append)
    for value in (10, 10, 10, 200, 200, 200):  # a still table, then Bob's illegal take
        loop.feed_frame(_frame(value))
    assert reads == [10, 200]  # identical frames are read once; moving frames never
    assert "beep error" in lights.history and "on error" in lights.history
    assert loop.waiting_for_table
    # The table is put right and Bob takes three gems; CONFIRM from a panel event.
    for value in (10, 10):
        loop.feed_frame(_frame(value))
    readings[90] = predict(state.apply(Turn.parse("take wur")))
    for value in (90, 90, 90):
        loop.feed_frame(_frame(value))
    assert not loop.waiting_for_table
    loop.press(ButtonEvent(Gesture.PRESS, Button.CONFIRM))
    assert loop.confirmed == ["take wur"] and lines[-1].strip().startswith("1. take wur")
    loop.press(ButtonEvent(Gesture.HOLD, Button.BACK))
    assert loop.confirmed == [] and "undone" in lines[-1]


def test_button_events_map_onto_the_referee() -> None:
    assert button_event("undo").__class__.__name__ == "Undo"
    assert button_event(ButtonEvent(Gesture.HOLD, Button.NEXT)) is None
    press = button_event(ButtonEvent(Gesture.PRESS, Button.NEXT))
    assert press is not None and press.key.value == "next"  # type: ignore[union-attr]
