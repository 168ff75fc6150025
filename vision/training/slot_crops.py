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

The slots network (``splendor_slots``: is a market, noble or deck slot empty,
occupied or hidden) is trained the same way on those slots, cut by
:func:`vision.slot_net.crop`, from tables whose market cards, nobles and decks
were taken away at random (:func:`thinned`): a table in play shows few empty
slots, and a deck runs out only near a game's end.

Offline only.  The crops are cached under ``$XDG_CACHE_HOME`` (never in the
repository: they show the publisher's chips and faces).
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

from companion.rules import catalogue
from vision import slot_jobs, slot_net
from vision.calibrate import calibrate, slots_visible
from vision.chip_net import EMPTY, HIDDEN, crop
from vision.colours import TOKEN_BGR
from vision.duel import slot_net as slot_net_duel
from vision.layout import TOKEN_MM, build_layout
from vision.learned.prep import SPECS, prepare
from vision.mats import PAPER
from vision.synth import faces, recorded, world
from vision.synth.faces import draw_gem
from vision.synth.scene import TableScene, random_scene
from vision.training import duel_crops

NAME = "splendor_chips"
SLOTS = slot_net.NAME
#: The chips network's classes, in output order.
CLASSES = (EMPTY, "w", "u", "g", "r", "k", "y", HIDDEN)
#: Each table-trained network's classes, and the slot kinds it reads.
NETWORKS = {NAME: (CLASSES, ("token",)),
            SLOTS: (slot_net.CLASSES, ("card", "noble", "deck")),
            duel_crops.NAME: (duel_crops.CLASSES, ("token",)),
            duel_crops.SLOTS: (slot_net_duel.CLASSES, slot_net_duel.KINDS)}
#: For the slots network: the chance each market card, each noble and each deck is
#: taken away.
THIN = (0.2, 0.3, 0.3)
#: For the slots network: the share of frames whose faces may be spoiled, and the
#: chance each card and noble of such a frame is (:func:`spoiled`): washed out by
#: glare, faded towards the mat's paper, or clipped to white.  WHY: a face that
#: passes for paper is the one mistake an "empty" answer must never make (a card
#: called taken), and the world's lamps wash out too few faces to learn it from.
SPOIL = (0.5, 0.3)
#: Share of frames drawn with our own chips and faces (a box without the art).
DRAWN_SHARE = 0.25
#: Seed of the frames drawn as the recorded scenes are (the committed ones use 2026).
RECORDED_SEED = 7
DIFFICULTIES = ("easy", "medium", "hard")


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "splendor-companion" / "training"


def thinned(scene: TableScene, rng: np.random.Generator) -> TableScene:
    """``scene`` with market cards, nobles and decks taken away at random (:data:`THIN`)."""
    market = tuple(tuple(None if c is None or rng.random() < THIN[0] else c for c in row)
                   for row in scene.market)
    nobles = tuple(None if rng.random() < THIN[1] else n for n in scene.nobles)
    decks = cast("tuple[bool, bool, bool]",
                 tuple(d and rng.random() >= THIN[2] for d in scene.decks))
    return TableScene(market, decks, nobles, scene.supply, scene.players)


def spoiled(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face`` (BGR uint8) spoiled one of four ways: faded most of the way to the mat's
    paper; washed out (brightened past clipping); clipped to white over a band; or
    white all over but for a little texture."""
    f: np.ndarray = face.astype(np.float32)
    kind = int(rng.integers(4))
    if kind == 0:
        a = rng.uniform(0.55, 0.9)
        f = (1 - a) * f + a * np.asarray(PAPER, np.float32)
    elif kind == 1:
        f = f * rng.uniform(1.6, 3.5) + rng.uniform(0, 60)
    elif kind == 2:
        h = f.shape[0]
        y0 = int(rng.integers(h // 2))
        f[y0:y0 + int(h * rng.uniform(0.4, 0.9))] = rng.uniform(235, 255)
    else:
        f = rng.uniform(238, 255) + rng.normal(0, 3, f.shape)
    return cast("np.ndarray", np.clip(f, 0, 255).astype(np.uint8))


def _spoiling(rng: np.random.Generator, drawn: bool) -> contextlib.AbstractContextManager[object]:
    """A patch of the world's face choice that spoils some faces (:data:`SPOIL`), or
    none, for this frame."""
    if rng.random() >= SPOIL[0]:
        return contextlib.nullcontext()
    pick = world._pick_faces
    ids = [c.id for c in catalogue.cards()] + [n.id for n in catalogue.nobles()]
    chosen = [i for i in ids if rng.random() < SPOIL[1]]
    draw_px = 6.0

    def spoil(sets: list[tuple[str, dict[str, np.ndarray]]], k: int
              ) -> tuple[str, dict[str, np.ndarray]]:
        name, got = pick([] if drawn else sets, k)
        out = dict(got)
        for i in chosen:
            face = out.get(i)
            if face is None:
                face = faces.noble_face(catalogue.noble(i), draw_px) if i.startswith("n") \
                    else faces.card_face(catalogue.card(i), draw_px)
            out[i] = spoiled(face, rng)
        return name, out

    return mock.patch.object(world, "_pick_faces", spoil)


def _cut(name: str, job: slot_jobs.SlotJob) -> np.ndarray:
    """The crop network ``name`` reads of the job's slot.  The slots network's are
    reduced to its input here (its card and noble slots differ in size; the
    reader's own reduction of them is then none)."""
    if name == SLOTS:
        raw = slot_net.crop(job.crop, job.homography, job.slot, job.gain)
        return cv2.resize(raw, SPECS[SLOTS].input_px, interpolation=cv2.INTER_AREA)
    return crop(job.crop, job.homography, job.slot, job.gain)


def _label(name: str, held: str | None, hidden: bool) -> str:
    """The class of a slot holding ``held`` (None: nothing)."""
    if hidden:
        return HIDDEN
    if name == SLOTS:
        return slot_net.OCCUPIED if held else slot_net.EMPTY
    return held or EMPTY


def _frame_crops(seed: int, split: str, name: str = NAME
                 ) -> tuple[list[np.ndarray], list[int]]:
    """The slots of one rendered frame that network ``name`` reads: raw crops (uint8)
    and class indices."""
    rng = np.random.default_rng(seed)
    players = int(rng.choice((2, 3, 4)))
    difficulty = DIFFICULTIES[seed % 3]
    lens = ("wide", "standard")[int(rng.integers(2))]
    drawn = rng.random() < DRAWN_SHARE
    scene = thinned(random_scene(players, seed), rng) if name == SLOTS else None
    with (mock.patch.object(world, "_faces", lambda s: ([], {})) if drawn else
          contextlib.nullcontext()), \
            (_spoiling(rng, drawn) if name == SLOTS else contextlib.nullcontext()):
        frame = world.world_frame(players, difficulty, seed, split=split, lens=lens,
                                  scene=scene)
    cal = calibrate(frame.image, frame.layout)
    if cal is None:
        return [], []
    classes, kinds = NETWORKS[name]
    slots = [s for s, seen in zip(frame.layout.slots,
                                  slots_visible(cal, frame.layout.slots, frame.image.shape),
                                  strict=True)
             if seen and s.kind in kinds and s.id not in frame.unseen]
    index = {c: i for i, c in enumerate(classes)}
    xs, ys = [], []
    for job in slot_jobs.make_jobs(frame.image, cal, slots):
        sid = job.slot.id
        xs.append(_cut(name, job))
        ys.append(index[_label(name, frame.contents.get(sid), sid in frame.hidden)])
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


def _recorded_crops(seed: int, name: str = NAME) -> tuple[list[np.ndarray], list[int]]:
    """The slots network ``name`` reads of one frame drawn as the recorded scenes are
    (:func:`vision.synth.recorded.frames`: our drawn chips and faces, close up at
    3-3.5 px/mm, an ordinary camera), of a seed the committed scenes do not use; odd
    seeds with :func:`poker_chip`, the committed scenes' chips; for the slots
    network, its cards and nobles :func:`thinned`."""

    classes, kinds = NETWORKS[name]
    layout = build_layout(4)
    views = [v for v in recorded._views(layout) if any(s.kind in kinds for s in v[1])]
    def scene(i: int, rng: np.random.Generator) -> TableScene:  # as frames() draws one
        drawn = random_scene(int(rng.integers(2, 5)), int(rng.integers(1 << 30)))
        return thinned(drawn, rng) if name == SLOTS else drawn

    with mock.patch.object(faces, "token", poker_chip) if seed % 2 else \
            contextlib.nullcontext():
        frame = next(recorded.frames(layout, 1, seed=RECORDED_SEED, views=views, start=seed,
                                     scenes=scene))
    cal = calibrate(frame.image, layout)
    if cal is None:
        return [], []
    truth = {t["slot"]: t for part in ("token_slots", "cards", "nobles")
             for t in frame.truth[part]}
    truth |= {f"deck.{t['level']}": {"state": "deck" if t["present"] else "empty"}
              for t in frame.truth["decks"]}
    covered = set(frame.truth.get("covered", []))
    slots = [s for s, seen in zip(layout.slots,
                                  slots_visible(cal, layout.slots, frame.image.shape),
                                  strict=True) if seen and s.id in truth and s.kind in kinds]
    index = {c: i for i, c in enumerate(classes)}
    xs, ys = [], []
    for job in slot_jobs.make_jobs(frame.image, cal, slots):
        t = truth[job.slot.id]
        held = None if t["state"] == "empty" else t.get("colour") or t["state"]
        xs.append(_cut(name, job))
        ys.append(index[_label(name, held, job.slot.id in covered)])
    return xs, ys


def _many(args: tuple[list[int], str, str]) -> tuple[np.ndarray, np.ndarray]:
    seeds, split, name = args
    xs: list[np.ndarray] = []
    ys: list[int] = []
    t0 = time.time()
    for k, seed in enumerate(seeds):
        if name in (duel_crops.NAME, duel_crops.SLOTS):  # Duel tables (duel_crops)
            x, y = duel_crops.frame_crops(seed, split, name)
        elif split == "recorded":
            x, y = _recorded_crops(seed, name)
        else:
            x, y = _frame_crops(seed, split, name)
        xs += x
        ys += y
        if k % 10 == 9:
            print(f"  {split} frames {k + 1}/{len(seeds)} ({time.time() - t0:.0f} s)",
                  flush=True)
    return np.stack(xs), np.asarray(ys, np.int32)


def crops(seeds: range, split: str = "design", workers: int = 2, name: str = NAME
          ) -> tuple[np.ndarray, np.ndarray]:
    """Raw crops (n, h, w, 3) uint8 and labels network ``name`` reads of the frames
    ``seeds``, cached."""
    path = cache_dir() / f"{name}-{split}-{seeds.start}-{seeds.stop}.npz"
    if path.exists():
        with np.load(path) as z:
            return z["x"], z["y"]
    parts = [list(seeds)[i::workers] for i in range(workers)]
    with get_context("spawn").Pool(workers) as pool:
        got = pool.map(_many, [(p, split, name) for p in parts if p])
    x = np.concatenate([g[0] for g in got])
    y = np.concatenate([g[1] for g in got])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, x=x, y=y)
    return x, y


def augmented(x: np.ndarray, rng: np.random.Generator, name: str = NAME) -> np.ndarray:
    """Prepared inputs of raw crops, each turned and mirrored at random (a chip and
    its slot look the same any way round; a card slot only by half turns) and its
    exposure scaled by up to ±25 %."""
    spec = SPECS[name]
    square = spec.input_px[0] == spec.input_px[1]
    out = []
    for img in x:
        img = np.rot90(img, int(rng.integers(4)) if square else 2 * int(rng.integers(2)))
        if rng.random() < 0.5:
            img = img[:, ::-1]
        gain = rng.uniform(0.75, 1.25, 3) if rng.random() < 0.5 else rng.uniform(0.75, 1.25)
        img = np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        out.append(prepare(np.ascontiguousarray(img), spec))
    return np.stack(out)


if __name__ == "__main__":  # python -m vision.training.slot_crops FIRST STOP [split [name]]
    a = sys.argv[1:]
    net = a[3] if len(a) > 3 else NAME
    xx, yy = crops(range(int(a[0]), int(a[1])), a[2] if len(a) > 2 else "design", name=net)
    print(xx.shape, np.bincount(yy, minlength=len(NETWORKS[net][0])))
