"""Run every benchmark script beside this file (bench_*.py), one after another.

Benchmarks print their own figures, each beside a baseline measured in the
same run, so numbers from different machines are never compared directly.
Tests never assert on time; this is the only place speed is measured.

The analysis's strength and calibration figures run small samples by
default; ``--games 200 --calib 500`` asks for the issue's counts (hours:
``make bench ARGS="--games 200 --calib 500"``, best under ``nice -n 19``).
The computer seat's strength table likewise: ``--seat-games 200``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
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
    args = parser.parse_args()
    here = Path(__file__).resolve().parent
    scripts = sorted(here.glob("bench_*.py"))
    if args.only:
        scripts = [s for s in scripts if s.stem == args.only]
    failed = 0
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
        failed += subprocess.call([sys.executable, str(script), *extra]) != 0
    if not scripts:
        print("no benchmarks found")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
