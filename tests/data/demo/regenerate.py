"""Regenerate the committed demo recording: the first turns of the demo game.

Renders the frames and stores them as JPEG (WebP would be a quarter of the
size, but the publisher's scans in ../shared are WebP and we keep that suffix
out of the repository so no artwork can slip in unnoticed). Then the operator
who knows the game presses the buttons while the real reader and referee play
those very frames, and the presses are kept as buttons.txt.
Run from the repository root::

    .venv/bin/python tests/data/demo/regenerate.py

Rerun it when the renderer or the reader changes what a frame reads as;
never edit buttons.txt by hand.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import cv2

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
TURNS = 4
JPEG_QUALITY = 88


def demo(*args: str) -> None:
    cmd = [sys.executable, "-m", "companion", "demo", "--headless", "--quiet", *args]
    subprocess.run(cmd, check=True, cwd=ROOT)


def main() -> int:
    work = ROOT / "out" / "demo-test-recording"
    shutil.rmtree(work, ignore_errors=True)
    demo("--turns", str(TURNS), "--record", "--out", str(work / "render"))
    shutil.rmtree(HERE / "frames", ignore_errors=True)
    (HERE / "frames").mkdir()
    for jpg in sorted((work / "render" / "recording" / "frames").glob("*.jpg")):
        image = cv2.imread(str(jpg), cv2.IMREAD_COLOR)
        quality = [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]
        cv2.imwrite(str(HERE / "frames" / jpg.name), image, quality)
    shutil.copy2(work / "render" / "recording" / "game.txt", HERE / "game.txt")
    (HERE / "buttons.txt").unlink(missing_ok=True)
    demo("--recording", str(HERE), "--record", "--out", str(work / "play"))
    shutil.copy2(work / "play" / "buttons.txt", HERE / "buttons.txt")
    print(f"recording of {TURNS} turns written to {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
