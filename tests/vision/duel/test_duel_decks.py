"""A deck's place: a sleeve over all of it hides the place's printed outline, so its
"present" is never sure; an empty place in a deep shadow is paper by the band's own
balance, however much it must be lifted."""

from __future__ import annotations

import cv2
import numpy as np

from vision.duel import read
from vision.duel.layout import build_duel_layout
from vision.layout import Slot
from vision.mats import PAPER

S = 4.0  # px per mm of the drawn table


def _deck_place(back: tuple[int, int, int] | None) -> tuple[np.ndarray, np.ndarray, Slot]:
    """Paper round a deck's place (67 x 92 mm) with its printed outline; ``back``: a
    deck's back colour on it (57.5 x 88 mm), None: the place empty."""
    src = next(s for s in build_duel_layout().slots if s.kind == "deck")
    slot = Slot(src.id, src.kind, src.zone, src.mat, (60.0, 70.0), src.size, 0.0)
    image = np.zeros((round(140 * S), round(120 * S), 3), np.uint8)
    image[:] = PAPER
    cv2.rectangle(image, (round(26.5 * S), round(24 * S)), (round(93.5 * S), round(116 * S)),
                  (110, 110, 110), round(0.8 * S))
    if back is not None:
        image[round(26 * S):round(114 * S), round(31.25 * S):round(88.75 * S)] = back
    return image, np.diag([S, S, 1.0]), slot


def test_a_deck_shows_its_place_s_outline_and_is_sure() -> None:
    image, h, slot = _deck_place((40, 60, 70))
    got = read._presence(image, h, slot, np.ones(3, np.float32), "paper")
    assert got.value == "present" and got.sure


def test_a_sleeve_over_the_whole_place_is_no_sure_deck() -> None:
    image, h, slot = _deck_place(None)
    image[:, :] = (40, 110, 40)  # a green sleeve over the place and all round it
    image[:, :round(10 * S)] = PAPER  # (the paper further off, for the balance)
    got = read._presence(image, h, slot, np.ones(3, np.float32), "paper")
    assert not got.sure


def test_an_empty_place_in_a_deep_shadow_is_empty() -> None:
    image, h, slot = _deck_place(None)
    dark = (image.astype(np.float32) / 8).astype(np.uint8)  # lit an eighth of the markers'
    got = read._presence(dark, h, slot, np.ones(3, np.float32) * 2, "paper")
    assert got.value == ""
