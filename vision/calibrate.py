"""From ArUco markers to homographies (table mm -> image px) and a white reference.

Design decisions
----------------
* Markers are detected on a copy scaled to at most ``DETECT_MAX_SIDE`` px
  (a 12 MP still takes ~10× longer at full size), with one adaptive-threshold
  window (``FAST_THRESHOLD_WINDOW``), and their corners refined with sub-pixel
  accuracy on the full-resolution grey image.
* One marker gives a homography (4 corners); more are used together.  A mat
  seen through ``MIN_OWN_MARKERS`` or more of its own markers gets its own
  homography, because hand-laid mats are never exactly where the layout says;
  other mats use the homography fitted to all markers seen.
* The white square printed around every marker is the frame's white
  reference: each marker gives a per-channel gain, and a slot is normalised by
  the gains of the markers near it (inverse-distance weighting), which
  removes colour temperature, exposure and most of the uneven light.
* A wide lens bends the table: when the markers show it (see
  ``vision.lens``), the lens and one pose per mat are fitted, and each slot
  gets its own homography (``Calibration.h_for_slot``) fitted over a grid on
  the slot through the lens, so every reader still takes a 3x3 ``h``.  The
  lens is used only where it fits the markers clearly better than the
  homographies (``LENS_MIN_GAIN``): on an undistorted frame the readings stay
  those of the homographies.  It is fitted on every frame, no cache: the fit
  (two radial models, see ``vision.lens``) and the comparison cost 3-20 ms CPU
  at 4608 x 2592 (medians 3-8 ms over the central mat, 10-18 ms over a whole
  table: ``tests/bench/lens_accuracy.py world``) and all the slots'
  homographies one batched solve of ~2 ms, so a camera nudged between frames
  costs nothing extra.  A lens stored by ``calibrate --lens`` leaves only the
  mats' poses to fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

import cv2
import numpy as np

from vision.errors import VisionError
from vision.layout import MARKER_MM, MARKER_QUIET_MM, Layout, Slot
from vision.lens import LensFit, LensModel, fit_lens, fit_poses, local_homographies
from vision.mats import aruco_dictionary

DETECT_MAX_SIDE = 1800
#: One adaptive-threshold window (px, on the scaled copy) instead of OpenCV's three
#: (3, 13, 23): half the detection time, and on the 240 recorded frames (dim, glare,
#: 20° tilt included) it finds every marker the three find.  A frame where it finds
#: none gets the full set.
FAST_THRESHOLD_WINDOW = 13
MIN_OWN_MARKERS = 2
#: The normalised value of the printed white.
WHITE_TARGET = 255.0
#: Gains are clipped to this range: beyond it the frame is too dark or blown out to trust.
GAIN_RANGE = (0.7, 4.0)
#: Markers needed to fit a lens from the frame (each mat with ``MIN_OWN_MARKERS`` or
#: more is one planar target): 8 markers are 32 points for 2 coefficients + poses.
LENS_MIN_MARKERS = 8
#: The lens replaces the homographies only when its RMS reprojection error over the
#: markers is below this share of theirs (and LENS_MIN_GAIN_PX below it): on frames
#: without distortion both fit to the detection noise and the homographies stay.
#: Measured: 0.996-1.03 on undistorted perfect-camera renders (tilt 0-3 deg; 1.5-33 at
#: 6-12 deg, the focal length being held), `tests/bench/lens_accuracy.py gate`; 0.80
#: on the world's hard standard-lens 2-player table where the lens halves the slots'
#: error (`lens_accuracy.py world 2 hard`).  Never chosen on the recorded scenes: their
#: frames show 1-3 markers, fewer than LENS_MIN_MARKERS.
LENS_MIN_GAIN = 0.85
LENS_MIN_GAIN_PX = 0.15
#: A marker whose worst corner is this many times the median marker's off the lens
#: fit, and at least LENS_OUTLIER_PX, is left out and the lens refitted once.
LENS_OUTLIER = 5.0
LENS_OUTLIER_PX = 2.0
#: A slot's local homography is fitted to a GRID x GRID grid over the slot grown by
#: SLOT_GRID_MARGIN_MM each side (readers look a little beyond the slot).  Residual
#: against the lens: <= 0.73 px at 1.75 px/mm under the strong Wide-like lens, worst on
#: a tableau column at the frame's edge (test_lens.py::test_a_slots_local_homography...).
SLOT_GRID = 5
SLOT_GRID_MARGIN_MM = 10.0


@dataclass(frozen=True)
class Calibration:
    """What the markers told about this frame."""

    markers: tuple[int, ...]
    homography: np.ndarray
    mat_homographies: dict[str, np.ndarray] = field(default_factory=dict)
    #: per marker id: its centre in table mm and its per-channel (B, G, R) gain.
    gains: dict[int, tuple[tuple[float, float], np.ndarray]] = field(default_factory=dict)
    reprojection_px: float = 0.0
    #: the lens, when it was used (fitted from this frame or given), else None.
    lens: LensModel | None = None
    #: per mat, its pose (rvec, tvec) through ``lens``; "" = fitted to all markers.
    poses: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    _slot_h: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def h_for(self, mat: str) -> np.ndarray:
        """The mat's homography (mm -> px), blind to the lens: for whole-mat uses."""
        return self.mat_homographies.get(mat, self.homography)

    def h_for_slot(self, slot: Slot) -> np.ndarray:
        """The homography (table mm -> frame px) to rectify ``slot`` with: through the
        lens when one is used (fitted locally over the slot), else the mat's."""
        if self.lens is None:
            return self.h_for(slot.mat)
        h = self._slot_h.get(slot.id)
        if h is None:
            self.prepare_slots([slot])
            h = self._slot_h[slot.id]
        return h

    def prepare_slots(self, slots: list[Slot] | tuple[Slot, ...]) -> None:
        """Fit the slots' local homographies in one batch per mat (``h_for_slot``
        then only looks them up): one by one costs twenty times more."""
        if self.lens is None:
            return
        by_pose: dict[str, list[Slot]] = {}
        for s in slots:
            if s.id not in self._slot_h:
                by_pose.setdefault(s.mat if s.mat in self.poses else "", []).append(s)
        for key, group in by_pose.items():
            rvec, tvec = self.poses[key]
            hs = local_homographies(self.lens, rvec, tvec, slot_grids(group))
            for s, h in zip(group, hs, strict=True):
                self._slot_h[s.id] = h

    @cached_property
    def _gain_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The markers' centres and gains as arrays (built once: every slot asks)."""
        return (np.array([c for c, _ in self.gains.values()]),
                np.array([v for _, v in self.gains.values()]))

    def gain_at(self, point: tuple[float, float]) -> np.ndarray:
        if not self.gains:
            return np.ones(3, np.float32)
        centres, g = self._gain_arrays
        d2 = ((centres - np.asarray(point)) ** 2).sum(1)
        w = 1.0 / (d2 + 50.0**2)
        return cast(np.ndarray, (g * w[:, None]).sum(0) / w.sum())

    def gains_at(self, points: list[tuple[float, float]]) -> list[np.ndarray]:
        """``gain_at`` of every point in one array operation (the same values: each
        sum runs over the markers in the same order)."""
        if not self.gains:
            return [np.ones(3, np.float32) for _ in points]
        centres, g = self._gain_arrays
        d2 = ((centres[None, :, :] - np.asarray(points, np.float64)[:, None, :]) ** 2).sum(2)
        w = 1.0 / (d2 + 50.0**2)
        return list((g[None, :, :] * w[:, :, None]).sum(1) / w.sum(1)[:, None])


