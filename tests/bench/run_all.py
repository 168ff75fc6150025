"""Run every benchmark script beside this file (bench_*.py), one after another.

Benchmarks print their own figures, each beside a baseline measured in the
same run, so numbers from different machines are never compared directly.
Tests never assert on time; this is the only place speed is measured.

The analysis's strength and calibration figures run small samples by
default; ``--games 200 --calib 500`` asks for the issue's counts (hours:
``make bench ARGS="--games 200 --calib 500"``, best under ``nice -n 19``).
The computer seat's strength table likewise: ``--seat-games 200``.

``--report FILE.md`` also writes what the scripts printed to a Markdown file
(``make bench ARGS="--report tests/reports/bench.md"``), headed by the machine
and its load before and after (timings are the machine's; this report is never
checked for staleness, unlike the accuracy reports beside it).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

#: The script that takes --games and --calib.
ANALYSIS = "bench_engine_analysis"
#: The computer seat's strength and think times (--seat-games: games per pairing).
SEAT = "bench_seat"
#: The script that takes --fuzz-minutes (as --minutes).
FUZZ = "bench_fuzz_commands"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="strength games per opponent (issue: 200)")
    parser.add_argument("--calib", type=int, help="calibration self-play games (issue: 500)")
    parser.add_argument("--seat-games", type=int,
                        help="computer seat games per pairing (issue: 200; default 2)")
    parser.add_argument("--only", help="run only the script of this name (e.g. bench_engine)")
    parser.add_argument("--fuzz-minutes", type=float,
                        help="minutes per command of the generated misuse (issue 41: 10)")
    parser.add_argument("--report", type=Path, metavar="FILE.md",
                        help="also write the figures, the machine and its load to this file")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent
    scripts = sorted(here.glob("bench_*.py"))
    if args.only:
        scripts = [s for s in scripts if s.stem == args.only]
    failed = 0
    sections: list[str] = []
    load_before = _load()
    for script in scripts:
        print(f"== {script.stem} ==", flush=True)
        extra = []
        if script.stem == ANALYSIS:
            extra += ["--games", str(args.games)] if args.games else []
            extra += ["--calib", str(args.calib)] if args.calib else []
        if script.stem == SEAT and args.seat_games:
            extra += ["--games", str(args.seat_games)]
        if script.stem == FUZZ and args.fuzz_minutes:
            extra += ["--minutes", str(args.fuzz_minutes)]
        command = [sys.executable, str(script), *extra]
        if args.report is None:
            failed += subprocess.call(command) != 0
            continue
        t0 = time.monotonic()
        code, printed = _tee(command)
        failed += code != 0
        status = "" if code == 0 else f", exit {code}"
        sections += [f"## {script.stem}", "",
                     f"{time.monotonic() - t0:.0f} s{status}", "", "```", *printed, "```", ""]
    if not scripts:
        print("no benchmarks found")
    if args.report is not None:
        header = _machine(sys.argv[1:], load_before, _load())
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text("\n".join(header + sections).rstrip() + "\n", encoding="utf-8")
        print(f"report written to {args.report}")
    return 1 if failed else 0


def _tee(command: list[str]) -> tuple[int, list[str]]:
    """Run ``command``, printing its output as it comes; (exit code, its lines)."""
    lines = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            lines.append(line.rstrip("\n"))
    return proc.returncode, lines


def _load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith(("model name", "Model", "Hardware")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str:
    try:
        done = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                              text=True, cwd=Path(__file__).parent, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    return done.stdout.strip() or "unknown (not a git checkout)"


def _machine(argv: list[str], before: str, after: str) -> list[str]:
    """The report's header: what ran, where, and how busy the machine was."""
    import cv2
    import numpy

    return ["# Benchmarks (`make bench`)", "",
            "> Generated by `python tests/bench/run_all.py "
            + " ".join(argv) + "`; timings are this machine's, under this load, and are"
            " not checked for staleness (the accuracy reports are).", "",
            f"- when: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; commit {_commit()}",
            f"- machine: {_cpu()}, {os.cpu_count()} cores, {platform.machine()},"
            f" {platform.system()} {platform.release()}",
            f"- Python {platform.python_version()}, numpy {numpy.__version__},"
            f" OpenCV {cv2.__version__}",
            f"- load average (1 / 5 / 15 min): {before} before, {after} after", ""]


if __name__ == "__main__":
    raise SystemExit(main())
