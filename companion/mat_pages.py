"""The printable pages of the mats: one assembly page, then every sheet.

Each sheet page carries its part of the mat at true scale inside the margin,
and in the margin: which mat and which sheet it is, a 100 mm ruler to check
the print scale, and where it joins (a dashed cut line on the edges that lie
over a neighbour, a hatched glue strip where a neighbour lies over it).  The
assembly page shows the whole table, every sheet numbered where it goes.

Drawn with matplotlib (already a dependency) so the PDF has real page sizes
and vector text; the mats themselves are the raster of :func:`render_mat`.
The PNGs get their dpi written in (a pHYs chunk: cv2 writes none).
"""

from __future__ import annotations

import gc
import struct
import zlib
from collections.abc import Callable, Collection
from contextlib import nullcontext
from pathlib import Path
from typing import Any, BinaryIO

import cv2
import numpy as np

from companion.mat_sheets import MARGIN_MM, OVERLAP_MM, PAPERS_MM, Sheet, SheetPlan, plan_sheets
from vision.layout import Layout, Mat
from vision.mats import PRINT_PAPER, affine_for, draw_mats, to_local

#: Ink of the page furniture (captions, ruler, cut and glue marks): mid grey.
FURNITURE = "#707070"
GLUE = "#b0b0b0"
#: Caption text size in points (2.8 mm capitals fit the 7 mm margin).
CAPTION_PT = 7.0


def sheet_prefix(mat: Mat) -> str:
    """The letter(s) every sheet of ``mat`` is called by: C for the centre, P1..P4."""
    return "C" if mat.player is None else f"P{mat.player}"


def mat_title(mat: Mat) -> str:
    return "the central mat" if mat.player is None else f"player {mat.player}'s mat"


def plans_for(layout: Layout, paper: str) -> dict[str, SheetPlan]:
    """Each mat's sheet plan, its joints kept off the markers and slots."""
    size = PAPERS_MM[paper]
    out = {}
    for mat in layout.mats:
        avoid = [_local_rect(mat, k.corners, grow=5.0) for k in layout.markers if k.mat == mat.name]
        slots = [_local_rect(mat, s.corners(), grow=0.0) for s in layout.slots if s.mat == mat.name]
        out[mat.name] = plan_sheets(mat.size, size, avoid, slots)
    return out


def _local_rect(mat: Mat, corners: tuple[tuple[float, float], ...], grow: float
                ) -> tuple[float, float, float, float]:
    pts = [to_local(mat, p) for p in corners]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow


def sheet_id(mat: Mat, sheet: Sheet) -> str:
    return f"{sheet_prefix(mat)}-{sheet.number}"


#: Draws the pixels of a box of a mat (:func:`vision.mats.render_box`).
Tile = Callable[[str, tuple[int, int, int, int]], np.ndarray]


def sheet_box(sheet: Sheet, px_per_mm: float) -> tuple[int, int, int, int]:
    """The pixels of a mat's image that ``sheet`` prints (as :func:`sheet_figure` cuts)."""
    x0, y0, x1, y1 = sheet.area
    return (round(x0 * px_per_mm), round(y0 * px_per_mm), round(x1 * px_per_mm),
            round(y1 * px_per_mm))


def write_pdf(path: str | BinaryIO, layout: Layout, tile: Tile, paper: str,
              px_per_mm: float, progress: Callable[[str], None],
              mats: Collection[str] | None = None) -> int:
    """The assembly page and every sheet of every mat named in ``mats`` (None: all)
    into one PDF; returns the pages.  The assembly page shows the whole table
    either way.

    ``tile`` draws the part of a mat a sheet prints: one sheet's pixels are in
    memory at a time, never a whole mat (see :func:`vision.mats.render_box`)."""
    # lazy: matplotlib loads only when a page is drawn
    from matplotlib.backends.backend_pdf import PdfPages

    plans = plans_for(layout, paper)
    asked = set(mats) if mats is not None else {m.name for m in layout.mats}
    total = sum(len(p.sheets) for name, p in plans.items() if name in asked)
    count = 0
    with PdfPages(path) as pdf:
        fig = assembly_figure(layout, plans, paper)
        pdf.savefig(fig)
        _close(fig)
        _write_images_now(pdf)
        for mat in (m for m in layout.mats if m.name in asked):  # the mats asked for
            plan = plans[mat.name]
            for sheet in plan.sheets:
                count += 1
                progress(f"  page {count + 1}/{total + 1}: sheet {sheet_id(mat, sheet)}"
                         f" of {mat_title(mat)}")
                box = sheet_box(sheet, px_per_mm)
                fig = sheet_figure(mat, plan, sheet, tile(mat.name, box), px_per_mm, paper,
                                   origin=box[:2])
                pdf.savefig(fig, dpi=px_per_mm * 25.4)
                _close(fig)
                _write_images_now(pdf)
    return count + 1


