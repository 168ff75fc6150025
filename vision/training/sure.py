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
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from vision import sure, world_eval
from vision.calibration_report import choose_threshold
from vision.confidence import NEVER, SURE_WRONG_GOAL, answer_category
from vision.duel import evaluate as duel_evaluate
from vision.duel.confidence import KINDS
from vision.training import pools
from vision.training.slot_crops import cache_dir

SURE_PATH = Path(__file__).resolve().parents[1] / "sure.toml"
#: The most wrong answers allowed among the sure ones: one in a thousand (issue 38).
GOAL = SURE_WRONG_GOAL
#: Design and check seeds of each game (the check seeds: other tables, other cameras).
SEEDS = {"splendor": (1000, 56_000), "duel": (9200, 63_000)}
#: What this script chooses (market cards and nobles: ``python -m vision.training.join``,
#: with ``--nobles``; empty market and noble slots: ``python -m vision.training.fit``).
CATEGORIES = ("decks", "token chips", "empty token slots", "reserved")


def _run(fn: Callable[..., Any], jobs: Sequence[tuple[Any, ...]], workers: int,
         what: str) -> list[Any]:
    out: list[Any] = []
    t0 = time.monotonic()
    with pools.pool(workers) as pool:  # spawned: see pools.pool
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
    we = world_eval
    jobs = [(p, d, seed + i, split, "centre", lens, True) for lens in we.LENSES
            for p in (2, 4) for d in we.DIFFICULTIES for i in range(count)]
    groups: dict[str, list[tuple[float, bool]]] = {c: [] for c in CATEGORIES}
    for r in _run(we.evaluate_frame, jobs, workers, f"splendor {split}"):
        for o in r.outcomes:
            key = answer_category(o.category, o.answer)
            if not o.hidden and o.verdict != "abstained" and key in groups:
                groups[key].append((o.confidence, o.verdict == "right"))
    return groups


def duel_pairs(split: str, seed: int, count: int, workers: int
               ) -> dict[str, list[tuple[float, bool]]]:
    """(confidence, right) of every answer (hidden places too: the referee acts on
    every sure answer), per ``kind/something`` and ``kind/empty``."""
    jobs = [(d, seed + i, split, "centre", lens) for lens in ("standard", "wide")
            for d in ("easy", "medium", "hard") for i in range(count)]
    groups: dict[str, list[tuple[float, bool]]] = {
        f"{k}/{a}": [] for k in KINDS for a in ("something", "empty")}
    for r in _run(duel_evaluate.evaluate_frame, jobs, workers, f"duel {split}"):
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
    """Each key's threshold and the comment lines (design counts, check figures).

    The design frames choose (:func:`choose_threshold`), with one rule in the safe
    direction: a threshold is not *lowered* below ``old`` (the file's value, itself
    chosen on design frames) unless at least ``1 / GOAL`` design answers lie at or
    above the new one.  WHY: with fewer, "none wrong" cannot show a rate of one in a
    thousand, and the lowest answered confidence would pass for a threshold (vision/
    confidence.py kept its market-card threshold by this rule before this script)."""
    out, lines = {}, []
    for key, every in design.items():
        # an answer given at confidence 0 is the reader saying it has no ground for it
        # (a Duel cell said empty with no arrow showing): never sure, whatever the frames
        pairs = [(c, r) for c, r in every if c > 0]
        t = choose_threshold(pairs, GOAL) if pairs else old.get(key, NEVER)
        if sum(c >= t for c, _ in pairs) < 1 / GOAL:
            t = max(t, old.get(key, 0.0))
        t = min(t, NEVER)
        out[key] = t  # exact: a rounded-down threshold takes in what it was chosen to leave out
        t = out[key]
        lines.append(f"# {key}: {t:.4f}; design {_score(every, t)}; "
                     f"check {_score(check.get(key, []), t)}")
    return out, lines


def _renewed(design: dict[str, list[tuple[float, bool]]],
             check: dict[str, list[tuple[float, bool]]], old: dict[str, float],
             renew: Sequence[str], notes: list[str], header: str
             ) -> tuple[dict[str, tuple[float, float]], list[str]]:
    """The Duel thresholds and comment lines when only the kinds ``renew`` are chosen
    anew: theirs on ``design`` with no floor (``old`` measured another reader's
    confidences), every other kind's value and line kept as the file has them.  WHY
    not the others too: their readers did not change, and a threshold re-chosen on
    more frames moves with them; that is a change of its own, with its own check."""
    keys = [f"{k}/{n}" for k in renew for n in ("something", "empty")]
    chosen, lines = choose({k: design.get(k, []) for k in keys}, check,
                           {k: v for k, v in old.items() if k not in keys})
    by_key = {line.split(":")[0][2:]: line for line in notes[1:]}
    by_key |= {line.split(":")[0][2:]: line for line in lines}
    values = old | chosen
    kinds = dict.fromkeys(k.split("/")[0] for k in old)
    out = [f"{header}: {', '.join(renew)} (--renew); the others kept"
           f" ({_kept_from(notes[0], renew) if notes else 'none'})",
           *[by_key[k] for k in old if k in by_key]]
    return {k: (values[f"{k}/something"], values[f"{k}/empty"]) for k in kinds}, out


