"""The printed mats: sheets that cover every mat, labels off the read areas, white
paper the reader still reads, the scale written into the PNGs, the README's pictures."""

from __future__ import annotations

import functools
import io
import re
import sys

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.mat_pages import plans_for, png_dpi, png_with_dpi
from companion.mat_sheets import MARGIN_MM, OVERLAP_MM, PAPERS_MM, SheetPlan, plan_sheets
from tests.conftest import ROOT
from vision.layout import build_layout
from vision.locate import LOCATE_MARGIN_MM
from vision.mats import PRINT_PAPER, draw_mats, mat_affine, render_mat, to_local


def _covers(plan: SheetPlan) -> None:
    """Every point of the mat is on a sheet; every sheet fits its paper; every
    neighbour shares exactly the overlap."""
    w, h = plan.mat_size
    for x in np.linspace(0, w, 41):
        for y in np.linspace(0, h, 29):
            assert any(s.area[0] - 1e-6 <= x <= s.area[2] + 1e-6
                       and s.area[1] - 1e-6 <= y <= s.area[3] + 1e-6 for s in plan.sheets)
    for s in plan.sheets:
        uw, uh = plan.usable(s.landscape)
        assert s.area[2] - s.area[0] <= uw + 1e-6 and s.area[3] - s.area[1] <= uh + 1e-6
        for side, others in plan.neighbours(s).items():
            for o in others:
                if side == "right":
                    assert s.area[2] - o.area[0] == pytest.approx(OVERLAP_MM)


@settings(max_examples=60, deadline=None)
@given(st.floats(100, 1200), st.floats(100, 900), st.sampled_from(sorted(PAPERS_MM)))
def test_any_mat_is_covered_by_sheets_that_fit_the_paper(w: float, h: float, paper: str) -> None:
    plan = plan_sheets((w, h), PAPERS_MM[paper])
    _covers(plan)
    # never more sheets than the plain grid in the better orientation
    pw, ph = PAPERS_MM[paper]
    grid = min(
        _grid(w, uw) * _grid(h, uh)
        for uw, uh in ((pw - 2 * MARGIN_MM, ph - 2 * MARGIN_MM),
                       (ph - 2 * MARGIN_MM, pw - 2 * MARGIN_MM)))
    assert len(plan.sheets) <= grid


def _grid(length: float, usable: float) -> int:
    n = 1
    while n * usable - (n - 1) * OVERLAP_MM < length:
        n += 1
    return n


@pytest.mark.parametrize(("paper", "four", "two"), [("a4", 28, 18), ("a3", 20, 12),
                                                    ("letter", 33, 21)])
def test_the_sheet_counts_the_docs_quote(paper: str, four: int, two: int) -> None:
    for players, expected in ((4, four), (2, two)):
        plans = plans_for(build_layout(players), paper)
        for plan in plans.values():
            _covers(plan)
        assert sum(len(p.sheets) for p in plans.values()) == expected


def test_the_docs_quote_those_counts() -> None:
    hardware = " ".join((ROOT / "hardware.md").read_text(encoding="utf-8").split())
    assert "the central mat is 8 sheets of A4; with the players' mats, for 4 players, 28 of" \
        " A4 (5 per player), 20 of A3 or 33 of Letter; for 2 players 18, 12 and 21" in hardware
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "4 players: 28 sheets of A4, 20 of A3, 33 of Letter" in readme


def _cut_markers(paper: str) -> list[tuple[str, int, list]]:
    """(mat, marker id, the sheets it is split over) for every marker no single
    sheet holds whole, on the standard 4-player layout."""
    layout = build_layout(4)
    plans = plans_for(layout, paper)
    out = []
    for mat in layout.mats:
        plan = plans[mat.name]
        for marker in (k for k in layout.markers if k.mat == mat.name):
            pts = [to_local(mat, p) for p in marker.corners]
            x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
            x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
            inside = [s for s in plan.sheets if s.area[0] <= x0 and x1 <= s.area[2]
                      and s.area[1] <= y0 and y1 <= s.area[3]]
            if not inside:
                touching = [s for s in plan.sheets if s.area[0] < x1 and x0 < s.area[2]
                            and s.area[1] < y1 and y0 < s.area[3]]
                out.append((mat.name, marker.id, [(s, plan) for s in touching]))
    return out