def _write_images_now(pdf: Any) -> None:
    """Write the images of the pages saved so far into the PDF and let them go.

    matplotlib's PDF backend keeps every page's images until the file is
    closed (``PdfFile.writeImages`` runs in ``finalize``): every sheet of
    every mat, all the mats' pixels at once (24 GB for 4 players at
    1200 dpi).  An image is an object of its own that the pages name, so it
    may be written as soon as its page is; what ``finalize`` still needs of
    it is its name and object number.  This leans on the backend's private
    ``_file._images`` (matplotlib 3.8-3.11): without them it does nothing and
    the memory is as before."""
    file = getattr(pdf, "_file", None)
    images = getattr(file, "_images", None)
    write = getattr(type(file), "writeImages", None)
    if not isinstance(images, dict) or not callable(write):
        return
    pending = {key: entry for key, entry in images.items() if entry[0] is not None}
    if not pending:
        return
    file._images = pending  # type: ignore[union-attr]
    try:
        write(file)
    finally:
        for key, (_image, name, ob) in pending.items():
            del images[key]
            # a fresh key: an id() of a freed image may come back for a new one
            images[("written", name)] = (None, name, ob)
        file._images = images  # type: ignore[union-attr]
        # at close, finalize writes the images still held: none are
        file.writeImages = lambda: None  # type: ignore[union-attr]


def _close(fig: Any) -> None:
    """Close a page and free it now.  WHY ``gc.collect``: a matplotlib figure is
    a web of reference cycles, freed only when the cyclic collector runs, which
    counts objects, not bytes: a sheet's pixels (46 MB at 300 dpi, 740 MB at
    1200) piled up for a dozen pages before it did."""
    # lazy: matplotlib loads only when a page is drawn
    from matplotlib import pyplot as plt

    plt.close(fig)
    gc.collect()


def _figure(w_mm: float, h_mm: float) -> tuple[Any, Any]:
    """A page of ``w_mm`` × ``h_mm`` with one axes over it all, in mm, y down."""
    # lazy: matplotlib loads only when a page is drawn
    import matplotlib

    matplotlib.use("Agg")
    # lazy: matplotlib loads only when a page is drawn
    from matplotlib import pyplot as plt

    fig = plt.figure(figsize=(w_mm / 25.4, h_mm / 25.4))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w_mm)
    ax.set_ylim(h_mm, 0)
    ax.set_axis_off()
    ax.patch.set_alpha(0)
    return fig, ax


