"""The camera geometry: the lens models, the height, and one set of numbers in
``vision.geometry``, ``splendor-companion mats`` and hardware.md."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from companion.commands.mats import geometry_lines
from tests.conftest import ROOT
from vision.geometry import (
    CENTRE_MARGIN_MM,
    READER_PX_PER_MM,
    STILL_PX,
    WIDE,
    centre_view,
    height_to_fit,
    scale_at,
    whole_table_view,
)
from vision.layout import build_layout, central_mat_size

HARDWARE = (ROOT / "hardware.md").read_text(encoding="utf-8")


def test_the_wide_lens_model_gives_its_stated_fields_of_view() -> None:
    half_diagonal = math.hypot(*STILL_PX) / 2
    for degrees, half_px in ((67, STILL_PX[1] / 2), (102, STILL_PX[0] / 2), (120, half_diagonal)):
        assert WIDE.radius_px(math.tan(math.radians(degrees / 2))) == pytest.approx(half_px, 1e-3)
    radii = [WIDE.radius_px(r / 100) for r in range(0, 150)]
    assert all(b > a for a, b in itertools.pairwise(radii))  # one ray per pixel


@pytest.mark.parametrize("lens", ["standard", "wide"])
def test_the_central_mat_and_its_margin_just_fill_the_still(lens: str) -> None:
    view = centre_view(lens)
    w, h = (s + 2 * CENTRE_MARGIN_MM for s in central_mat_size())
    assert view.covered_mm[0] >= w - 1 and view.covered_mm[1] == pytest.approx(h, abs=1)
    lower = height_to_fit(view.lens, (w, h + 20))
    assert lower > view.height_mm  # a deeper area needs the camera higher
    assert view.corner_px_per_mm >= READER_PX_PER_MM
    assert view.centre_px_per_mm >= view.corner_px_per_mm


def test_the_wide_lens_loses_resolution_towards_the_corners() -> None:
    view = centre_view("wide")
    assert scale_at(WIDE, view.height_mm, 0) == pytest.approx(view.centre_px_per_mm)
    assert view.corner_px_per_mm < 0.85 * view.centre_px_per_mm


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mats_and_hardware_md_quote_the_same_geometry(players: int) -> None:
    layout = build_layout(players)
    lines = "\n".join(geometry_lines(layout))
    x0, y0, x1, y1 = layout.bounds()
    size = f"{x1 - x0:.0f} × {y1 - y0:.0f} mm"
    assert size.replace("×", "x") in lines
    assert size in HARDWARE  # the whole-layout comparison names every layout
    assert "central mat 800 x 448 mm" in lines and "800 × 448 mm" in HARDWARE
    for lens in ("standard", "wide"):
        v = centre_view(lens)
        height = f"{v.height_mm / 1000:.2f} m"
        assert height in lines and height in HARDWARE
        row = f"| {height} | {v.covered_mm[0]:.0f} × {v.covered_mm[1]:.0f} mm |"
        assert row.replace("*", "") in HARDWARE.replace("*", "")
        numbers = f"{v.centre_px_per_mm:.1f} px/mm at the centre, {v.corner_px_per_mm:.1f} at"
        assert numbers in lines
        w = whole_table_view(lens, (x1 - x0, y1 - y0))
        assert f"{w.height_mm / 1000:.2f} m, {w.centre_px_per_mm:.1f}" in HARDWARE


def test_hardware_md_keeps_no_old_geometry() -> None:
    assert not re.search(r"0\.62 m|1\.0 × 0\.9 m|1\.53 × 0\.82", HARDWARE)
