"""Time to draw one companion screen, beside baselines measured in the same run.

- baseline: filling a surface and blitting a finished frame onto another
  (the least any frame costs), and a blit + flip of the (dummy) display;
- cold: the first draw of each screen on a new ``Screen`` (fonts created,
  every text measured and fitted);
- warm: the median over repeated draws cycling through every sample screen
  (4 players, long names), as the referee redraws after each event;
- new proposal: a warm screen drawing proposals it has never seen (each
  sentence measured and wrapped afresh), as after each still frame;
- the same at 1280×720.

Run: ``.venv/bin/python tests/bench/bench_screen.py`` (``make bench`` runs it).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from companion.rules.splendor.simulate import play_game  # noqa: E402
from companion.screen.draw import Screen  # noqa: E402
from companion.screen.splendor.samples import LONG_NAMES, sample_views  # noqa: E402
from companion.screen.view import ScreenView  # noqa: E402

REPEATS = 20


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def median_time(action: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_size(
    size: tuple[int, int], views: dict[str, ScreenView], fresh: list[ScreenView]
) -> None:
    frame = pygame.Surface(size)
    target = pygame.Surface(size)

    def baseline() -> None:
        target.fill((22, 25, 31))
        target.blit(frame, (0, 0))

    pygame.display.init()
    display = pygame.display.set_mode(size)

    def flip() -> None:
        display.blit(frame, (0, 0))
        pygame.display.flip()

    print(f"-- {size[0]}x{size[1]}, {len(views)} screens, 4 players --")
    print(f"baseline fill + blit          {ms(median_time(baseline, 200))}")
    print(f"baseline blit + display flip  {ms(median_time(flip, 200))}")
    cold = []
    for view in views.values():
        screen = Screen(size)
        start = time.perf_counter()
        screen.draw(view)
        cold.append(time.perf_counter() - start)
    print(f"cold first draw (median)      {ms(statistics.median(cold))}  (max {ms(max(cold))})")
    screen = Screen(size)
    for view in views.values():
        screen.draw(view)  # warm the caches
    warm = {}
    for name, view in views.items():
        warm[name] = median_time(lambda v=view: screen.draw(v))  # type: ignore[misc]
    print(f"warm draw, median of screens  {ms(statistics.median(warm.values()))}")
    slowest = max(warm, key=lambda k: warm[k])
    print(f"warm draw, slowest screen     {ms(warm[slowest])}  ({slowest})")
    new = []
    for view in fresh:
        start = time.perf_counter()
        screen.draw(view)
        new.append(time.perf_counter() - start)
    print(f"new proposal (median of {len(new)})  {ms(statistics.median(new))}")
    pygame.display.quit()


def main() -> int:
    views = sample_views(4)
    record, states = play_game(99, LONG_NAMES, "greedy")
    fresh = [
        ScreenView.proposal(state, turn, 1, 2)
        for state, turn in zip(states[:40], record.turns[:40], strict=False)
    ]
    for size in ((800, 480), (1280, 720)):
        bench_size(size, views, fresh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
