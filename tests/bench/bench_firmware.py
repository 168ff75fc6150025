"""Hardware-layer overheads, each beside a baseline measured in the same run.

- button gestures: edges decoded into events per second by EdgePanel, beside
  bare queue.Queue put/get of the same number of items (the floor);
- recorded frames: RecordedSource.read() per second, beside cv2.imread of the
  same files (what the source adds: sorting, timestamps, bookkeeping);
- ResilientSource: read() on top of RecordedSource, beside RecordedSource alone;
- sd_notify: Notifier.watchdog() calls per second, beside a bare sendto() on
  an already-connected socket (ours opens a socket per message).

Run: ``.venv/bin/python tests/bench/bench_firmware.py`` (``make bench`` runs it).
"""

from __future__ import annotations

import queue
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from firmware.buttons import Button, EdgePanel  # noqa: E402
from firmware.camera import RecordedSource, ResilientSource  # noqa: E402
from firmware.watchdog import Notifier  # noqa: E402


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f} /s"


def best_of(runs: int, work: Callable[[], None]) -> float:
    """The fastest of ``runs`` timings: the least disturbed by other processes."""
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return min(timings)


def bench_buttons(presses: int = 20_000) -> None:
    q: queue.Queue[tuple[Button, bool, float]] = queue.Queue()
    start = time.perf_counter()
    for i in range(presses):
        q.put((Button.NEXT, True, i))
        q.put((Button.NEXT, False, i + 0.5))
    while not q.empty():
        q.get_nowait()
    baseline = time.perf_counter() - start

    now = [0.0]
    panel = EdgePanel(hold_time=2.0, bounce_time=0.05, clock=lambda: now[0])
    start = time.perf_counter()
    events = 0
    for i in range(presses):
        panel.feed(Button.NEXT, True, at=float(i))
        panel.feed(Button.NEXT, False, at=i + 0.5)
    now[0] = presses + 1.0
    while panel.get(timeout=0) is not None:
        events += 1
    ours = time.perf_counter() - start
    assert events == presses, events
    edges = 2 * presses
    print(f"button edges   queue only {rate(edges, baseline)}   EdgePanel {rate(edges, ours)}")


def bench_frames(count: int = 60, size: tuple[int, int] = (1280, 720)) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rng = np.random.default_rng(1)
        for i in range(count):
            image = rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)
            cv2.imwrite(str(folder / f"frame{i:03d}.png"), image)
        files = sorted(folder.glob("*.png"))

        def imread_all() -> None:
            for path in files:
                cv2.imread(str(path), cv2.IMREAD_COLOR)

        def recorded() -> None:
            with RecordedSource(folder) as source:
                assert sum(1 for _ in source.frames()) == count

        def resilient() -> None:
            with ResilientSource(lambda: RecordedSource(folder)) as wrapped:
                for _ in range(count):
                    assert wrapped.read() is not None

        imread_all()  # warm the file cache so the first timing is not penalised
        baseline, ours, wrapped = (best_of(3, f) for f in (imread_all, recorded, resilient))
    label = f"{size[0]}x{size[1]} PNG"
    print(
        f"{label:<14} imread     {rate(count, baseline)}   RecordedSource {rate(count, ours)}"
        f"   ResilientSource {rate(count, wrapped)}"
    )


def bench_notify(messages: int = 5_000) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "notify")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        server.bind(path)
        server.setblocking(False)
        client = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        client.connect(path)

        def drain() -> None:
            try:
                while True:
                    server.recv(4096)
            except BlockingIOError:
                pass

        start = time.perf_counter()
        for _ in range(messages):
            client.send(b"WATCHDOG=1")
            drain()  # a unix datagram queue holds only ~10 messages
        baseline = time.perf_counter() - start
        drain()
        notifier = Notifier(environ={"NOTIFY_SOCKET": path})
        start = time.perf_counter()
        for _ in range(messages):
            notifier.watchdog()
            drain()
        ours = time.perf_counter() - start
        client.close()
        server.close()
    print(
        f"sd_notify      send only  {rate(messages, baseline)}"
        f"   Notifier  {rate(messages, ours)}"
    )


def main() -> int:
    bench_buttons()
    bench_frames()
    bench_notify()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
