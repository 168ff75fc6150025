"""The referee at the table: from a still frame to the proposal on the screen.

Plays the recorded demo game (the full cached one in ``out/demo/recording``
when ``make demo`` has rendered it, else the committed first turns in
``tests/data/demo``) through the real reader, referee and screen, and prints

* the median time to read a still frame (``vision.read_frame`` and the
  adapter) -- the baseline, measured in the same run;
* the median time from a still frame arriving to the proposal drawn on the
  screen (read + rank the candidate turns + draw), and the referee's share;
* the peak memory of the companion running the demo in its own process
  (``splendor-companion demo``), in one process (as on a 1 GB Pi, where the
  reader starts no workers) and with its vision worker processes: PSS summed
  over the process tree, sampled every 0.1 s, beside the sum of each process's
  peak RSS (a bound that counts shared pages once per process); the aim is
  250 MB or less.
"""

from __future__ import annotations

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

from companion.demo.splendor import Frames, Operator, frame_path, load_recording, play  # noqa: E402
from companion.referee.driver import TableLoop  # noqa: E402
from companion.referee.splendor import Referee  # noqa: E402
from companion.referee.splendor.observe import from_observation  # noqa: E402
from companion.screen.draw import Screen  # noqa: E402

AIM_MB = 250


def recording() -> Path:
    cached = ROOT / "out" / "demo" / "recording"
    if (cached / "game.txt").exists():
        game, _ = load_recording(cached)
        if all(frame_path(cached, i).exists() for i in range(len(game.turns) + 1)):
            return cached
    return ROOT / "tests" / "data" / "demo"


def timings(folder: Path) -> tuple[list[float], list[float], int, str]:
    from vision.layout import build_layout
    from vision.read import read_frame
    from vision.read_cache import ReadCache

    game, _ = load_recording(folder)
    states = [game.initial_state()]
    for turn in game.turns:
        states.append(states[-1].apply(turn))
    layout = build_layout(len(game.players))
    cache = ReadCache()  # as `run` and `demo` read
    loop = TableLoop(
        Referee(game.players),
        reader=lambda image: from_observation(read_frame(image, layout, cache=cache),
                                              len(game.players)),
        screen=Screen((800, 480)),
        echo=lambda line: None,
    )
    frames = Frames(folder, game)
    try:
        play(loop, frames, len(states), None, Operator(states[0], game.turns))
    finally:
        frames.close()
    used = f"{cache.hits} of {cache.hits + cache.misses} slot reads from the read cache"
    return loop.timings.reads_ms, loop.timings.proposals_ms, len(game.turns), used


def _tree_memory(root: int, peaks: dict[int, float]) -> float:
    """PSS (MB) of a process and all its descendants (the vision workers, the
    forkserver) now; updates ``peaks``: pid -> its peak RSS (VmHWM) so far.

    Proportional set size counts pages the processes share once, so the sum is
    the real cost; the sum of the peak RSSs over-counts shared pages (a bound)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(parents.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) / 1024
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks[pid] = max(peaks.get(pid, 0.0), int(line.split()[1]) / 1024)
        except OSError:
            pass
    return total


def peak_memory_mb(folder: Path, workers: str = "") -> tuple[float, float, float]:
    """(peak PSS of the process tree, sum of its processes' peak RSS, seconds) of the
    demo, with ``$SPLENDOR_VISION_WORKERS`` set to ``workers`` (empty: the default)."""
    out = Path(tempfile.mkdtemp(prefix="bench-referee-"))
    tree = 0.0
    peaks: dict[int, float] = {}
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "demo", "--recording", str(folder),
             "--out", str(out), "--headless", "--quiet"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "SPLENDOR_VISION_WORKERS": workers},
        )
        while proc.poll() is None:
            tree = max(tree, _tree_memory(proc.pid, peaks))
            time.sleep(0.1)
        if proc.returncode:
            raise SystemExit(f"demo failed with exit code {proc.returncode}")
        seconds = time.perf_counter() - start
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return tree, sum(peaks.values()), seconds


def main() -> None:
    folder = recording()
    reads, proposals, turns, used = timings(folder)
    print(f"recording: {folder.relative_to(ROOT)} ({turns} turns, {len(reads)} frames read)")
    read = statistics.median(reads)
    print(f"baseline: read a still frame (median; cached)   {read:8.0f} ms"
          f"  ({used})")
    if proposals:
        prop = statistics.median(proposals)
        print(
            f"still frame to proposal on screen (median)      {prop:8.0f} ms"
            f"  ({prop / read:.2f}x the read; referee and screen {prop - read:.0f} ms,"
            f" {len(proposals)} proposals)"
        )
    else:
        print("still frame to proposal on screen               no proposal was made")
    for workers, label in (("1", "in one process (as on a 1 GB Pi)"),
                           ("", "with its vision workers (default)")):
        tree, bound, seconds = peak_memory_mb(folder, workers)
        verdict = "within" if tree <= AIM_MB else "ABOVE"
        print(
            f"peak memory of the companion {label:<34} {tree:6.0f} MB"
            f"  (PSS of all its processes, sampled every 0.1 s; {verdict} the {AIM_MB} MB aim;"
            f" sum of peak RSSs {bound:.0f} MB; {seconds:.0f} s)"
        )

if __name__ == "__main__":
    main()