def sheet_figure(mat: Mat, plan: SheetPlan, sheet: Sheet, image: np.ndarray,
                 px_per_mm: float, paper: str, origin: tuple[int, int] = (0, 0)) -> Any:
    """One sheet: its part of the mat at true scale, captions and join marks.

    ``image`` holds the mat's pixels from ``origin`` on: the whole mat, or only
    the sheet's box (:func:`sheet_box`)."""
    pw, ph = plan.paper[::-1] if sheet.landscape else plan.paper
    fig, ax = _figure(pw, ph)
    x0, y0, x1, y1 = sheet.area
    bx0, by0, bx1, by1 = sheet_box(sheet, px_per_mm)
    ox, oy = origin
    tile = image[by0 - oy:by1 - oy, bx0 - ox:bx1 - ox]
    m = MARGIN_MM
    ax.imshow(cv2.cvtColor(tile, cv2.COLOR_BGR2RGB), extent=(m, m + x1 - x0, m + y1 - y0, m),
              interpolation="none", zorder=0)
    ax.add_patch(_rect(m, m, x1 - x0, y1 - y0, lw=0.3, ls=(0, (1, 2))))

    sid = sheet_id(mat, sheet)
    orient = "landscape" if sheet.landscape else "portrait"
    _text(ax, m, m - 2.2, f"{sid}   sheet {sheet.number} of {len(plan.sheets)},"
          f" {mat_title(mat)}   {paper.upper()} {orient}, print at 100 %", weight="bold")
    near = plan.neighbours(sheet)
    joins = [f"{side}: on {', '.join(sheet_id(mat, o) for o in near[side])}"
             for side in ("left", "above") if near[side]]
    joins += [f"{side}: {', '.join(sheet_id(mat, o) for o in near[side])} on it"
              for side in ("right", "below") if near[side]]
    _ruler(ax, m, ph - m + 0.8)
    ax.text(pw - m, ph - m + 4.6, "  ".join(joins) if joins else "one sheet: nothing to join",
            fontsize=CAPTION_PT - 1, color=FURNITURE, ha="right", va="baseline")
    w, h = x1 - x0, y1 - y0
    # this sheet lies over its left/upper neighbours: cut exactly on its own edge
    if near["left"]:
        _cut(ax, (m, m), (m, m + h), vertical=True)
    if near["above"]:
        _cut(ax, (m, m), (m + w, m), vertical=False)
    # neighbours to the right/below lie over this strip
    if near["right"]:
        _glue(ax, m + w - OVERLAP_MM, m, OVERLAP_MM, h,
              ", ".join(sheet_id(mat, o) for o in near["right"]), vertical=True)
    if near["below"]:
        _glue(ax, m, m + h - OVERLAP_MM, w, OVERLAP_MM,
              ", ".join(sheet_id(mat, o) for o in near["below"]), vertical=False)
    return fig


def _rect(x: float, y: float, w: float, h: float, lw: float = 0.4, ls: Any = "-",
          fill: str | None = None, hatch: str | None = None, colour: str = FURNITURE) -> Any:
    # lazy: matplotlib loads only when a page is drawn
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), w, h, linewidth=lw, linestyle=ls, edgecolor=colour,
                     facecolor=fill or "none", hatch=hatch, fill=fill is not None or bool(hatch))


def _text(ax: Any, x: float, y: float, text: str, size: float = CAPTION_PT,
          weight: str = "normal", **kw: Any) -> None:
    ax.text(x, y, text, fontsize=size, color=FURNITURE, fontweight=weight, va="baseline", **kw)