def _detect(small: np.ndarray, layout: Layout, window: int | None
            ) -> tuple[tuple[np.ndarray, ...], np.ndarray | None]:
    params = cv2.aruco.DetectorParameters()
    if window is not None:
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = window
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(layout.dictionary), params)
    corners, ids, _ = detector.detectMarkers(small)
    return cast(tuple[np.ndarray, ...], corners), cast("np.ndarray | None", ids)


def detect_markers(grey: np.ndarray, layout: Layout) -> dict[int, np.ndarray]:
    """Marker id -> its 4 corners in image px (ArUco order), for ids in the layout."""
    h, w = grey.shape[:2]
    scale = min(1.0, DETECT_MAX_SIDE / max(h, w))
    # INTER_LINEAR: several times faster than INTER_AREA on a 12 MP frame, and the
    # corners are refined on the full-resolution image anyway
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR) \
        if scale < 1 else grey
    corners, ids = _detect(small, layout, FAST_THRESHOLD_WINDOW)
    if ids is None:  # nothing with one threshold window: try OpenCV's full set
        corners, ids = _detect(small, layout, None)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    known = layout.marker_index
    for c, i in zip(corners, ids.ravel(), strict=True):
        if int(i) not in known:
            continue
        pts = c.reshape(4, 2).astype(np.float32) / scale
        if scale < 1:
            win = max(2, round(2 / scale))
            crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
            pts = cv2.cornerSubPix(grey, pts.reshape(-1, 1, 2), (win, win), (-1, -1), crit)
            pts = pts.reshape(4, 2)
        found[int(i)] = pts
    return found


