"""Drawing the printed mats: paper, slot outlines, token slots and markers.

One routine draws any part of the table through an affine map from table mm
to canvas pixels, so the printable sheets (:func:`render_mat`) and the
renderer's table (:mod:`vision.synth`) are the same drawing.

Printed colours are chosen for the reader: the paper is a light neutral (the
reader's white reference is the white square around each marker), and the
token slots are filled mid-grey so that an empty slot is far from both the
white and the black token.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.layout import (
    ARUCO_DICTIONARY,
    MARKER_MM,
    MARKER_QUIET_MM,
    TABLEAU_STEP_MM,
    Layout,
    Mat,
    Slot,
)

#: Printed colours, BGR.
PAPER = (214, 222, 226)
INK = (110, 110, 110)
TOKEN_SLOT_FILL = (150, 150, 150)
QUIET = (255, 255, 255)
#: Letters printed beside the tableau columns and supply rows (ink only: no colour print needed).
LINE_MM = 1.0

Affine = np.ndarray  # 2×3 float, table mm -> canvas px


def aruco_dictionary(name: str = ARUCO_DICTIONARY) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def affine_for(origin: tuple[float, float], px_per_mm: float) -> Affine:
    """Axis-aligned map: table point ``origin`` to pixel (0, 0), ``px_per_mm`` scale."""
    return np.array([[px_per_mm, 0, -origin[0] * px_per_mm],
                     [0, px_per_mm, -origin[1] * px_per_mm]], dtype=np.float64)


def mat_affine(mat: Mat, px_per_mm: float) -> Affine:
    """Map table mm to the pixels of ``mat`` printed upright (its own frame)."""
    t = math.radians(mat.angle)
    c, s = math.cos(t), math.sin(t)
    w, h = mat.size
    # table -> local: R^-1 (p - centre) + size/2
    rot = np.array([[c, s], [-s, c]])
    off = -rot @ np.array(mat.center) + np.array([w / 2, h / 2])
    return np.hstack([rot, off[:, None]]) * px_per_mm


def apply(aff: Affine, pts: np.ndarray | list) -> np.ndarray:
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    return p @ aff[:, :2].T + aff[:, 2]


def _scale(aff: Affine) -> float:
    return float(math.hypot(aff[0, 0], aff[1, 0]))


def draw_mats(
    canvas: np.ndarray, layout: Layout, aff: Affine, mats: set[str] | None = None
) -> None:
    """Draw the mats (all, or those named) onto ``canvas`` in place."""
    s = _scale(aff)
    lw = max(1, round(LINE_MM * s))
    shift = 4
    f = float(1 << shift)
    for mat in layout.mats:
        if mats is not None and mat.name not in mats:
            continue
        poly = np.round(apply(aff, mat.corners()) * f).astype(np.int32)
        cv2.fillConvexPoly(canvas, poly, PAPER, cv2.LINE_AA, shift)
    for slot in layout.slots:
        if mats is not None and slot.mat not in mats:
            continue
        _draw_slot(canvas, slot, aff, s, lw)
    dictionary = aruco_dictionary(layout.dictionary)
    for marker in layout.markers:
        if mats is not None and marker.mat not in mats:
            continue
        _draw_marker(canvas, marker.id, marker.corners, aff, dictionary, s)


def _draw_slot(canvas: np.ndarray, slot: Slot, aff: Affine, s: float, lw: int) -> None:
    shift = 4
    f = float(1 << shift)
    if slot.kind == "token":
        c = apply(aff, [slot.center])[0]
        r = slot.size[0] / 2 * s
        cen = (round(c[0] * f), round(c[1] * f))
        cv2.circle(canvas, cen, round(r * f), TOKEN_SLOT_FILL, -1, cv2.LINE_AA, shift)
        cv2.circle(canvas, cen, round((r - lw) * f), INK, lw, cv2.LINE_AA, shift)
        return
    poly = np.round(apply(aff, slot.corners()) * f).astype(np.int32)
    cv2.polylines(canvas, [poly], True, INK, lw, cv2.LINE_AA, shift)
    if slot.kind == "tableau":
        # faint guide ticks where each card's top edge goes
        w, h = slot.size
        for k in range(1, int((h - 88) // TABLEAU_STEP_MM) + 1):
            v = -h / 2 + 2 + k * TABLEAU_STEP_MM
            a = _slot_point(slot, (-w / 2, v))
            b = _slot_point(slot, (-w / 2 + 4, v))
            pa, pb = apply(aff, [a, b])
            ia, ib = (tuple(np.round(q * f).astype(int)) for q in (pa, pb))
            cv2.line(canvas, ia, ib, INK, lw, cv2.LINE_AA, shift)


def _slot_point(slot: Slot, local: tuple[float, float]) -> tuple[float, float]:
    t = math.radians(slot.angle)
    c, sn = math.cos(t), math.sin(t)
    u, v = local
    return slot.center[0] + u * c - v * sn, slot.center[1] + u * sn + v * c


def _draw_marker(canvas: np.ndarray, marker_id: int, corners: tuple, aff: Affine,
                 dictionary: cv2.aruco.Dictionary, s: float) -> None:
    pts = apply(aff, corners)
    side = float(np.linalg.norm(pts[1] - pts[0]))
    if side < 4:
        return
    # quiet zone
    cen = pts.mean(axis=0)
    quiet = MARKER_QUIET_MM / MARKER_MM if side > 0 else 1.0
    size_mm = float(np.linalg.norm(np.subtract(corners[1], corners[0])))
    if size_mm < MARKER_MM - 1:  # a small marker: a narrower white square
        quiet = (size_mm + 6) / size_mm
    q = (pts - cen) * quiet + cen
    cv2.fillConvexPoly(canvas, np.round(q * 16).astype(np.int32), QUIET, cv2.LINE_AA, 4)
    n = max(60, int(side))
    img = cv2.aruco.generateImageMarker(dictionary, marker_id, n)
    img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    src = np.float32([[0, 0], [n, 0], [n, n]])
    m = cv2.getAffineTransform(src, pts[:3].astype(np.float32))
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
    hgt, wid = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, wid), min(y1, hgt)
    if x1 <= x0 or y1 <= y0:
        return
    m[:, 2] -= (x0, y0)
    roi = canvas[y0:y1, x0:x1]
    cv2.warpAffine(img, m, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_AREA,
                   borderMode=cv2.BORDER_TRANSPARENT)


def render_mat(layout: Layout, mat_name: str, px_per_mm: float) -> np.ndarray:
    """One mat as a printable upright image (BGR) at ``px_per_mm``."""
    mat = layout.mat(mat_name)
    w, h = mat.size
    canvas = np.full((round(h * px_per_mm), round(w * px_per_mm), 3), 255, np.uint8)
    draw_mats(canvas, layout, mat_affine(mat, px_per_mm), {mat_name})
    _print_labels(canvas, layout, mat, px_per_mm)
    return canvas


def _print_labels(canvas: np.ndarray, layout: Layout, mat: Mat, s: float) -> None:
    """Small ink captions (mat name, tableau colours) to help laying the table out."""
    aff = mat_affine(mat, s)
    scale = 0.12 * s
    th = max(1, round(0.4 * s))
    cv2.putText(canvas, f"splendor-companion  {mat.name}", (round(45 * s), round(12 * s)),
                cv2.FONT_HERSHEY_SIMPLEX, scale * 0.8, INK, th, cv2.LINE_AA)
    for slot in layout.slots:
        if slot.mat != mat.name or slot.kind != "tableau":
            continue
        p = apply(aff, [_slot_point(slot, (-8, slot.size[1] / 2 + 9))])[0]
        cv2.putText(canvas, slot.colour or "", (round(p[0]), round(p[1])),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, INK, th, cv2.LINE_AA)
