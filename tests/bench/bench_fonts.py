"""Memory of the CJK fallback face: resident size with and without it, same run.

Each case runs in a fresh process that draws every sample screen (4 players)
at 800×480 and reports its peak resident size (``VmHWM``):

- baseline: the bundled font only (``SPLENDOR_FALLBACK_FONT`` pointed at
  nothing, no fallback installed path used), Latin names;
- fallback, Latin names: the face is chosen at start but never needed;
- fallback, world names: Chinese, an emoji and a 46-character name, so the
  fallback face is opened at every size the screen uses.

Also prints which face was chosen and its size on disk.  Run:
``.venv/bin/python tests/bench/bench_fonts.py`` (``make bench`` runs it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
os.environ["SDL_VIDEODRIVER"] = "dummy"
import pygame
from companion.screen.draw import Screen
from companion.screen.splendor.samples import LONG_NAMES, sample_views
WORLD = ("王小明", "Alexandra-Maximiliane von Hohenzollern-Sigmarn", "Bob 😀", "Zoë")
names = WORLD if sys.argv[2] == "world" else LONG_NAMES
screen = Screen((800, 480))
if sys.argv[3] == "none":
    from companion.screen.text import FontBook
    screen.fonts = FontBook(fallback="")
for view in sample_views(4, names).values():
    screen.draw(view)
def kib(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1])
print(kib("VmHWM:"), kib("VmRSS:"), screen.fonts.fallback or "-")
"""


def run(names: str, fallback: str) -> tuple[int, int, str]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT), names, fallback],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    ).stdout.split()
    return int(out[0]), int(out[1]), out[2]


def main() -> int:
    base_peak, base_rss, _ = run("latin", "none")
    print(f"baseline, bundled font only:        peak {base_peak / 1024:6.1f} MB,"
          f" now {base_rss / 1024:6.1f} MB")
    for names in ("latin", "world"):
        peak, rss, face = run(names, "auto")
        print(f"fallback chosen, {names:<5} names:       peak {peak / 1024:6.1f} MB"
              f" (+{(peak - base_peak) / 1024:5.1f}), now {rss / 1024:6.1f} MB")
    if face == "-":
        print("no fallback face installed (apt install fonts-wqy-zenhei): names in CJK"
              " show as placeholders")
    else:
        print(f"fallback face: {face} ({Path(face).stat().st_size / 2**20:.1f} MB on disk)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
