"""Render Duel frames once, then score the reader on them as often as needed.

``vision world --game duel`` renders every frame again on every run: about two thirds
of its time.  This script keeps the rendered frames on disk (``render``: 36 MB a
frame, as the world drew it, no compression) and scores the reader on them exactly
as ``vision.duel.evaluate`` scores a rendered frame (``eval``).  A full pass over the
ten design seeds (720 frames) then takes minutes.  Decide on the design split; never
tune on the check split.  ``--difficulties`` keeps some difficulties only (the hard
frames alone: 8.6 GB for the ten seeds).

    .venv/bin/python tests/bench/duel_frame_cache.py render --split design \\
        --seeds 9000,9100 --dir /tmp/duel-frames
    .venv/bin/python tests/bench/duel_frame_cache.py eval --split design \\
        --seeds 9000,9100 --dir /tmp/duel-frames
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from vision.duel.evaluate import PRESENCE, FrameResult, Outcome, kind_of, mistakes, report
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("render", "eval"))
    ap.add_argument("--split", choices=("design", "check"), default="design")
    ap.add_argument("--seeds", default="9000", help="first seeds, comma-separated")
    ap.add_argument("--count", type=int, default=12, help="frames per seed, difficulty, lens")
    ap.add_argument("--lenses", default=",".join(LENSES))
    ap.add_argument("--difficulties", default=",".join(DIFFICULTIES),
                    help="comma-separated, e.g. hard: only the hard frames (disk, time)")
    ap.add_argument("--dir", default="/tmp/duel-frames", help="where the frames are kept")
    args = ap.parse_args()
    return {"render": render, "eval": evaluate}[args.what](args)


if __name__ == "__main__":
    raise SystemExit(main())
