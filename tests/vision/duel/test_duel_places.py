"""A card place's emptiness is the slots network's answer: an empty place is empty
in plain light and under a light shadow, no place is read the other way under a
deep one, and a sleeve over an empty place is never read empty."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.calibrate import Calibration, calibrate
from vision.duel.read import PlaceReading, read_duel_places
from vision.layout import Slot
from vision.synth.duel import DuelFrame, random_position, render_duel


@lru_cache(maxsize=1)
def _table() -> tuple[DuelFrame, Calibration]:
    # game 3 at its drawn point: two royals taken, so two royal places are empty
    frame = render_duel(random_position(3), 3, split="design", difficulty="easy",
                        framing="centre", hand=False)
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None
    return frame, cal


def _places(frame: DuelFrame, empty: bool) -> list[Slot]:
    out = [s for s in frame.layout.slots_of("noble", "royals")
           if s.id not in frame.unseen and (s.id in frame.contents) != empty]
    assert out
    return out


def _read(image: np.ndarray, frame: DuelFrame, cal: Calibration) -> dict[str, PlaceReading]:
    return read_duel_places(image, cal, layout=frame.layout).places


def _over(frame: DuelFrame, slot: Slot, margin_mm: float) -> np.ndarray:
    """The place and ``margin_mm`` round it in frame pixels, as a filled mask."""
    x, y = slot.center
    w, h = slot.size[0] / 2 + margin_mm, slot.size[1] / 2 + margin_mm
    pts = frame.camera.project(np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h],
                                         [x - w, y + h]], np.float64))
    mask = np.zeros(frame.image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    return mask.astype(bool)


def _shaded(frame: DuelFrame, light: float) -> np.ndarray:
    """The frame with every royal place and 30 mm round it lit at ``light``."""
    dark = frame.image.copy()
    for slot in (*_places(frame, True), *_places(frame, False)):
        over = _over(frame, slot, 30.0)
        dark[over] = (dark[over] * light).astype(np.uint8)
    return dark


def test_an_empty_place_is_empty_in_plain_light_and_under_a_light_shadow() -> None:
    frame, cal = _table()
    lit, shaded = _read(frame.image, frame, cal), _read(_shaded(frame, 0.8), frame, cal)
    for slot in _places(frame, True):
        assert lit[slot.id].value == "" and lit[slot.id].sure
        assert shaded[slot.id].value == ""
    for slot in _places(frame, False):
        assert lit[slot.id].value == frame.contents[slot.id]
        assert shaded[slot.id].value == frame.contents[slot.id]


def test_under_a_deep_shadow_no_place_is_read_the_other_way() -> None:
    """Lit at 0.3 a person can hardly tell: an empty place may be unsure, never a
    card; a card may be unsure, never empty."""
    frame, cal = _table()
    dark = _read(_shaded(frame, 0.3), frame, cal)
    for slot in _places(frame, True):
        assert dark[slot.id].value in ("", None)
    for slot in _places(frame, False):
        assert dark[slot.id].value in (frame.contents[slot.id], None)


def test_a_sleeve_over_an_empty_place_is_not_read_empty() -> None:
    frame, cal = _table()
    slot = _places(frame, True)[0]
    sleeve = frame.image.copy()
    sleeve[_over(frame, slot, 12.0)] = (205, 210, 212)  # a pale grey sleeve, paper-like
    assert _read(sleeve, frame, cal)[slot.id].value != ""
