"""Calibration: the homography from markers matches the renderer's true one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibrate import calibrate, rectify
from vision.synth import Camera, random_scene, render

WINDOW = (-400.0, -224.0, 20.0, 224.0)  # the market half of the central mat


def _project(h: np.ndarray, pts: list) -> np.ndarray:
    return cv2.perspectiveTransform(np.array(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


@pytest.mark.parametrize("tilt, rotation", [(0.0, 0.0), (12.0, 15.0), (20.0, -30.0)])
def test_homography_matches_the_camera(layout2, tilt, rotation) -> None:
    cam = Camera(px_per_mm=2.5, window=WINDOW, tilt=tilt, tilt_direction=40, rotation=rotation,
                 noise=2, blur=0.6, jpeg_quality=85)
    r = render(random_scene(2, 1), layout2, cam, seed=3)
    cal = calibrate(r.image, layout2)
    assert cal is not None and len(cal.markers) >= 5
    slots = [s for s in layout2.slots if s.kind in ("card", "deck")]
    pts = [p for s in slots for p in s.corners()]
    err = np.linalg.norm(_project(cal.h_for("centre"), pts) - _project(r.homography, pts), axis=1)
    assert err.max() < 2.5 * 1.0  # px; 1 mm is 2.5 px here


def test_white_reference_undoes_exposure_and_colour_temperature(layout2) -> None:
    cam = Camera(px_per_mm=2.0, window=WINDOW, exposure=0.6, colour_temperature=0.8)
    cal = calibrate(render(random_scene(2, 2), layout2, cam, seed=1).image, layout2)
    gain = cal.gain_at((-200.0, 0.0))
    # dimmer light needs gain > 1; the warm/cool cast gives unequal channel gains
    assert gain.min() > 1.3
    assert gain[0] < gain[2]  # blue boosted by +0.8 temperature: less blue gain than red


def test_one_marker_is_enough_and_none_is_none(layout2) -> None:
    marker = layout2.marker_index[8]  # beside the level-3 row
    x0, y0 = np.min(marker.corners, axis=0) - 10
    cam = Camera(px_per_mm=3.0, window=(x0, y0, x0 + 200, y0 + 110))
    r = render(random_scene(2, 3), layout2, cam, seed=2)
    cal = calibrate(r.image, layout2)
    assert cal is not None and cal.markers == (8,)
    blank = np.full((400, 600, 3), 180, np.uint8)
    assert calibrate(blank, layout2) is None


def test_rectify_gives_an_upright_slot_at_the_requested_scale(layout2) -> None:
    cam = Camera(px_per_mm=3.0, window=WINDOW, rotation=20)
    r = render(random_scene(2, 4), layout2, cam, seed=4)
    slot = layout2.slot_index["market.2.1"]
    patch = rectify(r.image, r.homography, slot, 4.0)
    assert patch.shape[:2] == (92 * 4, 67 * 4)


def _moved(layout, mat_name: str, dx: float, dy: float, degrees: float):
    """The layout with one mat laid a little off where the layout says (as by hand)."""
    import dataclasses
    import math

    mat = layout.mat(mat_name)
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)

    def move(p):
        x, y = p[0] - mat.center[0], p[1] - mat.center[1]
        return (mat.center[0] + x * c - y * s + dx, mat.center[1] + x * s + y * c + dy)

    mats = tuple(dataclasses.replace(m, center=move(m.center), angle=m.angle + degrees)
                 if m.name == mat_name else m for m in layout.mats)
    markers = tuple(dataclasses.replace(k, corners=tuple(move(p) for p in k.corners))
                    if k.mat == mat_name else k for k in layout.markers)
    slots = tuple(dataclasses.replace(sl, center=move(sl.center), angle=sl.angle + degrees)
                  if sl.mat == mat_name else sl for sl in layout.slots)
    return dataclasses.replace(layout, mats=mats, markers=markers, slots=slots)


def test_a_mat_laid_off_its_place_is_calibrated_by_its_own_markers(layout2) -> None:
    from vision.read import read_frame
    from vision.synth import PlayerScene, TableScene

    held = (2, 1, 0, 3, 1, 1)
    base = random_scene(2, 5)
    scene = TableScene(base.market, base.decks, base.nobles, base.supply,
                       (PlayerScene(held), base.players[1]))
    table = _moved(layout2, "player1", 25.0, -12.0, 3.0)  # where the mat really lies
    x0, _, x1, y1 = table.bounds()
    r = render(scene, table, Camera(px_per_mm=1.6, window=(x0, -230.0, x1, y1), noise=2),
               seed=3)
    obs = read_frame(r.image, layout2)  # read with the layout as printed
    zone = obs.zone_tokens("player1.tokens")
    assert zone is not None and zone.exact
    assert tuple(zone.counts[c] for c in "wugrky") == held
