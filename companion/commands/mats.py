"""``splendor-companion mats``: printable mats (PNG per mat, a PDF of sheets) and layout.json.

Only the central mat, the one the camera reads, is printed unless ``--player-mats``
asks for the players' mats as well (4 players: 8 A4 sheets instead of 28).
The PNGs are the whole mats at the requested resolution (300 dpi by default,
written into the files).  The PDF starts with an assembly page (the table from
above, every sheet numbered where it goes, a 100 mm ruler) and then cuts each
mat into as few sheets as the paper allows (A4, A3 or Letter, portrait and
landscape mixed), each labelled with its mat, its number and its joins, with
cut lines, glue strips and a ruler.  The layout file written beside them is the
one the reader and renderer use, so the print and the software never disagree.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands import CommandError
from companion.games import DUEL_GAME, SPLENDOR_GAME, AnyKind, by_key, keys
from companion.mat_pages import write_pdf, write_png_strips
from companion.mat_sheets import PAPERS_MM
from companion.output import open_output, write_text
from vision.duel.layout import build_duel_layout
from vision.duel.mats import draw_duel_mats
from vision.errors import VisionError
from vision.geometry import LENSES, mount_view
from vision.layout import Layout, build_layout
from vision.mats import Box, DrawMats, draw_mats, mat_pixels, render_box

if TYPE_CHECKING:
    import numpy as np


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("mats", help="write printable mats (PNG + PDF of sheets) and layout.json",
                       description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=keys(), default=keys()[0],
                   help="which game's mats (default splendor; duel: Splendor Duel, 2 players)")
    p.add_argument("--players", type=int, default=4, help="number of players, 2-4 (default 4)")
    p.add_argument("--out", type=Path, default=Path("mats"), help="output folder (default ./mats)")
    p.add_argument("--paper", choices=sorted(PAPERS_MM), default="a4",
                   help="paper of the PDF's sheets (default a4)")
    p.add_argument("--dpi", type=int, default=300,
                   help="print resolution, 50-1200 (default 300); memory: the mats are"
                   " drawn in strips and sheet by sheet, so the peak is one PDF sheet's"
                   " pixels and its copies: about 0.4 GB at 300 dpi, 0.9 GB at 600,"
                   " 3.4 GB at 1200 (--no-pdf: under 0.4 GB at any dpi)")
    p.add_argument("--no-pdf", action="store_true", help="write only the PNGs and layout.json")
    p.add_argument("--player-mats", action="store_true",
                   help="print the players' mats too (the camera reads only the central mat;"
                        " the players' mats only help the players keep their things apart)")
    p.add_argument("--piles", action="store_true",
                   help="players keep tokens in piles: six pile zones instead of ten slots")
    p.set_defaults(func=run, output_folders=("out",))


#: Each game's layout (from the options) and how its mats are drawn.
_MATS: dict[AnyKind, tuple[Callable[[argparse.Namespace], Layout], DrawMats]] = {
    SPLENDOR_GAME: (lambda args: build_layout(args.players, piles=args.piles), draw_mats),
    DUEL_GAME: (lambda args: build_duel_layout(), draw_duel_mats),
}


def run(args: argparse.Namespace) -> int:
    lay_out, draw = _MATS[by_key(args.game)]
    try:
        layout = lay_out(args)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    if not 50 <= args.dpi <= 1200:
        raise CommandError(f"--dpi {args.dpi} is outside 50..1200")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create {args.out}: {exc.strerror}") from None
    px_per_mm = args.dpi / 25.4

    def tile(name: str, box: Box) -> np.ndarray:
        return render_box(layout, name, px_per_mm, box, draw)

    try:
        write_text(args.out / "layout.json", layout.to_json() + "\n", named=False)
        printed = [m for m in layout.mats if args.player_mats or m.name == "centre"]
        for i, mat in enumerate(printed, 1):
            print(f"[{i}/{len(printed)}] drawing mat {mat.name}", flush=True)
            width, height = mat_pixels(layout, mat.name, px_per_mm)
            def strip(y0: int, y1: int, name: str = mat.name, w: int = width) -> np.ndarray:
                return tile(name, (0, y0, w, y1))

            with open_output(args.out / f"mat-{mat.name}.png", named=False) as png:
                write_png_strips(png, width, height, strip, args.dpi)
        if not args.no_pdf:
            pdf = args.out / f"mats-{args.paper}.pdf"
            with open_output(pdf, named=False) as out:
                pages = write_pdf(out, layout, tile, args.paper, px_per_mm,
                                  lambda line: print(line, flush=True),
                                  [m.name for m in printed])
            print(f"wrote {pdf} ({pages} pages: the assembly page and {pages - 1} sheets"
                  f" of {args.paper.upper()})")
    except OSError as exc:
        raise CommandError(f"cannot write in {args.out}: {exc.strerror or exc}") from None
    print(f"wrote {len(printed)} mats ({args.dpi} dpi PNGs) and {args.out / 'layout.json'}")
    if not args.player_mats:
        print("the camera reads the central mat only; --player-mats prints the players' mats")
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
        "camera: one mount for both games and 2-4 players, straight down over the central"
        " mat's centre (hardware.md, camera height):",
    ]
    for name in LENSES:
        v = mount_view(name)
        lines.append(
            f"  {v.lens.label}: {v.height_mm / 1000:.2f} m above the table, sees"
            f" {v.covered_mm[0]:.0f} x {v.covered_mm[1]:.0f} mm, {v.centre_px_per_mm:.1f} px/mm"
            f" at the centre, {v.corner_px_per_mm:.1f} at the central mat's corners")
    return lines
