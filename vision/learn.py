"""Learning the colour classes from a frame of the freshly laid-out table.

At setup the table is known without reading it: every supply slot holds a
token of its printed colour (all of them in a 4-player game; the first 4 or 5
of each row with fewer players, so only slots read as non-empty are used),
the players' token slots are empty and the three decks lie face down.  The
classes are the median normalised colours of those places; a class with too
few samples keeps its previous value.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision import pixels, readers
from vision.calibrate import calibrate, rectify, slot_visible
from vision.colours import ColourModel
from vision.errors import VisionError
from vision.layout import Layout
from vision.locate import TOKEN_PX_PER_MM

MIN_SAMPLES = 2


def _token_ring(image: np.ndarray, h: np.ndarray, slot, gain: np.ndarray) -> np.ndarray:
    s = TOKEN_PX_PER_MM
    lab = pixels.lab_image(pixels.normalise(rectify(image, h, slot, s), gain))
    return np.median(lab[readers.token_ring(lab.shape[0], s)], axis=0)


def learn_colours(image: np.ndarray, layout: Layout, base: ColourModel | None = None,
                  source: str = "calibrate") -> ColourModel:
    base = base or ColourModel()
    cal = calibrate(image, layout)
    if cal is None:
        raise VisionError("no marker of the layout is visible; cannot learn colours")
    samples: dict[str, list[np.ndarray]] = {}
    back_samples: dict[str, list[np.ndarray]] = {}
    empty = np.asarray(base.tokens["empty"], np.float32)
    for slot in layout.slots:
        h = cal.h_for_slot(slot)
        if not slot_visible(h, slot, image.shape):
            continue
        gain = cal.gain_at(slot.center)
        if slot.kind == "token":
            lab = _token_ring(image, h, slot, gain)
            if slot.zone == "supply" and slot.colour:
                if pixels.lab_distance(lab, empty) > 25:  # a token lies there
                    samples.setdefault(slot.colour, []).append(lab)
            elif slot.zone.endswith(".tokens"):
                samples.setdefault("empty", []).append(lab)
        elif slot.kind == "deck":
            patch = pixels.normalise(rectify(image, h, slot, TOKEN_PX_PER_MM, -6.0),
                                      gain)
            back_samples.setdefault(str(slot.level), []).append(
                np.median(pixels.lab_image(patch).reshape(-1, 3), axis=0))
    tokens = dict(base.tokens)
    for k, v in samples.items():
        if len(v) >= MIN_SAMPLES:
            tokens[k] = tuple(float(x) for x in np.median(v, axis=0))
    backs = dict(base.backs)
    for k, v in back_samples.items():
        backs[k] = tuple(float(x) for x in np.median(v, axis=0))
    learned = sum(len(v) >= MIN_SAMPLES for v in samples.values()) + len(back_samples)
    if learned == 0:
        raise VisionError("no supply token, empty slot or deck visible; cannot learn colours")
    return replace(base, tokens=tokens, backs=backs, source=source)
