"""Printable mats: every marker is detectable, the command writes its files."""

from __future__ import annotations

import json

import cv2

from companion.cli import main
from vision.layout import build_layout
from vision.mats import aruco_dictionary, render_mat


def test_every_printed_marker_is_detected_with_its_id() -> None:
    layout = build_layout(4)
    detector = cv2.aruco.ArucoDetector(aruco_dictionary())
    for mat in layout.mats[:2]:
        img = render_mat(layout, mat.name, 2.0)
        _, ids, _ = detector.detectMarkers(img)
        expected = sorted(m.id for m in layout.markers if m.mat == mat.name)
        assert sorted(ids.ravel().tolist()) == expected


def test_mats_command_writes_pngs_pdf_and_layout(tmp_path, capsys) -> None:
    out = tmp_path / "mats"
    assert main(["mats", "--players", "2", "--out", str(out), "--dpi", "50", "--paper", "a3",
                 "--player-mats"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["layout.json", "mat-centre.png", "mat-player1.png", "mat-player2.png",
                     "mats-a3.pdf"]
    assert json.loads((out / "layout.json").read_text())["players"] == 2
    assert (out / "mats-a3.pdf").read_bytes()[:4] == b"%PDF"
    png = cv2.imread(str(out / "mat-centre.png"))
    # 800 mm at 50 dpi
    assert abs(png.shape[1] - 800 / 25.4 * 50) <= 1
    assert "pages" in capsys.readouterr().out


def test_mats_prints_only_the_central_mat_unless_asked(tmp_path, capsys) -> None:
    """The camera reads the central mat alone: by default only its sheets are printed."""
    out = tmp_path / "mats"
    assert main(["mats", "--players", "4", "--out", str(out), "--dpi", "50"]) == 0
    printed = capsys.readouterr().out
    assert sorted(p.name for p in out.glob("mat-*.png")) == ["mat-centre.png"]
    pages = int(printed.split(" pages: the assembly page")[0].rsplit("(", 1)[1])
    assert "--player-mats" in printed
    assert main(["mats", "--players", "4", "--out", str(tmp_path / "all"), "--dpi", "50",
                 "--player-mats"]) == 0
    every = int(capsys.readouterr().out.split(" pages: the assembly page")[0].rsplit("(", 1)[1])
    assert every > 2 * pages
    assert len(list((tmp_path / "all").glob("mat-*.png"))) == 5


def test_mats_command_rejects_bad_player_count(capsys) -> None:
    assert main(["mats", "--players", "7", "--no-pdf"]) == 1
    err = capsys.readouterr().err
    assert "2 to 4 players" in err and "Traceback" not in err
