"""What speaking costs the turn loop: the time ``Speaker.say`` takes, beside baselines.

The loop only queues; espeak-ng runs on the speaker's thread.  Printed, same run:

- baseline: appending to a ``collections.deque`` (the least a queue costs);
- ``say`` while espeak-ng is speaking (the usual case at the table), median
  and worst of 200 calls, rendering to WAV files so nothing is dropped;
- espeak-ng's own time to render one proposal to a WAV (what the loop
  would wait for if it spoke inline).

Run: ``.venv/bin/python tests/bench/bench_speech.py`` (``make bench`` runs it).
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.speech import EspeakVoice, Speaker  # noqa: E402

TEXT = "Ann takes 1 white, 1 blue and 1 green. Confirm or next."


def main() -> int:
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed: nothing to measure (apt install espeak-ng)")
        return 0
    queue: deque[str] = deque()
    t0 = time.perf_counter()
    for _ in range(200):
        queue.append(TEXT)
    print(f"baseline deque.append:        {(time.perf_counter() - t0) / 200 * 1e6:8.1f} µs")
    with tempfile.TemporaryDirectory() as tmp:
        times = []
        with Speaker(EspeakVoice("en"), out_dir=Path(tmp) / "q") as speaker:
            for _ in range(200):
                t = time.perf_counter()
                speaker.say(TEXT)
                times.append(time.perf_counter() - t)
            speaker.wait(timeout=600)
        print(f"Speaker.say while speaking:   {statistics.median(times) * 1e6:8.1f} µs median,"
              f" {max(times) * 1e6:.1f} µs worst")
        voice = EspeakVoice("en")
        renders = []
        for i in range(5):
            t = time.perf_counter()
            voice.start(TEXT, Path(tmp) / f"one{i}.wav").wait()
            renders.append(time.perf_counter() - t)
        print(f"espeak-ng renders one prompt: {statistics.median(renders) * 1e3:8.1f} ms"
              " (what speaking inline would block)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
