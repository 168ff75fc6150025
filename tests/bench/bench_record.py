"""Game log and review speed, each beside a baseline measured in the same run.

* ``append_turn`` (committed, WAL, synchronous=FULL, with a 160 px thumbnail)
  in ms per turn, beside the same insert with synchronous=NORMAL (no fsync
  at commit) and a bare ``os.fsync`` of a small file: the cost of "a
  confirmed turn survives a power cut" is about one fsync.
* ``resume`` of a 3-player game, beside replaying its record with the rules
  alone: the log's share is reading rows and checking hashes.
* ``GameLog.open`` of a log of many games (with the quick_check that spots
  damaged files) beside a bare ``sqlite3.connect`` plus one query, and its
  MB/s, to size the start-up delay on a Pi with years of games.
* The HTML review of one game, beside drawing its chart alone.

Run: ``.venv/bin/python tests/bench/bench_record.py`` (``make bench`` runs it).
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from timing import median_seconds

from companion.record import GameLog, make_thumbnail, setup_headers
from companion.review import game_story, render_html
from companion.review.chart import points_chart_png
from companion.rules.splendor.simulate import play_game

GAMES_IN_BIG_LOG = 60


def frame(i: int) -> np.ndarray:
    rng = np.random.default_rng(i)
    image = np.full((1520, 2028, 3), (40, 110, 40), np.uint8)
    for _ in range(20):  # cards and tokens: blocks of colour, as a table shows
        x, y = rng.integers(0, 1900), rng.integers(0, 1400)
        image[y : y + 120, x : x + 90] = rng.integers(0, 255, 3)
    return image


def log_game(log: GameLog, seed: int, thumbs: list[bytes]) -> int:
    record, states = play_game(seed, 3)
    gid = log.start_game("Splendor", record.players, setup_headers(states[0], Seed=str(seed)))
    for n, (turn, after) in enumerate(zip(record.turns, states[1:], strict=True)):
        log.append_turn(gid, str(turn), after.digest(), thumbs[n % len(thumbs)], 0.9)
    log.finish_with(gid, states[-1].outcome())
    return gid


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-record-"))
    thumbs = [make_thumbnail(frame(i)) for i in range(8)]
    print(f"thumbnail of a 2028x1520 frame: {statistics.mean(map(len, thumbs)) / 1024:.1f} kB"
          f"  (make_thumbnail {median_seconds(lambda: make_thumbnail(frame(0))) * 1000:.1f} ms"
          " incl. drawing the frame)")

    record, states = play_game(5, 3)
    pairs = list(zip(record.turns, states[1:], strict=True))

    def appends(sync: str) -> float:
        path = tmp / f"append-{sync}.db"
        with GameLog.open(path) as log:
            log._db.execute(f"PRAGMA synchronous = {sync}")
            gid = log.start_game("Splendor", record.players, setup_headers(states[0]))
            start = time.perf_counter()
            for n, (turn, after) in enumerate(pairs):
                log.append_turn(gid, str(turn), after.digest(), thumbs[n % 8], 0.9)
            return (time.perf_counter() - start) / len(pairs)

    full, normal = appends("FULL"), appends("NORMAL")
    probe = tmp / "fsync.bin"
    with open(probe, "wb") as fh:
        def one_fsync() -> None:
            fh.write(b"x" * 4096)
            fh.flush()
            os.fsync(fh.fileno())

        fsync = median_seconds(one_fsync, repeat=50)
    print(f"baseline: os.fsync of 4 kB                      {fsync * 1000:8.2f} ms")
    print(f"baseline: append_turn, synchronous=NORMAL       {normal * 1000:8.2f} ms/turn")
    print(f"append_turn, synchronous=FULL (as shipped)      {full * 1000:8.2f} ms/turn"
          f"  ({full / max(fsync, 1e-9):.1f} fsyncs)")

    with GameLog.open(tmp / "append-FULL.db") as log:
        gid = log.games()[0].id
        resume = median_seconds(lambda: log.resume(gid))
        def replay_rules() -> None:
            state = states[0]
            for turn in record.turns:
                state = state.apply(turn)

        replay = median_seconds(replay_rules)
        print(f"baseline: replay the record with the rules      {replay * 1000:8.2f} ms"
              f" ({len(pairs)} turns)")
        print(f"resume (replay + hash checks + reading rows)    {resume * 1000:8.2f} ms")
        chart = median_seconds(lambda: points_chart_png([0, 1, 2], {"a": [0, 1, 2]}), repeat=3)
        page = median_seconds(lambda: render_html(game_story(log, gid)), repeat=3)
        print(f"baseline: draw a points chart (matplotlib)      {chart * 1000:8.1f} ms")
        print(f"review page of one {len(pairs)}-turn game             {page * 1000:8.1f} ms")

    big = tmp / "big.db"
    with GameLog.open(big) as log:
        for seed in range(GAMES_IN_BIG_LOG):
            log_game(log, seed, thumbs)
        log._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = big.stat().st_size / 2**20

    def bare() -> None:
        db = sqlite3.connect(big)
        db.execute("SELECT count(*) FROM games").fetchone()
        db.close()

    def ours() -> None:
        GameLog.open(big).close()

    base, opened = median_seconds(bare), median_seconds(ours)
    print(f"baseline: sqlite3.connect + one query           {base * 1000:8.2f} ms")
    what = f"GameLog.open of {GAMES_IN_BIG_LOG} games ({size:.1f} MB)"
    print(f"{what:<48}{opened * 1000:8.2f} ms  ({size / max(opened, 1e-9):.0f} MB/s)")


if __name__ == "__main__":
    main()
