"""Render Duel frames once, then score the reader on them as often as needed.

``vision world --game duel`` renders every frame again on every run: about two thirds
of its time.  This script keeps the rendered frames on disk (``render``: 36 MB a
frame, as the world drew it, no compression), scores the reader on them exactly as
``vision.duel.evaluate`` scores a rendered frame (``eval``), and keeps the board
cells' looks (``cells``) so that ``judge`` can tally ``judge_place`` over every cell
in seconds, the seeds given with ``--held`` counted apart.  A full pass over the
ten design seeds (720 frames) then takes minutes, and a candidate rule for the
board cells is scored on every readable and hidden cell before it goes in.  Decide
on the design split; never tune on what ``--held`` or the check split show.
``--difficulties`` keeps some difficulties only (the hard frames alone: 8.6 GB for
the ten seeds); ``judge`` reads every cells cache under ``--dir`` and its
subdirectories, and with ``--cream`` also tallies the answers read by the cream
round the chip (``vision.duel.chips.cream_kind``) and the edges of chips under a hand;
with ``--marks``, the arrow's line of the cells answered empty and the edge of those
answered white, readable or hidden, right or wrong.

    .venv/bin/python tests/bench/duel_frame_cache.py render --split design \\
        --seeds 9000,9100 --dir /tmp/duel-frames
    .venv/bin/python tests/bench/duel_frame_cache.py eval --split design \\
        --seeds 9000,9100 --dir /tmp/duel-frames
    .venv/bin/python tests/bench/duel_frame_cache.py cells --split design \\
        --seeds 9000,9100 --dir /tmp/duel-frames
    .venv/bin/python tests/bench/duel_frame_cache.py judge --dir /tmp/duel-frames \\
        --held 9100
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from vision.calibrate import calibrate
from vision.duel import chips as C
from vision.duel.chip_classes import CLASSES
from vision.duel.confidence import SURE
from vision.duel.evaluate import PRESENCE, FrameResult, Outcome, kind_of, mistakes, report
from vision.duel.layout import build_duel_layout
from vision.duel.read import read_duel_places
from vision.synth.duel import duel_frame

LENSES = ("standard", "wide")
DIFFICULTIES = ("easy", "medium", "hard")


def _names(args: argparse.Namespace) -> Iterator[tuple[str, int, str, int, Path]]:
    """(lens, first seed, difficulty, seed, path stem) of every frame asked for."""
    root = Path(args.dir) / args.split
    for base in (int(s) for s in args.seeds.split(",")):
        for lens in args.lenses.split(","):
            for difficulty in args.difficulties.split(","):
                for seed in range(base, base + args.count):
                    yield lens, base, difficulty, seed, root / f"{lens}_{difficulty}_{seed}"


def _load(stem: Path) -> tuple[np.ndarray, dict[str, Any]]:
    with open(stem.with_suffix(".pkl"), "rb") as fh:
        meta = pickle.load(fh)
    return np.load(stem.with_suffix(".npy")), meta


def render(args: argparse.Namespace) -> int:
    for lens, _, difficulty, seed, stem in _names(args):
        if stem.with_suffix(".pkl").exists():
            continue
        stem.parent.mkdir(parents=True, exist_ok=True)
        print(f"render {lens} {difficulty} {seed}", file=sys.stderr, flush=True)
        f = duel_frame(difficulty, seed, args.split, "centre", lens)
        np.save(stem.with_suffix(".npy"), f.image)
        with open(stem.with_suffix(".pkl"), "wb") as fh:
            pickle.dump({"contents": f.contents, "hidden": f.hidden, "unseen": f.unseen,
                         "tags": f.tags}, fh)
    return 0


def _score(image: np.ndarray, meta: dict[str, Any], difficulty: str, seed: int,
           split: str) -> FrameResult:
    """What ``vision.duel.evaluate.evaluate_frame`` makes of a rendered frame."""
    reading = read_duel_places(image)
    out = []
    for place, r in reading.places.items():
        kind = kind_of(place)
        if kind is None or place in meta["unseen"] or place.startswith("player"):
            continue
        truth = meta["contents"].get(place, "")
        if any(place.startswith(p) or f".{p}." in place for p in PRESENCE):
            truth = "present" if truth else ""
        out.append(Outcome(kind, place, truth, r.value, meta["hidden"].get(place), r.why,
                           r.confidence, r.sure))
    return FrameResult(seed, difficulty, split, meta["tags"], tuple(out))


def evaluate(args: argparse.Namespace) -> int:
    runs: dict[tuple[str, int], list[FrameResult]] = {}
    for lens, base, difficulty, seed, stem in _names(args):
        print(f"read {lens} {difficulty} {seed}", file=sys.stderr, flush=True)
        image, meta = _load(stem)
        runs.setdefault((lens, base), []).append(
            _score(image, meta, difficulty, seed, args.split))
    for (lens, base), results in runs.items():
        print(report(results, [f"# {args.split} {lens} seeds {base}.."]))
        print("\n".join(mistakes(results)))
    return 0


def cells(args: argparse.Namespace) -> int:
    layout = build_duel_layout()
    rows = []
    for lens, _, difficulty, seed, stem in _names(args):
        print(f"cells {lens} {difficulty} {seed}", file=sys.stderr, flush=True)
        image, meta = _load(stem)
        cal = calibrate(image, layout)
        if cal is None:
            continue
        for sl in layout.slots_of("token", "board"):
            if sl.id not in meta["unseen"]:
                look = C.look_at_place(image, cal.h_for_slot(sl), sl, cal.gain_at(sl.center))
                rows.append((lens, difficulty, seed, sl.id, sl.index,
                             meta["contents"].get(sl.id) or "", meta["hidden"].get(sl.id), look))
    which = "" if args.difficulties == ",".join(DIFFICULTIES) else \
        "-" + args.difficulties.replace(",", "_")
    out = Path(args.dir) / f"cells-{args.split}-{args.seeds.replace(',', '_')}{which}.pkl"
    with open(out, "wb") as fh:
        pickle.dump(rows, fh)
    print(f"{len(rows)} cells -> {out}")
    return 0


def judge(args: argparse.Namespace) -> int:
    """Tally ``judge_place`` over every cached cell: readable or hidden, right, wrong or
    unsure, and whether at or above the board's sure thresholds."""
    rows = []
    for path in sorted(Path(args.dir).rglob("cells-*.pkl")):
        with open(path, "rb") as fh:
            rows += pickle.load(fh)
    held = {int(s) for s in args.held.split(",")} if args.held else set()
    slots = {sl.id: sl for sl in build_duel_layout().slots_of("token", "board")}
    something, empty = SURE["board cells"]
    tally: dict[str, Counter[tuple[str, str, str]]] = {"tuned": Counter(), "held": Counter()}
    cream: dict[str, Counter[tuple[str, str, str]]] = {"tuned": Counter(), "held": Counter()}
    hand_edges: dict[str, list[float]] = {"tuned": [], "held": []}
    marks: dict[str, dict[tuple[str, str, str], list[float]]] = {"tuned": {}, "held": {}}

    def sl_arrow(place: str) -> bool:
        return slots[place].index != C.LAST_CELL
    for lens, difficulty, seed, place, _index, truth, hidden, look in rows:
        got = C.judge_token_place(look, slots[place], CLASSES["sprites"])  # as read.py
        verdict = "unsure" if got.value is None else "right" if got.value == truth else "wrong"
        sure = got.value is not None and got.confidence >= (empty if got.value == "" else
                                                             something)
        group = "held" if any(b <= seed < b + args.count for b in held) else "tuned"
        key = ("readable" if hidden is None else hidden, verdict, "sure" if sure else "")
        tally[group][("readable" if hidden is None else "hidden", *key[1:])] += 1
        if got.value is not None and "by the cream" in got.why:
            cream[group][key] += 1
        if hidden == "hand" and truth:
            hand_edges[group].append(look.edge)
        if args.marks and got.value in ("", "w") and (got.value == "w" or sl_arrow(place)):
            who = "readable" if hidden is None else hidden
            marks[group].setdefault((got.value or "e", who, verdict), []).append(
                look.edge if got.value == "w" else look.line)
        if args.list and hidden is None and verdict != "right":
            print(f"{lens} {difficulty} {seed} {place} {truth!r}: {got.value!r} ({got.why})")
    for group, counts in tally.items():
        for key, n in sorted(counts.items()):
            print(f"{group:<6} {' '.join(key):<24} {n}")
    if args.marks:
        print("answers empty on a cell with an arrow (its line) and white (its edge):")
        for group, spreads in marks.items():
            for (answer, who, verdict), v in sorted(spreads.items()):
                q = np.percentile(v, (0, 1, 5, 50, 100))
                print(f"{group:<6} {answer} {who:<8} {verdict:<6} {len(v):>5}  min/1/5/50/max % "
                      + " ".join(f"{x:.1f}" for x in q))
    if args.cream:
        print("answers by the cream (C.cream_kind):")
        for group, counts in cream.items():
            for key, n in sorted(counts.items()):
                print(f"{group:<6} {' '.join(key):<24} {n}")
        for group, e in hand_edges.items():
            if e:
                q = np.percentile(e, (50, 75, 90, 95, 100))
                print(f"{group:<6} chips under a hand: {len(e)}, edge 50/75/90/95/100 % "
                      + " ".join(f"{v:.2f}" for v in q))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("render", "eval", "cells", "judge"))
    ap.add_argument("--split", choices=("design", "check"), default="design")
    ap.add_argument("--seeds", default="9000", help="first seeds, comma-separated")
    ap.add_argument("--count", type=int, default=12, help="frames per seed, difficulty, lens")
    ap.add_argument("--lenses", default=",".join(LENSES))
    ap.add_argument("--difficulties", default=",".join(DIFFICULTIES),
                    help="comma-separated, e.g. hard: only the hard frames (disk, time)")
    ap.add_argument("--dir", default="/tmp/duel-frames", help="where the frames are kept")
    ap.add_argument("--held", default="", help="judge: first seeds counted apart")
    ap.add_argument("--list", action="store_true", help="judge: every readable cell missed")
    ap.add_argument("--marks", action="store_true",
                    help="judge: the arrow's line of empty answers, the edge of white ones")
    ap.add_argument("--cream", action="store_true",
                    help="judge: the answers by the cream apart, chips' edges under a hand")
    args = ap.parse_args()
    return {"render": render, "eval": evaluate, "cells": cells, "judge": judge}[args.what](args)


if __name__ == "__main__":
    raise SystemExit(main())
