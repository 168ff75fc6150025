"""The camera's lens: intrinsics and radial distortion, fitted from the mats' markers.

Why a lens model at all: the Camera Module 3 Wide (102 deg across) bends
straight lines by tens of pixels towards the frame's edges.  One homography
per mat cannot follow that curve; fitted to a mat's 16 markers it keeps one
group and extrapolates, and slots came out up to 26 mm off.  Undistorting the
points first makes the table plane a plane again.

Design decisions
----------------
* OpenCV's model, so a ChArUco calibration or any published one can be
  stored as it is.  Two radial forms are fitted and the simpler one kept
  unless the other fits the markers clearly better (``MODEL_SLACK``): Brown's
  polynomial (``k1, k2``) and the rational model (``k1, k2`` over ``k4, k5``;
  ``k3 = k6 = 0``).  A polynomial in the pinhole radius cannot follow a lens
  whose field reaches 60 deg from the axis (the Wide's corners, where that
  radius is tan 60 = 1.7): with ``k1, k2`` it misses the markers by 7 px RMS,
  with ``k3`` too by 3 px (slots still 1.2 mm off), while the ratio of two
  polynomials bends back at large radii and fits them to the detection noise
  (0.2 px).  ``cv2.fisheye.calibrate`` (Kannala-Brandt) was tried too: its
  initialisation fails on one near-frontal plane (70 px RMS), so it is not used.
* The principal point is fixed at the image centre, tangential terms are zero
  and the aspect ratio is 1: one still of a plane cannot pin down more, and a
  Pi camera module's sensor is centred on its lens to well under 1 %.
* The focal length starts at the nominal value (``NOMINAL_F_OVER_WIDTH``) and
  is held there for the first fit.  Seen from straight above, one plane cannot
  tell the focal length from the camera's height (a longer lens higher up gives
  the same picture; Brown's and the rational model's coefficients absorb the
  scale), so a free focal length only wanders; what we need is the plane ->
  image mapping, which stays right however focal length and height trade (the
  standard Camera Module 3, 4.74 mm, fitted at the Wide's 2.75 mm: slots within
  0.1 mm over the central mat).  A tilted view does pin it: the fit is then
  refined with the focal length free and that kept when it fits clearly better
  (``FREE_FOCAL_GAIN``; the standard module tilted 12 deg: 2.4 -> 0.3 mm).
* Every mat is its own planar target (its own pose): all mats lie on the
  table, but each is laid by hand a few mm and degrees off the layout, so
  sharing one pose would put the hand's error into the lens.
* A fit whose radial map folds back (or whose rational denominator reaches
  zero) before the frame's corner is refused: it would send slots anywhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from vision.errors import VisionError

#: Focal length / image width of the Camera Module 3 (Wide): f = 2.75 mm on 1.4 um
#: pixels = 1964 px across the 4608 px still (Raspberry Pi's datasheet).
NOMINAL_F_OVER_WIDTH = 1964.0 / 4608.0
#: The fitted map must keep growing this far beyond the farthest marker (a share of its
#: radius from the frame's centre; the frame's corner at most).
REACH_MARGIN = 1.1
#: How far out (undistorted radius / focal length) a lens's fold is looked for.
FOLD_SEARCH = 10.0
#: The richer model is kept only when its RMS over the markers is below the simpler one's
#: divided by (1 + this), less MODEL_SLACK_PX: on frames bent by a Brown lens both fit
#: to the noise and Brown stays; on the Wide's world frames (tests/bench/lens_accuracy.py
#: world) Brown misses by 0.8-7.5 px RMS and the rational model fits to 0.2-0.4 px.
MODEL_SLACK = 0.1
MODEL_SLACK_PX = 0.02
#: Fit flags: centred principal point, square pixels, no tangential term.
_FLAGS = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
          | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST)
#: A free focal length outside this range of the nominal one is not trusted (the
#: standard Camera Module 3's 4.74 mm is 1.72 times the Wide's 2.75 mm).
F_RANGE = (0.5, 2.5)
#: The focal length fitted replaces the nominal one only when the fit's RMS falls below
#: this share: from above both fit alike (free / held = 1.00 on every case) and the
#: nominal one stays; the standard lens tilted 12-20 deg: 0.07-0.18 (held 2.2-7.8 px,
#: slots 1.9-4.9 mm p95; free 0.4-0.8 px, 0.13-0.34 mm): `lens_accuracy.py tilt`.
FREE_FOCAL_GAIN = 0.8
#: The radial models, simplest first: (name, extra flags, number of coefficients).
MODELS = (("brown", cv2.CALIB_FIX_K3, 5),
          ("rational", cv2.CALIB_RATIONAL_MODEL | cv2.CALIB_FIX_K3 | cv2.CALIB_FIX_K6, 8))
_CRITERIA = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 60, 1e-9)
#: Freeing the focal length from a converged fit: a few steps reach it (the tilted
#: standard lens: 0.39 px RMS as with 60), and from above the free direction is flat,
#: where more steps only wander.
_REFIT_CRITERIA = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 10, 1e-9)


@dataclass(frozen=True)
class LensModel:
    """A pinhole camera matrix and OpenCV distortion coefficients for one image size."""

    camera_matrix: np.ndarray  # 3x3
    distortion: np.ndarray  # (5,): k1, k2, p1, p2, k3; or (8,): ... k4, k5, k6 (rational)
    size: tuple[int, int]  # (width, height) px the matrix is for

    @classmethod
    def nominal(cls, size: tuple[int, int], f_over_width: float = NOMINAL_F_OVER_WIDTH
                ) -> LensModel:
        """A distortion-free lens of the nominal focal length, centred."""
        w, h = size
        f = f_over_width * w
        k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
        return cls(k, np.zeros(5), (int(w), int(h)))

    @property
    def focal(self) -> float:
        return float(self.camera_matrix[0, 0])

    def scaled(self, size: tuple[int, int]) -> LensModel:
        """The same lens for a frame of another size (the same field of view, e.g. a
        preview stream): the matrix scales, the coefficients (in normalised
        coordinates) do not."""
        sx, sy = size[0] / self.size[0], size[1] / self.size[1]
        k = self.camera_matrix.copy()
        k[0] *= sx
        k[1] *= sy
        return LensModel(k, self.distortion.copy(), (int(size[0]), int(size[1])))

    def for_size(self, size: tuple[int, int]) -> LensModel:
        return self if tuple(size) == self.size else self.scaled(size)

    def distort_points(self, pts: np.ndarray) -> np.ndarray:
        """Ideal (pinhole) px (N, 2) -> px in the real, distorted frame.

        Beyond the radius where the radial map stops growing (``fold``), the factor
        is held at its value there: a point past the fold is sent further out, never
        folded back into the frame (a slot off the frame stays off it)."""
        k = self.camera_matrix
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        x = (p[:, 0] - k[0, 2]) / k[0, 0]
        y = (p[:, 1] - k[1, 2]) / k[1, 1]
        p1, p2 = (float(v) for v in self.distortion[2:4])
        r2 = x * x + y * y
        radial = self.radial(np.minimum(r2, self.fold**2))
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.stack([xd * k[0, 0] + k[0, 2], yd * k[1, 1] + k[1, 2]], axis=1)

    def undistort_points(self, pts: np.ndarray) -> np.ndarray:
        """Px in the real frame (N, 2) -> ideal (pinhole) px of the same camera matrix."""
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        out = cv2.undistortPoints(p, self.camera_matrix, self.distortion, None,
                                  self.camera_matrix, criteria=_CRITERIA)
        return out.reshape(-1, 2)

    def project(self, pts_mm: np.ndarray, rvec: np.ndarray, tvec: np.ndarray) -> np.ndarray:
        """Plane points (N, 2) in mm, z = 0, seen from pose (rvec, tvec) -> frame px
        (as ``cv2.projectPoints``, with ``distort_points``' hold beyond the fold)."""
        p = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        rot, _ = cv2.Rodrigues(np.asarray(rvec, np.float64).reshape(3))
        cam = p @ rot[:, :2].T + np.asarray(tvec, np.float64).reshape(1, 3)
        k = self.camera_matrix
        ideal = cam[:, :2] / cam[:, 2:3] * (k[0, 0], k[1, 1]) + k[:2, 2]
        return self.distort_points(ideal)

    def radial(self, r2: np.ndarray) -> np.ndarray:
        """The radial factor at squared undistorted radius ``r2`` (normalised):
        Brown's polynomial, divided by the rational model's denominator when given."""
        d = np.zeros(8)
        d[:min(8, len(self.distortion))] = np.asarray(self.distortion, np.float64).ravel()[:8]
        k1, k2, _, _, k3, k4, k5, k6 = (float(v) for v in d)
        num = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        den = 1 + r2 * (k4 + r2 * (k5 + r2 * k6))
        return np.asarray(num / den)

    @cached_property
    def fold(self) -> float:
        """The undistorted (normalised) radius where the radial map stops growing or the
        rational model's denominator reaches zero; ``FOLD_SEARCH`` when it never does
        before that (about 84 deg off the axis)."""
        r = np.linspace(0, FOLD_SEARCH, 4001)
        d = np.zeros(8)
        d[:min(8, len(self.distortion))] = np.asarray(self.distortion, np.float64).ravel()[:8]
        den = 1 + r**2 * (d[5] + r**2 * (d[6] + r**2 * d[7]))
        rd = r * self.radial(r**2)
        bad = np.flatnonzero((np.diff(rd) <= 0) | (den[1:] <= 0))
        return float(r[bad[0]]) if len(bad) else FOLD_SEARCH

    def monotone(self, size: tuple[int, int] | None = None, radius_px: float | None = None
                 ) -> bool:
        """Whether the radial map keeps growing out to ``radius_px`` from the principal
        point (default: the frame's farthest corner); a fit that folds back before it
        sends what lies there anywhere."""
        k = self.camera_matrix
        if radius_px is None:
            w, h = size or self.size
            radius_px = float(np.hypot(max(k[0, 2], w - k[0, 2]), max(k[1, 2], h - k[1, 2])))
        r = self.fold
        return bool(r * float(self.radial(np.array(r * r))) >= 1.02 * radius_px / k[0, 0])

    def to_dict(self) -> dict[str, Any]:
        """For the TOML config (``[camera] lens``): plain floats."""
        k = self.camera_matrix
        return {"size": [int(self.size[0]), int(self.size[1])],
                "focal": [float(k[0, 0]), float(k[1, 1])],
                "centre": [float(k[0, 2]), float(k[1, 2])],
                "distortion": [float(v) for v in self.distortion]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> LensModel:
        fx, fy = (float(v) for v in d["focal"])
        cx, cy = (float(v) for v in d["centre"])
        given = np.asarray(d.get("distortion", ()), np.float64).ravel()[:8]
        dist = np.zeros(8 if len(given) > 5 else 5)
        dist[:len(given)] = given
        w, h = (int(v) for v in d["size"])
        return cls(np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]], np.float64), dist, (w, h))


