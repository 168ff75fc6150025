"""How a mat is cut into sheets of paper: as few sheets as the paper allows.

A mat is cut into *bands* (rows of sheets across its width, or columns down its
height); each band uses one paper orientation and as many sheets as its length
needs.  Mixing orientations is what saves paper: a 556 × 437 mm player mat
takes 6 A4 sheets as a grid but 5 as a portrait band over a landscape band.

Neighbouring sheets share ``OVERLAP_MM`` of the mat: the later sheet (right of,
or below, its neighbour) is trimmed on its cut line and glued over the earlier
one's glue strip, where the printed content is the same, so the joint can be
checked by eye.  Joints are slid, within the room the paper leaves, away from
the markers (a marker pieced together from two sheets reads worse) and then
from the slots.

Pure geometry in mat millimetres (origin at the printed mat's top-left, as
:meth:`vision.layout.Mat.to_table` takes it): no drawing here.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

#: Paper sizes (portrait width, height) in mm: ISO 216 and US Letter.
PAPERS_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}
#: Border of every sheet outside the mat; captions, ruler and hints are printed in it.
#: Most home printers print to 4-5 mm of the edge.  7 mm, not 8: at 8 a player mat
#: needs 6 A4 sheets instead of 5 and the central mat 6 A3 instead of 4
#: (`plan_sheets` over margins 5-8 mm, overlaps 8-12 mm; see the commit).
MARGIN_MM = 7.0
#: Strip two neighbouring sheets share: the glue strip of one, under the other.
OVERLAP_MM = 10.0
#: Most bands a mat is cut into (4 already exceeds any mat on A4).
MAX_BANDS = 4

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mat mm


@dataclass(frozen=True, slots=True)
class Sheet:
    """One printed sheet: the part of the mat it carries and how it lies on paper."""

    number: int          # 1-based within the mat
    band: int            # 0-based band index
    index: int           # 0-based position within the band
    area: Rect           # the part of the mat printed on it, mat mm
    landscape: bool


@dataclass(frozen=True, slots=True)
class SheetPlan:
    """All sheets of one mat; ``rows`` is True when bands run across the width."""

    mat_size: tuple[float, float]
    paper: tuple[float, float]   # portrait width, height in mm
    rows: bool
    sheets: tuple[Sheet, ...]

    def usable(self, landscape: bool) -> tuple[float, float]:
        w, h = self.paper[::-1] if landscape else self.paper
        return w - 2 * MARGIN_MM, h - 2 * MARGIN_MM

    def neighbours(self, sheet: Sheet) -> dict[str, list[Sheet]]:
        """Sheets sharing an overlap with ``sheet``, by side (left, right, above, below)."""
        x0, y0, x1, y1 = sheet.area
        out: dict[str, list[Sheet]] = {"left": [], "right": [], "above": [], "below": []}
        for o in self.sheets:
            if o is sheet:
                continue
            ox0, oy0, ox1, oy1 = o.area
            share_y = min(y1, oy1) - max(y0, oy0) > OVERLAP_MM
            share_x = min(x1, ox1) - max(x0, ox0) > OVERLAP_MM
            if share_y and abs(ox1 - (x0 + OVERLAP_MM)) < 0.01:
                out["left"].append(o)
            if share_y and abs(ox0 - (x1 - OVERLAP_MM)) < 0.01:
                out["right"].append(o)
            if share_x and abs(oy1 - (y0 + OVERLAP_MM)) < 0.01:
                out["above"].append(o)
            if share_x and abs(oy0 - (y1 - OVERLAP_MM)) < 0.01:
                out["below"].append(o)
        return out


def _count(length: float, usable: float) -> int:
    """Sheets of ``usable`` length that cover ``length`` with overlaps."""
    if length <= usable:
        return 1
    return math.ceil((length - OVERLAP_MM) / (usable - OVERLAP_MM) - 1e-9)


def plan_sheets(mat_size: tuple[float, float], paper: tuple[float, float],
                avoid: list[Rect] | None = None, prefer_free: list[Rect] | None = None
                ) -> SheetPlan:
    """The fewest sheets for a mat of ``mat_size`` on ``paper`` (portrait w, h, mm).

    ``avoid`` (markers' quiet squares) and ``prefer_free`` (slots) are places a
    joint should not cross, in that order of importance."""
    w_mat, h_mat = mat_size
    candidates: list[tuple[int, int, bool, tuple[bool, ...]]] = []
    for rows in (True, False):
        across, along = (w_mat, h_mat) if rows else (h_mat, w_mat)
        for k in range(1, MAX_BANDS + 1):
            for orient in itertools.product((False, True), repeat=k):
                sizes = [_usable(paper, land) for land in orient]
                depth = [s[1] if rows else s[0] for s in sizes]
                if sum(depth) - (k - 1) * OVERLAP_MM < along:
                    continue
                count = sum(_count(across, s[0] if rows else s[1]) for s in sizes)
                changes = sum(a != b for a, b in itertools.pairwise(orient))
                candidates.append((count, changes, rows, orient))
    if not candidates:
        raise ValueError(f"a mat of {w_mat:.0f} x {h_mat:.0f} mm does not fit {MAX_BANDS} bands")
    fewest = min(c[0] for c in candidates)
    # among the plans with the fewest sheets: joints off the markers, then off the
    # slots, then the simplest (fewest changes of orientation)
    best: tuple[tuple[int, int, int], SheetPlan] | None = None
    for count, changes, rows, orient in candidates:
        if count != fewest:
            continue
        hits = [0, 0]
        plan = _build(mat_size, paper, rows, orient, avoid or [], prefer_free or [], hits)
        key = (hits[0], hits[1], changes)
        if best is None or key < best[0]:
            best = (key, plan)
    assert best is not None
    return best[1]


def _usable(paper: tuple[float, float], landscape: bool) -> tuple[float, float]:
    w, h = paper[::-1] if landscape else paper
    return w - 2 * MARGIN_MM, h - 2 * MARGIN_MM


def _build(mat_size: tuple[float, float], paper: tuple[float, float], rows: bool,
           orient: tuple[bool, ...], avoid: list[Rect], prefer_free: list[Rect],
           hits: list[int]) -> SheetPlan:
    w_mat, h_mat = mat_size
    across, along = (w_mat, h_mat) if rows else (h_mat, w_mat)

    def swap(r: Rect) -> Rect:  # work as if bands were rows
        return r if rows else (r[1], r[0], r[3], r[2])

    av, pf = [swap(r) for r in avoid], [swap(r) for r in prefer_free]
    sizes = [_usable(paper, land) for land in orient]
    depths = [s[1] if rows else s[0] for s in sizes]
    lengths = [s[0] if rows else s[1] for s in sizes]
    band_cuts = _split(along, depths, (0.0, across), av, pf, True, hits)
    sheets: list[Sheet] = []
    for b, ((a0, a1), land, usable_len) in enumerate(zip(band_cuts, orient, lengths, strict=True)):
        n = _count(across, usable_len)
        cuts = _split(across, [usable_len] * n, (a0, a1), av, pf, False, hits)
        for i, (c0, c1) in enumerate(cuts):
            area = (c0, a0, c1, a1) if rows else (a0, c0, a1, c1)
            sheets.append(Sheet(len(sheets) + 1, b, i, area, land))
    return SheetPlan(mat_size, paper, rows, tuple(sheets))


def _split(length: float, sizes: list[float], span: tuple[float, float], avoid: list[Rect],
           prefer_free: list[Rect], across_bands: bool, hits: list[int]
           ) -> list[tuple[float, float]]:
    """Intervals covering ``0..length``, the i-th at most ``sizes[i]`` long, each
    overlapping the next by ``OVERLAP_MM``; every joint placed (1 mm steps) where its
    overlap strip crosses the fewest ``avoid`` rectangles, then ``prefer_free`` ones,
    then nearest the even split.  ``span`` is the other axis' extent of the joint;
    ``hits`` adds up the rectangles the chosen joints still cross."""
    n = len(sizes)
    if n == 1:
        return [(0.0, length)]
    out: list[tuple[float, float]] = []
    start = 0.0
    for i in range(n - 1):
        rest = sizes[i + 1:]
        hi = start + sizes[i]
        lo = max(start + OVERLAP_MM + 1, length - (sum(rest) - (len(rest) - 1) * OVERLAP_MM)
                 + OVERLAP_MM)
        even = start + (length - start + (n - i - 1) * OVERLAP_MM) / (n - i)
        best: tuple[tuple[int, int, float], float] | None = None
        for end in _steps(lo, hi):
            strip = ((span[0], end - OVERLAP_MM, span[1], end) if across_bands
                     else (end - OVERLAP_MM, span[0], end, span[1]))
            key = (_hits(strip, avoid), _hits(strip, prefer_free), abs(end - even))
            if best is None or key < best[0]:
                best = (key, end)
        assert best is not None
        end = best[1]
        hits[0] += best[0][0]
        hits[1] += best[0][1]
        out.append((start, end))
        start = end - OVERLAP_MM
    out.append((start, length))
    return out


def _steps(lo: float, hi: float) -> list[float]:
    if hi <= lo:
        return [hi]
    n = int((hi - lo) // 1.0)
    return [lo + k * 1.0 for k in range(n + 1)] + ([hi] if lo + n < hi else [])


def _hits(strip: Rect, rects: list[Rect]) -> int:
    """How many rectangles the strip (``x0, y0, x1, y1`` in band coordinates:
    x along the band) touches; rectangles are given as (x0, y0, x1, y1) too."""
    x0, y0, x1, y1 = strip
    return sum(r[0] < x1 and r[2] > x0 and r[1] < y1 and r[3] > y0 for r in rects)
