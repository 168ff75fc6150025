"""Small timing helpers shared by the benchmark scripts (not a benchmark itself).

Importing it also puts the repository root on ``sys.path``, so a script run as
``python tests/bench/bench_x.py`` imports the project without installing it.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def per_second(fn: Callable[[int], object], seconds: float = 2.0) -> float:
    """How many times per second ``fn(i)`` runs, over about ``seconds``."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn(n)
        n += 1
    return n / (time.perf_counter() - start)


def median_seconds(fn: Callable[[], object], repeat: int = 5) -> float:
    """Median seconds of one call of ``fn`` over ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def micro(fn: Callable[[], object], repeat: int = 200) -> float:
    """Median microseconds of one call of ``fn``."""
    return median_seconds(fn, repeat) * 1e6