@dataclass(frozen=True)
class LensFit:
    """A lens and one pose per view (per mat), with the fit's RMS reprojection error."""

    lens: LensModel
    poses: tuple[tuple[np.ndarray, np.ndarray], ...]
    rms_px: float


def _objects(views: Sequence[tuple[np.ndarray, np.ndarray]]
             ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    obj = [np.hstack([np.asarray(o, np.float32).reshape(-1, 2),
                      np.zeros((len(o), 1), np.float32)]) for o, _ in views]
    img = [np.asarray(i, np.float32).reshape(-1, 1, 2) for _, i in views]
    return obj, img


def _rms(lens: LensModel, views: Sequence[tuple[np.ndarray, np.ndarray]],
         poses: Sequence[tuple[np.ndarray, np.ndarray]]) -> float:
    err = np.concatenate([lens.project(o, r, t) - np.asarray(i, np.float64).reshape(-1, 2)
                          for (o, i), (r, t) in zip(views, poses, strict=True)])
    return float(np.sqrt((err**2).sum(1).mean()))


def fit_poses(lens: LensModel, views: Sequence[tuple[np.ndarray, np.ndarray]]) -> LensFit:
    """Only the poses, through a known lens (``calibrate --lens`` stored it)."""
    obj, img = _objects(views)
    poses = []
    for o, i in zip(obj, img, strict=True):
        ok, rvec, tvec = cv2.solvePnP(o, i, lens.camera_matrix, lens.distortion,
                                      flags=cv2.SOLVEPNP_IPPE)
        if not ok:
            ok, rvec, tvec = cv2.solvePnP(o, i, lens.camera_matrix, lens.distortion)
        rvec, tvec = cv2.solvePnPRefineLM(o, i, lens.camera_matrix, lens.distortion, rvec, tvec)
        poses.append((rvec, tvec))
    return LensFit(lens, tuple(poses), _rms(lens, views, poses))


Poses = tuple[tuple[np.ndarray, np.ndarray], ...]


def _fit_model(obj: list[np.ndarray], img: list[np.ndarray], size: tuple[int, int],
               flags: int, n: int, radius_px: float, start: LensFit | None = None
               ) -> tuple[LensModel, Poses] | None:
    """One model's lens and poses (None when OpenCV fails or the lens folds within
    ``radius_px`` of the centre); from ``start``'s lens and poses when given."""
    guess = start.lens if start is not None else LensModel.nominal(size)
    # copies: OpenCV writes the refined poses into the guesses it is given
    rv = [np.array(r, np.float64).reshape(3, 1) for r, _ in start.poses] if start else None
    tv = [np.array(t, np.float64).reshape(3, 1) for _, t in start.poses] if start else None
    if start is not None:
        flags |= cv2.CALIB_USE_EXTRINSIC_GUESS
    try:
        _, k, dist, rvecs, tvecs = cv2.calibrateCamera(
            obj, img, size, guess.camera_matrix.copy(), guess.distortion.copy(), rv, tv,
            flags=_FLAGS | flags, criteria=_CRITERIA if start is None else _REFIT_CRITERIA)
    except cv2.error:
        return None
    lens = LensModel(np.asarray(k, np.float64), np.asarray(dist, np.float64).ravel()[:n],
                     (int(size[0]), int(size[1])))
    if not lens.monotone(radius_px=radius_px):
        return None
    return lens, tuple(zip(rvecs, tvecs, strict=True))


def fit_lens(views: Sequence[tuple[np.ndarray, np.ndarray]], size: tuple[int, int],
             models: Sequence[str] = ("brown", "rational"), free_focal: bool = True
             ) -> LensFit | None:
    """The lens (of the simplest of ``models`` that fits the markers about as well as
    the best, ``MODEL_SLACK``) and one pose per view.

    ``views``: per planar target (a mat), its points in mm (N, 2) and where
    they were found in the frame (N, 2).  None when OpenCV's fit fails or every
    model gives a lens that folds back inside the frame.  Each model is fitted
    with the focal length held, then (``free_focal``) refitted from there with it
    free, and the free one kept when it fits clearly better
    (``FREE_FOCAL_GAIN``, within ``F_RANGE`` of the nominal): a tilted view pins the
    focal length, and a module other than the Wide is seen through another.
    """
    obj, img = _objects(views)
    # the map must grow as far as the markers reach (the table lies within them), or
    # out to the frame's corner when they reach near it
    w, h = size
    corner = float(np.hypot(w, h)) / 2
    seen = max(float(np.hypot(*(np.asarray(i, np.float64).reshape(-1, 2) - (w / 2, h / 2)).T
                              ).max()) for _, i in views)
    radius = min(corner, REACH_MARGIN * seen)
    fits = []
    for name, flags, n in MODELS:
        if name not in models:
            continue
        fitted = _fit_model(obj, img, size, flags | cv2.CALIB_FIX_FOCAL_LENGTH, n, radius)
        if fitted is None:
            continue
        fit = LensFit(fitted[0], fitted[1], _rms(fitted[0], views, fitted[1]))
        freed = _fit_model(obj, img, size, flags, n, radius, fit) if free_focal else None
        if freed is not None and F_RANGE[0] <= freed[0].focal / (NOMINAL_F_OVER_WIDTH * w
                                                                   ) <= F_RANGE[1]:
            free = LensFit(freed[0], freed[1], _rms(freed[0], views, freed[1]))
            if free.rms_px < FREE_FOCAL_GAIN * fit.rms_px:
                fit = free
        fits.append(fit)
    if not fits:
        return None
    best = min(f.rms_px for f in fits)
    return next(f for f in fits if f.rms_px <= best * (1 + MODEL_SLACK) + MODEL_SLACK_PX)


def local_homographies(lens: LensModel, rvec: np.ndarray, tvec: np.ndarray,
                       grids_mm: np.ndarray) -> np.ndarray:
    """Per small area (``grids_mm``: (areas, points, 2) in mm, e.g. a grid over each
    slot), the homography (mm -> frame px) that best follows the lens there: (areas, 3, 3).

    A card slot is small enough that the residual is well under a pixel.  All
    areas are solved at once (a normalised DLT, one batched SVD): a 4-player
    table's 132 slots take about a millisecond, ``findHomography`` slot by slot
    twenty times that.
    """
    grids = np.asarray(grids_mm, np.float64)
    n, m, _ = grids.shape
    px = lens.project(grids.reshape(-1, 2), rvec, tvec).reshape(n, m, 2)
    src, t_src = _normalise(grids)
    dst, t_dst = _normalise(px)
    x, y = src[..., 0], src[..., 1]
    u, v = dst[..., 0], dst[..., 1]
    one, zero = np.ones_like(x), np.zeros_like(x)
    rows_u = np.stack([x, y, one, zero, zero, zero, -u * x, -u * y, -u], -1)
    rows_v = np.stack([zero, zero, zero, x, y, one, -v * x, -v * y, -v], -1)
    a = np.concatenate([rows_u, rows_v], axis=1)  # (n, 2m, 9)
    # the null vector of A is the eigenvector of A^T A with the least eigenvalue
    # (9 x 9 per area: several times faster than the SVD of A; normalised, the
    # squared condition number costs nothing in double precision)
    _, vecs = np.linalg.eigh(np.einsum("nki,nkj->nij", a, a))
    hn = vecs[:, :, 0].reshape(n, 3, 3)
    h = np.linalg.inv(t_dst) @ hn @ t_src
    return cast(np.ndarray, h / h[:, 2:3, 2:3])


def _normalise(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hartley's normalisation per area: centred, mean distance sqrt(2)."""
    c = pts.mean(axis=1, keepdims=True)
    d = np.sqrt(((pts - c) ** 2).sum(-1)).mean(axis=1)
    k = np.sqrt(2) / np.maximum(d, 1e-12)
    t = np.zeros((len(pts), 3, 3))
    t[:, 0, 0] = t[:, 1, 1] = k
    t[:, 0, 2] = -k * c[:, 0, 0]
    t[:, 1, 2] = -k * c[:, 0, 1]
    t[:, 2, 2] = 1
    return (pts - c) * k[:, None, None], t


def local_homography(lens: LensModel, rvec: np.ndarray, tvec: np.ndarray,
                     grid_mm: np.ndarray) -> np.ndarray:
    """``local_homographies`` of one area."""
    return cast(np.ndarray,
                local_homographies(lens, rvec, tvec, np.asarray(grid_mm, np.float64)[None])[0])


def default_path() -> Path:
    """Where ``calibrate --lens`` stores the lens: beside the colours, in the XDG folder."""
    from vision.colours import config_home

    return config_home() / "splendor-companion" / "lens.json"


def save_lens(lens: LensModel, path: str | Path | None = None,
              write: Callable[[Path, str], object] | None = None) -> Path:
    """Store ``lens`` at ``path`` (default :func:`default_path`, its folder created);
    ``write(path, text)`` writes the file (see :func:`vision.colours.save_colours`)."""
    p = Path(path) if path else default_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(lens.to_dict(), indent=1) + "\n"
    if write is None:
        p.write_text(text, encoding="utf-8")
    else:
        write(p, text)
    return p


def load_lens(path: str | Path) -> LensModel:
    """The lens stored at ``path``; a one-line ``VisionError`` for a missing or bad file."""
    p = Path(path)
    try:
        return LensModel.from_dict(json.loads(p.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise VisionError(f"{p}: no such lens file (write one with `calibrate --lens`)") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise VisionError(f"{p} is not a lens file: {exc}") from None
