"""The Duel mats: places where the rules need them, markers clear of every place."""

from __future__ import annotations

import json

import numpy as np

from vision.duel.layout import (
    CELL_PITCH_MM,
    DUEL_TOKEN_MM,
    board_rect,
    build_duel_layout,
    cell_centre,
)
from vision.duel.mats import render_duel_mat
from vision.layout import MARKER_QUIET_MM, Layout


def test_the_table_has_every_place_the_rules_name() -> None:
    layout = build_duel_layout()
    kinds = {}
    for s in layout.slots:
        kinds.setdefault(s.zone, []).append(s)
    assert len(kinds["board"]) == 26  # 25 cells and the board's frame
    assert [len(layout.slots_of("card", "pyramid"))] == [12]
    assert {s.level for s in layout.slots_of("deck")} == {1, 2, 3}
    assert len(layout.slots_of("noble", "royals")) == 4
    assert len(layout.slots_of("privilege", "privileges")) == 3
    for p in (1, 2):
        tokens = layout.slots_of("token", f"player{p}.tokens")
        want = sorted("wwwwuuuuggggrrrrkkkkppyyy")
        assert sorted("".join(s.colour or "" for s in tokens)) == want
        assert len(layout.slots_of("reserved", f"player{p}.reserved")) == 3
        assert len(layout.slots_of("privilege", f"player{p}.privileges")) == 3


def test_cells_lie_on_the_board_in_reading_order() -> None:
    x0, y0, x1, y1 = board_rect()
    centres = np.array([cell_centre(i) for i in range(25)])
    assert (centres[:, 0] > x0).all() and (centres[:, 0] < x1).all()
    assert (centres[:, 1] > y0).all() and (centres[:, 1] < y1).all()
    assert np.allclose(np.diff(centres[:5, 0]), CELL_PITCH_MM)
    assert np.allclose(centres[5, 1] - centres[0, 1], CELL_PITCH_MM)
    assert DUEL_TOKEN_MM < CELL_PITCH_MM


def test_no_marker_quiet_square_touches_a_place() -> None:
    layout = build_duel_layout()
    for m in layout.markers:
        c = np.mean(m.corners, axis=0)
        side = float(np.linalg.norm(np.subtract(m.corners[1], m.corners[0])))
        half = (MARKER_QUIET_MM if side > 25 else side + 6) / 2
        for s in layout.slots:
            if s.mat != m.mat or s.kind in ("tableau", "frame"):
                continue
            pts = np.asarray(s.corners())
            lo, hi = pts.min(0), pts.max(0)
            apart = (lo[0] >= c[0] + half - 0.01 or hi[0] <= c[0] - half + 0.01
                     or lo[1] >= c[1] + half - 0.01 or hi[1] <= c[1] - half + 0.01)
            assert apart, (m.id, s.id)


def test_layout_json_round_trips() -> None:
    layout = build_duel_layout()
    again = Layout.from_dict(json.loads(layout.to_json()))
    assert [s.id for s in again.slots] == [s.id for s in layout.slots]
    assert np.allclose([s.center for s in again.slots], [s.center for s in layout.slots],
                       atol=1e-3)
    assert [s.colour for s in again.slots] == [s.colour for s in layout.slots]
    assert len({m.id for m in layout.markers}) == len(layout.markers)


def test_a_printed_mat_shows_its_markers() -> None:
    import cv2

    from vision.mats import aruco_dictionary

    layout = build_duel_layout()
    img = render_duel_mat(layout, "centre", 3.0)
    det = cv2.aruco.ArucoDetector(aruco_dictionary())
    _, ids, _ = det.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    want = {m.id for m in layout.markers if m.mat == "centre"}
    assert ids is not None and set(ids.ravel().tolist()) == want
