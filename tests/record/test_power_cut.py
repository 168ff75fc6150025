"""The power-cut test: SIGKILL the companion stand-in at random moments, 60 times.

The driver (:mod:`companion.record.soak`) prints a line only after the commit
it reports has returned.  After every kill this test opens the log itself and
checks that every reported commit is there, that the live turns are exactly
the game's first turns with the right hashes, and that the game resumes at
the right player; the next run must then say it resumes at that very turn.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.record import GameLog
from companion.rules.splendor.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent.parent

KILLS = 55
PLAYERS = 3
FIRST, LAST = 1, 40
UNDO_EVERY = 7

pytestmark = pytest.mark.slow


@dataclass
class Seen:
    """What the driver reported for one game, over every run."""

    appends: int = 0
    undos: int = 0
    live: int = 0
    decoy_pending: bool = False
    finished: bool = False
    ready: list[int] = field(default_factory=list)


def _start(db: Path, seeds: str = f"{FIRST}-{LAST}") -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "companion.record.soak", "--db", str(db), "--seeds", seeds,
         "--players", str(PLAYERS), "--undo-every", str(UNDO_EVERY),
         "--records", str(db.parent / "records")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _digest(lines: list[str], seen: dict[int, Seen]) -> int | None:
    """Fold the driver's lines into ``seen``; return the seed it last worked on."""
    last = None
    for line in lines:
        words = line.split()
        if not words or words[0] in ("done",):
            continue
        assert words[0] != "notice", f"the log was set aside after a kill: {line}"
        assert words[0] != "error", line
        seed = int(words[1])
        s = seen.setdefault(seed, Seen())
        last = seed
        if words[0] == "ready":
            s.ready.append(int(words[2]))
        elif words[0] == "confirmed":
            s.appends += 1
            s.live = int(words[2])
            s.decoy_pending = words[-1] == "decoy"
        elif words[0] == "undone":
            s.undos += 1
            s.live = int(words[2])
            s.decoy_pending = False
        elif words[0] == "finished":
            s.finished = True
    return last


def _check_game(log: GameLog, seed: int, s: Seen, truth: dict[int, tuple]) -> int:
    """Check one game against what was reported; return its live turn count."""
    games = [g for g in log.games() if g.headers.get("Seed") == str(seed)]
    assert len(games) == 1, f"seed {seed}: {len(games)} games logged"
    game = games[0]
    record, states = truth[seed]
    rows = log.turns(game.id, taken_back=True)
    backs = sum(1 for r in rows if r.taken_back)
    # Every reported commit is on disk (at most one more, whose line the kill swallowed).
    assert s.appends <= len(rows) <= s.appends + 1, (seed, s, len(rows))
    assert s.undos <= backs <= s.undos + 1, (seed, s, backs)
    live = game.turns
    low = s.live - 1 if s.decoy_pending else s.live
    assert low <= live <= s.live + 1, (seed, s, live)
    if s.finished:
        assert game.finished
    # The live turns are the game's first turns, and the game resumes at the right player.
    _, state = log.resume(game.id)
    assert [t.notation for t in log.turns(game.id)] == [str(t) for t in record.turns[:live]]
    assert state.digest() == states[live].digest()
    assert state.current == states[live].current
    assert state.player.name == record.players[states[live].current]
    # What is on disk now is the truth the next run starts from (a line the
    # kill swallowed stays unreported; a confirmed decoy is kept as a turn).
    s.appends, s.undos, s.live, s.decoy_pending = len(rows), backs, live, False
    s.finished = game.finished
    return live


def test_sigkill_at_random_moments_loses_no_confirmed_turn(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    (tmp_path / "records").mkdir()
    truth: dict[int, tuple] = {}
    for seed in range(FIRST, LAST + 1):  # the driver replays these instead of simulating
        truth[seed] = play_game(seed, PLAYERS)
        (tmp_path / "records" / f"game-{seed}.txt").write_text(truth[seed][0].text())
    rng = random.Random(20261122)
    seen: dict[int, Seen] = {}
    expected_ready: dict[int, int] = {}
    progressed = 0
    for _ in range(KILLS):
        proc = _start(db)
        assert proc.stdout is not None
        lines: list[str] = []
        if rng.random() < 0.2:
            # Anywhere from interpreter start-up to resuming and playing.
            time.sleep(rng.uniform(0.0, 0.25))
        else:
            while True:
                line = proc.stdout.readline()
                if not line:
                    break
                lines.append(line)
                if line.startswith("ready"):
                    break
            time.sleep(rng.uniform(0.0, 0.06))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        # Read what is left through the same buffered file that readline() used
        # (communicate() would read the pipe beneath it and miss buffered lines).
        lines += proc.stdout.read().splitlines()
        err = proc.stderr.read() if proc.stderr else ""
        proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()
        assert proc.returncode == -signal.SIGKILL, f"the driver ended by itself: {err}"
        for line in lines:
            if line.startswith("ready"):
                _, seed, turns = line.split()
                if int(seed) in expected_ready:
                    assert int(turns) == expected_ready.pop(int(seed)), "resumed at another turn"
        last = _digest(lines, seen)
        with GameLog.open(db) as log:
            assert log.notice is None
            unfinished = log.unfinished()
            assert len(unfinished) <= 1, "the driver left two games unfinished"
            touched = {int(line.split()[1]) for line in lines if line.split()[0] != "done"}
            if unfinished:
                touched.add(int(unfinished[0].headers["Seed"]))
            for seed in touched:
                _check_game(log, seed, seen.setdefault(seed, Seen()), truth)
            if unfinished:
                seed = int(unfinished[0].headers["Seed"])
                expected_ready[seed] = unfinished[0].turns
        progressed += last is not None
    assert progressed > KILLS // 2, "most kills came before the driver did anything"
    assert not list(tmp_path.glob("games.db.set-aside-*"))

    # Let the last run finish what was started: every game equals the simulation.
    top = max(seen) if seen else 1
    proc = _start(db, f"1-{top}")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    _digest(out.splitlines(), seen)
    with GameLog.open(db) as log:
        assert not log.unfinished()
        for game in log.games():
            seed = int(game.headers["Seed"])
            record, states = truth[seed]
            assert log.record(game.id).turns == record.turns
            assert game.result == states[-1].outcome().summary()
