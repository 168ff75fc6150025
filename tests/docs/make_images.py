"""Regenerate the README's pictures of the printed mats (our own drawing only).

    python tests/docs/make_images.py

Writes ``systemd/images/mats-assembly-a4.png`` (the PDF's first page, 4 players)
and ``systemd/images/mats-sheet-a4.png`` (sheet C-1 of the central mat), small
enough for the README (under 300 KB together).  Look at them before committing.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.mat_pages import (  # noqa: E402
    assembly_figure,
    figure_png,
    plans_for,
    sheet_figure,
)
from vision.layout import build_layout  # noqa: E402
from vision.mats import render_mat  # noqa: E402

OUT = ROOT / "systemd" / "images"
#: Resolution of the pictures: enough to read the captions in a browser.
ASSEMBLY_DPI = 60
SHEET_DPI = 60


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    layout = build_layout(4)
    plans = plans_for(layout, "a4")
    fig = assembly_figure(layout, plans, "a4")
    figure_png(fig, str(OUT / "mats-assembly-a4.png"), ASSEMBLY_DPI)
    mat = layout.mat("centre")
    px_per_mm = SHEET_DPI / 25.4
    sheet = plans["centre"].sheets[0]
    fig = sheet_figure(mat, plans["centre"], sheet, render_mat(layout, "centre", px_per_mm),
                       px_per_mm, "a4")
    figure_png(fig, str(OUT / "mats-sheet-a4.png"), SHEET_DPI)
    for p in sorted(OUT.glob("mats-*.png")):
        print(f"wrote {p.relative_to(ROOT)} ({p.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
