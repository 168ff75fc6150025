"""The unseen-like world: a true lens, a set-up frame, reproducible, honest about what is hidden."""

from __future__ import annotations

import dataclasses
from collections import Counter

import cv2
import numpy as np
import pytest

from vision.layout import SUPPLY_ORDER
from vision.synth import world
from vision.synth.world import LENSES, world_frame

SMALL = (1536, 864)


def _marker_errors(frame: world.WorldFrame) -> np.ndarray:
    grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                  cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(grey)
    assert ids is not None
    errs = []
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.01)
    for c, i in zip(corners, ids.ravel(), strict=True):
        m = frame.layout.marker_index.get(int(i))
        if m is None:
            continue
        c = np.ascontiguousarray(c.reshape(4, 2))
        cv2.cornerSubPix(grey, c, (3, 3), (-1, -1), crit)
        errs.append(np.linalg.norm(c - frame.project(np.asarray(m.corners)), axis=1))
    return np.concatenate(errs)


def test_project_agrees_with_the_markers_the_wide_lens_rendered() -> None:
    frame = world_frame(2, "easy", 1, size=SMALL)
    err = _marker_errors(frame)
    assert len(err) >= 4 * 12  # the central mat's markers, all four corners each
    assert np.median(err) < 0.4 and err.max() < 0.8


def test_the_lens_is_the_stated_one_and_cv2_fisheye_agrees() -> None:
    stated = {"wide": (102, 67, 120), "standard": (66, 41, 75)}
    for name, lens in LENSES.items():
        assert np.allclose(lens.fov(), stated[name], atol=3.0)
    frame = world_frame(2, "easy", 2, size=(768, 432))
    cam = frame.camera
    pts = np.array([[x, y] for x in range(-400, 401, 100) for y in range(-220, 221, 110)], float)
    f = cam.f_px
    k = np.array([[f, 0, (cam.size[0] - 1) / 2], [0, f, (cam.size[1] - 1) / 2], [0, 0, 1]])
    rvec, _ = cv2.Rodrigues(cam.rotation)
    tvec = -cam.rotation @ np.asarray(cam.centre)
    obj = np.column_stack([pts, np.zeros(len(pts))]).reshape(-1, 1, 3)
    ref, _ = cv2.fisheye.projectPoints(obj, rvec, tvec, k, np.asarray(cam.lens.k))
    assert np.abs(ref.reshape(-1, 2) - frame.project(pts)).max() < 1e-3
    # a straight edge of the mat bends: its middle leaves the chord of its ends
    edge = frame.project(np.array([[-400.0, -224.0], [0.0, -224.0], [400.0, -224.0]]))
    assert abs(edge[1, 1] - (edge[0, 1] + edge[2, 1]) / 2) > 0.01 * cam.size[1]


def test_setup_frame_holds_the_full_supply_and_empty_player_slots() -> None:
    play = world_frame(2, "medium", 5, size=(768, 432))
    setup = world_frame(2, "medium", 5, size=(768, 432), setup=True)
    assert np.allclose(play.project(np.zeros((1, 2))), setup.project(np.zeros((1, 2))))
    supply = Counter(v for k, v in setup.contents.items() if k.startswith("supply."))
    assert supply == {c: 5 if c == "y" else 4 for c in SUPPLY_ORDER}  # 2 players' start
    assert not any(k.startswith("player") for k in setup.contents)
    assert {setup.contents[f"deck.{lv}"] for lv in (1, 2, 3)} == {"deck1", "deck2", "deck3"}
    assert sum(k.startswith("market.") for k in setup.contents) == 12
    assert "setup" in setup.tags and "hand" not in setup.hidden.values()


def test_the_same_seed_renders_the_same_frame() -> None:
    a = world_frame(2, "hard", 7, size=(576, 324))
    b = world_frame(2, "hard", 7, size=(576, 324))
    c = world_frame(2, "hard", 8, size=(576, 324))
    assert np.array_equal(a.image, b.image) and a.hidden == b.hidden
    assert a.image.shape == (324, 576, 3) and not np.array_equal(a.image, c.image)


def _without(monkeypatch: pytest.MonkeyPatch, **change: object) -> None:
    draw = world._draw_light

    def patched(*args: object) -> world.Light:
        return dataclasses.replace(draw(*args), **change)  # type: ignore[arg-type]

    monkeypatch.setattr(world, "_draw_light", patched)


