"""The camera's lens: intrinsics and radial distortion, fitted from the mats' markers.

Why a lens model at all: the Camera Module 3 Wide (102 deg across) bends
straight lines by tens of pixels towards the frame's edges.  One homography
per mat cannot follow that curve; fitted to a mat's 16 markers it keeps one
group and extrapolates, and slots came out up to 26 mm off.  Undistorting the
points first makes the table plane a plane again.

Design decisions
----------------
* OpenCV's model (``k1, k2, p1, p2, k3``), so a ChArUco calibration or any
  published one can be stored as it is.  We fit only ``k1`` and ``k2``: the
  principal point is fixed at the image centre, tangential terms are zero and
  the aspect ratio is 1.  One still of a plane cannot pin down more, and a
  Pi camera module's sensor is centred on its lens to well under 1 %.
* Every mat is its own planar target (its own pose): all mats lie on the
  table, but each is laid by hand a few mm and degrees off the layout, so
  sharing one pose would put the hand's error into the lens.
* The focal length is first left free.  Seen from straight above, one plane
  cannot tell the focal length from the camera's height (a longer lens
  higher up gives the same picture), so a free fit may wander; what we need
  is only the plane -> image mapping, which stays right however focal length
  and height trade.  A fitted focal length beyond ``F_RANGE`` of the nominal
  one (a sign the fit went astray) is replaced by a fit with the focal length
  held at the nominal value (``NOMINAL_F_OVER_WIDTH``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError

#: Focal length / image width of the Camera Module 3 (Wide): f = 2.75 mm on 1.4 um
#: pixels = 1964 px across the 4608 px still (Raspberry Pi's datasheet).
NOMINAL_F_OVER_WIDTH = 1964.0 / 4608.0
#: A free focal length outside this range of the nominal one is not trusted.
F_RANGE = (0.6, 1.7)
#: Fit flags: centred principal point, square pixels, no tangential or k3 term.
_FLAGS = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
          | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K3)
_CRITERIA = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 60, 1e-9)


@dataclass(frozen=True)
class LensModel:
    """A pinhole camera matrix and OpenCV distortion coefficients for one image size."""

    camera_matrix: np.ndarray  # 3x3
    distortion: np.ndarray  # (5,): k1, k2, p1, p2, k3
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
        """Ideal (pinhole) px (N, 2) -> px in the real, distorted frame."""
        k = self.camera_matrix
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        x = (p[:, 0] - k[0, 2]) / k[0, 0]
        y = (p[:, 1] - k[1, 2]) / k[1, 1]
        k1, k2, p1, p2, k3 = (float(v) for v in self.distortion[:5])
        r2 = x * x + y * y
        radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
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
        """Plane points (N, 2) in mm, z = 0, seen from pose (rvec, tvec) -> frame px."""
        p = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        obj = np.hstack([p, np.zeros((len(p), 1))])
        px, _ = cv2.projectPoints(obj, rvec, tvec, self.camera_matrix, self.distortion)
        return px.reshape(-1, 2)

    def monotone(self, size: tuple[int, int] | None = None) -> bool:
        """Whether the radial map keeps growing out to the frame's corners (a fit that
        folds back inside the frame is nonsense there)."""
        w, h = size or self.size
        k = self.camera_matrix
        r_max = float(np.hypot(max(k[0, 2], w - k[0, 2]), max(k[1, 2], h - k[1, 2]))) / k[0, 0]
        r = np.linspace(0, 1.6 * r_max, 200)  # undistorted radius: beyond the corner
        k1, k2, _, _, k3 = (float(v) for v in self.distortion[:5])
        rd = r * (1 + k1 * r**2 + k2 * r**4 + k3 * r**6)
        grows = np.diff(rd) > 0
        return bool(grows[rd[1:] <= r_max * 1.02].all()) and bool(rd.max() > r_max)

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
        dist = np.zeros(5)
        given = np.asarray(d.get("distortion", ()), np.float64).ravel()[:5]
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


def fit_lens(views: Sequence[tuple[np.ndarray, np.ndarray]], size: tuple[int, int],
             fix_focal: bool = False) -> LensFit | None:
    """``k1``, ``k2`` (and the focal length unless ``fix_focal``) and one pose per view.

    ``views``: per planar target (a mat), its points in mm (N, 2) and where
    they were found in the frame (N, 2).  None when OpenCV's fit fails or gives
    a lens that folds back inside the frame.
    """
    obj, img = _objects(views)
    start = LensModel.nominal(size)
    flags = _FLAGS | (cv2.CALIB_FIX_FOCAL_LENGTH if fix_focal else 0)
    try:
        _, k, dist, rvecs, tvecs = cv2.calibrateCamera(
            obj, img, size, start.camera_matrix.copy(), np.zeros(5), flags=flags,
            criteria=_CRITERIA)
    except cv2.error:
        return None
    lens = LensModel(np.asarray(k, np.float64), np.asarray(dist, np.float64).ravel()[:5],
                     (int(size[0]), int(size[1])))
    if not fix_focal and not F_RANGE[0] <= lens.focal / start.focal <= F_RANGE[1]:
        return fit_lens(views, size, fix_focal=True)
    if not lens.monotone():
        return None if fix_focal else fit_lens(views, size, fix_focal=True)
    poses = tuple(zip(rvecs, tvecs, strict=True))
    return LensFit(lens, poses, _rms(lens, views, poses))


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
    return h / h[:, 2:3, 2:3]


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
    return local_homographies(lens, rvec, tvec, np.asarray(grid_mm, np.float64)[None])[0]


def default_path() -> Path:
    """Where ``calibrate --lens`` stores the lens: beside the colours, in the XDG folder."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "splendor-companion" / "lens.json"


def save_lens(lens: LensModel, path: str | Path | None = None) -> Path:
    p = Path(path) if path else default_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(lens.to_dict(), indent=1) + "\n", encoding="utf-8")
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
