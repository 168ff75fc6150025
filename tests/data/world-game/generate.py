"""Regenerate the realistic recorded game: game.txt, render.txt and buttons.txt.

A seeded 4-player game played by the project's own simulate (companion
rules), to be rendered with the publisher's **check-only** faces and chips
(``vision.synth.facesets``) by the realistic world's Pi camera
(``vision.synth.world``: the Wide lens framing the central mat, as
hardware.md decides, the room's light, blur, noise, JPEG; render.txt).
No frame is committed: ``demo --recording`` renders them at first use into
a git-ignored cache (default out/world-game/frames).

The button script is what an honest player who knows the game presses
while the real reader and referee play those frames (the demo's operator:
CONFIRM when the proposal is the turn played, NEXT while it is not, the
menus when no guess is right); it is recorded here, never written by hand.
Run from the repository root (needs ../shared/card-faces)::

    .venv/bin/python tests/data/world-game/generate.py

Rerun it when the renderer or the reader changes what a frame reads as.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules.splendor.simulate import play_game  # noqa: E402

SEED = 7
NAMES = ("Ann", "Bob", "Cat", "Dan")
POLICY = "greedy"
RENDER = """\
# How the frames of this recording are rendered at first use (companion.demo.splendor.Look):
# vision.synth.world.world_frame(4, "easy", seed, "check", framing="centre", lens="wide",
# scene=<each state>, hand=False, steady=...): the Pi Camera Module 3 Wide framing the central
# mat (hardware.md's geometry: the players' areas are out of view, known from the turns).
# The faces are the publisher's check-only ones: never commit a frame.
faces check
seed 12
camera pi
framing centre
lens wide
difficulty easy
jpeg_quality 95
"""


def main() -> int:
    record, _ = play_game(SEED, NAMES, POLICY)
    (HERE / "game.txt").write_text(record.text(), encoding="utf-8")
    (HERE / "render.txt").write_text(RENDER, encoding="utf-8")
    (HERE / "buttons.txt").unlink(missing_ok=True)
    work = ROOT / "out" / "world-game"
    cmd = [sys.executable, "-m", "companion", "demo", "--headless", "--quiet", "--record",
           "--recording", str(HERE), "--out", str(work / "play"),
           "--frames", str(work / "frames")]
    subprocess.run(cmd, check=False, cwd=ROOT)  # exit 1 only if a turn differs: see below
    shutil.copy2(work / "play" / "buttons.txt", HERE / "buttons.txt")
    print(f"recording of {len(record.turns)} turns written to {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
