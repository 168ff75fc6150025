"""Learning the colour classes from a frame of the freshly laid-out table.

At setup the table is known without reading it: every supply slot holds a
token of its printed colour (all of them in a 4-player game; the first 4 or 5
of each row with fewer players, so only slots holding a chip are used).  The
classes are the median normalised colours of those chips' rims; a class with too
few samples keeps its previous value.

What is learned, and for whom: the chips' rims (``ColourModel.tokens``), which
the pile reader (:func:`vision.readers.read_pile`) names a pile's colour by.
Decks need no learned colour: the slots network reads them.  Token slots are
read by the chips network (:mod:`vision.chip_net`), which needs no learned
colour; it chooses the slots sampled here: a supply slot is sampled when the
network says it holds a chip (of any colour: the colours are what is learned),
so a chip under glare or a hand (``hidden``) or a slot left empty gives nothing.
A chip's rim is sampled where it is least like both the sticker inside it and
the slot's printed ring outside it (``_rim``).

A frame is learned from only when it shows what a set-up shows: the layout's
markers, at least ``MIN_CHIP_COLOURS`` of the six chip colours in the supply,
and those colours told apart (every two rims at least ``MIN_APART`` Lab units
from each other).  WHY: a grey or colourless frame with the mats in it gave
grey rims for every colour, was "learned" and then made the whole supply
unsure for the game (issue 41); the built-in colours read such a table better
than classes that cannot tell blue from red.  Rendered set-up frames put the
nearest two rims (blue and black) 72-78 apart (design world set-up frames and
``tests/vision/test_learn.py``'s); the same frames in grey put blue and red 6-9
apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

import cv2
import numpy as np

from companion.rules.gems import Gem
from vision import chip_net, pixels
from vision.calibrate import calibrate, rectify, slot_visible
from vision.colours import ColourModel
from vision.errors import VisionError
from vision.layout import Layout, Slot
from vision.slot_jobs import SlotJob

MIN_SAMPLES = 2
#: Chip colours a set-up frame must show (of six: one row may be under a hand).
MIN_CHIP_COLOURS = 5
#: The least Lab distance between two learned rim colours (see the module doc).
MIN_APART = 20.0
#: A chip is cut at this scale (px/mm): its rim (2.2-2.8 mm) is 6-8 px.
CHIP_PX_PER_MM = 3.0
#: Radii round the slot's centre (mm): the chip's sticker (to 17.6 mm: the publisher's
#: design chips, as ``vision.colours.CHIP_RIM_LAB`` notes) inside the band its rim
#: (17.8-20 mm) is looked for in, and the slot's printed ring (to 22 mm) outside it;
#: the band reaches a chip lying 1.5 mm off its slot's centre.
STICKER_AT_MM = (14.0, 16.0)
RIM_BAND_MM = (16.5, 21.5)
RING_AT_MM = (21.5, 22.0)
#: Directions round the slot the rim is looked for in.
RIM_RAYS = 32


def _rim(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> np.ndarray:
    """Median Lab of the rim of the chip in a token slot: along each of ``RIM_RAYS``
    rays from the slot's centre, the point of ``RIM_BAND_MM`` least like both the
    sticker inside it and the slot's ring outside it (medians of their bands); the
    median of those points.  WHY rays: the rim is a thin band whose place moves with
    the chip, and a design chip's sticker is shaded and the slot's fill as pale as it."""
    s = CHIP_PX_PER_MM
    lab = pixels.lab_image(pixels.normalise(rectify(image, h, slot, s, 1.0), gain))
    c = (lab.shape[0] - 1) / 2
    # a quarter of a pixel apart along each ray
    radii = np.arange(STICKER_AT_MM[0], RING_AT_MM[1] + 1e-6, 0.25 / s, dtype=np.float32)
    angles = np.linspace(0, 2 * np.pi, RIM_RAYS, endpoint=False, dtype=np.float32)
    mx = (c + s * radii[None, :] * np.cos(angles)[:, None]).astype(np.float32)
    my = (c + s * radii[None, :] * np.sin(angles)[:, None]).astype(np.float32)
    rays = cv2.remap(lab, mx, my, cv2.INTER_LINEAR)  # (rays, radii, 3)
    sticker = np.median(rays[:, radii <= STICKER_AT_MM[1]].reshape(-1, 3), axis=0)
    ring = np.median(rays[:, radii >= RING_AT_MM[0]].reshape(-1, 3), axis=0)
    band = rays[:, (radii >= RIM_BAND_MM[0]) & (radii <= RIM_BAND_MM[1])]
    unlike = np.minimum(pixels.lab_distance(band, sticker), pixels.lab_distance(band, ring))
    rim = band[np.arange(RIM_RAYS), unlike.argmax(axis=1)]
    return cast(np.ndarray, np.median(rim, axis=0))


def learn_colours(image: np.ndarray, layout: Layout, base: ColourModel | None = None,
                  source: str = "calibrate") -> ColourModel:
    """The colour classes under this frame's light, from a freshly laid-out table.

    Chips: each supply slot that the chips network says holds a chip (of any
    colour) gives its rim's colour to its row's letter.  A learned class replaces
    the stored one (the chips on this table, under this light); letters with
    fewer than ``MIN_SAMPLES`` chips keep theirs.
    """
    base = base or ColourModel()
    cal = calibrate(image, layout)
    if cal is None:
        raise VisionError("no marker of the layout is visible; cannot learn colours")
    supply: list[SlotJob] = []
    for slot in layout.slots:
        h = cal.h_for_slot(slot)
        if not slot_visible(h, slot, image.shape):
            continue
        gain = cal.gain_at(slot.center)
        if slot.kind == "token" and slot.zone == "supply" and slot.colour:
            supply.append(SlotJob(slot, image, h, gain))
    rims: dict[str, list[np.ndarray]] = {}
    for job, seen in zip(supply, chip_net.read_tokens(supply), strict=True):
        if seen.state == "token" and job.slot.colour:
            rims.setdefault(job.slot.colour, []).append(
                _rim(image, job.homography, job.slot, job.gain))

    def centre(v: list[np.ndarray]) -> tuple[float, float, float]:
        return tuple(float(x) for x in np.median(v, axis=0))  # type: ignore[return-value]

    learned = {k: centre(v) for k, v in rims.items() if len(v) >= MIN_SAMPLES}
    _check_setup(learned)
    return replace(base, tokens={**base.tokens, **learned}, source=source)


def _check_setup(rims: dict[str, tuple[float, float, float]]) -> None:
    """Refuse a frame whose chips are not those of a set-up (see the module doc)."""
    if len(rims) < MIN_CHIP_COLOURS:
        raise VisionError(
            f"only {len(rims)} of the 6 chip colours are seen in the supply (a set-up shows"
            f" at least {MIN_CHIP_COLOURS}); cannot learn colours")
    letters = sorted(rims)
    gap, a, b = min((float(np.linalg.norm(np.subtract(rims[a], rims[b]))), a, b)
                    for i, a in enumerate(letters) for b in letters[i + 1:])
    if gap < MIN_APART:
        raise VisionError(
            f"the chips' colours are not told apart ({Gem(a).label} and {Gem(b).label}"
            f" look alike: a grey or colourless picture?); cannot learn colours")


def learn_or_keep(image: np.ndarray, layout: Layout, base: ColourModel,
                  say: Callable[[str], object]) -> ColourModel:
    """The chips' colours learned from a game's set-up frame (the freshly
    laid-out table: supply full, players' slots empty, decks face down), under that
    game's light; ``base`` when the frame does not allow it.  ``say`` tells the user
    which (``run`` prints, ``demo`` echoes to its screen log).

    WHY here and not in each command: ``run`` and ``demo`` must learn alike, or the
    demo would measure a reader that the table never runs."""
    try:
        learned = learn_colours(image, layout, base, source="set-up frame")
    except VisionError as exc:
        say(f"Colours not learned at set-up ({exc}); using {base.source}.")
        return base
    say("Colours learned from the set-up frame, under this game's light.")
    return learned


class SetupColours:
    """The colours to read a new game's frames with, learned from its set-up frame.

    Learned from the first frame of the set-up that shows a set-up
    (:func:`learn_colours` accepts it); until then ``base`` serves.  A frame
    it refuses (the lights still off, a grey or an empty table) is said once
    per reason through ``say`` and ``refused`` (``run`` shows it on the
    screen), and the next frame of the set-up is tried.  WHY not only the
    first frame: a set-up that starts in the dark used to be read with the
    built-in colours all game although the table was lit a second later.
    """

    def __init__(self, layout: Layout, base: ColourModel, say: Callable[[str], object],
                 refused: Callable[[str], object] | None = None) -> None:
        self.layout = layout
        self.colours = base
        self.say = say
        self.refused = refused
        #: True once learned, or once the game started (no set-up frame any more)
        self.done = False
        self._said = ""

    def see(self, image: np.ndarray) -> ColourModel:
        """The colours to read ``image`` with, learned from it when it shows the set-up."""
        if self.done:
            return self.colours
        try:
            learned = learn_colours(image, self.layout, self.colours, source="set-up frame")
        except VisionError as exc:
            line = f"Colours not learned at set-up ({exc}); using {self.colours.source}."
            if line != self._said:
                self._said = line
                self.say(line)
                if self.refused is not None:
                    self.refused(line)
            return self.colours
        self.done, self.colours = True, learned
        self.say("Colours learned from the set-up frame, under this game's light.")
        return learned
