"""Fit the read cache's "unchanged" threshold on design tables, score it on check.

The read cache (:mod:`vision.read_cache`) reuses a slot's last reading while the
slot's crop looks as before.  What "as before" allows is a decision data makes:
too loose, and a card replaced by a sibling of its colour (Splendor's level-1
cards of one colour share their picture; only the cost circles differ) is taken
for the card that left, so the turn is not seen (two unseen medium-light games,
``tests/data/world-game/generate.py --into``, lost one turn each so); too tight,
and sensor noise makes every slot be read again.

For each table of a split this renders the realistic world's frame twice with
the same camera and light: as drawn, and after a turn-like change (in every
market row a card replaced by an unseen card of its level and colour, one chip
taken from a supply row).  Each frame gets its own fresh sensor noise and JPEG
(the world draws one noise a seed; a real sensor's differs frame to frame), and
the first frame a second exposure drifted by up to ``JITTER_PX``, so a pair of
the same table is noise and drift alone (each side at its worst: the change
pair is not drifted).  The statistic is :func:`vision.read_cache.change`; the
threshold is the geometric middle of the largest the design noise pairs reach
and the smallest a design change reaches, and the script fails if the two
overlap.  Writes ``vision/read_cache.toml`` with both splits' figures::

    .venv/bin/python -m vision.training.cache_fit
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from companion.rules import catalogue
from vision.calibrate import calibrate, slots_visible
from vision.layout import Layout
from vision.read_cache import CACHE_FILE, change, signature
from vision.slot_jobs import make_jobs
from vision.synth.scene import TableScene, random_scene
from vision.synth.world import world_frame
from vision.training import pools

#: Table seeds of each split (design decides, check only reports); never the world
#: evaluation's ranges (design 24000-31999, check 55000-82999).
SPLITS = {"design": 44000, "check": 84000}
DIFFICULTIES = ("easy", "medium", "hard")
#: The added sensor noise (grey levels, per pixel) and JPEG quality of a frame: the
#: world's hard light's upper end (vision/synth/world.py ``_draw_light``), so the
#: noise side of the fit is the worst the world draws.
NOISE_SIGMA = 4.5
JPEG_QUALITY = 80
#: How far (px, each axis) a frame is shifted from the last: a clamped camera's drift
#: between turns, below what moves the slots' placement (a guess, not fitted: it only
#: widens the noise side, so more slots are read again, none wrongly kept).
JITTER_PX = 0.5


@dataclass(frozen=True)
class TableStats:
    """One table's statistics: every slot of its noise pair, its changed slots."""

    noise: list[float]
    changed: list[tuple[str, float]]


def _changed_scene(scene: TableScene, seed: int) -> TableScene:
    """``scene`` after a turn-like change: a sibling card in every market row, a chip
    fewer in the fullest supply row."""
    rng = np.random.default_rng(seed)
    used = {c for row in scene.market for c in row if c}
    used |= {c for p in scene.players for c in (*p.tableau, *p.reserved)}
    market = []
    for level, row in enumerate(scene.market, start=1):
        cells = list(row)
        held = [i for i, c in enumerate(cells) if c]
        if held:
            i = int(rng.choice(held))
            bonus = catalogue.card(cells[i]).bonus  # type: ignore[arg-type]
            siblings = [c.id for c in catalogue.cards_of_level(level)
                        if c.bonus == bonus and c.id not in used]
            if siblings:
                cells[i] = str(rng.choice(siblings))
        market.append(tuple(cells))
    supply = list(scene.supply)
    fullest = int(np.argmax(supply[:5]))
    supply[fullest] = max(0, supply[fullest] - 1)
    return replace(scene, market=tuple(market), supply=tuple(supply))  # type: ignore[arg-type]