def _fit(src: list[np.ndarray], dst: list[np.ndarray]) -> np.ndarray | None:
    """Homography from marker corners; an affine map from a single marker.

    A full homography from one marker's four corners extrapolates its
    perspective terms wildly across the rest of the mat; an affine map is
    wrong only by the (small) perspective of a near-overhead camera.
    """
    s = np.concatenate(src).astype(np.float64)
    d = np.concatenate(dst).astype(np.float64)
    if len(src) < 2:
        design = np.hstack([s, np.ones((len(s), 1))])
        a, *_ = np.linalg.lstsq(design, d, rcond=None)
        return np.vstack([a.T, [0, 0, 1]])
    method = cv2.RANSAC if len(s) >= 12 else 0
    h, _ = cv2.findHomography(s, d, method, 3.0)
    return h


def slot_grid(slot: Slot, n: int = SLOT_GRID, margin_mm: float = SLOT_GRID_MARGIN_MM
              ) -> np.ndarray:
    """``n`` x ``n`` table-mm points over the slot grown by ``margin_mm``, (n*n, 2)."""
    return cast(np.ndarray, slot_grids([slot], n, margin_mm)[0])


def slot_grids(slots: list[Slot] | tuple[Slot, ...], n: int = SLOT_GRID,
               margin_mm: float = SLOT_GRID_MARGIN_MM) -> np.ndarray:
    """``slot_grid`` of every slot in one array operation: (slots, n*n, 2)."""
    t = np.linspace(-0.5, 0.5, n)
    u0, v0 = (a.ravel() for a in np.meshgrid(t, t))
    size = np.array([s.size for s in slots], np.float64) + 2 * margin_mm
    centre = np.array([s.center for s in slots], np.float64)
    a = np.radians([s.angle for s in slots])
    c, s_ = np.cos(a)[:, None], np.sin(a)[:, None]
    u, v = u0[None] * size[:, :1], v0[None] * size[:, 1:]
    return np.stack([centre[:, :1] + u * c - v * s_, centre[:, 1:] + u * s_ + v * c], -1)


