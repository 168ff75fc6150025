"""The lens model: fitted from one still's markers, it puts slot corners within a mm.

Truth without another renderer: the perfect camera of ``vision.synth.render``
draws the table through a known homography, and a KNOWN barrel distortion is
applied to that image here (``remap``), so a table point's true pixel is
``WIDE.distort_points(G @ mm)``.  Mats are laid a few mm and degrees off the
layout, as by hand, and read with the layout as printed.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from vision.calibrate import Calibration, calibrate
from vision.layout import Layout, build_layout
from vision.lens import LensModel, fit_lens
from vision.synth import Camera, random_scene, render

#: A Camera Module 3 Wide-like lens at the 4608 x 2592 still: f = 1964 px, and a
#: barrel stronger than its stated 102 deg across implies (this one takes in ~109 deg).
WIDE = LensModel(np.array([[1964.0, 0, 2304], [0, 1964.0, 1296], [0, 0, 1]]),
                 np.array([-0.10, 0.012, 0, 0, 0]), (4608, 2592))


def moved(layout: Layout, moves: dict[str, tuple[float, float, float]]) -> Layout:
    """The layout with mats laid off their places: mat -> (dx mm, dy mm, degrees)."""
    mats, markers, slots = list(layout.mats), list(layout.markers), list(layout.slots)
    for name, (dx, dy, deg) in moves.items():
        mat = layout.mat(name)
        c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))

        def move(p, mat=mat, c=c, s=s, dx=dx, dy=dy):  # type: ignore[no-untyped-def]
            x, y = p[0] - mat.center[0], p[1] - mat.center[1]
            return (mat.center[0] + x * c - y * s + dx, mat.center[1] + x * s + y * c + dy)

        mats = [dataclasses.replace(m, center=move(m.center), angle=m.angle + deg)
                if m.name == name else m for m in mats]
        markers = [dataclasses.replace(k, corners=tuple(move(p) for p in k.corners))
                   if k.mat == name else k for k in markers]
        slots = [dataclasses.replace(sl, center=move(sl.center), angle=sl.angle + deg)
                 if sl.mat == name else sl for sl in slots]
    return dataclasses.replace(layout, mats=tuple(mats), markers=tuple(markers),
                               slots=tuple(slots))


@dataclass(frozen=True)
class WideFrame:
    image: np.ndarray
    layout: Layout  # as printed (what the reader is given)
    table: Layout  # where the mats really lie
    lens: LensModel  # the true lens at this frame's size
    g: np.ndarray  # table mm -> ideal px
    contents: dict[str, str]  # slot id -> what lies there (the renderer's truth)

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        p = cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(-1, 1, 2), self.g)
        return self.lens.distort_points(p.reshape(-1, 2))

    def back_to_mm(self, px: np.ndarray) -> np.ndarray:
        ideal = self.lens.undistort_points(px)
        return cv2.perspectiveTransform(ideal.reshape(-1, 1, 2),
                                        np.linalg.inv(self.g)).reshape(-1, 2)


def wide_table(players: int, seed: int, scale: float = 0.5, lens: LensModel = WIDE,
               tilt: float = 0.0, framing: str = "table") -> WideFrame:
    """The whole table (``framing="table"``; or the central mat plus ~40 mm,
    ``"centre"``) through ``lens`` at ``scale`` of the 4608 x 2592 still, mats moved
    up to 8 mm and 2.5 degrees, the camera rolled a little (and 90 deg for a whole
    2-player table, which is tall)."""
    rng = np.random.default_rng(seed)
    layout = build_layout(players)
    table = moved(layout, {m.name: (float(rng.uniform(-8, 8)), float(rng.uniform(-8, 8)),
                                    float(rng.uniform(-2.5, 2.5))) for m in layout.mats})
    size = (round(4608 * scale), round(2592 * scale))
    lens = lens.scaled(size)
    w, h = size
    x0, y0, x1, y1 = table.bounds()
    roll = (90.0 if players == 2 and framing == "table" else 0.0) + float(rng.uniform(-3, 3))
    if framing == "centre":
        x0, y0, x1, y1 = (x0 + (x1 - x0 - 800) / 2 + 20, -204.0,
                          x1 - (x1 - x0 - 800) / 2 - 20, 204.0)
    edge = np.concatenate([np.stack([np.linspace(x0, x1, 40), np.full(40, y)], 1)
                           for y in (y0 - 25, y1 + 25)]
                          + [np.stack([np.full(40, x), np.linspace(y0, y1, 40)], 1)
                             for x in (x0 - 25, x1 + 25)])
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    r = math.radians(roll)
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    s = min(w / (x1 - x0), h / (y1 - y0)) * 0.5
    for _ in range(60):  # the largest scale at which the distorted table fits the frame
        ideal = lens.camera_matrix[:2, 2] + (s * 1.03) * (edge - centre) @ rot.T
        d = lens.distort_points(ideal)
        if (d.min(0) < 2).any() or d[:, 0].max() > w - 2 or d[:, 1].max() > h - 2:
            break
        s *= 1.03
    # the part of the table the distorted frame shows, in mm (for the render's window)
    border = np.concatenate([np.stack([np.linspace(0, w, 30), np.full(30, yy)], 1)
                             for yy in (0, h)]
                            + [np.stack([np.full(30, xx), np.linspace(0, h, 30)], 1)
                               for xx in (0, w)])
    seen = centre + ((lens.undistort_points(border) - lens.camera_matrix[:2, 2]) / s) @ rot
    lo, hi = seen.min(0) - 20, seen.max(0) + 20
    tx0, ty0, tx1, ty1 = table.bounds()
    window = (max(lo[0], tx0 - 60), max(lo[1], ty0 - 60), min(hi[0], tx1 + 60),
              min(hi[1], ty1 + 60))
    cam = Camera(px_per_mm=s, window=window, rotation=roll, tilt=tilt,
                 tilt_direction=float(rng.uniform(0, 360)), distance_mm=lens.focal / s,
                 noise=2, blur=0.5)
    rendered = render(random_scene(players, seed), table, cam, seed=seed)
    h_r = rendered.homography
    c_r = cv2.perspectiveTransform(centre.reshape(1, 1, 2), h_r).reshape(2)
    t = np.array([[1, 0, lens.camera_matrix[0, 2] - c_r[0]],
                  [0, 1, lens.camera_matrix[1, 2] - c_r[1]], [0, 0, 1]])
    g = t @ h_r
    # for every frame px, where it comes from in the rendered (ideal) image
    step = 4
    # sampled where cv2.resize puts a coarse pixel's centre: (j + 0.5) * step - 0.5
    gx, gy = np.meshgrid(np.arange(0, w + step, step) + (step - 1) / 2,
                         np.arange(0, h + step, step) + (step - 1) / 2)
    src = lens.undistort_points(np.stack([gx.ravel(), gy.ravel()], 1)) - t[:2, 2]
    mx = cv2.resize(src[:, 0].reshape(gx.shape).astype(np.float32),
                    (gx.shape[1] * step, gx.shape[0] * step))[:h, :w]
    my = cv2.resize(src[:, 1].reshape(gx.shape).astype(np.float32),
                    (gx.shape[1] * step, gx.shape[0] * step))[:h, :w]
    image = cv2.remap(rendered.image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return WideFrame(image, layout, table, lens, g, rendered.contents)


def corner_errors_mm(frame: WideFrame, cal: Calibration, through_lens: bool = True
                     ) -> np.ndarray:
    """Per corner of every slot wholly in the frame: how far (mm, on the table) the
    calibration puts it from where it really is."""
    true_slots = {s.id: s for s in frame.table.slots}
    w, h = frame.lens.size
    out = []
    for slot in frame.layout.slots:
        truth = np.array(true_slots[slot.id].corners(), np.float64)
        px_true = frame.project(truth)
        if (px_true < 2).any() or (px_true[:, 0] > w - 2).any() or (px_true[:, 1] > h - 2).any():
            continue
        hm = cal.h_for_slot(slot) if through_lens else cal.h_for(slot.mat)
        px = cv2.perspectiveTransform(np.array(slot.corners(), np.float64).reshape(-1, 1, 2),
                                      hm).reshape(-1, 2)
        out.append(np.linalg.norm(frame.back_to_mm(px) - truth, axis=1))
    return np.concatenate(out)


@pytest.fixture(scope="module")
def wide4() -> WideFrame:
    return wide_table(4, seed=1)


def test_lens_round_trip_and_scaling() -> None:
    pts = np.array([[10.0, 20.0], [2304, 1296], [4000, 2500], [300, 2400]])
    back = WIDE.distort_points(WIDE.undistort_points(pts))
    assert np.abs(back - pts).max() < 0.01
    half = WIDE.scaled((2304, 1296))
    assert np.abs(half.distort_points(WIDE.undistort_points(pts) / 2) - pts / 2).max() < 0.01
    again = LensModel.from_dict(WIDE.to_dict())
    assert np.allclose(again.camera_matrix, WIDE.camera_matrix)
    assert np.allclose(again.distortion, WIDE.distortion)
    assert again.size == WIDE.size


def test_fitted_lens_reproduces_the_known_distortion(wide4: WideFrame) -> None:
    cal = calibrate(wide4.image, wide4.layout)
    assert cal is not None and cal.lens is not None
    # compare where the fitted and the true lens move the ideal points of a grid
    # spanning the frame, each relative to its own undistorted image (scale-free)
    w, h = wide4.lens.size
    gx, gy = np.meshgrid(np.linspace(0.03 * w, 0.97 * w, 9), np.linspace(0.03 * h, 0.97 * h, 7))
    grid = np.stack([gx.ravel(), gy.ravel()], 1)
    true_bend = wide4.lens.undistort_points(grid) - grid
    fit_bend = cal.lens.undistort_points(grid) - grid
    # the fitted lens and poses may trade focal length for height; what must hold
    # is the bend's shape: the same up to a scale about the centre
    c = np.array([w / 2, h / 2])
    k = ((true_bend + grid - c) * (fit_bend + grid - c)).sum() / ((fit_bend + grid - c) ** 2).sum()
    residual = np.linalg.norm(k * (fit_bend + grid - c) - (true_bend + grid - c), axis=1)
    assert np.abs(true_bend).max() > 40  # the distortion is strong at this size
    assert residual.max() < 0.03 * np.abs(true_bend).max()


#: About the distortion the Wide's stated 102 deg across implies with f = 1964 px.
MILD = LensModel(WIDE.camera_matrix, np.array([-0.035, 0.0, 0, 0, 0]), WIDE.size)


@pytest.mark.parametrize("players, seed, lens", [(4, 1, WIDE), (2, 2, WIDE), (4, 21, MILD)])
def test_slot_corners_within_a_millimetre_under_the_wide_lens(players: int, seed: int,
                                                              lens: LensModel,
                                                              wide4: WideFrame) -> None:
    frame = wide4 if (players, seed) == (4, 1) else \
        wide_table(players, seed, lens=lens, tilt=2.0)
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None and cal.lens is not None
    after = corner_errors_mm(frame, cal)
    before = corner_errors_mm(frame, calibrate(frame.image, frame.layout, use_lens=False),
                              through_lens=False)
    assert len(after) >= 4 * 60
    assert np.percentile(after, 95) <= 1.0
    assert np.percentile(before, 95) > 2 * np.percentile(after, 95)


def test_a_slots_local_homography_follows_the_lens_within_a_pixel() -> None:
    from vision.calibrate import slot_grids
    from vision.lens import local_homographies

    layout = build_layout(4)
    rvec, tvec = np.zeros(3), np.array([0.0, 0.0, 1964 / 1.75])  # the table fills the frame
    hs = local_homographies(WIDE, rvec, tvec, slot_grids(layout.slots))
    fine = slot_grids(layout.slots, 15)
    worst = [np.linalg.norm(WIDE.project(g, rvec, tvec) - cv2.perspectiveTransform(
        g.reshape(-1, 1, 2), h).reshape(-1, 2), axis=1).max() for h, g in zip(hs, fine,
                                                                               strict=True)]
    assert max(worst) < 1.0  # px, at 1.75 px/mm; 0.73 measured (a tableau column's edge)


def test_a_stored_lens_fits_only_the_poses(wide4: WideFrame) -> None:
    cal = calibrate(wide4.image, wide4.layout, lens=WIDE)
    assert cal is not None and cal.lens is not None
    assert np.allclose(cal.lens.distortion, WIDE.distortion)
    assert np.percentile(corner_errors_mm(wide4, cal), 95) <= 1.0


def test_fit_lens_from_points_alone() -> None:
    # two tilted planar targets seen through the Wide lens: exact points, exact fit
    rng = np.random.default_rng(0)
    views = []
    for k in range(2):
        mm = rng.uniform(-400, 400, (60, 2))
        rvec = np.array([0.05 * k, -0.03, 0.1 * k])
        tvec = np.array([-200.0 + 400 * k, 0.0, 1100.0])
        views.append((mm, WIDE.project(mm, rvec, tvec)))
    fit = fit_lens(views, WIDE.size)
    assert fit is not None and fit.rms_px < 0.05
    assert np.abs(fit.lens.distortion[:2] - WIDE.distortion[:2]).max() < 0.01


def test_calibrate_lens_command_stores_a_lens_read_frame_uses(tmp_path, wide4: WideFrame,
                                                               capsys) -> None:
    from companion.cli import main
    from vision.lens import load_lens
    from vision.read import read_frame

    image, layout, out = tmp_path / "table.png", tmp_path / "layout.json", tmp_path / "lens.json"
    cv2.imwrite(str(image), wide4.image)
    layout.write_text(wide4.layout.to_json())
    assert main(["calibrate", "--lens", str(image), "--layout", str(layout),
                 "--lens-out", str(out)]) == 0
    assert "stored in" in capsys.readouterr().out
    lens = load_lens(out)
    assert lens.size == wide4.lens.size
    assert abs(lens.distortion[0] - WIDE.distortion[0]) < 0.03
    # the stored lens at another frame size: the same lens scaled
    assert calibrate(cv2.resize(wide4.image, None, fx=0.5, fy=0.5), wide4.layout,
                     lens=lens).lens.size == (wide4.lens.size[0] // 2, wide4.lens.size[1] // 2)
    obs = read_frame(wide4.image, wide4.layout, workers=1, lens=lens)
    assert obs.calibrated and len(obs.cards) >= 10
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 120, np.uint8))
    assert main(["calibrate", "--lens", str(blank), "--layout", str(layout),
                 "--lens-out", str(out)]) == 1
    assert "markers of the layout visible" in capsys.readouterr().err


@pytest.mark.parametrize("tilt", [0.0, 12.0])
def test_a_frame_without_distortion_keeps_the_homographies(layout4, tilt: float) -> None:
    # both fit the markers to the detection noise: the lens is not chosen, so the
    # readings are those of the homographies, as before the lens existed
    cam = Camera(px_per_mm=1.2, tilt=tilt, tilt_direction=30, rotation=5, noise=2)
    image = render(random_scene(4, 3), layout4, cam, seed=5).image
    cal = calibrate(image, layout4)
    assert cal is not None and len(cal.markers) >= 40
    assert cal.lens is None
    slot = layout4.slot_index["market.2.1"]
    assert (cal.h_for_slot(slot) == cal.h_for("centre")).all()


def test_the_central_mat_alone_fills_the_frame() -> None:
    # one mat's 16 markers, round its edge: enough for the lens
    frame = wide_table(4, seed=4, framing="centre")
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None and cal.lens is not None and len(cal.markers) >= 14
    after = corner_errors_mm(frame, cal)
    assert len(after) >= 4 * 20
    assert np.percentile(after, 95) <= 1.0


def test_a_marker_caught_on_glare_is_left_out_of_the_lens(wide4: WideFrame,
                                                          monkeypatch) -> None:
    import vision.calibrate as calibrate_module

    real = calibrate_module.detect_markers

    def one_off(grey, layout):  # type: ignore[no-untyped-def]
        found = real(grey, layout)
        first = sorted(found)[3]
        found[first] = found[first] + np.array([9.0, -7.0], np.float32)
        return found

    monkeypatch.setattr(calibrate_module, "detect_markers", one_off)
    cal = calibrate(wide4.image, wide4.layout)
    assert cal is not None and cal.lens is not None
    assert np.percentile(corner_errors_mm(wide4, cal), 95) <= 1.0


def test_false_markers_of_one_mat_leave_the_lens_to_the_others(wide4: WideFrame,
                                                                monkeypatch) -> None:
    # two of a player's mat markers "found" where two of the central mat's are (a
    # board's dark panel or a card's picture decoded as them): no lens fits every mat
    # then; the others' markers still give the lens, and their slots within a mm
    import vision.calibrate as calibrate_module

    real = calibrate_module.detect_markers
    known = wide4.layout.marker_index

    def false_two(grey, layout):  # type: ignore[no-untyped-def]
        found = real(grey, layout)
        theirs = sorted(i for i in found if known[i].mat == "player2")
        centre = sorted(i for i in found if known[i].mat == "centre")
        for i, c in zip(theirs[:2], centre[:2], strict=True):
            found[i] = found[c].copy()
        return found

    monkeypatch.setattr(calibrate_module, "detect_markers", false_two)
    cal = calibrate(wide4.image, wide4.layout)
    assert cal is not None and cal.lens is not None
    others = dataclasses.replace(wide4, layout=dataclasses.replace(
        wide4.layout, slots=tuple(s for s in wide4.layout.slots if s.mat != "player2")))
    assert np.percentile(corner_errors_mm(others, cal), 95) <= 1.0


# -- the independent world (vision.synth.world): another camera, another lens model --

def world_corner_errors_mm(frame, cal: Calibration) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Per corner of every slot wholly in view: table mm between where the calibration
    puts it and where the world's camera sees it (its pixel taken back to the table)."""
    out = []
    for slot in frame.layout.slots:
        if slot.id in frame.unseen:
            continue
        corners = np.array(slot.corners(), np.float64)
        px = cv2.perspectiveTransform(corners.reshape(-1, 1, 2),
                                      cal.h_for_slot(slot)).reshape(-1, 2)
        back, _ = frame.camera.unproject(px)
        out.append(np.linalg.norm(back - corners, axis=1))
    return np.concatenate(out)


