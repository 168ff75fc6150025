"""read_frame and the `vision read` command: observations, JSON, bad input."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.errors import VisionError
from vision.layout import build_layout
from vision.read import check_frame, load_image, read_frame
from vision.synth import Camera, random_scene, render

WINDOW = (-400.0, -224.0, 20.0, 224.0)


@pytest.fixture(scope="module")
def frame(layout2):
    scene = random_scene(2, 11)
    r = render(scene, layout2, Camera(px_per_mm=3.5, window=WINDOW, tilt=6, rotation=4,
                                      noise=2, blur=0.5, jpeg_quality=88), seed=7)
    return scene, r


def test_market_is_read_with_cards_carrying_their_facts(layout2, frame) -> None:
    scene, r = frame
    obs = read_frame(r.image, layout2)
    assert obs.calibrated and obs.markers
    truth = {f"market.{lv}.{i}": cid for lv in (1, 2, 3)
             for i, cid in enumerate(scene.market[lv - 1])}
    read = {c.slot: c for c in obs.cards}
    assert set(read) == set(truth)
    right = sum(read[s].card is not None and read[s].card.id == truth[s] for s in truth)
    wrong = sum(read[s].card is not None and read[s].card.id != truth[s] for s in truth)
    assert wrong == 0 and right >= 10
    assert [d.present for d in obs.decks] == [scene.decks[lv - 1] for lv in (3, 2, 1)]
    # tokens and player mats are outside this view: listed as unseen, not guessed
    assert "supply.w.0" in obs.unseen and not obs.token_slots


def test_json_follows_the_schema(layout2, frame) -> None:
    data = json.loads(read_frame(frame[1].image, layout2).to_json())
    assert data["schema"] == "splendor-companion/observation" and data["calibrated"]
    card = next(c for c in data["cards"] if c["card"])
    assert set(card["card"]) == {"id", "level", "bonus", "points", "cost"}
    assert set(card["card"]["cost"]) == set("wugrk")
    assert 0 <= card["confidence"] <= 1


def test_frame_without_markers_is_uncalibrated(layout2) -> None:
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    obs = read_frame(img, layout2)
    assert not obs.calibrated and "no marker" in obs.reason and not obs.cards


@pytest.mark.parametrize("img, message", [
    (np.zeros((480, 640, 3), np.uint8), "black"),
    (np.full((20, 30, 3), 128, np.uint8), "size"),
    (np.full((100, 2000, 3), 128, np.uint8), "size"),
    (np.zeros((10, 10, 3), np.float32), "8-bit|size"),
])
def test_unusable_frames_raise_vision_error(img, message) -> None:
    with pytest.raises(VisionError, match=message):
        check_frame(img)


def _write_bad_files(tmp_path, good: np.ndarray) -> dict[str, str]:
    _, jpg = cv2.imencode(".jpg", good)
    _, png = cv2.imencode(".png", good)
    files = {"empty.jpg": b"", "truncated.jpg": jpg.tobytes()[:3000],
             "truncated.png": png.tobytes()[:3000], "notes.png": b"hello, not an image"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return {"empty.jpg": "empty", "truncated.jpg": "truncated", "truncated.png": "truncated",
            "notes.png": "not an image", "missing.jpg": "no such file"}


def test_bad_files_give_one_line_errors(tmp_path, frame) -> None:
    for name, message in _write_bad_files(tmp_path, frame[1].image).items():
        with pytest.raises(VisionError, match=message):
            load_image(tmp_path / name)


def test_vision_read_command(tmp_path, layout2, frame, capsys) -> None:
    layout_path = tmp_path / "layout.json"
    layout_path.write_text(layout2.to_json())
    image = tmp_path / "frame.jpg"
    cv2.imwrite(str(image), frame[1].image)
    assert main(["vision", "read", str(image), "--layout", str(layout_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["calibrated"] and len(data["cards"]) == 12
    assert main(["vision", "read", str(image), "--layout", str(layout_path)]) == 0
    assert "market.1.0" in capsys.readouterr().out
    bad = _write_bad_files(tmp_path, frame[1].image)
    for name in bad:
        assert main(["vision", "read", str(tmp_path / name), "--layout", str(layout_path)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((480, 640, 3), np.uint8))
    assert main(["vision", "read", str(black), "--layout", str(layout_path)]) == 1
    assert "black" in capsys.readouterr().err
    assert main(["vision", "read", str(image), "--layout", str(tmp_path / "none.json")]) == 1
    assert "not found" in capsys.readouterr().err


def test_reading_is_the_same_on_worker_processes(layout2, frame) -> None:
    a = read_frame(frame[1].image, layout2, workers=1).to_dict()
    b = read_frame(frame[1].image, layout2, workers=2).to_dict()
    a.pop("elapsed_ms")
    b.pop("elapsed_ms")
    assert a == b
    # slots come back in layout order whatever process read them
    order = [s.id for s in layout2.slots]
    slots = [c["slot"] for c in b["cards"]]
    assert slots == sorted(slots, key=order.index)


def _huge_png(path, side: int = 25000) -> None:
    """A valid ``side`` x ``side`` grey PNG of a few megabytes, written row by row
    (never ``side``² pixels in memory)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    packer = zlib.compressobj(1)
    row = b"\x00" + b"\x80" * side
    idat = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side,
                                                                       8, 0, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def test_a_huge_image_is_refused_from_its_header(tmp_path, frame) -> None:
    """Issue 41, defect 5: `vision read` decoded a 25000² PNG (1.9 GB as BGR, 3.7 GB
    peak) before refusing it; the header says its size, so it is never decoded."""
    import subprocess
    import sys

    from vision.read import MAX_PIXELS, header_size

    huge = tmp_path / "huge.png"
    _huge_png(huge)
    assert header_size(huge.read_bytes()) == (25000, 25000)
    with pytest.raises(VisionError, match="25000x25000 pixels"):
        load_image(huge)
    # a JPEG whose start-of-frame says 25000 x 20000 (libjpeg would allocate it)
    _, jpg = cv2.imencode(".jpg", frame[1].image)
    data = bytearray(jpg.tobytes())
    sof = next(i for i in range(2, len(data) - 1) if data[i] == 0xFF and data[i + 1] == 0xC0)
    data[sof + 5:sof + 9] = (20000).to_bytes(2, "big") + (25000).to_bytes(2, "big")
    (tmp_path / "huge.jpg").write_bytes(bytes(data))
    assert header_size(bytes(data)) == (25000, 20000) and MAX_PIXELS < 25000 * 20000
    with pytest.raises(VisionError, match="25000x20000 pixels"):
        load_image(tmp_path / "huge.jpg")
    # the command: one line, exit 1, and no decoding (its own peak memory stays small)
    (tmp_path / "layout.json").write_text(build_layout(2).to_json())
    # VmHWM: this process's own peak (ru_maxrss keeps the forking parent's across exec)
    program = ("import sys\nfrom companion.cli import main\n"
               "code = main(sys.argv[1:])\n"
               "status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
               "print(int(status.split()[0]) // 1024)\n"
               "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", program, "vision", "read", str(huge),
                           "--layout", str(tmp_path / "layout.json")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "25000x25000" in done.stderr
    peak_mb = int(done.stdout.split()[-1])
    assert peak_mb < 1000, peak_mb  # decoding alone would be 1875 MB