def _ruler(ax: Any, x: float, y: float) -> None:
    """100 mm with a tick every mm (longer every 5 and 10) hanging below ``y``."""
    ax.plot([x, x + 100], [y, y], color=FURNITURE, lw=0.5)
    for k in range(101):
        tick = 2.6 if k % 10 == 0 else 1.8 if k % 5 == 0 else 1.0
        ax.plot([x + k, x + k], [y, y + tick], color=FURNITURE, lw=0.3 if k % 10 else 0.5)
    for k in range(0, 101, 10):
        ax.text(x + k + 0.4, y + 3.1, str(k // 10), fontsize=4.5,
                color=FURNITURE, va="baseline")
    ax.text(x + 103, y + 2.6, "100 mm", fontsize=CAPTION_PT - 1, color=FURNITURE,
            va="baseline")


def _cut(ax: Any, a: tuple[float, float], b: tuple[float, float], vertical: bool) -> None:
    ax.plot([a[0], b[0]], [a[1], b[1]], color="#303030", lw=0.6, ls=(0, (4, 2)), zorder=3)
    if vertical:
        ax.text(a[0] - 2.0, (a[1] + b[1]) / 2, "cut here (this sheet goes on top)",
                rotation=90, fontsize=CAPTION_PT - 1, color=FURNITURE, ha="center",
                va="center")


def _glue(ax: Any, x: float, y: float, w: float, h: float, over: str, vertical: bool) -> None:
    ax.add_patch(_rect(x, y, w, h, lw=0.5, hatch="////", colour=GLUE))
    label = f"glue: {over} {'go' if ',' in over else 'goes'} here"
    if vertical:
        ax.text(x + w / 2, y + h / 2, label, rotation=90, fontsize=CAPTION_PT, color=FURNITURE,
                ha="center", va="center", zorder=4,
                bbox={"boxstyle": "square,pad=0.2", "fc": "white", "ec": "none"})
    else:
        ax.text(x + w / 2, y + h / 2, label, fontsize=CAPTION_PT, color=FURNITURE,
                ha="center", va="center", zorder=4,
                bbox={"boxstyle": "square,pad=0.2", "fc": "white", "ec": "none"})


def assembly_figure(layout: Layout, plans: dict[str, SheetPlan], paper: str) -> Any:
    """One landscape page: the table from above, each mat with its sheets numbered."""
    # lazy: matplotlib loads only when a page is drawn
    from matplotlib.patches import Polygon

    x0, y0, x1, y1 = layout.bounds()
    # the orientation in which the table comes out larger
    pw, ph = PAPERS_MM[paper][::-1] if x1 - x0 > y1 - y0 else PAPERS_MM[paper]
    fig, ax = _figure(pw, ph)
    m = MARGIN_MM + 2
    top = 34.0  # room for the title and the steps
    scale = min((pw - 2 * m) / (x1 - x0), (ph - m - top - 16) / (y1 - y0))
    ox = m + ((pw - 2 * m) - (x1 - x0) * scale) / 2
    oy = top

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return ox + (p[0] - x0) * scale, oy + (p[1] - y0) * scale

    # the mats themselves, small: the same drawing the sheets carry
    px = 6.0  # canvas px per page mm
    cw, chh = round((x1 - x0) * scale * px), round((y1 - y0) * scale * px)
    canvas = np.full((chh, cw, 3), 255, np.uint8)
    draw_mats(canvas, layout, affine_for((x0, y0), scale * px), paper=PRINT_PAPER, labels=False)
    ax.imshow(cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB), alpha=0.45,
              extent=(ox, ox + cw / px, oy + chh / px, oy), interpolation="bilinear", zorder=0)
    total = 0
    for mat in layout.mats:
        plan = plans[mat.name]
        total += len(plan.sheets)
        for sheet in plan.sheets:
            sx0, sy0, sx1, sy1 = sheet.area
            corners = [at(mat.to_table(p)) for p in ((sx0, sy0), (sx1, sy0), (sx1, sy1),
                                                      (sx0, sy1))]
            ax.add_patch(Polygon(corners, closed=True, fill=False, edgecolor=FURNITURE,
                                 lw=0.5, ls=(0, (2, 1))))
            cx = sum(c[0] for c in corners) / 4
            cy = sum(c[1] for c in corners) / 4
            ax.text(cx, cy, sheet_id(mat, sheet), fontsize=8, color="#303030", ha="center",
                    va="center", fontweight="bold",
                    bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none",
                          "alpha": 0.8})
        outline = [at(p) for p in mat.corners()]
        ax.add_patch(Polygon(outline, closed=True, fill=False, edgecolor="#303030", lw=1.0))
        # each mat's title outside its outer edge (the central mat's inside it)
        cx = sum(c[0] for c in outline) / 4
        cy = sum(c[1] for c in outline) / 4
        if mat.player is None:
            ax.text(cx, cy + mat.size[1] * scale / 2 - 2, mat_title(mat), fontsize=6.5,
                    color="#303030", ha="center", va="bottom",
                    bbox={"boxstyle": "square,pad=0.2", "fc": "white", "ec": "none"})
            continue
        dx, dy = mat.center
        norm = max(abs(dx), abs(dy)) or 1.0
        ux, uy = round(dx / norm), round(dy / norm)
        half = (mat.size[1] / 2) * scale + 1.5
        ax.text(cx + ux * half, cy + uy * half, f"{mat_title(mat)} (sits {_seat(mat)})",
                fontsize=6.5, color="#303030", rotation=90 if ux else 0, ha="center",
                va="center" if ux else ("bottom" if uy < 0 else "top"))
    _text(ax, m, m + 3, f"splendor-companion mats: {layout.players} players, {total} sheets"
          f" of {paper.upper()}", size=11, weight="bold")
    steps = ("1. Print every page at actual size (100 %, not 'fit to page'):"
             " the ruler below must measure 100 mm.\n"
             "2. Trim each sheet on its dashed cut line (the edges that lie on a neighbour).\n"
             "3. Glue it over the neighbour's hatched strip, the printed content matching"
             " (where a cut crosses a marker, line its edges up exactly).\n"
             "4. Lay the mats as shown, about 30 mm apart: the camera finds each by its markers.")
    ax.text(m, m + 7.5, steps, fontsize=6.5, color=FURNITURE, va="top", linespacing=1.5)
    _ruler(ax, m, ph - m - 6)
    ax.text(pw - m, ph - m - 3.4, f"mats drawn at 1:{1 / scale:.0f}; sheets cut with"
            f" {OVERLAP_MM:.0f} mm overlaps", fontsize=6, color=FURNITURE, ha="right")
    return fig


