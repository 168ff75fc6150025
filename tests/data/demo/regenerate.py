"""Regenerate the committed demo recording: the first turns of the demo game.

Renders the frames, lets the operator who knows the game press the buttons
through the real reader and referee, and copies the recording (game.txt,
frames/, buttons.txt) here.  Run from the repository root::

    .venv/bin/python tests/data/demo/regenerate.py

Rerun it when the renderer or the reader changes what a frame reads as;
never edit buttons.txt by hand.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TURNS = 4


def main() -> int:
    work = HERE.parent.parent.parent / "out" / "demo-test-recording"
    shutil.rmtree(work, ignore_errors=True)
    cmd = [sys.executable, "-m", "companion", "demo", "--turns", str(TURNS), "--record",
           "--headless", "--out", str(work)]
    subprocess.run(cmd, check=True)
    shutil.rmtree(HERE / "frames", ignore_errors=True)
    shutil.copytree(work / "recording" / "frames", HERE / "frames")
    for name in ("game.txt", "buttons.txt"):
        shutil.copy2(work / "recording" / name, HERE / name)
    print(f"recording of {TURNS} turns written to {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