@pytest.mark.parametrize("lens", ["wide", "standard"])
def test_slot_corners_within_a_millimetre_on_a_world_frame(lens: str) -> None:
    # the central mat fills a half-size still of the world's Camera Module 3: a
    # Kannala-Brandt lens the reader does not model; the rational model follows it
    from vision.synth.world import world_frame

    frame = world_frame(4, "easy", 7, split="design", framing="centre", lens=lens,
                        size=(2304, 1296))
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None and cal.lens is not None
    after = world_corner_errors_mm(frame, cal)
    before = world_corner_errors_mm(frame, calibrate(frame.image, frame.layout,
                                                     use_lens=False))
    assert len(after) >= 4 * 20
    assert np.percentile(after, 95) <= 1.0
    assert np.percentile(before, 95) > 2.0  # one homography misses by mm here
    # `calibrate --lens` on the same still: stored (JSON round trip) and given back,
    # only the poses are fitted, as well
    from vision.calibrate import fit_table_lens

    stored = LensModel.from_dict(fit_table_lens(frame.image, frame.layout).lens.to_dict())
    given = calibrate(frame.image, frame.layout, lens=stored)
    assert given is not None and given.lens is not None
    assert np.percentile(world_corner_errors_mm(frame, given), 95) <= 1.0


def test_rational_lens_round_trips_and_a_fold_is_held_outward() -> None:
    rational = LensModel(WIDE.camera_matrix, np.array([1.8, 0.08, 0, 0, 0, 1.5, 0.41, 0]),
                         WIDE.size)
    again = LensModel.from_dict(rational.to_dict())
    assert np.allclose(again.distortion, rational.distortion)
    pts = np.array([[10.0, 20.0], [2304, 1296], [4000, 2500]])
    assert np.abs(rational.distort_points(rational.undistort_points(pts)) - pts).max() < 0.05
    # k2 < 0 folds the map back before the frame's corner: refused, and a point past
    # the fold lands further out than one before it, not back inside the frame
    folds = LensModel(WIDE.camera_matrix, np.array([0.0, -0.5, 0, 0, 0]), WIDE.size)
    assert not folds.monotone() and WIDE.monotone() and rational.monotone()
    c = np.array([2304.0, 1296.0])
    radii = np.array([0.5, 1.0, 2.0, 4.0]) * 1964  # undistorted px from the centre
    out = np.linalg.norm(folds.distort_points(c + radii[:, None] * [1, 0]) - c, axis=1)
    assert (np.diff(out) > 0).all()