def _seat(mat: Mat) -> str:
    return {0: "at the bottom", 180: "at the top", 90: "on the left", 270: "on the right"}.get(
        round(mat.angle) % 360, "")


def png_with_dpi(image: np.ndarray, dpi: float) -> bytes:
    """``image`` encoded as PNG with its resolution (a pHYs chunk, pixels per metre)
    written after the header, so a printer or viewer knows its physical size."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("cv2 could not encode the image as PNG")
    data = buf.tobytes()
    ppm = round(dpi / 0.0254)
    body = struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", len(body)) + b"pHYs" + body
    chunk += struct.pack(">I", zlib.crc32(b"pHYs" + body) & 0xFFFFFFFF)
    end_of_ihdr = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, body, CRC
    return data[:end_of_ihdr] + chunk + data[end_of_ihdr:]


#: Bytes of pixels per strip written by :func:`write_png_strips` (64 MB).
STRIP_BYTES = 64 << 20


def strip_rows(width: int) -> int:
    """Rows of a ``width``-pixel BGR image that make one strip of ``STRIP_BYTES``."""
    return max(1, STRIP_BYTES // max(1, 3 * width))


def write_png_strips(path: str | Path | BinaryIO, width: int, height: int,
                     strip: Callable[[int, int], np.ndarray], dpi: float) -> None:
    """A BGR image of ``width`` x ``height`` written as PNG (with its dpi, as
    :func:`png_with_dpi`) one strip of rows at a time: ``strip(y0, y1)`` gives
    rows ``y0`` to ``y1``.  WHY: encoding a whole mat needs it whole in memory
    (2.4 GB for the central mat at 1200 dpi) and again as the encoder's
    buffers; strips keep the peak at a few of them whatever the dpi."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    ppm = round(dpi / 0.0254)
    packer = zlib.compressobj(6)
    rows = strip_rows(width)
    with (open(path, "wb") if isinstance(path, str | Path) else nullcontext(path)) as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        out.write(chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))
        for y0 in range(0, height, rows):
            pixels = strip(y0, min(height, y0 + rows))
            assert pixels.shape == (min(height, y0 + rows) - y0, width, 3), pixels.shape
            raw = np.empty((pixels.shape[0], 1 + 3 * width), np.uint8)
            raw[:, 0] = 0  # filter: none
            raw[:, 1:] = pixels[..., ::-1].reshape(pixels.shape[0], -1)  # BGR -> RGB
            data = packer.compress(raw.tobytes())
            if data:
                out.write(chunk(b"IDAT", data))
        out.write(chunk(b"IDAT", packer.flush()))
        out.write(chunk(b"IEND", b""))


def png_dpi(data: bytes) -> float | None:
    """The dpi a PNG's pHYs chunk states, or None when it has none (or no metres)."""
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"pHYs":
            x, _, unit = struct.unpack(">IIB", data[pos + 8:pos + 17])
            return x * 0.0254 if unit == 1 else None
        if kind == b"IDAT":
            return None
        pos += 12 + length
    return None


def figure_png(fig: Any, path: str, dpi: float) -> None:
    """A page as a PNG at ``dpi`` (the README's pictures), with its dpi recorded."""
    fig.savefig(path, dpi=dpi)
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise OSError(f"cannot read back {path}")
    with open(path, "wb") as f:
        f.write(png_with_dpi(img, dpi))


