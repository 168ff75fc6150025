"""``python -m vision.training.sure``: choose the readers' sure thresholds, write ``sure.toml``.

chesscog's ``find_best_configs`` for the thresholds: each is chosen on the design
split's rendered tables (:func:`vision.calibration_report.choose_threshold`: the
lowest confidence above which at most one answer in a thousand was wrong, so
on fewer than a thousand answers above it, none) and then scored on the check
split's tables, which never move it.  Both go into ``vision/sure.toml``: the
values, and as comments the design counts and the check figures.  Offline
only: it renders tables through :mod:`vision.synth` (the art of ../shared).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion import processes
from vision.calibration_report import choose_threshold
from vision.confidence import NEVER, SURE_WRONG_GOAL, answer_category

SURE_PATH = Path(__file__).resolve().parents[1] / "sure.toml"
#: The most wrong answers allowed among the sure ones: one in a thousand (issue 38).
GOAL = SURE_WRONG_GOAL
#: Design and check seeds of each game (the check seeds: other tables, other cameras).
SEEDS = {"splendor": (1000, 56_000), "duel": (9200, 63_000)}
CATEGORIES = ("market cards", "nobles", "decks", "token chips", "empty token slots",
              "reserved")


def _run(fn: Callable[..., Any], jobs: Sequence[tuple[Any, ...]], workers: int,
         what: str) -> list[Any]:
    out: list[Any] = []
    t0 = time.monotonic()
    with processes.pool(workers) as pool:
        for i, r in enumerate(pool.map(fn, *zip(*jobs, strict=True)), 1):
            out.append(r)
            print(f"\r{what}: {i}/{len(jobs)} frames, {time.monotonic() - t0:.0f} s",
                  end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def splendor_pairs(split: str, seed: int, count: int, workers: int
                   ) -> dict[str, list[tuple[float, bool]]]:
    """(confidence, right) of every readable answer, per answer category, on the
    world's tables (2 and 4 players, every difficulty, both lenses)."""
    from vision import world_eval as we

    jobs = [(p, d, seed + i, split, "centre", lens, True) for lens in we.LENSES
            for p in (2, 4) for d in we.DIFFICULTIES for i in range(count)]
    groups: dict[str, list[tuple[float, bool]]] = {c: [] for c in CATEGORIES}
    for r in _run(we.evaluate_frame, jobs, workers, f"splendor {split}"):
        for o in r.outcomes:
            if not o.hidden and o.verdict != "abstained":
                groups[answer_category(o.category, o.answer)].append(
                    (o.confidence, o.verdict == "right"))
    return groups


def duel_pairs(split: str, seed: int, count: int, workers: int
               ) -> dict[str, list[tuple[float, bool]]]:
    """(confidence, right) of every answer (hidden places too: the referee acts on
    every sure answer), per ``kind/something`` and ``kind/empty``."""
    from vision.duel import evaluate as de
    from vision.duel.confidence import KINDS

    jobs = [(d, seed + i, split, "centre", lens) for lens in ("standard", "wide")
            for d in ("easy", "medium", "hard") for i in range(count)]
    groups: dict[str, list[tuple[float, bool]]] = {
        f"{k}/{a}": [] for k in KINDS for a in ("something", "empty")}
    for r in _run(de.evaluate_frame, jobs, workers, f"duel {split}"):
        for o in r.outcomes:
            key = f"{o.kind}/{'empty' if o.answer == '' else 'something'}"
            if o.answer is not None and key in groups:
                groups[key].append((o.confidence, o.answer == o.truth))
    return groups


def _score(pairs: list[tuple[float, bool]], t: float) -> str:
    sure = [right for c, right in pairs if c >= t]
    wrong = sum(not r for r in sure)
    return f"{len(sure)} of {len(pairs)} answers sure, {wrong} wrong"


def choose(design: dict[str, list[tuple[float, bool]]],
           check: dict[str, list[tuple[float, bool]]], old: dict[str, float]
           ) -> tuple[dict[str, float], list[str]]:
    """Each key's threshold (kept from ``old`` where the design gave no answer), and the
    comment lines: design counts, check figures."""
    out, lines = {}, []
    for key, pairs in design.items():
        t = choose_threshold(pairs, GOAL) if pairs else old.get(key, NEVER)
        t = min(t, NEVER)
        out[key] = round(t, 4)
        lines.append(f"# {key}: {t:.4f}; design {_score(pairs, t)}; "
                     f"check {_score(check.get(key, []), t)}")
    return out, lines


def _toml_key(k: str) -> str:
    return f'"{k}"'


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training.sure",
                                 description="Choose the readers' sure thresholds on design "
                                 "tables, score them on check tables, write vision/sure.toml.")
    ap.add_argument("--game", default="both", choices=("splendor", "duel", "both"))
    ap.add_argument("--count", type=int, default=6,
                    help="frames per cell (splendor: 2 and 4 players x 3 difficulties x "
                    "2 lenses; duel: 3 x 2 with twice the count)")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    from vision import sure

    splendor_t, duel_t = sure.splendor(), sure.duel()
    notes: dict[str, list[str]] = {"splendor": [], "duel": []}
    if a.game in ("splendor", "both"):
        d_seed, c_seed = SEEDS["splendor"]
        design = splendor_pairs("design", d_seed, a.count, a.workers)
        check = splendor_pairs("check", c_seed, a.count, a.workers)
        splendor_t, notes["splendor"] = choose(design, check, splendor_t)
        notes["splendor"].insert(0, f"# design seeds {d_seed}.., check seeds {c_seed}.., "
                                 f"{a.count} frames per cell")
    if a.game in ("duel", "both"):
        d_seed, c_seed = SEEDS["duel"]
        flat = {f"{k}/{n}": v[i] for k, v in duel_t.items()
                for i, n in enumerate(("something", "empty"))}
        design = duel_pairs("design", d_seed, 2 * a.count, a.workers)
        check = duel_pairs("check", c_seed, 2 * a.count, a.workers)
        chosen, notes["duel"] = choose(design, check, flat)
        duel_t = {k: (chosen[f"{k}/something"], chosen[f"{k}/empty"]) for k in duel_t}
        notes["duel"].insert(0, f"# design seeds {d_seed}.., check seeds {c_seed}.., "
                             f"{2 * a.count} frames per cell")
    text = ["# The readers' sure thresholds.  Written by `python -m vision.training.sure`",
            "# (chosen on design frames, scored on check frames); do not edit by hand.", "",
            *notes["splendor"], "[splendor]",
            *[f"{_toml_key(k)} = {v}" for k, v in splendor_t.items()], "",
            *notes["duel"], "[duel]",
            *[f"{_toml_key(k)} = {{something = {s}, empty = {e}}}"
              for k, (s, e) in duel_t.items()], ""]
    SURE_PATH.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {SURE_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
