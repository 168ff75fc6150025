"""A privilege place under a warm lamp is known by its scroll's printed bars, but only
on a scroll yellower than the paper: a hand's fingers over an empty place show bars
too."""

from __future__ import annotations

import numpy as np

from vision.duel import read
from vision.duel.layout import build_duel_layout
from vision.layout import Slot
from vision.mats import PAPER

S = 6.0  # px per mm of the drawn table


def _place_with_bars(colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, Slot]:
    """Paper all round, the place filled with ``colour`` (BGR) and crossed by two
    darker bars along it, as the scroll's print (or two fingers) shows them."""
    src = build_duel_layout().slots_of("privilege", "privileges")[0]
    slot = Slot(src.id, src.kind, src.zone, src.mat, (60.0, 60.0), src.size, src.angle)
    image = np.zeros((round(120 * S), round(120 * S), 3), np.uint8)
    image[:] = PAPER
    w, h = src.size
    x0, y0 = round((60 - w / 2) * S), round((60 - h / 2) * S)
    x1, y1 = round((60 + w / 2) * S), round((60 + h / 2) * S)
    image[y0:y1, x0:x1] = colour
    for at in (0.35, 0.65):
        cx = round(x0 + at * (x1 - x0))
        image[y0:y1, cx - 4:cx + 4] = (np.array(colour) * 0.75).astype(np.uint8)
    return image, np.diag([S, S, 1.0]), slot


def test_bars_on_a_scroll_yellower_than_the_paper_are_a_privilege() -> None:
    scroll = (PAPER[0] - 8, PAPER[1] - 1, PAPER[2])  # 4 yellower (Lab b) than the paper
    image, h, slot = _place_with_bars(scroll)
    got = read._presence(image, h, slot, np.ones(3, np.float32), "fill")
    assert got.value == "present"


def test_bars_as_light_and_as_yellow_as_the_paper_are_not() -> None:
    image, h, slot = _place_with_bars(PAPER)
    got = read._presence(image, h, slot, np.ones(3, np.float32), "fill")
    assert got.value != "present"
