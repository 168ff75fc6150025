"""The table description: counts, geometry, JSON round trip, bad files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.errors import VisionError
from vision.layout import Layout, build_layout, load_layout


@pytest.mark.parametrize("players", [2, 3, 4])
def test_standard_layout_has_every_slot(players: int) -> None:
    layout = build_layout(players)
    kinds = [s.kind for s in layout.slots]
    assert kinds.count("card") == 12 and kinds.count("deck") == 3 and kinds.count("noble") == 5
    supply = layout.slots_of("token", "supply")
    assert {c: sum(s.colour == c for s in supply) for c in "wugrky"} == {
        "w": 7, "u": 7, "g": 7, "r": 7, "k": 7, "y": 5}
    for p in range(1, players + 1):
        assert len(layout.slots_of("token", f"player{p}.tokens")) == 10
        assert len(layout.slots_of("reserved", f"player{p}.reserved")) == 3
        assert [s.colour for s in layout.slots_of("tableau", f"player{p}.tableau")] == list("wugrk")
    assert len({s.id for s in layout.slots}) == len(layout.slots)
    ids = [m.id for m in layout.markers]
    assert len(set(ids)) == len(ids) and max(ids) < 50  # DICT_4X4_50


def _inside(poly: np.ndarray, pts: np.ndarray) -> bool:
    import cv2

    return all(cv2.pointPolygonTest(poly.astype(np.float32), tuple(map(float, p)), False) >= 0
               for p in pts)


def test_slots_and_markers_lie_on_their_mat_and_do_not_overlap() -> None:
    layout = build_layout(4)
    for mat in layout.mats:
        poly = np.array(mat.corners())
        for s in layout.slots:
            if s.mat == mat.name:
                assert _inside(poly, np.array(s.corners()) * 0.999 + np.array(s.center) * 0.001)
        for m in layout.markers:
            if m.mat == mat.name:
                assert _inside(poly, np.array(m.corners))
    # mats do not overlap: their centres are further apart than half their sizes
    for a in layout.mats:
        for b in layout.mats:
            if a is not b:
                d = np.abs(np.subtract(a.center, b.center))
                assert (d > 100).any()


def test_rotated_player_mats_face_their_player() -> None:
    layout = build_layout(4)
    # player 2 sits opposite player 1: its reserved slots are on the far (top) side
    p1 = layout.slot_index["player1.reserved.0"]
    p2 = layout.slot_index["player2.reserved.0"]
    assert p1.center[1] > 0 > p2.center[1]
    assert p1.angle == 0 and p2.angle == 180
    assert layout.slot_index["player3.tokens.0"].center[0] < -400 < 400 < (
        layout.slot_index["player4.tokens.0"].center[0])


def test_json_round_trip(tmp_path) -> None:
    layout = build_layout(3)
    path = tmp_path / "layout.json"
    path.write_text(layout.to_json())
    again = load_layout(path)
    assert again.to_dict() == layout.to_dict()
    assert isinstance(again, Layout) and again.players == 3


@pytest.mark.parametrize(
    "content, message",
    [(None, "not found"), ("{", "cannot read"), ('{"schema": "x"}', "not a layout"),
     ('{"schema": "splendor-companion/layout", "mats": []}', "malformed"), ("[1]", "not a layout")],
)
def test_bad_layout_files_give_one_clear_error(tmp_path, content, message) -> None:
    path = tmp_path / "layout.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(VisionError, match=message):
        load_layout(path)


def test_player_count_is_checked() -> None:
    with pytest.raises(VisionError, match="2 to 4"):
        build_layout(5)


def test_layout_json_is_plain_json() -> None:
    data = json.loads(build_layout(2).to_json())
    assert data["units"] == "mm" and data["aruco_dictionary"] == "DICT_4X4_50"
    assert {"id", "kind", "zone", "mat", "center", "size", "angle"} <= set(data["slots"][0])
