"""Measure what tells a privilege scroll from the grey fill of its place on rendered
design frames of the central mat (vision/duel/read.py ``_presence``): per place
read, whether a scroll is there, whether a person could read it, and the numbers
the reader weighs (lightness below the paper round it, yellowness above it, the
scroll's printed bars: ``scroll_bars``; its rolled ends and their lift over its
middle: ``scroll_ends``); then their spreads and every readable
place not read right.  Never run it on the check split.

    .venv/bin/python tests/bench/duel_scrolls.py --seeds 9200,9600 --count 12

``--unsure``: also every place ``_presence`` leaves unsure, readable or not, bluest
first, with how many pieces of its outline are hidden.

``--outline``: instead, how many pieces of each place's printed outline are hidden
(``outline_hidden``), per sort of place and whether its answer was sure before the
outline is weighed; then what ``_outline_seen`` does to the sure answers, the seeds
from ``--held`` counted apart.  ``--cache``: a ``duel_frame_cache.py render --dir``
whose frames are read instead of rendered again (``--difficulties`` picks some).

    .venv/bin/python tests/bench/duel_scrolls.py --outline --cache /tmp/duelc \
        --seeds 9000,9100,9200,9300,9400,9500,9600,9700,9800,9900 --held 9800,9900 \
        --difficulties medium,hard
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
from duel_frames import calibrated_frames, print_spread  # a sibling bench module

from vision.calibrate import calibrate, rectify
from vision.duel import read as R
from vision.duel.confidence import SURE
from vision.duel.layout import build_duel_layout
from vision.pixels import lab_image, normalise
from vision.synth.duel import duel_frame


def _numbers(image: np.ndarray, h: np.ndarray, slot: object, gain: np.ndarray
             ) -> tuple[float, float, float, float, float]:
    """(below, yellow, bars, ends, lift) of one privilege place, as ``_presence`` measures them."""
    s = R.PRESENCE_PX_PER_MM
    ring = round(R.RING_MM * s)
    raw = rectify(image, h, slot, s, R.RING_MM)  # type: ignore[arg-type]
    band = np.concatenate([raw[:ring].reshape(-1, 3), raw[-ring:].reshape(-1, 3),
                           raw[:, :ring].reshape(-1, 3), raw[:, -ring:].reshape(-1, 3)])
    paper = np.median(band, axis=0).astype(np.float32)
    local = np.asarray(R._PAPER_BGR, np.float32) / np.maximum(paper, 1.0)
    if float(np.abs(local / local.mean() - 1).max()) < 0.25 and 0.5 < local.mean() < 4.0:
        gain = local
    band_lab = lab_image(normalise(band.reshape(-1, 1, 3), gain))
    inset = round((R.RING_MM + R.PRESENCE_INSET_MM) * s)
    inner = raw[inset: raw.shape[0] - inset, inset: raw.shape[1] - inset]
    import cv2

    lab = cv2.GaussianBlur(lab_image(normalise(inner, gain)), (0, 0), 0.7)
    below = float(np.median(band_lab[..., 0])) - float(np.median(lab[..., 0]))
    yellow = float(np.median(lab[..., 2])) - float(np.median(band_lab[..., 2]))
    ends, lift = R.scroll_ends(raw[ring: raw.shape[0] - ring, ring: raw.shape[1] - ring], gain,
                               float(np.median(band_lab[..., 2])))
    return below, yellow, R.scroll_bars(lab[..., 0]), ends, lift


def _places(args: argparse.Namespace) -> Iterator[tuple[int, Any, np.ndarray, Any, np.ndarray,
                                                        bool, str | None]]:
    """(seed, frame image, h, slot, gain, scroll there, hidden) per privilege place seen."""
    layout = build_duel_layout()
    for lens in ("standard", "wide"):
        for difficulty in args.difficulties.split(","):
            for base in (int(s) for s in args.seeds.split(",")):
                for seed in range(base, base + args.count):
                    print(f"{lens} {difficulty} {seed}", file=sys.stderr, flush=True)
                    stem = Path(args.cache or ".") / "design" / f"{lens}_{difficulty}_{seed}"
                    if args.cache and stem.with_suffix(".pkl").exists():
                        with open(stem.with_suffix(".pkl"), "rb") as fh:
                            meta = pickle.load(fh)
                        image = np.load(stem.with_suffix(".npy"))
                    else:
                        f = duel_frame(difficulty, seed, "design", "centre", lens)
                        image = f.image
                        meta = {"contents": f.contents, "hidden": f.hidden, "unseen": f.unseen}
                    cal = calibrate(image, layout)
                    if cal is None:
                        continue
                    for sl in layout.slots_of("privilege", "privileges"):
                        if sl.id not in meta["unseen"]:
                            yield (seed, image, cal.h_for_slot(sl), sl, cal.gain_at(sl.center),
                                   bool(meta["contents"].get(sl.id)), meta["hidden"].get(sl.id))


def outline(args: argparse.Namespace) -> int:
    """Pieces of the outline hidden per sort of place, and the sure answers before and
    after ``_outline_seen``, tuned and held seeds apart."""
    held = {int(s) for s in args.held.split(",")} if args.held else set()
    present, empty = SURE["privileges"]
    pieces: dict[tuple[str, str, str], Counter[int]] = {}
    tally: dict[str, Counter[tuple[str, str, str, str]]] = {"tuned": Counter(), "held": Counter()}
    seen = []
    for seed, image, h, sl, gain, scroll, hidden in _places(args):
        group = "held" if any(b <= seed < b + args.count for b in held) else "tuned"
        before = R._presence(image, h, sl, gain, "fill")
        after = R._outline_seen(image, h, sl, before)
        who = "readable" if hidden is None else hidden
        truth = "present" if scroll else ""
        for when, r in (("before", before), ("after", after)):
            sure = r.value is not None and r.confidence >= (empty if r.value == "" else present)
            verdict = "unsure" if r.value is None else "right" if r.value == truth else "wrong"
            tally[group][(when, who, verdict, "sure" if sure else "")] += 1
            if when == "before":
                n, _ = R.outline_hidden(image, h, sl)
                key = (group, f"{who} {'scroll' if scroll else 'empty'}", "sure" if sure else "")
                pieces.setdefault(key, Counter())[n] += 1
                if who == "readable":
                    seen += [min(p) for p in R.outline_pieces(image, h, sl)]
    print("pieces of the outline hidden (count: places), answer sure before or not:")
    for key, c in sorted(pieces.items()):
        print(f"{' '.join(key):<32} " + " ".join(f"{n}:{c[n]}" for n in sorted(c)))
    q = np.percentile(seen, (1, 5, 10, 50))
    print("readable places' pieces, the lesser depth, 1/5/10/50 %: "
          + " ".join(f"{v:.2f}" for v in q))
    for group, counts in tally.items():
        for key, n in sorted(counts.items()):
            print(f"{group:<6} {' '.join(key):<36} {n}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=12, help="frames per seed, difficulty, lens")
    ap.add_argument("--seeds", default="9200,9600", help="first seeds, comma-separated")
    ap.add_argument("--outline", action="store_true", help="the outline's hidden pieces")
    ap.add_argument("--cache", default="", help="--outline: duel_frame_cache.py's --dir")
    ap.add_argument("--difficulties", default="easy,medium,hard", help="which difficulties")
    ap.add_argument("--unsure", action="store_true", help="also every place left unsure")
    ap.add_argument("--held", default="", help="--outline: first seeds counted apart")
    args = ap.parse_args()
    if args.outline:
        return outline(args)
    groups: dict[str, list[tuple[float, float, float, float, float]]] = {}
    wrong = []
    unsure = []
    for lens, difficulty, seed, f, cal in calibrated_frames(args.seeds, args.count,
                                                              tuple(args.difficulties.split(","))):
        for sl in f.layout.slots_of("privilege", "privileges"):
            if sl.id in f.unseen:
                continue
            h, gain = cal.h_for_slot(sl), cal.gain_at(sl.center)
            nums = _numbers(f.image, h, sl, gain)
            scroll = bool(f.contents.get(sl.id))
            hidden = f.hidden.get(sl.id)
            key = f"{'scroll' if scroll else 'empty'} {'readable' if hidden is None else hidden}"
            groups.setdefault(key, []).append(nums)
            got = R._presence(f.image, h, sl, gain, "fill").value
            if args.unsure and got is None:
                unsure.append((nums[1], f"{lens} {difficulty} {seed} {sl.id}: {key}; below "
                               f"{nums[0]:.1f} yellow {nums[1]:.1f} bars {nums[2]:.1f}, outline "
                               f"{R.outline_hidden(f.image, h, sl)[0]} hidden"))
            if hidden is None and got != ("present" if scroll else ""):
                wrong.append(f"{lens} {difficulty} {seed} {sl.id}: {key} read {got!r}; "
                             "below {:.1f} yellow {:.1f} bars {:.1f} ends {:.1f} lift {:.1f}"
                             .format(*nums))
    print_spread(groups, ("below", "yellow", "bars", "ends", "lift"))
    print("\n".join(wrong))
    if args.unsure:
        print("places left unsure, bluest first:")
        print("\n".join(line for _, line in sorted(unsure)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
