"""Learning the colour classes from a frame of the freshly laid-out table.

At setup the table is known without reading it: every supply slot holds a
token of its printed colour (all of them in a 4-player game; the first 4 or 5
of each row with fewer players, so only slots read as non-empty are used),
the players' token slots are empty and the three decks lie face down.  The
classes are the median normalised colours of those places; a class with too
few samples keeps its previous value.

A frame is learned from only when it shows what a set-up shows: the layout's
markers, at least ``MIN_CHIP_COLOURS`` of the six chip colours in the supply,
and those colours told apart (every two rims at least ``MIN_APART`` Lab units
from each other).  WHY: a grey or colourless frame with the mats in it gave
grey rims for every colour, was "learned" and then made the whole supply
unsure for the game (issue 41); the built-in colours read such a table better
than classes that cannot tell blue from red.  Rendered set-up frames put the
nearest two rims (blue and black) 73-76 apart; the same frames in grey put
blue and red 4-7 apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

import numpy as np

from companion.rules.gems import Gem
from vision import pixels, readers
from vision.calibrate import calibrate, rectify, slot_visible
from vision.colours import ColourModel
from vision.errors import VisionError
from vision.layout import Layout, Slot
from vision.locate import TOKEN_PX_PER_MM

MIN_SAMPLES = 2
#: Chip colours a set-up frame must show (of six: one row may be under a hand).
MIN_CHIP_COLOURS = 5
#: The least Lab distance between two learned rim colours (see the module doc).
MIN_APART = 20.0


def _fill(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> np.ndarray:
    """Median Lab of an empty slot's centre (16 mm): its printed grey under this light."""
    s = readers.CHIP_PX_PER_MM
    lab = pixels.lab_image(pixels.normalise(rectify(image, h, slot, s), gain))
    yy, xx = np.mgrid[0:lab.shape[0], 0:lab.shape[1]]
    c = (lab.shape[0] - 1) / 2
    return cast(np.ndarray, np.median(lab[np.hypot(xx - c, yy - c) <= 16 * s], axis=0))


def learn_colours(image: np.ndarray, layout: Layout, base: ColourModel | None = None,
                  source: str = "calibrate") -> ColourModel:
    """The colour classes under this frame's light, from a freshly laid-out table.

    Chips: each supply slot that shows a chip (found by its edge, not by colour)
    gives its rim's and its gem's colour to its row's letter; the players' empty
    slots give the fill's grey.  A learned class replaces the stored one (the
    chips on this table, under this light); letters with fewer than
    ``MIN_SAMPLES`` chips keep theirs.
    """
    base = base or ColourModel()
    cal = calibrate(image, layout)
    if cal is None:
        raise VisionError("no marker of the layout is visible; cannot learn colours")
    rims: dict[str, list[np.ndarray]] = {}
    gems: dict[str, list[np.ndarray]] = {}
    fills: list[np.ndarray] = []
    back_samples: dict[str, list[np.ndarray]] = {}
    for slot in layout.slots:
        h = cal.h_for_slot(slot)
        if not slot_visible(h, slot, image.shape):
            continue
        gain = cal.gain_at(slot.center)
        if slot.kind == "token":
            if slot.zone == "supply" and slot.colour:
                look = readers.look_at_chip(image, h, slot, gain, base.tokens["empty"])
                if look.rim is not None and readers.chip_seen(look):
                    rims.setdefault(slot.colour, []).append(look.rim)
                    if look.gem is not None:
                        gems.setdefault(slot.colour, []).append(look.gem)
            elif slot.zone.endswith(".tokens"):
                fills.append(_fill(image, h, slot, gain))
        elif slot.kind == "deck":
            patch = pixels.normalise(rectify(image, h, slot, TOKEN_PX_PER_MM, -6.0),
                                      gain)
            back_samples.setdefault(str(slot.level), []).append(
                np.median(pixels.lab_image(patch).reshape(-1, 3), axis=0))

    def centre(v: list[np.ndarray]) -> tuple[float, float, float]:
        return tuple(float(x) for x in np.median(v, axis=0))  # type: ignore[return-value]

    _check_setup({k: centre(v) for k, v in rims.items() if len(v) >= MIN_SAMPLES})

    tokens = dict(base.tokens)
    chip_gems = dict(base.chip_gems)
    learned = 0
    for k, v in rims.items():
        if len(v) >= MIN_SAMPLES:
            tokens[k] = centre(v)
            learned += 1
            if len(gems.get(k, [])) >= MIN_SAMPLES:
                chip_gems[k] = centre(gems[k])
    if len(fills) >= MIN_SAMPLES:
        tokens["empty"] = centre(fills)
        learned += 1
    backs = dict(base.backs)
    for k, v in back_samples.items():
        backs[k] = centre(v)
    learned += len(back_samples)
    if learned == 0:
        raise VisionError("no supply token, empty slot or deck visible; cannot learn colours")
    return replace(base, tokens=tokens, backs=backs, chip_gems=chip_gems, source=source)


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
    """The chips' and deck backs' colours learned from a game's set-up frame (the freshly
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
