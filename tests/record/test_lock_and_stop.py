"""Two real ``run`` processes on one log, and ``run`` stopped by SIGTERM and SIGINT.

``run`` plays the demo's recorded frames with vision workers (forkserver,
resource tracker) while a button script holds it mid-game.  Then:

* a second ``run`` on the same log refuses in one line naming the first
  (its pid), before touching the log;
* SIGTERM (``systemctl stop``, ``kill``) or SIGINT (Ctrl-C) ends the first with
  one line, no process of its tree is left (checked in ``/proc``), no leaked
  shared-memory warning appears, and the log's export replays.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.record import GameLog, LogError

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "data" / "demo"
#: Generous: reading the demo's 16 MP frames on two shared cores under `make test`.
DEADLINE_S = 240.0

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")]


def _ppid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rpartition(")")[2].split()[1])


def descendants(root: int) -> set[int]:
    """Every live process under ``root`` in the process table."""
    parents = {int(p.name): _ppid(int(p.name)) for p in Path("/proc").iterdir()
               if p.name.isdigit()}
    found, frontier = set(), {root}
    while frontier:
        children = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= children
        frontier = children
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _as_from_a_terminal() -> None:
    """In the child: Ctrl-C as at a terminal.  WHY: a shell starts a background job
    (``make test &``) with SIGINT ignored, the ignoring is inherited, and a program
    started ignoring SIGINT rightly keeps ignoring it; the test plays a player who
    pressed Ctrl-C on ``run`` in the foreground, whatever started the test suite."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(tmp_path: Path, db: Path, script: str, name: str) -> subprocess.Popen[bytes]:
    buttons = tmp_path / f"{name}.txt"
    buttons.write_text(script, encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "SPLENDOR_VISION_WORKERS": "2", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": str(ROOT)}
    env.pop("SPLENDOR_COMPANION_CONFIG", None)
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--players", "3",
         "--camera", f"recorded:{DEMO / 'frames'}", "--buttons", f"script:{buttons}",
         "--db", str(db), "--resume", "no"],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, preexec_fn=_as_from_a_terminal,
        stdout=open(tmp_path / f"{name}.out", "wb"), stderr=open(tmp_path / f"{name}.err", "wb"),
    )


def _wait_for(what: str, ready, process: subprocess.Popen[bytes]) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + DEADLINE_S
    while not ready():
        assert process.poll() is None, f"run ended (exit {process.returncode}) before {what}"
        assert time.monotonic() < end, f"no {what} after {DEADLINE_S:.0f} s"
        time.sleep(0.2)


def _logged_turns(db: Path) -> int:
    try:
        with GameLog.open_readonly(db) as log:
            games = log.games()
            return games[-1].turns if games else 0
    except LogError:
        return 0


def _stop_and_check(process: subprocess.Popen[bytes], tree: set[int], sig: int,
                    tmp_path: Path, name: str) -> str:
    process.send_signal(sig)
    code = process.wait(timeout=DEADLINE_S)
    end = time.monotonic() + 30
    while any(_alive(pid) for pid in tree) and time.monotonic() < end:
        time.sleep(0.1)  # the forkserver and tracker leave once their parent has gone
    left = [pid for pid in tree if _alive(pid)]
    for pid in left:  # do not leave them running if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"
    err = (tmp_path / f"{name}.err").read_text(encoding="utf-8")
    assert code == 128 + sig, err
    assert "Traceback" not in err and "leaked" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def _replays(db: Path, tmp_path: Path, turns: int) -> None:
    record = tmp_path / "export.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "companion", "export", "last", "--db", str(db),
                    "--out", str(record)], check=True, env=env, capture_output=True)
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(record)], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"Game not finished after {turns} turns" in done.stdout


def test_a_second_run_refuses_and_sigterm_leaves_nothing_behind(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    # set-up and two turns confirmed, then the players think for ten minutes
    first = _start(tmp_path, db, "confirm\nconfirm\nconfirm\nwait 600\nconfirm\n", "first")
    try:
        _wait_for("two logged turns", lambda: _logged_turns(db) == 2, first)
        tree = descendants(first.pid)
        assert tree, "the vision workers did not start"
        before = db.read_bytes()

        second = _start(tmp_path, db, "confirm\n", "second")
        assert second.wait(timeout=DEADLINE_S) == 1
        [line] = [x for x in (tmp_path / "second.err").read_text().splitlines() if x.strip()]
        assert f"is in use by process {first.pid}" in line and str(db) in line
        assert db.read_bytes() == before and _logged_turns(db) == 2

        line = _stop_and_check(first, tree, signal.SIGTERM, tmp_path, "first")
        assert "stopped (SIGTERM)" in line
    finally:
        if first.poll() is None:
            first.kill()
    _replays(db, tmp_path, 2)


def test_ctrl_c_ends_run_with_one_line_and_no_process_left(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    run = _start(tmp_path, db, "confirm\nconfirm\nwait 600\nconfirm\n", "run")
    try:
        _wait_for("a logged turn", lambda: _logged_turns(db) == 1, run)
        tree = descendants(run.pid)
        line = _stop_and_check(run, tree, signal.SIGINT, tmp_path, "run")
        assert "stopped (Ctrl-C)" in line
    finally:
        if run.poll() is None:
            run.kill()
    _replays(db, tmp_path, 1)
