"""Drawing the printed mats: paper, slot outlines, token slots, markers and labels.

One routine draws any part of the table through an affine map from table mm
to canvas pixels, so the printable sheets (:func:`render_mat`) and the
renderer's table (:mod:`vision.synth`) are the same drawing.

Printed colours are chosen for the reader: the paper is a light neutral (the
reader's white reference is the white square around each marker), and the
token slots are filled mid-grey so that an empty slot is far from both the
white and the black token.  The print itself leaves the paper white
(:data:`PRINT_PAPER`: no page-filling ink); white paper is within the reader's
paper distance of :data:`PAPER` (Lab 15 < 22; a table of white mats reads right:
``tests/docs/test_mat_pages.py``).

Labels (slot names a player understands) are light ink and lie only outside the
slots and the markers' quiet squares, so the reader never samples them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

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
#: The printed sheet's background: the paper itself (no ink).
PRINT_PAPER = (255, 255, 255)
#: Slot labels and titles: lighter than the outlines, to read but not to distract.
LABEL_INK = (150, 150, 150)
#: Label text heights in mm (3.5 mm is the smallest comfortable at arm's length).
LABEL_MM = 3.5
TITLE_MM = 4.5
COLOUR_NAMES = {"w": "white", "u": "blue", "g": "green", "r": "red", "k": "black", "y": "gold"}
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


def apply(aff: Affine, pts: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    return cast(np.ndarray, p @ aff[:, :2].T + aff[:, 2])


def _scale(aff: Affine) -> float:
    return float(math.hypot(aff[0, 0], aff[1, 0]))


def draw_mats(
    canvas: np.ndarray, layout: Layout, aff: Affine, mats: set[str] | None = None,
    paper: tuple[int, int, int] = PAPER, labels: bool = True,
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
        cv2.fillConvexPoly(canvas, poly, paper, cv2.LINE_AA, shift)
    for slot in layout.slots:
        if mats is not None and slot.mat not in mats:
            continue
        _draw_slot(canvas, slot, aff, s, lw)
    dictionary = aruco_dictionary(layout.dictionary)
    for marker in layout.markers:
        if mats is not None and marker.mat not in mats:
            continue
        _draw_marker(canvas, marker.id, marker.corners, aff, dictionary, s)
    if labels:
        for mat in layout.mats:
            if mats is None or mat.name in mats:
                for label in mat_labels(layout, mat):
                    _draw_label(canvas, aff, mat, label)


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


def _draw_marker(canvas: np.ndarray, marker_id: int, corners: Sequence[Sequence[float]],
                 aff: Affine, dictionary: cv2.aruco.Dictionary, s: float) -> None:
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
    src = np.array([[0, 0], [n, 0], [n, n]], dtype=np.float32)
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


#: Pixels drawn around a box and cut away (see :func:`render_box`).
BOX_RIM = 8
#: A box of a mat's image in pixels: x0, y0, x1, y1 (x1, y1 excluded).
Box = tuple[int, int, int, int]
#: Draws mats onto a canvas through an affine map (:func:`draw_mats`'s signature).
DrawMats = Callable[..., None]


def mat_pixels(layout: Layout, mat_name: str, px_per_mm: float) -> tuple[int, int]:
    """(width, height) of a mat's whole image at ``px_per_mm``."""
    w, h = layout.mat(mat_name).size
    return round(w * px_per_mm), round(h * px_per_mm)


