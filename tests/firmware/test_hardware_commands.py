"""The buttons-test and camera-test sub-commands, through the real CLI."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.cli import main


def test_buttons_test_prints_the_scripted_events(tmp_path: Path, capsys):
    script = tmp_path / "presses.txt"
    script.write_text("confirm\nnext\nundo\n")
    assert main(["buttons-test", "--panel", f"script:{script}"]) == 0
    out = capsys.readouterr().out
    assert [line.split(" s  ", 1)[1] for line in out.splitlines() if " s  " in line] == [
        "press confirm",
        "press next",
        "undo",
    ]
    assert "3 event(s)." in out


def test_buttons_test_with_a_bad_script_is_one_line(tmp_path: Path, capsys):
    script = tmp_path / "bad.txt"
    script.write_text("confirm\npush\n")
    assert main(["buttons-test", "--panel", f"script:{script}"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad.txt:2" in err


def test_buttons_test_with_a_bad_config_is_one_line(tmp_path: Path, capsys):
    config = tmp_path / "c.toml"
    config.write_text("[buttons]\nconfirm_pin = 99\n")
    assert main(["buttons-test", "--config", str(config), "--panel", "keyboard"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "confirm_pin = 99" in err


def test_camera_test_reads_a_recorded_folder_and_saves(tmp_path: Path, capsys):
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(3):
        cv2.imwrite(str(frames / f"{index}.png"), np.full((30, 40, 3), index * 50, np.uint8))
    out = tmp_path / "out"
    assert main(["camera-test", "--camera", f"recorded:{frames}", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "3 frame(s) of 40x30" in printed
    saved = cv2.imread(str(out / "frame.png"))
    assert saved is not None and saved.shape == (30, 40, 3) and int(saved[0, 0, 0]) == 0


def test_camera_test_failure_is_one_line(tmp_path: Path, capsys):
    assert main(["camera-test", "--camera", f"recorded:{tmp_path / 'none'}"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "does not exist" in err