@pytest.mark.parametrize("paper", sorted(PAPERS_MM))
def test_a_joint_crosses_a_marker_only_where_the_paper_leaves_no_room(paper: str) -> None:
    """Joints slide off the markers; one crosses a marker only when the sheets on
    both sides are within a marker's width of the longest the paper allows, so no
    slide could have cleared it."""
    for mat, marker, sheets in _cut_markers(paper):
        vertical = len({round(s.area[0]) for s, _ in sheets}) > 1
        slack = 0.0
        for sheet, plan in sheets:
            uw, uh = plan.usable(sheet.landscape)
            w, h = sheet.area[2] - sheet.area[0], sheet.area[3] - sheet.area[1]
            slack += (uw - w) if vertical else (uh - h)
        assert slack < 30 + OVERLAP_MM, (
            f"{paper}: {mat} marker {marker} is cut where the joint could move {slack} mm")
    if paper == "letter":
        assert not _cut_markers(paper)


def test_a_marker_pieced_from_two_sheets_half_a_mm_off_is_still_found() -> None:
    """Where a joint must cross a marker (A3: the central mat's middle markers), a
    gluing error of 0.5 mm along and across the joint still leaves it readable."""
    from vision.mats import aruco_dictionary

    layout = build_layout(4)
    cut = [c for c in _cut_markers("a3") if c[0] == "centre"]
    assert cut
    s = 4.0
    img = render_mat(layout, "centre", s)
    sheet = cut[0][2][1][0]  # the sheet on top: cut on its left edge
    x = round(sheet.area[0] * s)
    pieced = img.copy()
    shift = round(0.5 * s)
    pieced[shift:, x + shift:] = img[:-shift, x:img.shape[1] - shift]
    found = cv2.aruco.ArucoDetector(aruco_dictionary()).detectMarkers(pieced)[1]
    ids = set(found.ravel().tolist()) if found is not None else set()
    assert {m for _, m, _ in cut} <= ids


@pytest.mark.parametrize("piles", [False, True])
def test_labels_lie_outside_slots_and_marker_quiet_squares(piles: bool) -> None:
    """Label ink (the drawing with labels minus without) never falls within
    LOCATE_MARGIN_MM of a card slot, 4.5 mm of a tableau column, in a token slot or
    in a marker's white square."""
    layout = build_layout(4, piles=piles)
    s = 2.0
    for mat in layout.mats[:2]:
        w, h = mat.size
        aff = mat_affine(mat, s)
        with_labels = np.full((round(h * s), round(w * s), 3), 255, np.uint8)
        without = with_labels.copy()
        draw_mats(with_labels, layout, aff, {mat.name}, paper=PRINT_PAPER)
        draw_mats(without, layout, aff, {mat.name}, paper=PRINT_PAPER, labels=False)
        ink = np.abs(with_labels.astype(int) - without).max(axis=2) > 20
        assert ink.sum() > 500, "no label drawn"
        keep_out = np.zeros(ink.shape, np.uint8)
        for slot in (x for x in layout.slots if x.mat == mat.name):
            # card-like slots are located with a ring round them; tableau columns
            # are read from inside; tokens inside their circle
            grow = {"token": 0.0, "pile": 0.0, "tableau": 4.5}.get(slot.kind,
                                                                   LOCATE_MARGIN_MM)
            pts = [to_local(mat, p) for p in slot.corners()]
            x0 = min(p[0] for p in pts) - grow
            y0 = min(p[1] for p in pts) - grow
            x1 = max(p[0] for p in pts) + grow
            y1 = max(p[1] for p in pts) + grow
            cv2.rectangle(keep_out, (round(x0 * s), round(y0 * s)),
                          (round(x1 * s), round(y1 * s)), 1, -1)
        for marker in (k for k in layout.markers if k.mat == mat.name):
            pts = [to_local(mat, p) for p in marker.corners]
            cx = sum(p[0] for p in pts) / 4
            cy = sum(p[1] for p in pts) / 4
            side = max(p[0] for p in pts) - min(p[0] for p in pts)
            half = side / 2 + 5 + 1  # the white square is 5 mm (small: 3) wider each side
            cv2.rectangle(keep_out, (round((cx - half) * s), round((cy - half) * s)),
                          (round((cx + half) * s), round((cy + half) * s)), 1, -1)
        assert not (ink & keep_out.astype(bool)).any(), f"{mat.name}: a label in a read area"


