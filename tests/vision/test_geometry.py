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
    LENSES,
    READER_PX_PER_MM,
    STANDARD,
    STILL_PX,
    WIDE,
    _image_point,
    centre_view,
    fov_degrees,
    height_to_fit,
    mount_view,
    scale_at,
    whole_table_view,
)
from vision.layout import build_layout, central_mat_size

HARDWARE = (ROOT / "hardware.md").read_text(encoding="utf-8")
SCHEMA = (ROOT / "vision" / "SCHEMA.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("lens", "stated"), [(STANDARD, (66, 41, 75)), (WIDE, (102, 67, 120))])
def test_the_lens_models_see_about_their_stated_fields_of_view(lens, stated) -> None:  # type: ignore[no-untyped-def]
    for got, want in zip(fov_degrees(lens), stated, strict=True):
        assert abs(got - want) < 3
    radii = [lens.radius_px(math.radians(d)) for d in range(0, 65)]
    assert all(b > a for a, b in itertools.pairwise(radii))  # one ray per pixel


def test_the_evaluation_photographs_with_the_same_lenses_and_margin() -> None:
    world = pytest.importorskip("vision.synth.world")
    assert world.CENTRE_MARGIN_MM == CENTRE_MARGIN_MM
    for name, lens in LENSES.items():
        theirs = world.LENSES[name]
        assert (theirs.focal_mm, theirs.k[:2]) == (lens.focal_mm, (lens.k1, lens.k2))
    shot = world.world_frame(2, "easy", 3, split="design", framing="centre", lens="wide",
                             size=(1152, 648))
    assert -shot.camera.centre[2] == pytest.approx(mount_view("wide").height_mm, rel=0.03)


@pytest.mark.parametrize("lens", ["standard", "wide"])
def test_every_slot_stays_in_view_with_the_camera_40_mm_off_and_turned_3_degrees(
        lens: str) -> None:
    view = centre_view(lens)
    corners = [p for s in build_layout(4).slots if s.mat == "centre" for p in s.corners()]
    t = math.radians(3)
    for dx, dy in ((40, 0), (0, 40), (28, 28), (-40, 0), (0, -40)):
        for x, y in corners:
            u, v = _image_point(view.lens, view.height_mm, x * math.cos(t) - y * math.sin(t) + dx,
                                x * math.sin(t) + y * math.cos(t) + dy)
            assert abs(u) < STILL_PX[0] / 2 and abs(v) < STILL_PX[1] / 2


@pytest.mark.parametrize("lens", ["standard", "wide"])
def test_the_central_mat_and_its_margin_just_fill_the_still(lens: str) -> None:
    view = centre_view(lens)
    w, h = (s + 2 * CENTRE_MARGIN_MM for s in central_mat_size())
    assert view.covered_mm[0] >= w - 1 and view.covered_mm[1] >= h - 1
    lower = height_to_fit(view.lens, (w, h + 20))
    assert lower > view.height_mm  # a deeper area needs the camera higher
    assert view.corner_px_per_mm >= READER_PX_PER_MM


def test_the_wide_lens_loses_resolution_towards_the_corners() -> None:
    view = centre_view("wide")
    assert scale_at(WIDE, view.height_mm, 0) == pytest.approx(view.centre_px_per_mm)
    assert view.corner_px_per_mm < 0.7 * view.centre_px_per_mm


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mats_and_hardware_md_quote_the_same_geometry(players: int) -> None:
    layout = build_layout(players)
    lines = "\n".join(geometry_lines(layout))
    x0, y0, x1, y1 = layout.bounds()
    size = f"{x1 - x0:.0f} × {y1 - y0:.0f} mm"
    assert size.replace("×", "x") in lines
    assert size in HARDWARE  # the whole-layout comparison names every layout
    assert f"{x1 - x0:.0f} × {y1 - y0:.0f}" in SCHEMA
    assert "central mat 800 x 448 mm" in lines and "800 × 448 mm" in HARDWARE
    for lens in ("standard", "wide"):
        v = mount_view(lens)
        height = f"{v.height_mm / 1000:.2f} m"
        assert height in lines and height in HARDWARE
        row = f"| {height} | {v.covered_mm[0]:.0f} × {v.covered_mm[1]:.0f} mm |"
        assert row.replace("*", "") in HARDWARE.replace("*", "")
        numbers = f"{v.centre_px_per_mm:.1f} px/mm at the centre, {v.corner_px_per_mm:.1f} at"
        assert numbers in lines
        w = whole_table_view(lens, (x1 - x0, y1 - y0))
        assert (f"{w.height_mm / 1000:.2f} m, {w.centre_px_per_mm:.1f} /"
                f" {w.corner_px_per_mm:.1f}") in HARDWARE


def test_hardware_md_keeps_no_old_geometry() -> None:
    assert not re.search(r"0\.62 m|1\.0 × 0\.9 m|1\.53 × 0\.82", HARDWARE)


@pytest.mark.parametrize("lens", ["standard", "wide"])
def test_one_mount_frames_both_games_central_mats(lens: str) -> None:
    """The camera is clamped once: the mount's view holds either game's central mat."""
    from vision.duel.layout import build_duel_layout
    from vision.geometry import CENTRAL_MATS_MM, mount_view

    assert (build_layout(2).mat("centre").size,
                               build_duel_layout().mat("centre").size) == CENTRAL_MATS_MM
    mount = mount_view(lens)
    for mat in CENTRAL_MATS_MM:
        assert mount.height_mm >= centre_view(lens, mat).height_mm - 1e-6
        assert mount.covered_mm[0] >= mat[0] and mount.covered_mm[1] >= mat[1]
    assert mount.height_mm == pytest.approx(max(centre_view(lens, m).height_mm
                                                for m in CENTRAL_MATS_MM))