def test_marker_gains_follow_the_paper_at_the_corners_under_the_wide_lens() -> None:
    # each marker's white band is found from the marker's own corners: through the
    # mat's homography the band fell on the black marker at the frame's corners,
    # and the gain there (3-4 instead of ~1.1) clipped the nobles' outlines away
    from vision.synth.world import world_frame

    frame = world_frame(4, "easy", 1000, split="design", framing="centre", lens="wide",
                        size=(2304, 1296))
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None and len(cal.gains) >= 12
    h, w = frame.image.shape[:2]
    checked = 0
    for marker, (centre, gain) in cal.gains.items():
        corners = np.asarray(frame.layout.marker_index[marker].corners)
        if np.linalg.norm(corners[1] - corners[0]) < 29:  # the small markers' bands
            continue
        # the white band round the marker, 18 mm from its centre, as the world drew it
        steps = np.linspace(-18, 18, 7)
        ring = [(a, b) for a in steps for b in (-18, 18)] + [(b, a) for a in steps
                                                            for b in (-18, 18)]
        px = np.round(frame.project(np.array(centre) + np.array(ring))).astype(int)
        inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
        white = np.percentile(frame.image[px[inside, 1], px[inside, 0]].astype(float), 60,
                              axis=0)
        assert np.allclose(gain * white, 255.0, rtol=0.05), (marker, gain, white)
        checked += 1
    assert checked >= 12