def _homography_rms(views: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """RMS error of one least-squares homography per view (what the lens must beat)."""
    err = []
    for o, i in views:
        h, _ = cv2.findHomography(o, i, 0)
        if h is None:
            return float("inf")
        proj = cv2.perspectiveTransform(o.reshape(-1, 1, 2), h).reshape(-1, 2)
        err.append(((proj - i) ** 2).sum(1))
    return float(np.sqrt(np.concatenate(err).mean()))


def _views(found: dict[int, np.ndarray], layout: Layout, min_markers: int
           ) -> tuple[list[str], list[list[int]], list[tuple[np.ndarray, np.ndarray]]]:
    """Per mat with ``min_markers`` or more: its name, marker ids and (mm, px) corners."""
    known = layout.marker_index
    names, ids_of, views = [], [], []
    for mat in layout.mats:
        ids = [i for i in found if known[i].mat == mat.name]
        if len(ids) >= min_markers:
            names.append(mat.name)
            ids_of.append(ids)
            views.append((np.concatenate([np.asarray(known[i].corners) for i in ids]),
                          np.concatenate([found[i] for i in ids]).astype(np.float64)))
    return names, ids_of, views


def _outliers(fit: LensFit, ids_of: list[list[int]],
              views: list[tuple[np.ndarray, np.ndarray]]) -> set[int]:
    """Markers whose worst corner lies ``LENS_OUTLIER`` times the median error (and at
    least LENS_OUTLIER_PX) from the fit: a corner caught on glare or a sleeve's edge."""
    worst = np.concatenate([
        np.linalg.norm(fit.lens.project(o, r, t) - i, axis=1).reshape(-1, 4).max(1)
        for (o, i), (r, t) in zip(views, fit.poses, strict=True)])
    ids = np.concatenate([np.asarray(x) for x in ids_of])
    limit = max(LENS_OUTLIER_PX, LENS_OUTLIER * float(np.median(worst)))
    return {int(i) for i in ids[worst > limit]}


def _without_one_mat(ids_of: list[list[int]], views: list[tuple[np.ndarray, np.ndarray]],
                     size: tuple[int, int]) -> int | None:
    """When no lens fits the markers of every mat: the mat whose markers left out let
    the rest fit best (None when none does, or too few markers remain).

    WHY: a board's dark panel or a card's picture can decode as one of a mat's
    markers (a player's mat marker found in the middle of the central mat: rendered
    Duel tables, Wide lens, check frames easy 9978 and medium 9965).  The mat's
    homography has RANSAC, but a least-squares lens through a marker 700 mm from where
    it is printed folds back inside the frame (RMS 73-78 px), is refused, and the
    slots far from the centre are then mapped by a homography the lens bends 10 mm
    off: the royals at the frame's edge were cut out beside their cards.  With the
    player's mat left out the central mat's markers fit at 0.20-0.35 px.  Only tried
    when the fit fails, so a frame that fitted before fits the same."""
    best: tuple[float, int] | None = None
    for k in range(len(views)):
        rest = [v for j, v in enumerate(views) if j != k]
        if sum(len(o) for o, _ in rest) < 4 * LENS_MIN_MARKERS:
            continue
        fit = fit_lens(rest, size)
        if fit is not None and (best is None or fit.rms_px < best[0]):
            best = (fit.rms_px, k)
    return None if best is None else best[1]


def _lens_fit(found: dict[int, np.ndarray], layout: Layout, size: tuple[int, int],
              lens: LensModel | None, must_gain: bool = True
              ) -> tuple[LensFit, list[str]] | None:
    """The lens (fitted, or ``lens`` given) and one pose per mat with enough markers,
    or None when the markers are too few or (``must_gain``) the lens does not beat
    the homographies.  Markers far off the first fit are dropped and the fit redone
    once (the homographies have RANSAC; the lens fit is least squares)."""
    if lens is not None:
        names, _, views = _views(found, layout, MIN_OWN_MARKERS)
        return (fit_poses(lens.for_size(size), views), names) if views else None
    for _ in range(2):
        names, ids_of, views = _views(found, layout, MIN_OWN_MARKERS)
        if sum(len(o) for o, _ in views) < 4 * LENS_MIN_MARKERS:
            return None
        fit = fit_lens(views, size)
        if fit is None:
            # a false marker can make every lens fold (see _without_one_mat)
            dropped = _without_one_mat(ids_of, views, size)
            if dropped is None:
                return None
            found = {i: c for i, c in found.items() if i not in ids_of[dropped]}
            names, ids_of, views = _views(found, layout, MIN_OWN_MARKERS)
            fit = fit_lens(views, size)
            if fit is None:
                return None
        bad = _outliers(fit, ids_of, views)
        if not bad:
            break
        found = {i: c for i, c in found.items() if i not in bad}
    h_rms = _homography_rms(views) if must_gain else float("inf")
    assert fit is not None  # each pass of the loop returned or fitted a lens
    if fit.rms_px > LENS_MIN_GAIN * h_rms or fit.rms_px > h_rms - LENS_MIN_GAIN_PX:
        return None
    return fit, names


def fit_table_lens(image: np.ndarray, layout: Layout) -> LensFit:
    """The lens fitted from the mats' markers of one still, whether or not it beats the
    homographies there (``calibrate --lens``: the user says the camera is fixed and
    wants its lens kept); ``VisionError`` when the markers are too few."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    found = detect_markers(grey, layout)
    fitted = _lens_fit(found, layout, (image.shape[1], image.shape[0]), None, must_gain=False)
    if fitted is None:
        _, _, views = _views(found, layout, MIN_OWN_MARKERS)
        if sum(len(o) for o, _ in views) >= 4 * LENS_MIN_MARKERS:
            raise VisionError(f"{len(found)} markers of the layout visible, but no lens fits "
                              "them without folding back inside the frame")
        raise VisionError(f"{len(found)} markers of the layout visible: a lens needs "
                          f"{LENS_MIN_MARKERS} or more, on mats with {MIN_OWN_MARKERS} or more")
    return fitted[0]


def calibrate(image: np.ndarray, layout: Layout, grey: np.ndarray | None = None,
              lens: LensModel | None = None, use_lens: bool = True) -> Calibration | None:
    """The frame's calibration, or None when no marker of the layout is visible.

    ``lens``: a stored lens (``calibrate --lens``): only the mats' poses are
    fitted through it.  Without one, a lens is fitted from this frame's markers
    when there are enough (``use_lens``) and used where it beats the homographies.
    """
    if grey is None:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = detect_markers(grey, layout)
    if not found:
        return None
    known = layout.marker_index
    src = [np.asarray(known[i].corners) for i in found]
    dst = [found[i] for i in found]
    h = _fit(src, dst)
    if h is None:
        return None
    per_mat: dict[str, np.ndarray] = {}
    for mat in layout.mats:
        ids = [i for i in found if known[i].mat == mat.name]
        if len(ids) >= MIN_OWN_MARKERS:
            hm = _fit([np.asarray(known[i].corners) for i in ids], [found[i] for i in ids])
            if hm is not None:
                per_mat[mat.name] = hm
    proj = cv2.perspectiveTransform(np.concatenate(src).reshape(-1, 1, 2).astype(np.float64), h)
    err = float(np.sqrt(((proj.reshape(-1, 2) - np.concatenate(dst)) ** 2).sum(1).mean()))
    gains = {}
    ids = list(found)
    for i, g in zip(ids, _marker_gains(image, [known[i].corners for i in ids],
                                       [found[i] for i in ids]), strict=True):
        if g is not None:
            gains[i] = (tuple(np.mean(known[i].corners, axis=0)), g)
    size = (image.shape[1], image.shape[0])
    fitted = _lens_fit(found, layout, size, lens) if (use_lens or lens is not None) else None
    if fitted is None:
        return Calibration(tuple(sorted(found)), h, per_mat, gains, err)
    fit, names = fitted
    poses = dict(zip(names, fit.poses, strict=True))
    if any(m.name not in poses for m in layout.mats):  # the rest: one pose for all markers
        everything = fit_poses(fit.lens, [(np.concatenate(src), np.concatenate(dst))])
        poses[""] = everything.poses[0]
    return Calibration(tuple(sorted(found)), h, per_mat, gains, fit.rms_px, fit.lens, poses)


#: Where a marker's white band is sampled, in marker-axis mm from its centre: halfway
#: across the band, 9 points along each of its four sides.
_R = (MARKER_MM / 2 + MARKER_QUIET_MM / 2) / 2
_T = np.linspace(-_R, _R, 9)
_ENDS = np.array([-_R, _R])
_A = np.concatenate([np.repeat(_T, 2), np.tile(_ENDS, 9)])
_B = np.concatenate([np.tile(_ENDS, 9), np.repeat(_T, 2)])


def _marker_gains(image: np.ndarray, markers: list[tuple[Any, ...]], seen: list[np.ndarray]
                  ) -> list[np.ndarray | None]:
    """Per marker, the per-channel gain that maps its white band to ``WHITE_TARGET``
    (None when too little of the band is in the frame).

    WHY the band is placed from the marker's own four detected corners, not through
    the mat's homography: under the Wide lens a mat's homography is several mm off
    at the frame's corners, so the band's samples fell on the black marker and the
    gain there reached 3-4 (design world frames, ``vision world --split design
    --lens wide``), which clipped the paper round the nearby nobles to white and
    hid their printed outlines.  Across one marker the lens is a homography."""
    corners = np.asarray(markers, np.float64)  # (markers, 4, 2) table mm
    c = corners.mean(axis=1)[:, None, :]
    ex = ((corners[:, 1] - corners[:, 0]) / MARKER_MM)[:, None, :]
    ey = ((corners[:, 3] - corners[:, 0]) / MARKER_MM)[:, None, :]
    pts = c + _A[None, :, None] * ex + _B[None, :, None] * ey
    n = len(_A)
    px = np.concatenate([
        cv2.perspectiveTransform(
            pts[k].reshape(-1, 1, 2),
            cv2.getPerspectiveTransform(corners[k].astype(np.float32),
                                        np.asarray(seen[k], np.float32).reshape(4, 2)))
        .reshape(-1, 2) for k in range(len(markers))]) if len(markers) else np.zeros((0, 2))
    hgt, wid = image.shape[:2]
    px = px.reshape(len(markers), n, 2)
    ok = (px[..., 0] >= 0) & (px[..., 0] < wid - 1) & (px[..., 1] >= 0) & (px[..., 1] < hgt - 1)
    whites: list[np.ndarray | None] = [None] * len(markers)
    # markers wholly in the frame (nearly all): one percentile for all of them (the
    # same values as one each, in a tenth of the time)
    whole = np.flatnonzero(ok.all(axis=1))
    if len(whole):
        q = np.round(px[whole]).astype(int)
        samples = image[q[..., 1], q[..., 0]].astype(np.float32)
        for k, white in zip(whole, np.percentile(samples, 60, axis=1), strict=True):
            whites[k] = white
    for k in np.flatnonzero(~ok.all(axis=1)):
        if ok[k].sum() < 8:
            continue
        q = np.round(px[k][ok[k]]).astype(int)
        samples = image[q[:, 1], q[:, 0]].astype(np.float32)
        whites[k] = np.percentile(samples, 60, axis=0)
    return [None if w is None else np.clip(WHITE_TARGET / np.maximum(w, 1.0), *GAIN_RANGE
                                           ).astype(np.float32) for w in whites]


def rectify(image: np.ndarray, h: np.ndarray, slot: Slot, px_per_mm: float,
            margin_mm: float = 0.0, size_mm: tuple[float, float] | None = None,
            center: tuple[float, float] | None = None, angle: float | None = None
            ) -> np.ndarray:
    """The slot's rectangle (plus ``margin_mm``) as an upright image at ``px_per_mm``.

    ``size_mm``/``center``/``angle`` override the slot's, to cut out a card
    found a little off its slot.
    """
    w, hh = size_mm or slot.size
    cx, cy = center or slot.center
    a = np.radians(slot.angle if angle is None else angle)
    c, s = np.cos(a), np.sin(a)
    out_w, out_h = round((w + 2 * margin_mm) * px_per_mm), round((hh + 2 * margin_mm) * px_per_mm)
    # output px -> slot-local mm -> table mm
    k = 1.0 / px_per_mm
    u0, v0 = -(w / 2 + margin_mm) + 0.5 * k, -(hh / 2 + margin_mm) + 0.5 * k
    local = np.array([[k, 0, u0], [0, k, v0], [0, 0, 1]])
    rot = np.array([[c, -s, cx], [s, c, cy], [0, 0, 1]])
    m = h @ rot @ local
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return cv2.warpPerspective(image, m, (out_w, out_h), flags=flags,
                               borderMode=cv2.BORDER_REPLICATE)


def slots_visible(cal: Calibration, slots: tuple[Slot, ...] | list[Slot],
                  shape: tuple[int, ...], margin_px: float = 2) -> list[bool]:
    """``slot_visible`` for every slot, the corners projected in one call per mat (the
    same values as slot by slot)."""
    by_mat: dict[str, list[int]] = {}
    for i, slot in enumerate(slots):
        by_mat.setdefault(slot.mat, []).append(i)
    hh, ww = shape[:2]
    out = [False] * len(slots)
    for mat, idx in by_mat.items():
        pts = np.array([p for i in idx for p in slots[i].corners()], np.float64)
        if cal.lens is None:
            px = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), cal.h_for(mat)).reshape(-1, 4, 2)
        else:
            cal.prepare_slots([slots[i] for i in idx])
            px = np.stack([cv2.perspectiveTransform(pts[4 * k:4 * k + 4].reshape(-1, 1, 2),
                                                    cal.h_for_slot(slots[i])).reshape(4, 2)
                           for k, i in enumerate(idx)])
        inside = cast(np.ndarray, ((px[..., 0] >= margin_px) & (px[..., 0] <= ww - margin_px)
                                   & (px[..., 1] >= margin_px) & (px[..., 1] <= hh - margin_px)
                                   ).all(axis=1))
        for k, i in enumerate(idx):
            out[i] = bool(inside[k])
    return out


def slot_visible(h: np.ndarray, slot: Slot, shape: tuple[int, ...], margin_px: float = 2) -> bool:
    pts = cv2.perspectiveTransform(np.array(slot.corners(), np.float64).reshape(-1, 1, 2), h)
    pts = pts.reshape(-1, 2)
    hh, ww = shape[:2]
    return bool(((pts[:, 0] >= margin_px) & (pts[:, 0] <= ww - margin_px)
                 & (pts[:, 1] >= margin_px) & (pts[:, 1] <= hh - margin_px)).all())
