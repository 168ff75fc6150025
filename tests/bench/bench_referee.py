"""The referee at the table: from a still frame to the proposal on the screen.

Plays the recorded demo game (the full cached one in ``out/demo/recording``
when ``make demo`` has rendered it, else the committed first turns in
``tests/data/demo``) through the real reader, referee and screen, and prints

* the median time to read a still frame (``vision.read_frame`` and the
  adapter) -- the baseline, measured in the same run;
* the median time from a still frame arriving to the proposal drawn on the
  screen (read + rank the candidate turns + draw), and the referee's share;
* the peak memory (RSS) of the companion running the demo in its own
  process (``splendor-companion demo``); the aim is 250 MB or less.
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import os  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from companion.referee import Referee  # noqa: E402
from companion.referee.demo import Frames, Operator, frame_path, load_recording, play  # noqa: E402
from companion.referee.driver import TableLoop  # noqa: E402
from companion.referee.observe import from_observation  # noqa: E402
from companion.screen.draw import Screen  # noqa: E402

AIM_MB = 250


def recording() -> Path:
    cached = ROOT / "out" / "demo" / "recording"
    if (cached / "game.txt").exists():
        game, _ = load_recording(cached)
        if all(frame_path(cached, i).exists() for i in range(len(game.turns) + 1)):
            return cached
    return ROOT / "tests" / "data" / "demo"


def timings(folder: Path) -> tuple[list[float], list[float], int]:
    from vision.layout import build_layout
    from vision.read import read_frame

    game, _ = load_recording(folder)
    states = [game.initial_state()]
    for turn in game.turns:
        states.append(states[-1].apply(turn))
    layout = build_layout(len(game.players))
    loop = TableLoop(
        Referee(game.players),
        reader=lambda image: from_observation(read_frame(image, layout), len(game.players)),
        screen=Screen((800, 480)),
        echo=lambda line: None,
    )
    frames = Frames(folder, game)
    try:
        play(loop, frames, len(states), None, Operator(states[0], game.turns))
    finally:
        frames.close()
    return loop.timings.reads_ms, loop.timings.proposals_ms, len(game.turns)


def peak_rss_mb(folder: Path) -> tuple[float, float]:
    out = Path(tempfile.mkdtemp(prefix="bench-referee-"))
    try:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "companion", "demo", "--recording", str(folder),
             "--out", str(out), "--headless", "--quiet"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        seconds = time.perf_counter() - start
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, seconds


def main() -> None:
    folder = recording()
    reads, proposals, turns = timings(folder)
    print(f"recording: {folder.relative_to(ROOT)} ({turns} turns, {len(reads)} frames read)")
    read = statistics.median(reads)
    print(f"baseline: read a still frame (median)           {read:8.0f} ms")
    if proposals:
        prop = statistics.median(proposals)
        print(
            f"still frame to proposal on screen (median)      {prop:8.0f} ms"
            f"  ({prop / read:.2f}x the read; referee and screen {prop - read:.0f} ms,"
            f" {len(proposals)} proposals)"
        )
    else:
        print("still frame to proposal on screen               no proposal was made")
    rss, seconds = peak_rss_mb(folder)
    verdict = "within" if rss <= AIM_MB else "ABOVE"
    print(
        f"peak RSS of the companion playing it            {rss:8.0f} MB"
        f"  ({verdict} the {AIM_MB} MB aim; run took {seconds:.0f} s)"
    )


if __name__ == "__main__":
    main()
