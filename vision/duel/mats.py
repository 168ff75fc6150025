"""Drawing the Duel mats: :func:`vision.mats.draw_mats` with Duel's own words.

The slots, markers and paper are drawn by the Splendor routine (one drawing for
the print and the renderer); only the labels differ (a Splendor mat's "deck +
4 cards" would be wrong here).  Labels lie in the margin bands and in gaps, away
from every place the reader samples.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.layout import Layout, Mat
from vision.mats import (
    PAPER,
    TITLE_MM,
    TOKEN_SLOT_FILL,
    Affine,
    Box,
    Label,
    _draw_label,
    apply,
    draw_mats,
    render_box,
    to_local,
)

KIND_NAMES = {"w": "white", "u": "blue", "g": "green", "r": "red", "k": "black",
              "p": "pearl", "y": "gold"}


def duel_labels(layout: Layout, mat: Mat) -> list[Label]:
    """The words on a Duel mat: its title and what goes in each group of places."""
    slots = [s for s in layout.slots if s.mat == mat.name]

    def box(sid: str) -> tuple[float, float, float, float]:
        s = layout.slot_index[sid]
        pts = [to_local(mat, p) for p in s.corners()]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)

    if mat.player is None:
        out = [Label(45, 14, "splendor-companion  -  Splendor Duel, central mat", TITLE_MM)]
        b = box("board")
        out.append(Label(b[0], b[3] + 7, "lay the board here, reminder strip up"))
        out.append(Label(box("deck.3")[0], box("deck.3")[1] - 4, "decks 3 / 2 / 1"))
        out.append(Label(box("pyramid.3.0")[0], box("pyramid.3.0")[1] - 4, "pyramid"))
        out.append(Label(box("royal.0")[0], box("royal.0")[1] - 4, "royal cards"))
        return out
    p = mat.player
    out = [Label(45, 14, f"splendor-companion  -  Splendor Duel, player {p}"
                 "  (this edge towards the central mat)", TITLE_MM)]
    for letter in KIND_NAMES:
        first = [s for s in slots if s.id == f"player{p}.tokens.{letter}.0"]
        if first:
            x0 = box(first[0].id)[0]
            out.append(Label(x0 + 6, mat.size[1] - 26, letter.upper()))
    out.append(Label(45, mat.size[1] - 12, "your tokens by kind: W U G R K pearl gold"))
    col = box(f"player{p}.tableau.w")
    out.append(Label(col[0] + 30, mat.size[1] - 12, "cards you bought, by bonus colour"))
    res = box(f"player{p}.reserved.0")
    out.append(Label(res[0], mat.size[1] - 12, "reserved cards (3) and privileges (3)"))
    return out


def draw_duel_mats(canvas: np.ndarray, layout: Layout, aff: Affine, mats: set[str] | None = None,
                   paper: tuple[int, int, int] = PAPER, labels: bool = True) -> None:
    """Draw the Duel mats (all, or those named) onto ``canvas`` in place."""
    draw_mats(canvas, layout, aff, mats, paper, labels=False)
    for slot in layout.slots:  # a privilege place is filled grey: any scroll stands out
        if slot.kind == "privilege" and (mats is None or slot.mat in mats):
            inset = _inset(slot.corners(), 1.2)
            poly = np.round(apply(aff, inset) * 16).astype(np.int32)
            cv2.fillConvexPoly(canvas, poly, TOKEN_SLOT_FILL, cv2.LINE_AA, 4)
    if labels:
        for mat in layout.mats:
            if mats is None or mat.name in mats:
                for label in duel_labels(layout, mat):
                    _draw_label(canvas, aff, mat, label)


def _inset(corners: tuple[tuple[float, float], ...], mm: float) -> np.ndarray:
    pts = np.asarray(corners, np.float64)
    c = pts.mean(axis=0)
    d = pts - c
    return np.asarray(c + d * (1 - mm / np.abs(d).max(axis=0).clip(1e-6)))


def render_duel_mat(layout: Layout, mat_name: str, px_per_mm: float,
                    box: Box | None = None) -> np.ndarray:
    """One Duel mat (or its pixels ``box``) as a printable upright image (BGR) at
    ``px_per_mm``, on white paper (see :func:`vision.mats.render_box`)."""
    return render_box(layout, mat_name, px_per_mm, box, draw_duel_mats)
