"""Token slots cut by the reader itself from rendered tables: the chips' training data.

A chip is a few pixels of rim and a gem on a cream sticker; what the network
must learn is how those few pixels look *after* the reader's own calibration,
cut and white balance, under the world's lamps, glare, hands and lens.  So the
crops are not drawn: each comes from a frame of :func:`vision.synth.world.world_frame`
(design faces: the older printing's chips, or our drawn ones when the frame is
drawn without the art), located by :func:`vision.calibrate.calibrate` and cut by
:func:`vision.chip_net.crop`, exactly as at the table.  Labels come from the
frame's truth: the chip's letter, ``empty``, or ``hidden`` where a person could
not read the slot (glare, a hand, a shadow: :func:`vision.synth.world._hidden`).
Split ``recorded`` draws frames as the committed recorded scenes are (our solid
chips close up), from another seed than theirs.

Offline only.  The crops are cached under ``$XDG_CACHE_HOME`` (never in the
repository: they show the publisher's chips).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from typing import cast
from unittest import mock

import cv2
import numpy as np

from vision import slot_jobs
from vision.calibrate import calibrate, slots_visible
from vision.chip_net import EMPTY, HIDDEN, crop
from vision.colours import TOKEN_BGR
from vision.layout import TOKEN_MM, build_layout
from vision.learned.prep import SPECS, prepare
from vision.synth import faces, recorded, world
from vision.synth.faces import draw_gem

NAME = "splendor_chips"
#: The chips network's classes, in output order.
CLASSES = (EMPTY, "w", "u", "g", "r", "k", "y", HIDDEN)
#: Share of frames drawn with our own chips and faces (a box without the art).
DRAWN_SHARE = 0.25
#: Seed of the frames drawn as the recorded scenes are (the committed ones use 2026).
RECORDED_SEED = 7
DIFFICULTIES = ("easy", "medium", "hard")


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "splendor-companion" / "training"


def _frame_crops(seed: int, split: str) -> tuple[list[np.ndarray], list[int]]:
    """The token slots of one rendered frame: raw crops (uint8) and class indices."""
    rng = np.random.default_rng(seed)
    players = int(rng.choice((2, 3, 4)))
    difficulty = DIFFICULTIES[seed % 3]
    lens = ("wide", "standard")[int(rng.integers(2))]
    drawn = rng.random() < DRAWN_SHARE
    with mock.patch.object(world, "_faces", lambda s: ([], {})) if drawn else \
            contextlib.nullcontext():
        frame = world.world_frame(players, difficulty, seed, split=split, lens=lens)
    cal = calibrate(frame.image, frame.layout)
    if cal is None:
        return [], []
    slots = [s for s, seen in zip(frame.layout.slots,
                                  slots_visible(cal, frame.layout.slots, frame.image.shape),
                                  strict=True)
             if seen and s.kind == "token" and s.id not in frame.unseen]
    index = {c: i for i, c in enumerate(CLASSES)}
    xs, ys = [], []
    for job in slot_jobs.make_jobs(frame.image, cal, slots):
        sid = job.slot.id
        label = HIDDEN if sid in frame.hidden else frame.contents.get(sid) or EMPTY
        xs.append(crop(job.crop, job.homography, job.slot, job.gain))
        ys.append(index[label])
    return xs, ys


def poker_chip(letter: str, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The project's first drawn token (BGR image, mask), still in the committed recorded
    scenes (``tests/data/scenes``, drawn before ``vision.synth.faces.token`` drew real
    chips): a solid coloured disc with light rim marks, a ring and a gem emblem.  Our
    own drawing, kept here so the chips network reads those scenes too."""

    s = px_per_mm
    d = round(TOKEN_MM * s)
    r = d / 2
    img = np.zeros((d, d, 3), np.uint8)
    mask = np.zeros((d, d), np.uint8)
    c16 = (round(r * 16), round(r * 16))
    base = TOKEN_BGR[letter]
    cv2.circle(mask, c16, round((r - 0.5) * 16), 255, -1, cv2.LINE_AA, 4)
    cv2.circle(img, c16, round((r - 0.5) * 16), base, -1, cv2.LINE_AA, 4)
    rim = (200, 200, 200) if letter == "w" else (235, 235, 235)
    for k in range(8):
        a = k * np.pi / 4
        p = (r + (r - 3 * s) * np.cos(a), r + (r - 3 * s) * np.sin(a))
        box = cv2.boxPoints(((p[0], p[1]), (5 * s, 3 * s), float(np.degrees(a))))
        cv2.fillConvexPoly(img, np.round(box * 16).astype(np.int32), rim, cv2.LINE_AA, 4)
    ring = tuple(int(v * 0.75) for v in base)
    cv2.circle(img, c16, round(14.5 * s * 16), ring, max(1, round(0.8 * s)), cv2.LINE_AA, 4)
    gem = cast("tuple[int, int, int]", tuple(min(255, int(v * 0.8 + 40)) for v in base))
    draw_gem(img, (r, r), 5 * s, gem)
    return img, mask