def render_box(layout: Layout, mat_name: str, px_per_mm: float, box: Box | None = None,
               draw: DrawMats | None = None) -> np.ndarray:
    """The pixels ``box`` of one mat's printable upright image (BGR; None: all of it).

    WHY boxes: a whole mat at 1200 dpi is 1.6-2.4 GB, and four players'
    mats were all held at once (24 GB); the PNGs are written strip by strip
    and each PDF sheet draws only its own part.  A box is drawn through the
    mat's affine map shifted by whole pixels, so its pixels are those of the
    whole image (``tests/vision/test_mats.py``)."""
    width, height = mat_pixels(layout, mat_name, px_per_mm)
    x0, y0, x1, y1 = box or (0, 0, width, height)
    # OpenCV's anti-aliased lines differ within a pixel or two of a canvas edge:
    # a box is drawn with a rim that is cut away (none on the image's own edges)
    left, top = min(x0, BOX_RIM), min(y0, BOX_RIM)
    right, bottom = min(width - x1, BOX_RIM), min(height - y1, BOX_RIM)
    canvas = np.full((max(0, y1 - y0 + top + bottom), max(0, x1 - x0 + left + right), 3),
                     255, np.uint8)
    aff = mat_affine(layout.mat(mat_name), px_per_mm)
    aff[:, 2] -= (x0 - left, y0 - top)
    (draw or draw_mats)(canvas, layout, aff, {mat_name}, paper=PRINT_PAPER)
    return canvas[top:top + max(0, y1 - y0), left:left + max(0, x1 - x0)]


def render_mat(layout: Layout, mat_name: str, px_per_mm: float) -> np.ndarray:
    """One mat as a printable upright image (BGR) at ``px_per_mm``, on white paper."""
    return render_box(layout, mat_name, px_per_mm)


@dataclass(frozen=True, slots=True)
class Label:
    """A line of text on a mat, in mat-local mm: ``x`` is its left end (or right end
    when ``right``), ``y`` its baseline."""

    x: float
    y: float
    text: str
    height: float = LABEL_MM
    right: bool = False


def to_local(mat: Mat, p: tuple[float, float]) -> tuple[float, float]:
    """Table mm to mat-local mm (the inverse of :meth:`Mat.to_table`)."""
    t = math.radians(mat.angle)
    c, s = math.cos(t), math.sin(t)
    dx, dy = p[0] - mat.center[0], p[1] - mat.center[1]
    return c * dx + s * dy + mat.size[0] / 2, -s * dx + c * dy + mat.size[1] / 2


def _local_box(mat: Mat, slot: Slot) -> tuple[float, float, float, float]:
    pts = [to_local(mat, p) for p in slot.corners()]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def mat_labels(layout: Layout, mat: Mat) -> list[Label]:
    """The words printed on a mat: its title and what goes in each group of slots.

    Every label sits in the margin band between markers or in a gap between slots,
    at least ``vision.locate.LOCATE_MARGIN_MM`` (6 mm) from any card, deck, noble or
    reserved slot: the card locator compares a slot with the ring round it, and a
    label in that ring made a pale card look empty (tests/vision/test_readers.py, the
    pale card).  Tableau columns are read from inside: 5 mm suffices there."""
    slots = [s for s in layout.slots if s.mat == mat.name]
    boxes = {s.id: _local_box(mat, s) for s in slots}
    out: list[Label] = []
    if mat.player is None:
        out.append(Label(45, 14, "splendor-companion  -  central mat", TITLE_MM))
        nobles = [boxes[s.id] for s in slots if s.kind == "noble"]
        if nobles:  # in the left band, beside the nobles' row
            out.append(Label(4, (nobles[0][1] + nobles[0][3]) / 2 + 2, "nobles", TITLE_MM))
        for s in slots:
            x0, y0, _, y1 = boxes[s.id]
            if s.kind == "deck":  # in the left band, above the row's marker
                cy = (y0 + y1) / 2
                out.append(Label(4, cy - 31, f"level {s.level}", TITLE_MM))
                out.append(Label(4, cy - 25, "deck + 4 cards"))
        tokens = [s for s in slots if s.kind == "token" and s.index == 0]
        if tokens:
            top = min(boxes[s.id][1] for s in tokens)
            left = min(boxes[s.id][0] for s in tokens)
            out.append(Label(left, top - 7, "supply: 7 of each gem, 5 gold"))
            for s in tokens:
                x0, y0, _, _ = boxes[s.id]
                letter = s.colour or "?"
                out.append(Label(x0 - 2, y0 + 9, f"{COLOUR_NAMES.get(letter, letter)} "
                                 f"{letter.upper()}", right=True))
        return out
    p = mat.player
    out.append(Label(45, 14, f"splendor-companion  -  player {p}"
                     "  (this edge towards the central mat)", TITLE_MM))
    columns = [s for s in slots if s.kind == "tableau"]
    if columns:
        out.append(Label(45, 31, "cards you bought, by bonus colour"))
    for s in columns:
        x0, _, _, y1 = boxes[s.id]
        letter = s.colour or "?"
        # 5 mm under the column (read from inside it), 6.5 mm above the reserved slots
        out.append(Label(x0, y1 + 8.5, f"{COLOUR_NAMES.get(letter, letter)} {letter.upper()}"))
    token_boxes = [boxes[s.id] for s in slots if s.kind == "token"]
    piles = [s for s in slots if s.kind == "pile"]
    if token_boxes:
        out.append(Label(min(b[0] for b in token_boxes) + 4, max(b[3] for b in token_boxes) + 10.5,
                         "your tokens: 10 at most"))
    if piles:
        bottom = max(boxes[s.id][3] for s in piles)
        names = [f"{COLOUR_NAMES.get(s.colour or '', '?')} {(s.colour or '?').upper()}"
                 for s in piles]
        out.append(Label(min(boxes[s.id][0] for s in piles) + 4, bottom + 10.5,
                         f"token piles: {', '.join(names[:3])} / {', '.join(names[3:])}"))
    reserved = [boxes[s.id] for s in slots if s.kind == "reserved"]
    if reserved:
        out.append(Label(min(b[0] for b in reserved) + 10, max(b[3] for b in reserved) + 10.5,
                         "reserved cards: 3 at most"))
    return out


