"""An empty card place is read empty under a shadow, and never under a sleeve."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.calibrate import Calibration, calibrate
from vision.duel import cards as C
from vision.layout import Slot
from vision.synth.duel import DuelFrame, random_position, render_duel
from vision.synth.duel_faces import DUEL_CARD_MM


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


def _found(image: np.ndarray, cal: Calibration, slot: Slot) -> str:
    return C.find_card(image, cal.h_for_slot(slot), slot, cal.gain_at(slot.center),
                       DUEL_CARD_MM).state


def _over(frame: DuelFrame, slot: Slot, margin_mm: float) -> np.ndarray:
    """The place and ``margin_mm`` round it in frame pixels, as a filled mask."""
    x, y = slot.center
    w, h = slot.size[0] / 2 + margin_mm, slot.size[1] / 2 + margin_mm
    pts = frame.camera.project(np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h],
                                         [x - w, y + h]], np.float64))
    mask = np.zeros(frame.image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    return mask.astype(bool)


def test_an_empty_place_under_a_shadow_is_empty_and_a_card_is_not() -> None:
    frame, cal = _table()
    dark = frame.image.copy()
    for slot in (*_places(frame, True), *_places(frame, False)):
        dark[_over(frame, slot, 30.0)] = (dark[_over(frame, slot, 30.0)] * 0.3).astype(
            np.uint8)
    for slot in _places(frame, True):
        assert _found(frame.image, cal, slot) == "empty"
        assert _found(dark, cal, slot) == "empty"
    for slot in _places(frame, False):
        assert _found(dark, cal, slot) != "empty"


def test_a_sleeve_over_an_empty_place_is_not_read_empty() -> None:
    frame, cal = _table()
    slot = _places(frame, True)[0]
    sleeve = frame.image.copy()
    sleeve[_over(frame, slot, 12.0)] = (205, 210, 212)  # a pale grey sleeve, paper-like
    assert C.outline_depth(sleeve, cal.h_for_slot(slot), slot) < C.OUTLINE_DEPTH
    assert _found(sleeve, cal, slot) != "empty"
