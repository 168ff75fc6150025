"""Regenerate the realistic recorded game: game.txt, render.txt and buttons.txt.

A seeded game played by the project's own simulate (companion rules), to be
rendered with the publisher's **check-only** faces and chips
(``vision.synth.facesets``) by the realistic world's Pi camera
(``vision.synth.world``: the lens framing the central mat, as hardware.md
decides, the room's light, blur, noise, JPEG; render.txt).  No frame is
committed: ``demo --recording`` renders them at first use into a git-ignored
cache (default out/world-game/frames).

The button script is what an honest player who knows the game presses
while the real reader and referee play those frames (the demo's operator:
CONFIRM when the proposal is the turn played, NEXT while it is not, the
menus when no guess is right); it is recorded here, never written by hand.
Run from the repository root (needs ../shared/card-faces)::

    .venv/bin/python tests/data/world-game/generate.py

Rerun it when the renderer or the reader changes what a frame reads as.

The same script measures a game nobody has looked at (the issue's "recorded
games in medium light"): ``--into DIR`` writes the recording there instead
(never into the repository), with its own game seed, players, light and
camera seed, and prints the first-guess tally the operator reached::

    .venv/bin/python tests/data/world-game/generate.py --into out/unseen \\
        --game-seed 101 --players 2 --difficulty medium --camera-seed 31
"""

from __future__ import annotations

import argparse
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
#: The committed recording's camera seed: 12 draws the `newer-1.5px` check face set.
CAMERA_SEED = 12
RENDER = """\
# How the frames of this recording are rendered at first use (companion.demo.splendor.Look):
# vision.synth.world.world_frame({players}, "{difficulty}", seed, "check", framing="centre",
# lens="{lens}", scene=<each state>, hand=False, steady=...): the Pi Camera Module 3 framing
# the central mat (hardware.md's geometry: the players' areas are out of view, known from
# the turns). The faces are the publisher's check-only ones: never commit a frame.
faces check
seed {seed}
camera pi
framing centre
lens {lens}
difficulty {difficulty}
jpeg_quality 95
"""


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--into", type=Path, default=HERE,
                        help="recording folder (default: the committed one, tests/data/world-game)")
    parser.add_argument("--game-seed", type=int, default=SEED, help="simulate's game seed")
    parser.add_argument("--players", type=int, default=len(NAMES), choices=(2, 3, 4))
    parser.add_argument("--difficulty", default="easy", choices=("easy", "medium", "hard"),
                        help="the room's light (vision.synth.world)")
    parser.add_argument("--lens", default="wide", choices=("wide", "standard"))
    parser.add_argument("--camera-seed", type=int, default=CAMERA_SEED,
                        help="world_frame's seed: the check face set, the camera's pose")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    into: Path = args.into.resolve()
    committed = into == HERE
    if not committed and into.is_relative_to(ROOT / "tests"):
        print(f"generate.py: --into {into} is inside tests/; an unseen game is not committed",
              file=sys.stderr)
        return 2
    names = NAMES[:args.players]
    into.mkdir(parents=True, exist_ok=True)
    record, _ = play_game(args.game_seed, names, POLICY)
    (into / "game.txt").write_text(record.text(), encoding="utf-8")
    render = RENDER.format(players=args.players, difficulty=args.difficulty, lens=args.lens,
                           seed=args.camera_seed)
    (into / "render.txt").write_text(render, encoding="utf-8")
    (into / "buttons.txt").unlink(missing_ok=True)
    work = ROOT / "out" / "world-game" if committed else into / "work"
    cmd = [sys.executable, "-m", "companion", "demo", "--headless", "--quiet", "--record",
           "--recording", str(into), "--out", str(work / "play"),
           "--frames", str(work / "frames")]
    subprocess.run(cmd, check=False, cwd=ROOT)  # exit 1 only if a turn differs: see below
    shutil.copy2(work / "play" / "buttons.txt", into / "buttons.txt")
    print(f"recording of {len(record.turns)} turns written to {into}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
