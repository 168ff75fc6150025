"""Issue 41, defect 5: `mats` in bounded memory, whatever the dpi.

`mats --players 4 --dpi 1200` grew to 24 GB: every mat was drawn whole and
kept for the PDF, whose backend kept every sheet's pixels until the file
closed.  Now a mat is drawn in boxes (PNG strips, one box per PDF sheet) and
each sheet's image is written as soon as its page is.
"""

from __future__ import annotations

import importlib
import re
import tracemalloc
from pathlib import Path

import cv2
import numpy as np
import pytest

import companion.mat_pages as pages
from companion.cli import main
from vision.duel.layout import build_duel_layout
from vision.duel.mats import draw_duel_mats
from vision.layout import build_layout
from vision.mats import draw_mats, mat_pixels, render_box


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_a_mat_drawn_in_boxes_is_the_whole_mat(game: str) -> None:
    layout, draw = ((build_layout(4), draw_mats) if game == "splendor"
                    else (build_duel_layout(), draw_duel_mats))
    s = 100 / 25.4
    for mat in layout.mats[:2]:
        whole = render_box(layout, mat.name, s, None, draw)
        w, h = mat_pixels(layout, mat.name, s)
        assert whole.shape == (h, w, 3)
        strips = np.vstack([render_box(layout, mat.name, s, (0, y, w, min(h, y + 97)), draw)
                            for y in range(0, h, 97)])
        inner = render_box(layout, mat.name, s, (101, 53, 700, 400), draw)
        for part, ref in ((strips, whole), (inner, whole[53:400, 101:700])):
            diff = np.abs(part.astype(int) - ref)
            # anti-aliased edges may round one grey level apart, nothing more
            assert diff.max() <= 1 and (diff > 0).mean() < 1e-3


def test_a_png_written_in_strips_reads_back(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    layout, s = build_layout(2), 80 / 25.4
    whole = render_box(layout, "centre", s)
    h, w = whole.shape[:2]
    monkeypatch.setattr(pages, "STRIP_BYTES", 3 * w * 37)  # 37 rows a strip
    path = tmp_path / "mat.png"
    pages.write_png_strips(path, w, h, lambda y0, y1: whole[y0:y1], 80)
    assert np.array_equal(cv2.imread(str(path)), whole)
    dpi = pages.png_dpi(path.read_bytes())
    assert dpi is not None and abs(dpi - 80) < 0.01


def _pdf_is_whole(data: bytes) -> int:
    """Every object the cross-reference table lists is where it says; the images."""
    start = int(data[data.rindex(b"startxref") + 9:].split()[0])
    lines = data[start:].split(b"\n")
    first, count = (int(v) for v in lines[1].split())
    for i, line in enumerate(lines[2:2 + count]):
        offset, _gen, kind = line.split()
        if kind == b"n":
            assert re.match(rb"%d 0 obj" % (first + i), data[int(offset):int(offset) + 24])
    return data.count(b"/Subtype /Image")


def test_mats_stay_within_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Traced peak of the whole command below the pixels of its mats together (before:
    3.6 times them at 200 dpi, 563 MB; now 118 MB with 4 MB strips, 0.75 times)."""
    monkeypatch.setattr(pages, "STRIP_BYTES", 4 << 20)
    layout, dpi = build_layout(2), 200
    mats_bytes = sum(3 * w * h for w, h in (mat_pixels(layout, m.name, dpi / 25.4)
                                           for m in layout.mats))
    # imported before tracing: imports are not the mats' memory
    for module in ("matplotlib.backends.backend_pdf", "matplotlib.pyplot"):
        importlib.import_module(module)

    tracemalloc.start()
    try:
        assert main(["mats", "--players", "2", "--player-mats", "--dpi", str(dpi),
                     "--out", str(tmp_path)]) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 0.9 * mats_bytes, (peak >> 20, mats_bytes >> 20)
    sheets = sum(len(p.sheets) for p in pages.plans_for(layout, "a4").values())
    assert _pdf_is_whole((tmp_path / "mats-a4.pdf").read_bytes()) >= sheets
    png = cv2.imread(str(tmp_path / "mat-centre.png"))
    assert png.shape[:2] == mat_pixels(layout, "centre", dpi / 25.4)[::-1]


def test_mats_help_states_the_memory(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["mats", "--help"])
    assert "memory" in capsys.readouterr().out