def test_the_print_is_white_paper_with_light_ink() -> None:
    layout = build_layout(4)
    for mat in layout.mats[:2]:
        img = render_mat(layout, mat.name, 2.0)
        inked = (img < 245).any(axis=2).mean()
        # the old print filled every page with beige (100 %): now slots, markers, text
        assert inked < 0.35, f"{mat.name}: {inked:.0%} of the page is inked"
        assert (img[0, img.shape[1] // 4] == 255).all()  # the paper itself: no ink


def test_the_reader_reads_a_table_of_white_printed_mats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's paper reference is the old beige; the print is now white paper
    with labels.  A table rendered that way still reads right."""
    import vision.synth.render  # noqa: F401  (the module, for monkeypatch)
    from vision.read import read_frame
    from vision.synth import Camera, random_scene, render

    monkeypatch.setattr(sys.modules["vision.synth.render"], "draw_mats",
                        functools.partial(draw_mats, paper=PRINT_PAPER))
    layout = build_layout(2)
    scene = random_scene(2, 11)
    r = render(scene, layout, Camera(px_per_mm=3.5, window=(-400.0, -224.0, 20.0, 224.0),
                                     tilt=6, rotation=4, noise=2, blur=0.5, jpeg_quality=88),
               seed=7)
    paper_px = r.image[r.image.shape[0] // 2, 5]
    obs = read_frame(r.image, layout)
    assert obs.calibrated
    truth = {f"market.{lv}.{i}": cid for lv in (1, 2, 3)
             for i, cid in enumerate(scene.market[lv - 1])}
    read = {c.slot: c for c in obs.cards}
    right = sum(read[s].card is not None and read[s].card.id == truth[s] for s in truth)
    wrong = sum(read[s].card is not None and read[s].card.id != truth[s] for s in truth)
    assert wrong == 0 and right >= 10, (right, wrong, paper_px)
    assert [d.present for d in obs.decks] == [scene.decks[lv - 1] for lv in (3, 2, 1)]


def test_png_dpi_is_written_and_read_back_by_pillow() -> None:
    from PIL import Image

    img = np.full((20, 30, 3), 200, np.uint8)
    data = png_with_dpi(img, 300)
    assert png_dpi(data) == pytest.approx(300, abs=0.01)
    with Image.open(io.BytesIO(data)) as pil:
        pil.load()  # checks every chunk's CRC
        assert pil.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        assert pil.size == (30, 20)
    assert png_dpi(cv2.imencode(".png", img)[1].tobytes()) is None


def test_mats_command_writes_the_assembly_page_and_every_sheet(tmp_path, capsys) -> None:
    out = tmp_path / "mats"
    assert main(["mats", "--players", "2", "--out", str(out), "--dpi", "50",
                 "--paper", "letter", "--player-mats"]) == 0
    printed = capsys.readouterr().out
    assert "22 pages: the assembly page and 21 sheets of LETTER" in printed
    pdf = (out / "mats-letter.pdf").read_bytes()
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 22
    for png in out.glob("mat-*.png"):
        assert png_dpi(png.read_bytes()) == pytest.approx(50, abs=0.05)  # whole px/metre


def test_the_readme_pictures_exist_are_small_and_say_their_dpi() -> None:
    images = ROOT / "systemd" / "images"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = re.findall(r"\(systemd/images/([\w.-]+\.png)\)", readme)
    assert len(names) == 2
    sizes = [(images / n).stat().st_size for n in names]
    assert sum(sizes) < 300 * 1024
    for n in names:
        assert png_dpi((images / n).read_bytes()) is not None
