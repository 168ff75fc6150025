"""The long run of the generated misuse (issue 41): fresh seeds for every command.

``make test`` runs a fixed handful of seeds per command
(``tests/cli/test_generated.py``); this script runs new seeds for as long as it
is told, per command, and prints how many cases each ran and every failure
with its reproducer (command and seed: ``generated.case(command, seed, ...)``
rebuilds it)::

    .venv/bin/python tests/bench/bench_fuzz_commands.py --minutes 10
    .venv/bin/python tests/bench/bench_fuzz_commands.py --minutes 1 --command run
    make bench ARGS="--only bench_fuzz_commands --fuzz-minutes 10"

Exits 1 when any case misbehaved.  Under ``make bench`` (no arguments) it
spends 20 seconds per command.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.cli import generated  # noqa: E402  (after the path and the headless display)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1 / 3, help="per command (default 1/3)")
    parser.add_argument("--command", action="append", choices=sorted(generated.COMMANDS),
                        help="only this command (repeatable; default: every command)")
    parser.add_argument("--seed", type=int, default=None,
                        help="first seed (default: random; seeds count up from it)")
    args = parser.parse_args()
    commands = args.command or sorted(generated.COMMANDS)
    first = args.seed if args.seed is not None else random.randrange(10**6, 10**9)
    print(f"seeds from {first}, {args.minutes:g} min per command")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        base = Path(tmp)
        os.environ.update(XDG_DATA_HOME=str(base / "xdg-data"),
                          XDG_CONFIG_HOME=str(base / "xdg-config"),
                          SPLENDOR_VISION_WORKERS="1")
        os.environ.pop("SPLENDOR_COMPANION_CONFIG", None)
        os.chdir(base)
        world = generated.build_world(base / "world")
        for command in commands:
            end = time.monotonic() + 60 * args.minutes
            seed, ran, bad = first, 0, 0
            while time.monotonic() < end:
                try:
                    made = generated.case(command, seed, world, base / "case")
                except Exception as exc:  # the generator's own bug: say it, go on
                    print(f"GENERATOR {command} seed {seed}: {exc!r}", flush=True)
                    seed += 1
                    continue
                problems = generated.check(made)
                if problems:
                    bad += 1
                    print(f"FAIL {made}\n    " + "\n    ".join(problems), flush=True)
                ran += 1
                seed += 1
            print(f"{command:<13} {ran:>6} cases, {bad} misbehaved", flush=True)
            failed += bad
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
