"""``splendor-companion mats``: printable mats (PNG per mat, one tiled PDF) and layout.json.

The PNGs are the mats at the requested resolution (300 dpi by default); the
PDF cuts each mat into page-sized tiles (A4 or A3, 10 mm margins, a cut mark
and a caption on each page) so any home printer can print them.  The layout
file written beside them is the one the reader and renderer use, so the print
and the software can never disagree.  The PDF is written with matplotlib (an
existing dependency); the vision package itself stays numpy + cv2.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import cv2
import numpy as np

from companion.commands import CommandError
from vision.errors import VisionError
from vision.geometry import LENSES, centre_view
from vision.layout import Layout, build_layout
from vision.mats import render_mat

PAPERS_MM = {"a4": (210.0, 297.0), "a3": (297.0, 420.0)}
PAGE_MARGIN_MM = 10.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mats", help="write printable mats (PNG + tiled PDF) and layout.json",
                       description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=4, help="number of players, 2-4 (default 4)")
    p.add_argument("--out", type=Path, default=Path("mats"), help="output folder (default ./mats)")
    p.add_argument("--paper", choices=sorted(PAPERS_MM), default="a4", help="PDF page size")
    p.add_argument("--dpi", type=int, default=300, help="print resolution (default 300)")
    p.add_argument("--no-pdf", action="store_true", help="write only the PNGs and layout.json")
    p.add_argument("--piles", action="store_true",
                   help="players keep tokens in piles: six pile zones instead of ten slots")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        layout = build_layout(args.players, piles=args.piles)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    if not 50 <= args.dpi <= 1200:
        raise CommandError(f"--dpi {args.dpi} is outside 50..1200")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create {args.out}: {exc.strerror}") from None
    px_per_mm = args.dpi / 25.4
    (args.out / "layout.json").write_text(layout.to_json() + "\n", encoding="utf-8")
    images = {}
    for i, mat in enumerate(layout.mats, 1):
        print(f"[{i}/{len(layout.mats)}] drawing mat {mat.name}", flush=True)
        img = render_mat(layout, mat.name, px_per_mm)
        images[mat.name] = img
        path = args.out / f"mat-{mat.name}.png"
        if not cv2.imwrite(str(path), img):
            raise CommandError(f"cannot write {path}")
    if not args.no_pdf:
        pdf = args.out / f"mats-{args.paper}.pdf"
        pages = _write_pdf(pdf, images, PAPERS_MM[args.paper], px_per_mm, args.dpi)
        print(f"wrote {pdf} ({pages} pages)")
    print(f"wrote {len(images)} mats and {args.out / 'layout.json'}")
    for line in geometry_lines(layout):
        print(line)
    return 0


def geometry_lines(layout: Layout) -> list[str]:
    """The table's sizes and the camera that reads it: the numbers hardware.md quotes."""
    x0, y0, x1, y1 = layout.bounds()
    sizes = {m.name.rstrip("1234"): m.size for m in layout.mats}
    cw, ch = sizes["centre"]
    pw, ph = sizes["player"]
    lines = [
        f"table: {layout.players} players, {x1 - x0:.0f} x {y1 - y0:.0f} mm laid out;"
        f" central mat {cw:.0f} x {ch:.0f} mm, player mats {pw:.0f} x {ph:.0f} mm",
        "camera: straight down over the central mat's centre, the same for 2-4 players"
        " (hardware.md, camera height):",
    ]
    for name in LENSES:
        v = centre_view(name, (cw, ch))
        lines.append(
            f"  {v.lens.label}: {v.height_mm / 1000:.2f} m above the table, sees"
            f" {v.covered_mm[0]:.0f} x {v.covered_mm[1]:.0f} mm, {v.centre_px_per_mm:.1f} px/mm"
            f" at the centre, {v.corner_px_per_mm:.1f} at the central mat's corners")
    return lines


def _tiles(img: np.ndarray, tile_px: tuple[int, int]) -> list[tuple[int, int, np.ndarray]]:
    th, tw = tile_px
    rows, cols = math.ceil(img.shape[0] / th), math.ceil(img.shape[1] / tw)
    return [(r, c, img[r * th:(r + 1) * th, c * tw:(c + 1) * tw])
            for r in range(rows) for c in range(cols)]


def _write_pdf(path: Path, images: dict[str, np.ndarray], paper: tuple[float, float],
               px_per_mm: float, dpi: int) -> int:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    count = 0
    try:
        with PdfPages(path) as pdf:
            for name, img in images.items():
                # portrait or landscape, whichever needs fewer sheets for this mat
                options = []
                for pw, ph in (paper, paper[::-1]):
                    inner = (round((ph - 2 * PAGE_MARGIN_MM) * px_per_mm),
                             round((pw - 2 * PAGE_MARGIN_MM) * px_per_mm))
                    options.append((len(_tiles(img, inner)), pw, ph, inner))
                _, pw, ph, inner = min(options)
                tiles = _tiles(img, inner)
                for r, c, tile in tiles:
                    count += 1
                    print(f"  page {count}: {name} row {r + 1} column {c + 1}", flush=True)
                    fig = plt.figure(figsize=(pw / 25.4, ph / 25.4), dpi=dpi)
                    h = tile.shape[0]
                    fig.figimage(cv2.cvtColor(tile, cv2.COLOR_BGR2RGB),
                                 xo=round(PAGE_MARGIN_MM * px_per_mm),
                                 yo=round((ph - PAGE_MARGIN_MM) * px_per_mm) - h)
                    fig.text(PAGE_MARGIN_MM / pw, 4 / ph,
                             f"{name}  row {r + 1} col {c + 1}  (print at 100%, trim to the image)",
                             fontsize=7)
                    pdf.savefig(fig, dpi=dpi)
                    plt.close(fig)
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror}") from None
    return count
