"""The renderer: deterministic, draws what the scene says, follows a game state."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth import Camera, random_scene, render, render_scene, scene_from_state

WINDOW = (-400.0, -224.0, 20.0, 224.0)


def test_same_seed_same_frame_other_seed_other_frame(layout2) -> None:
    scene = random_scene(2, 1)
    cam = Camera.random(np.random.default_rng(3), hard=True, window=WINDOW)
    a = render_scene(scene, layout2, cam, seed=5)
    b = render_scene(scene, layout2, cam, seed=5)
    c = render_scene(scene, layout2, cam, seed=6)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert a.dtype == np.uint8 and a.ndim == 3


def test_contents_record_what_was_drawn(layout2) -> None:
    scene = random_scene(2, 2)
    r = render(scene, layout2, Camera(px_per_mm=1.0), seed=1)
    assert r.contents["market.1.0"] == scene.market[0][0]
    supply = [r.contents.get(s.id) for s in layout2.slots_of("token", "supply")]
    assert sum(1 for x in supply if x) == sum(scene.supply)
    assert not r.covered  # no hands


def test_a_hand_covers_some_slots(layout2) -> None:
    r = render(random_scene(2, 3), layout2, Camera(px_per_mm=1.0, window=WINDOW, hands=1),
               seed=4)
    assert r.covered


def test_tilt_gives_a_perspective_view(layout2) -> None:
    flat = render(random_scene(2, 4), layout2, Camera(px_per_mm=1.0, window=WINDOW), seed=1)
    tilted = render(random_scene(2, 4), layout2,
                    Camera(px_per_mm=1.0, window=WINDOW, tilt=20, tilt_direction=90), seed=1)
    assert abs(flat.homography[2, :2]).max() < 1e-9
    assert abs(tilted.homography[2, :2]).max() > 1e-5


def test_scene_from_a_game_state(layout2) -> None:
    simulate = pytest.importorskip("companion.rules.splendor.simulate")
    _, states = simulate.play_game(7, 2, "greedy")
    state = states[len(states) // 2]
    scene = scene_from_state(state)
    assert scene.market[0] == tuple(c.id if c else None for c in state.market[0])
    assert scene.supply == state.supply.counts
    assert len(scene.players) == 2
    assert scene.players[0].tableau == tuple(c.id for c in state.players[0].cards)
    r = render(scene, layout2, Camera(px_per_mm=1.0), seed=0)
    assert r.image.size


def test_steady_rendering_keeps_what_a_turn_did_not_touch(layout2) -> None:
    """The demo renders steady: a card that stays put looks the same in the next frame
    (only the camera noise changes), one that changed does not."""
    from dataclasses import replace

    from companion.rules.splendor import catalogue
    from vision.calibrate import calibrate
    from vision.read_cache import signature
    from vision.slot_jobs import make_job

    scene = random_scene(2, 8)
    row = list(scene.market[1])
    row[2] = next(c.id for c in catalogue.cards_of_level(2) if c.id not in row)
    changed = replace(scene, market=(scene.market[0], tuple(row), scene.market[2]))
    cam = Camera(px_per_mm=3.0, noise=2)
    a = render(scene, layout2, cam, seed=1, steady=5).image
    b = render(changed, layout2, cam, seed=2, steady=5).image
    cal = calibrate(a, layout2)
    assert cal is not None

    def mad(slot_id: str) -> float:
        slot = layout2.slot_index[slot_id]
        sa, sb = (signature(make_job(img, cal, slot).crop) for img in (a, b))
        return float(abs(sa - sb).mean())

    assert mad("market.1.0") < 3 and mad("market.3.3") < 3 and mad("supply.w.0") < 3
    assert mad("market.2.2") > 10


def test_slots_beyond_the_drawn_table_are_not_in_view() -> None:
    """Only the camera's window (plus CANVAS_PAD_MM) is drawn; a steep view shows bare
    table colour beyond it, so the truth counts slots there as unseen."""
    from vision.layout import build_layout
    from vision.synth.render import CANVAS_PAD_MM, drawn

    slot = build_layout(2).slot_index["market.1.0"]
    xs = [x for x, _ in slot.corners()]
    ys = [y for _, y in slot.corners()]
    window = (min(xs), min(ys), max(xs), max(ys))
    assert drawn(window, slot)
    shifted = (window[0] + CANVAS_PAD_MM + 1, window[1], window[2] + CANVAS_PAD_MM + 1,
               window[3])
    assert not drawn(shifted, slot)


def test_token_images_replace_the_drawn_chips(layout2) -> None:
    """A chip face given as BGRA (alpha 0 outside the disc) is scaled to the 40 mm token
    and pasted where the scene puts that colour; the others stay drawn."""
    import cv2

    face = np.zeros((100, 120, 4), np.uint8)  # a transparent margin round the disc
    cv2.circle(face, (60, 50), 45, (255, 0, 255, 255), -1)
    scene = random_scene(2, 2)
    plain = render(scene, layout2, Camera(px_per_mm=2.0), seed=1)
    chips = render(scene, layout2, Camera(px_per_mm=2.0), seed=1, token_images={"u": face})

    def centre_px(slot_id: str, img: np.ndarray) -> np.ndarray:
        x, y = layout2.slot_index[slot_id].center
        h = chips.homography
        p = h @ np.array([x, y, 1.0])
        return img[round(p[1] / p[2]), round(p[0] / p[2])].astype(int)

    blue = [sid for sid, v in chips.contents.items() if v == "u" and sid.startswith("supply")]
    others = [sid for sid, v in chips.contents.items()
              if v in "wgrky" and sid.startswith("supply")]
    assert blue and others and chips.contents == plain.contents
    for sid in blue:
        b, g, r = centre_px(sid, chips.image)
        assert b > 200 and r > 200 and g < 60
    assert all(np.array_equal(centre_px(sid, chips.image), centre_px(sid, plain.image))
               for sid in others)