def _photographed(image: np.ndarray, rng: np.random.Generator, drift: bool) -> np.ndarray:
    """``image`` with a fresh sensor noise and JPEG, as a second exposure would be, the
    camera drifted by up to ``JITTER_PX`` if ``drift``."""
    dx, dy = rng.uniform(-JITTER_PX, JITTER_PX, 2) if drift else (0.0, 0.0)
    shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
    moved = cv2.warpAffine(image, shift,
                           (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    noisy = moved.astype(np.float32) + rng.normal(0.0, NOISE_SIGMA, image.shape[:2])[..., None]
    ok, data = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    assert decoded is not None
    return decoded


def _signatures(image: np.ndarray, layout: Layout
                ) -> dict[str, tuple[tuple[int, ...], np.ndarray]]:
    """Slot id -> (crop shape, signature) of every slot in view, as the cache sees them."""
    cal = calibrate(image, layout)
    if cal is None:
        return {}
    seen = slots_visible(cal, layout.slots, image.shape)
    slots = [s for s, shown in zip(layout.slots, seen, strict=True) if shown]
    return {job.slot.id: (job.crop.shape, signature(job.crop))
            for job in make_jobs(image, cal, slots)}


def table_stats(split: str, seed: int) -> TableStats:
    """Render one table's pair of frames and score every slot (see the module's doc)."""
    players = (2, 3, 4)[seed % 3]
    difficulty = DIFFICULTIES[(seed // 3) % 3]
    lens = ("wide", "standard")[(seed // 9) % 2]
    scene = random_scene(players, seed)
    after = _changed_scene(scene, seed)
    a = world_frame(players, difficulty, seed, split, "centre", lens, scene=scene, hand=False,
                    steady=seed)
    b = world_frame(players, difficulty, seed, split, "centre", lens, scene=after, hand=False,
                    steady=seed)
    rng = np.random.default_rng(seed)
    # each side at its worst: the noise pair drifted, the change pair not
    first = _signatures(_photographed(a.image, rng, False), a.layout)
    again = _signatures(_photographed(a.image, rng, True), a.layout)
    later = _signatures(_photographed(b.image, rng, False), b.layout)
    noise = [change(first[k][1], again[k][1]) for k in first
             if k in again and first[k][0] == again[k][0]]
    moved = [k for k in first if k in later and a.contents.get(k) != b.contents.get(k)
             and k not in a.hidden and first[k][0] == later[k][0]]
    return TableStats(noise, [(k, change(first[k][1], later[k][1])) for k in moved])


def _run(split: str, count: int, workers: int) -> Iterator[TableStats]:
    seeds = [SPLITS[split] + i for i in range(count)]
    with pools.pool(workers, spawn=False) as pool:
        for i, stats in enumerate(pool.map(table_stats, [split] * count, seeds), start=1):
            print(f"\r  {split}: {i}/{count} tables", end="", file=sys.stderr, flush=True)
            yield stats
    print(file=sys.stderr)


def _summary(name: str, stats: list[TableStats], threshold: float | None
             ) -> tuple[float, float, str]:
    """(the noise pairs' largest, the changes' smallest, a comment line for the file)."""
    noise = np.array([v for s in stats for v in s.noise])
    changed = [(k, v) for s in stats for k, v in s.changed]
    values = np.array([v for _, v in changed])
    low = min(changed, key=lambda kv: kv[1])
    line = (f"# {name}: {len(stats)} tables; noise pairs {noise.size} slots, largest "
            f"{noise.max():.1f}, 99.9th pct {np.percentile(noise, 99.9):.1f}; changed slots "
            f"{values.size}, smallest {low[1]:.1f} ({low[0]})")
    if threshold is not None:
        missed = int((values < threshold).sum())
        reread = float((noise >= threshold).mean() * 100)
        line += (f"\n#   at {threshold:.2f}: changes taken as unchanged {missed}, "
                 f"unchanged read again {reread:.2f} %")
    return float(noise.max()), float(values.min()), line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=36, help="tables per split (default 36)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parents[1] / CACHE_FILE)
    args = parser.parse_args(argv)
    if args.count < 1 or args.workers < 1:
        parser.error("--count and --workers are 1 or more")
    design = list(_run("design", args.count, args.workers))
    noise_max, change_min, _ = _summary("design", design, None)
    if change_min <= noise_max:
        print(f"cache_fit: a design change ({change_min:.1f}) is no larger than noise "
              f"({noise_max:.1f}); the statistic cannot tell them apart", file=sys.stderr)
        return 1
    threshold = round(math.sqrt(noise_max * change_min), 2)
    check = list(_run("check", args.count, args.workers))
    lines = ["# The read cache's threshold (vision/read_cache.py): a slot whose crop's change",
             "# statistic is below it keeps its last reading.  Written by",
             "# `python -m vision.training.cache_fit`: the geometric middle of the design noise",
             "# pairs' largest and the design changes' smallest, scored on check.",
             "# Do not edit by hand.",
             _summary("design", design, threshold)[2], _summary("check", check, threshold)[2],
             f"same_below = {threshold}", ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