def _recorded_crops(seed: int) -> tuple[list[np.ndarray], list[int]]:
    """The token slots of one frame drawn as the recorded scenes are
    (:func:`vision.synth.recorded.frames`: our drawn chips, close up at 3-3.5 px/mm,
    an ordinary camera), of a seed the committed scenes do not use; odd seeds with
    :func:`poker_chip`, the committed scenes' chips."""

    layout = build_layout(4)
    views = [v for v in recorded._views(layout) if any(s.kind == "token" for s in v[1])]
    with mock.patch.object(faces, "token", poker_chip) if seed % 2 else \
            contextlib.nullcontext():
        frame = next(recorded.frames(layout, 1, seed=RECORDED_SEED, views=views, start=seed))
    cal = calibrate(frame.image, layout)
    if cal is None:
        return [], []
    truth = {t["slot"]: t for t in frame.truth["token_slots"]}
    covered = set(frame.truth.get("covered", []))
    slots = [s for s, seen in zip(layout.slots,
                                  slots_visible(cal, layout.slots, frame.image.shape),
                                  strict=True) if seen and s.id in truth]
    index = {c: i for i, c in enumerate(CLASSES)}
    xs, ys = [], []
    for job in slot_jobs.make_jobs(frame.image, cal, slots):
        t = truth[job.slot.id]
        label = HIDDEN if job.slot.id in covered else (
            t["colour"] if t["state"] == "token" else EMPTY)
        xs.append(crop(job.crop, job.homography, job.slot, job.gain))
        ys.append(index[label])
    return xs, ys


def _many(args: tuple[list[int], str]) -> tuple[np.ndarray, np.ndarray]:
    seeds, split = args
    xs: list[np.ndarray] = []
    ys: list[int] = []
    t0 = time.time()
    for k, seed in enumerate(seeds):
        x, y = _recorded_crops(seed) if split == "recorded" else _frame_crops(seed, split)
        xs += x
        ys += y
        if k % 10 == 9:
            print(f"  {split} frames {k + 1}/{len(seeds)} ({time.time() - t0:.0f} s)",
                  flush=True)
    return np.stack(xs), np.asarray(ys, np.int32)


def crops(seeds: range, split: str = "design", workers: int = 2
          ) -> tuple[np.ndarray, np.ndarray]:
    """Raw crops (n, h, w, 3) uint8 and labels of the frames ``seeds``, cached."""
    path = cache_dir() / f"{NAME}-{split}-{seeds.start}-{seeds.stop}.npz"
    if path.exists():
        with np.load(path) as z:
            return z["x"], z["y"]
    parts = [list(seeds)[i::workers] for i in range(workers)]
    with get_context("spawn").Pool(workers) as pool:
        got = pool.map(_many, [(p, split) for p in parts if p])
    x = np.concatenate([g[0] for g in got])
    y = np.concatenate([g[1] for g in got])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, x=x, y=y)
    return x, y


def augmented(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Prepared inputs of raw crops, each turned by a random quarter turn and
    mirrored at random (a chip and its slot look the same any way round) and
    its exposure scaled by up to ±25 %."""
    spec = SPECS[NAME]
    out = []
    for img in x:
        img = np.rot90(img, int(rng.integers(4)))
        if rng.random() < 0.5:
            img = img[:, ::-1]
        gain = rng.uniform(0.75, 1.25, 3) if rng.random() < 0.5 else rng.uniform(0.75, 1.25)
        img = np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        out.append(prepare(np.ascontiguousarray(img), spec))
    return np.stack(out)


if __name__ == "__main__":  # python -m vision.training.slot_crops FIRST STOP [split]
    a = sys.argv[1:]
    xx, yy = crops(range(int(a[0]), int(a[1])), a[2] if len(a) > 2 else "design")
    print(xx.shape, np.bincount(yy, minlength=len(CLASSES)))