_FONT = cv2.FONT_HERSHEY_SIMPLEX
#: Pixel height of a capital at font scale 1 (cv2.getTextSize("H", _FONT, 1, 1)).
_CAP_PX = 22


def _draw_label(canvas: np.ndarray, aff: Affine, mat: Mat, label: Label) -> None:
    """Text drawn upright in the mat's frame (so it turns with a player's mat): set
    on a small patch, then mapped onto the canvas and blended as ink."""
    s = _scale(aff)
    if label.height * s < 4:  # too small to be anything but noise
        return
    cap = max(12.0, label.height * s)
    scale = cap / _CAP_PX
    thick = max(1, round(cap / 9))
    (tw, th), base = cv2.getTextSize(label.text, _FONT, scale, thick)
    pad = thick + 2
    patch = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(patch, label.text, (pad, pad + th), _FONT, scale, 255, thick, cv2.LINE_AA)
    mm = label.height / th  # patch px -> mm
    x0 = label.x - (tw * mm if label.right else 0) - pad * mm
    y0 = label.y - (th + pad) * mm
    # patch px -> mat-local mm -> table mm -> canvas px
    t = math.radians(mat.angle)
    c, sn = math.cos(t), math.sin(t)
    w, h = mat.size
    local = np.array([[mm, 0, x0], [0, mm, y0], [0, 0, 1]])
    to_table = np.array([[c, -sn, mat.center[0] - c * w / 2 + sn * h / 2],
                         [sn, c, mat.center[1] - sn * w / 2 - c * h / 2], [0, 0, 1]])
    m = (np.vstack([aff, [0, 0, 1]]) @ to_table @ local)[:2]
    corners = apply(m, [[0, 0], [patch.shape[1], 0], [patch.shape[1], patch.shape[0]],
                        [0, patch.shape[0]]])
    hgt, wid = canvas.shape[:2]
    bx0, by0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 1, 0)
    bx1, by1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, (wid, hgt))
    if bx1 <= bx0 or by1 <= by0:
        return
    m[:, 2] -= (bx0, by0)
    alpha = cv2.warpAffine(patch, m, (int(bx1 - bx0), int(by1 - by0)), flags=cv2.INTER_AREA)
    a = (alpha.astype(np.float32) / 255.0)[..., None]
    roi = canvas[by0:by1, bx0:bx1]
    ink = np.array(LABEL_INK, np.float32)
    roi[:] = np.minimum(roi, (roi * (1 - a) + ink * a)).astype(np.uint8)
