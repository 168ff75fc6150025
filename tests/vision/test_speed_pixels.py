"""The fast pixel helpers (OpenCV arithmetic) give numpy's formulas bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from vision import pixels
from vision.pixels import INK_LAB, PAPER_LAB, SHADE


def _reference(lab: np.ndarray, ref: np.ndarray, forgive=None) -> np.ndarray:  # type: ignore[no-untyped-def]
    d = lab - np.asarray(ref, np.float32)
    dl = d[..., 0] if forgive is None else np.where(forgive(d[..., 0]), 0.0, d[..., 0])
    return np.sqrt((0.5 * dl) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _shade(ref: np.ndarray):  # type: ignore[no-untyped-def]
    return lambda dl: (dl < 0) & (dl > -SHADE * ref[0])


@pytest.fixture(scope="module")
def labs() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    uniform = rng.uniform(0, 255, (120, 90, 3)).astype(np.float32)
    # near the references too: where the shade test and rounding are decided
    near = (PAPER_LAB + rng.normal(0, 30, (80, 70, 3))).astype(np.float32)
    ink = (INK_LAB + rng.normal(0, 8, (40, 50, 3))).astype(np.float32)
    return [uniform, near, ink, np.round(near)]


@pytest.mark.parametrize("ref", [PAPER_LAB, INK_LAB, (120.0, 140.0, 110.0),
                                 np.array([200, 128, 128], np.float32)])
def test_lab_distance_is_numpys_formula(labs, ref) -> None:
    for lab in labs:
        got = pixels.lab_distance(lab, ref)
        want = _reference(lab, np.asarray(ref, np.float32))
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_shaded_and_forgiving_distances_are_numpys_formula(labs) -> None:
    brighter = lambda dl: dl > -SHADE * PAPER_LAB[0]  # noqa: E731 (the noble reader's)
    for lab in labs:
        shaded = _reference(lab, PAPER_LAB, _shade(PAPER_LAB))
        assert np.array_equal(pixels.shaded_distance(lab, PAPER_LAB), shaded)
        plain, both_shaded = pixels.paper_distances(lab, PAPER_LAB)
        assert np.array_equal(plain, _reference(lab, PAPER_LAB))
        assert np.array_equal(both_shaded, shaded)
        assert np.array_equal(pixels.forgiving_distance(lab, PAPER_LAB, brighter),
                              _reference(lab, PAPER_LAB, brighter))


def test_other_shapes_take_numpys_formula(labs) -> None:
    flat = labs[1].reshape(-1, 3)
    assert np.array_equal(pixels.lab_distance(flat, PAPER_LAB), _reference(flat, PAPER_LAB))
    one = labs[1][0, 0]
    assert np.array_equal(pixels.lab_distance(one, INK_LAB), _reference(one, INK_LAB))
    wide = labs[0].astype(np.float64)
    assert np.array_equal(pixels.shaded_distance(wide, PAPER_LAB),
                          _reference(wide, PAPER_LAB, _shade(PAPER_LAB)))


@pytest.mark.parametrize("level", [0, 1, 235, 250, 255])
def test_all_at_least_is_numpys_all(level: int) -> None:
    rng = np.random.default_rng(level)
    # mostly near the level: where one channel below it decides
    img = rng.integers(max(level - 3, 0), 256, (61, 47, 3)).astype(np.uint8)
    got = pixels.all_at_least(img, level)
    want = np.all(img >= level, axis=2)
    assert got.dtype == np.bool_ and got.shape == want.shape
    assert np.array_equal(got, want) and np.array_equal(~got, ~want)
    assert got.mean() == want.mean()


def test_all_at_least_other_inputs_take_numpys_all() -> None:
    img = np.random.default_rng(3).integers(240, 256, (20, 30, 3)).astype(np.uint8)
    # a fractional level: inRange would round it
    assert np.array_equal(pixels.all_at_least(img, 249.5), np.all(img >= 249.5, axis=2))
    wide = img.astype(np.float32)
    assert np.array_equal(pixels.all_at_least(wide, 250), np.all(wide >= 250, axis=2))
    four = np.dstack([img, img[..., :1]])
    assert np.array_equal(pixels.all_at_least(four, 250), np.all(four >= 250, axis=2))


@pytest.mark.parametrize("q", [2.0, 12.5, 50.0, 60.0, 75.0, 98.0, 99.0, 33.3])
def test_channel_percentile_is_numpys_percentile(q: float) -> None:
    rng = np.random.default_rng(int(q * 10))
    for n in (1, 2, 3, 7, 100, 2999, 30000):
        for lo, hi in ((0, 256), (240, 256), (0, 3)):
            samples = rng.integers(lo, hi, (n, 3)).astype(np.uint8)
            keep = (rng.random(n) < 0.7).astype(np.uint8) * 255
            got, count = pixels.channel_percentile(samples, keep, q)
            kept = samples[keep > 0]
            assert count == len(kept)
            if not len(kept):
                assert got is None
                continue
            want = np.percentile(kept, q, axis=0)
            assert got is not None and got.dtype == want.dtype and np.array_equal(got, want)


def test_histogram_percentile_of_whole_numbers_is_numpys() -> None:
    """A float array of whole numbers (a grey image as float32), percentiles asked
    as a tuple: the same values."""
    rng = np.random.default_rng(5)
    for n in (1, 2, 5, 333, 4097):
        grey = rng.integers(0, 256, n).astype(np.uint8)
        hist = np.bincount(grey, minlength=256).reshape(1, 256)
        want = np.percentile(grey.astype(np.float32), (2, 98))
        got = [pixels.histogram_percentile(hist, q)[0] for q in (2.0, 98.0)]
        assert got[0] == want[0] and got[1] == want[1]
    with pytest.raises(ValueError):
        pixels.histogram_percentile(np.zeros((1, 256)), 50.0)


def _faces() -> list[np.ndarray]:
    """Face-sized BGR images: noise, a bright one with clipped patches, a dim one."""
    rng = np.random.default_rng(7)
    noise = rng.integers(0, 256, (352, 252, 3)).astype(np.uint8)
    bright = rng.integers(180, 256, (352, 252, 3)).astype(np.uint8)
    bright[40:160, 30:200] = 255
    dim = rng.integers(0, 90, (350, 251, 3)).astype(np.uint8)
    return [noise, bright, dim, noise[:, :70]]


def test_face_gain_is_numpys_percentile() -> None:
    from vision.face_cut import CAPTURE_CLIPPED, FACE_GAIN_CEIL, FACE_GAIN_FLOOR, face_gain

    gain = np.array([1.1, 0.95, 1.2], np.float32)
    for face in _faces():
        for pct in (99.0, 75.0):
            px = face.reshape(-1, 3)[::3]
            unclipped = px[~np.all(face >= CAPTURE_CLIPPED, axis=2).reshape(-1)[::3]]
            white = np.percentile(unclipped, pct, axis=0)
            peak = float(np.max(white * gain))
            want = gain * min(FACE_GAIN_CEIL, max(FACE_GAIN_FLOOR, 250.0 / max(peak, 1.0)))
            got = face_gain(face, gain, pct)
            assert got.dtype == want.dtype and np.array_equal(got, want)


def test_lift_glare_is_the_dark_channel_formula() -> None:
    import cv2

    from vision import card_features as cf

    for face in _faces():
        k = round(cf.GLARE_WINDOW_MM * cf.FACE_PX_PER_MM) | 1
        b, g, r = cv2.split(face)
        dark = cv2.erode(cv2.min(cv2.min(b, g), r),
                         cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        dark = np.maximum(cv2.blur(dark.astype(np.float32), (k, k)) - cf.GLARE_DARK_BASE, 0.0)
        t = np.maximum(1.0 - cf.GLARE_OMEGA * dark / (255.0 - cf.GLARE_DARK_BASE),
                       cf.GLARE_T_FLOOR)[:, :, None]
        want = np.clip((face.astype(np.float32) - 255.0) / t + 255.0, 0, 255).astype(np.uint8)
        assert np.array_equal(cf.lift_glare(face), want)


def test_region_stats_are_the_whole_faces() -> None:
    """Edges found region by region give the whole face's blind shares, and the
    median grey is numpy's."""
    import cv2

    from vision import card_seen as cs

    s = cs.FACE_PX_PER_MM
    for face in _faces()[:3]:
        grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
        edges = (np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0))
                 + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1)) > cs.BLIND_EDGE).astype(np.uint8)
        k = round(2 * cs.BLIND_REACH_MM * s) | 1
        near = cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        clipped = cv2.inRange(face, (cs.SATURATED,) * 3, (255, 255, 255)) & (1 - near) * 255
        flat = cs._flat(grey)
        got = cs.region_stats(face)
        for name, (x0, y0, x1, y1) in cs.REGIONS.items():
            r = (slice(round(y0 * s), round(y1 * s)), slice(round(x0 * s), round(x1 * s)))
            want = (float((clipped[r] > 0).mean()), float(flat[r].mean()),
                    float(np.median(grey[r])))
            assert got[name] == want