def _kept_from(header: str, renew: Sequence[str]) -> str:
    """The run the kinds kept come from, by the file's ``header``: the run it names, or,
    when it renewed only kinds ``renew`` renews again, the run it kept in turn (so the
    header names where each kept value was chosen, not every renew since)."""
    text = header[2:] if header.startswith("# ") else header
    mark, kept = " (--renew); the others kept (", text
    while mark in kept and text.endswith(")"):
        before, after = kept.split(mark, 1)
        if not set(before.split(": ", 1)[-1].split(", ")) <= set(renew):
            break
        kept = after[:-1]
    return kept


def _toml_key(k: str) -> str:
    return f'"{k}"'


def _cached(name: str, make: Callable[[], dict[str, list[tuple[float, bool]]]],
            reuse: bool) -> dict[str, list[tuple[float, bool]]]:
    """The (confidence, right) pairs of one run, kept in the training cache so that
    the rule can be re-applied without rendering the frames again (``--reuse``)."""
    path = cache_dir() / f"sure-{name}.json"
    if reuse and path.exists():
        return {k: [(float(c), bool(r)) for c, r in v]
                for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    got = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(got), encoding="utf-8")
    return got


def _notes(game: str) -> list[str]:
    """The comment lines above ``[game]`` in the current file: a game not chosen anew
    keeps its figures."""
    lines = SURE_PATH.read_text(encoding="utf-8").splitlines()
    end = lines.index(f"[{game}]")
    start = end
    while start > 0 and lines[start - 1].startswith("# "):
        start -= 1
    return lines[start:end]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training.sure",
                                 description="Choose the readers' sure thresholds on design "
                                 "tables, score them on check tables, write vision/sure.toml.")
    ap.add_argument("--game", default="both", choices=("splendor", "duel", "both"))
    ap.add_argument("--count", type=int, default=6,
                    help="frames per cell (splendor: 2 and 4 players x 3 difficulties x "
                    "2 lenses; duel: 3 x 2 with twice the count)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reuse", action="store_true",
                    help="re-choose from the last run's answers (no frames rendered)")
    ap.add_argument("--renew", default="", metavar="KINDS",
                    help="Duel kinds (comma-separated) whose reader changed: their old "
                    "thresholds measure another reader's confidences, so they are no "
                    "floor (see choose)")
    a = ap.parse_args(argv)
    renew = [k for k in a.renew.split(",") if k]
    if any(k not in KINDS for k in renew):
        print(f"error: --renew takes kinds of {', '.join(KINDS)}", file=sys.stderr)
        return 2
    splendor_t = {k: v for k, v in sure.splendor().items() if k in CATEGORIES}
    duel_t = sure.duel()
    notes = {game: _notes(game) for game in ("splendor", "duel")}  # kept unless re-chosen
    if a.game in ("splendor", "both"):
        d_seed, c_seed = SEEDS["splendor"]
        design = _cached(f"splendor-design-{d_seed}-{a.count}", lambda: splendor_pairs(
            "design", d_seed, a.count, a.workers), a.reuse)
        check = _cached(f"splendor-check-{c_seed}-{a.count}", lambda: splendor_pairs(
            "check", c_seed, a.count, a.workers), a.reuse)
        design, check = ({k: v for k, v in g.items() if k in CATEGORIES}
                         for g in (design, check))  # a cache from before may hold more
        splendor_t, notes["splendor"] = choose(design, check, splendor_t)
        notes["splendor"].insert(0, f"# design seeds {d_seed}.., check seeds {c_seed}.., "
                                 f"{a.count} frames per cell")
    if a.game in ("duel", "both"):
        d_seed, c_seed = SEEDS["duel"]
        flat = {f"{k}/{n}": v[i] for k, v in duel_t.items()
                for i, n in enumerate(("something", "empty"))}
        design = _cached(f"duel-design-{d_seed}-{a.count}", lambda: duel_pairs(
            "design", d_seed, 2 * a.count, a.workers), a.reuse)
        check = _cached(f"duel-check-{c_seed}-{a.count}", lambda: duel_pairs(
            "check", c_seed, 2 * a.count, a.workers), a.reuse)
        header = (f"# design seeds {d_seed}.., check seeds {c_seed}.., "
                  f"{2 * a.count} frames per cell")
        if renew:
            duel_t, notes["duel"] = _renewed(design, check, flat, renew, notes["duel"], header)
        else:
            chosen, notes["duel"] = choose(design, check, flat)
            duel_t = {k: (chosen[f"{k}/something"], chosen[f"{k}/empty"]) for k in duel_t}
            notes["duel"].insert(0, header)
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