def _region_diff(a: world.WorldFrame, b: world.WorldFrame, slot_id: str) -> float:
    poly = a.project(world._outline(a.layout.slot_index[slot_id]))
    mask = np.zeros(a.image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
    # the frames' noise differs: compare them smoothed, count what changed clearly
    diff = cv2.absdiff(cv2.GaussianBlur(a.image, (0, 0), 2),
                       cv2.GaussianBlur(b.image, (0, 0), 2)).max(2)
    return float((diff[mask > 0] > 15).mean())


def test_hidden_slots_are_really_covered(monkeypatch: pytest.MonkeyPatch) -> None:
    size = (1152, 648)
    seed = next(s for s in range(20)
                if "hand" in world_frame(2, "hard", s, size=(288, 162)).hidden.values())
    hard = world_frame(2, "hard", seed, size=size)
    _without(monkeypatch, hand=False, glare=())
    clear = world_frame(2, "hard", seed, size=size)
    assert "hand" in hard.tags and not clear.hidden.get("hand")
    for sid, why in hard.hidden.items():
        assert _region_diff(hard, clear, sid) > 0.12, (sid, why)
    untouched = [s.id for s in hard.layout.slots
                 if s.id not in hard.hidden and s.id in hard.contents and s.id not in hard.unseen]
    quiet = [_region_diff(hard, clear, sid) for sid in untouched]
    assert np.median(quiet) < 0.02


def test_a_given_scene_is_drawn_and_a_hand_can_be_forced() -> None:
    """For recording a game: the scene given is the one drawn, through the seed's camera."""
    from vision.synth.scene import random_scene

    scene = random_scene(2, 99, progress=0.3)
    a = world_frame(2, "easy", 4, size=(576, 324), scene=scene, hand=True, steady=1)
    b = world_frame(2, "easy", 4, size=(576, 324), hand=False)
    assert a.contents["market.2.1"] == scene.market[1][1]
    assert "hand" in a.tags and "hand" not in b.tags
    assert np.allclose(a.project(np.ones((1, 2))), b.project(np.ones((1, 2))))


def test_a_card_is_hidden_when_a_hand_covers_one_of_its_cost_circles() -> None:
    """A finger over a cost circle hides what the card is, though it covers little of
    its slot; a hand as large over the card's picture hides nothing a person reads."""
    from vision import cardface as cf

    frame = world_frame(2, "easy", 3, size=SMALL)
    cam, layout = frame.camera, frame.layout
    sid = next(s.id for s in layout.slots_of("card", "market")
               if s.id in frame.contents and s.id not in frame.unseen)
    slot = layout.slot_index[sid]

    def hand_over(face_xy: tuple[float, float], r: float) -> dict[str, np.ndarray]:
        cx = slot.center[0] + face_xy[0] - cf.CARD_W / 2
        cy = slot.center[1] + face_xy[1] - cf.CARD_H / 2
        a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        poly = cam.project(np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)]))
        mask = np.zeros((cam.size[1], cam.size[0]), np.uint8)
        cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
        return {"hand": mask}

    over_circle = hand_over(cf.circle_center(0), 6.0)
    over_picture = hand_over((40.0, 55.0), 6.0)
    assert world._hidden(cam, layout, over_circle, frame.unseen, frame.contents).get(sid) == "hand"
    assert sid not in world._hidden(cam, layout, over_picture, frame.unseen, frame.contents)
    # by the slot alone (no contents known) neither hides the card
    assert sid not in world._hidden(cam, layout, over_circle, frame.unseen)


def test_a_noble_is_hidden_by_a_hand_over_a_square_where_its_printing_puts_it() -> None:
    """The publisher's tiles print their squares lower than ours: a hand over the
    publisher's lowest square hides a publisher's tile, not one of ours."""
    from vision import cardface as cf

    frame = world_frame(2, "easy", 3, size=SMALL)
    cam, layout = frame.camera, frame.layout
    sid = next(s.id for s in layout.slots_of("noble")
               if s.id in frame.contents and s.id not in frame.unseen)
    slot = layout.slot_index[sid]
    cx = slot.center[0] + cf.PUBLISHER_SQUARE_X - cf.NOBLE_W / 2
    cy = slot.center[1] + cf.PUBLISHER_SQUARE_YS[0] + 1.5 - cf.NOBLE_H / 2
    a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    poly = cam.project(np.column_stack([cx + 5.0 * np.cos(a), cy + 5.0 * np.sin(a)]))
    mask = np.zeros((cam.size[1], cam.size[0]), np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
    hidden = world._hidden(cam, layout, {"hand": mask}, frame.unseen, frame.contents, True)
    ours = world._hidden(cam, layout, {"hand": mask}, frame.unseen, frame.contents, False)
    assert hidden.get(sid) == "hand" and sid not in ours
