"""Run every benchmark script beside this file (bench_*.py), one after another.

Benchmarks print their own figures, each beside a baseline measured in the
same run, so numbers from different machines are never compared directly.
Tests never assert on time; this is the only place speed is measured.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    scripts = sorted(here.glob("bench_*.py"))
    failed = 0
    for script in scripts:
        print(f"== {script.stem} ==", flush=True)
        failed += subprocess.call([sys.executable, str(script)]) != 0
    if not scripts:
        print("no benchmarks found")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
