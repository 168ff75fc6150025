"""Duel token places cut by the reader itself from rendered Duel tables: the Duel
chips network's training data.

As for Splendor's chips (:mod:`vision.training.slot_crops`), the crops are not
drawn: each comes from a frame of :func:`vision.synth.duel.duel_frame` (a
seeded position of a seeded game, set-up to the end, under the world's lamps,
glare, hands and lenses), located by :func:`vision.calibrate.calibrate` and cut
by :func:`vision.duel.chip_net.crop`, exactly as at the table.  Labels come from
the frame's truth: the chip's letter, ``empty``, or ``hidden`` where a person
could not read the place.  A quarter of the frames are drawn with our own chips
and board (a box without the art: the demo's tables); a quarter frame the whole
table, so the players' token places are read as well as the board's cells.

Offline only.  The crops are cached under ``$XDG_CACHE_HOME`` (never in the
repository: they show the publisher's chips and board).
"""

from __future__ import annotations

import contextlib
from unittest import mock

import numpy as np

from vision.calibrate import calibrate, slots_visible
from vision.duel import chip_net
from vision.synth import duel
from vision.synth.duel_faces import drawn_faces

NAME = chip_net.NAME
CLASSES = chip_net.CLASSES
#: Share of frames drawn with our own chips and board, and of frames of the whole
#: table (the players' token places in view, smaller).
DRAWN_SHARE = 0.25
TABLE_SHARE = 0.25
DIFFICULTIES = ("easy", "medium", "hard")


def frame_crops(seed: int, split: str) -> tuple[list[np.ndarray], list[int]]:
    """The token places of one rendered Duel frame: raw crops (uint8) and class indices."""
    rng = np.random.default_rng(seed)
    difficulty = DIFFICULTIES[seed % 3]
    lens = ("wide", "standard")[int(rng.integers(2))]
    framing = "table" if rng.random() < TABLE_SHARE else "centre"
    drawn = rng.random() < DRAWN_SHARE
    with (mock.patch.object(duel, "duel_faces", lambda s: drawn_faces()) if drawn else
          contextlib.nullcontext()):
        frame = duel.duel_frame(difficulty, seed, split, framing, lens)
    cal = calibrate(frame.image, frame.layout)
    if cal is None:
        return [], []
    tokens = [s for s in frame.layout.slots if s.kind == "token"]
    slots = [s for s, seen in zip(tokens, slots_visible(cal, tokens, frame.image.shape),
                                  strict=True) if seen and s.id not in frame.unseen]
    cal.prepare_slots(slots)
    index = {c: i for i, c in enumerate(CLASSES)}
    xs, ys = [], []
    for s in slots:
        xs.append(chip_net.crop(frame.image, cal.h_for_slot(s), s, cal.gain_at(s.center)))
        held = frame.contents.get(s.id) or chip_net.EMPTY
        ys.append(index[chip_net.HIDDEN if s.id in frame.hidden else held])
    return xs, ys
