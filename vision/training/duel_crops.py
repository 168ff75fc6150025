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

The Duel slots network (``duel_slots``: is a deck, privilege, reserved, pyramid
or royal place empty, present or hidden) is trained the same way on those places,
cut by :func:`vision.duel.slot_net.crop`, from positions whose decks, privileges,
pyramid cards and royals were taken away at random (:func:`thinned`): a deck and
the pyramid places it fills run out only near a game's end, the scrolls rarely
all leave the board, and the royals go one by one.

Offline only.  The crops are cached under ``$XDG_CACHE_HOME`` (never in the
repository: they show the publisher's chips and board).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from unittest import mock

import numpy as np

from companion.rules.duel.position import Position
from vision.calibrate import calibrate, slots_visible
from vision.duel import chip_net, slot_net
from vision.synth import duel
from vision.synth.duel_faces import drawn_faces

NAME = chip_net.NAME
CLASSES = chip_net.CLASSES
SLOTS = slot_net.NAME
#: For the slots network: the chance each deck is emptied, that the privileges
#: above the board are drawn anew (0 to 3, evenly), that each pyramid card is taken
#: away, and each royal.
THIN = (0.3, 0.5, 0.2, 0.3)
#: Share of frames drawn with our own chips and board, and of frames of the whole
#: table (the players' token places in view, smaller).
DRAWN_SHARE = 0.25
TABLE_SHARE = 0.25
DIFFICULTIES = ("easy", "medium", "hard")


def thinned(position: Position, rng: np.random.Generator) -> Position:
    """``position`` with decks emptied, the board's privileges redrawn, pyramid cards
    and royals taken away at random (:data:`THIN`)."""
    a, b, c = (0 if rng.random() < THIN[0] else n for n in position.decks)
    privileges = int(rng.integers(4)) if rng.random() < THIN[1] else position.privileges
    pyramid = tuple(tuple(None if card is None or rng.random() < THIN[2] else card
                          for card in row) for row in position.pyramid)
    royals = tuple(r for r in position.royals if rng.random() >= THIN[3])
    return replace(position, decks=(a, b, c), privileges=privileges, pyramid=pyramid,
                   royals=royals)


def frame_crops(seed: int, split: str, name: str = NAME) -> tuple[list[np.ndarray], list[int]]:
    """The places network ``name`` reads of one rendered Duel frame (the token places,
    or the deck, privilege and reserved places): raw crops (uint8) and class indices."""
    rng = np.random.default_rng(seed)
    difficulty = DIFFICULTIES[seed % 3]
    lens = ("wide", "standard")[int(rng.integers(2))]
    framing = "table" if rng.random() < TABLE_SHARE else "centre"
    drawn = rng.random() < DRAWN_SHARE
    position = duel.random_position(seed)
    if name == SLOTS:
        position = thinned(position, rng)
    with (mock.patch.object(duel, "duel_faces", lambda s: drawn_faces()) if drawn else
          contextlib.nullcontext()):
        frame = duel.render_duel(position, seed, split=split, difficulty=difficulty,
                                 framing=framing, lens=lens)
    cal = calibrate(frame.image, frame.layout)
    if cal is None:
        return [], []
    kinds = slot_net.KINDS if name == SLOTS else ("token",)
    places = [s for s in frame.layout.slots if s.kind in kinds]
    slots = [s for s, seen in zip(places, slots_visible(cal, places, frame.image.shape),
                                  strict=True) if seen and s.id not in frame.unseen]
    cal.prepare_slots(slots)
    classes = slot_net.CLASSES if name == SLOTS else CLASSES
    index = {c: i for i, c in enumerate(classes)}
    xs, ys = [], []
    for s in slots:
        h, gain = cal.h_for_slot(s), cal.gain_at(s.center)
        held = frame.contents.get(s.id)
        if name == SLOTS:
            xs.append(slot_net.crop(frame.image, h, s, gain))
            label = slot_net.PRESENT if held else slot_net.EMPTY
        else:
            xs.append(chip_net.crop(frame.image, h, s, gain))
            label = held or chip_net.EMPTY
        ys.append(index[slot_net.HIDDEN if s.id in frame.hidden else label])
    return xs, ys
