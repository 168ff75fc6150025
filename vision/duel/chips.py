"""A Duel chip on a board cell or a player's token place: which kind, empty, or unsure.

A Duel chip (``DUEL_TOKEN_MM``) is, seen from above, a coloured rim round a pale
sticker with the gem in its centre (gold: gold all over).  The place is cut out
square round its centre (:func:`look_at_place`), the chip's outer edge found as
the circle of strongest colour gradient near the place's centre (the board lies
by hand in its frame and the chip on its cell: up to ~3 mm off), and three
colours measured in rings round its centre (the gem, the sticker, the rim, just
outside).  Those numbers are then compared with each class's measured spread
(:mod:`vision.duel.chip_classes`): the nearest class in units of its own spread
wins; too far from every class, or too near two, and the place is unsure.

An empty place shows its own ground (the board's cream cell with its printed
arrow, or the mat's grey token place): two classes of their own, so "empty" is
read like a kind and never assumed.  Glare (washed-out pixels) makes the place
unsure whatever the colours say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import cast

import cv2
import numpy as np

from vision.calibrate import rectify
from vision.colours import L_WEIGHT
from vision.layout import Slot
from vision.mats import PAPER, TOKEN_SLOT_FILL
from vision.pixels import lab_distance, lab_image, normalise

#: Scale the place is read at (px/mm): the rim (~1.9 mm on the design chips) is 7 px.
CHIP_PX_PER_MM = 4.0
#: The square cut round the place's centre (mm a side): a 25 mm chip up to 4 mm off.
PATCH_MM = 36.0
#: Where the chip's centre is searched (mm off the place's centre, each way: the board
#: up to 1.5 mm off in its frame and 0.8 deg turned, the chip 1.2 mm off its cell,
#: the calibration's error) and the radii of its outer edge (mm; the chip is 25 mm).
SHIFTS_MM = tuple(float(v) for v in np.arange(-4.0, 4.01, 0.5))
RADII_MM = (12.0, 12.4, 12.8)
#: The edge's strength is this percentile of the gradient along the found circle.
EDGE_QUANTILE = 25.0
#: The rings (mm from the found centre) whose colour is measured: the gem, the sticker,
#: the rim and just outside it.  Per ring: median L, a, b and the spread of L (its
#: inter-quartile range: a gem's facets, a cell's printed arrow, a uniform rim).
RINGS_MM = (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 11.0, 12.0, 13.0, 14.5)
FEATURES = 4 * (len(RINGS_MM) - 1) + 2
#: A player's place is white-balanced by the paper beyond this radius (mm) in its patch
#: (the corners between the places); the board's wood is sampled this far (mm) from a
#: cell's centre along each axis (half the cell pitch).
PAPER_FROM_MM = 17.5
GAP_MM = 14.4
#: The board's wood between cells (BGR, the darker quarter of the gap's pixels) after
#: the markers' white balance: the median over the cells of 3 easy design frames
#: (seeds 5000, 5003, 5006; 10-90 %: 72-126, 81-134, 114-166 under the lamp's fall-off).
#: A cell is white-balanced by its own surround mapped to this.
WOOD_BGR = (92, 101, 137)
#: A cell's balance is lowered until this percentile of its patch's brightest channel
#: stays at CLIP_LEVEL: clipped, a white or pearl chip and the cream are one colour.
CLIP_PERCENTILE = 98.0
CLIP_LEVEL = 250.0
#: The wood (L, the markers' white balance) is lighter than this only when glare
#: washes the board out: 80-200 over readable cells of design frames
#: (`.venv/bin/python tests/bench/duel_chip_classes.py --surround`).
SURROUND_MAX = 235.0
#: ... yet a coloured chip (blue, green, red, black, gold) still reads there when its
#: edge shows at least LIT_EDGE_MIN, at most LIT_WASHED_MAX of it is washed out and it
#: leads the second-nearest class by ``EMPTY_MIN_RATIO``: on 47 cells so lit of 144
#: design frames (seeds 9200-9211, 9600-9611, each difficulty and lens) the three
#: readable chips had edges 7.5-12.3, washed 0.01-0.15, leads 1.5-2.1; no cell under
#: glare or a hand passed all three (`.venv/bin/python tests/bench/duel_chip_ties.py
#: --count 12 --seeds 9200,9600 --lit`).
LIT_EDGE_MIN = 7.0
LIT_WASHED_MAX = 0.2
#: A player's empty place: at least FILL_EMPTY of its centre disc (FILL_DISC_MM) within
#: FILL_DIST (Lab) of the printed grey fill; at most FILL_CHIP of it and the place
#: holds a chip (its kind is then read among the chips only).
FILL_DISC_MM = 10.0
FILL_DIST = 20.0
FILL_EMPTY = 0.85
FILL_CHIP = 0.3
_FILL_LAB = lab_image(np.array([[TOKEN_SLOT_FILL]], np.uint8))[0, 0]
#: A pixel is washed out when its darkest channel (as recorded, before white
#: balance) reaches this; more than ``WASHED_MAX`` of the chip so: glare, unsure.  A
#: white chip's rim and crystal reach 245 under a bright lamp (0.11 of a readable white
#: chip at 245 on design frame easy 300): only a larger, flatter white is glare.
WASHED_LEVEL = 250
WASHED_MAX = 0.25
#: ... but a board cell so washed is still read when its border and arrow speak: a lamp
#: bright enough lifts the cream cells past 250 with no glare on them (design frame
#: medium 7005: eight readable cells 30-84 % washed).  Empty only with the arrow's dark
#: line showing; a chip only with its outline across the cell's border; alike all round
#: and no arrow: unsure (a washed pearl is then the cream itself: standard hard 7005).
#: On medium and hard design frames with glare (seeds 5000-5019 and 7000-7019, both
#: lenses; look_at_place and judge_place over every washed cell) 15 readable washed
#: cells so read, all right, none of the cells under glare answered; what is left
#: shows in `splendor-companion vision world --game duel --split design --difficulty
#: medium,hard --lens wide,standard --count 20 --seed 7000 --mistakes`.
#: A cell alike all round (``BORDER_EMPTY``) with the ends of its sides plain
#: (``PLAIN_OUTLINE_MIN``), no chip's outline (``LINED_EDGE_MAX``) and an arrow's line
#: of at least ALIKE_LINE_MIN is empty: on 576 design frames (seeds 9000-9700, 12 a
#: difficulty, both lenses) 7374 places so, every one an empty cell (54 under a hand),
#: where white chips' lines reach 10.1 (``LINE_EMPTY``); dim empty cells tied with white
#: had lines 13.1-18.5 (`.venv/bin/python tests/bench/duel_chip_ties.py --count 12
#: --seeds 9000,9100,9200,9300,9400,9500,9600,9700 --pink`, "alike, lined").
ALIKE_LINE_MIN = 12.0
#: ... there the arrow, faded by the clipped cream round it, shows at least
#: WASHED_LINE_MIN (its line, :func:`arrow_line`) with the centre within WASHED_PLAIN_MAX
#: of the cell's cream (:func:`plain_centre`): on 576 design frames (seeds 9000-9700,
#: 12 a difficulty, both lenses) the washed cells alike all round (border at most
#: BORDER_EMPTY) with a centre so plain were 20 readable empty cells, lines 4.3-57.8,
#: and chips under glare or a hand, lines 0-2.8 (a clipped chip is flat white)
#: (`.venv/bin/python tests/bench/duel_chip_ties.py --count 12 --seeds
#: 9000,9100,9200,9300,9400,9500,9600,9700 --pink`, "washed").
WASHED_LINE_MIN = 4.0
WASHED_PLAIN_MAX = 5.0
#: An empty cell shows the board's printed arrow: a thin dark line from the cell's
#: centre to a side.  Its strength: along each half-axis from ARROW_FROM_MM to
#: ARROW_TO_MM, the lower quartile of how much darker the line is than the cell
#: ARROW_SIDE_MM either side (L), the line searched ARROW_SHIFT_MM across.
ARROW_FROM_MM = 3.0
ARROW_TO_MM = 9.0
ARROW_SIDE_MM = 1.25
ARROW_SHIFT_MM = 3.0
#: A cell's border, across each side (mm from the cell's centre: the cream square's
#: edge lies at 11.7, a chip's at 12.5, the neighbour's chip from 15), compared between
#: the side's middle (|along| <= BORDER_MID_MM) and its ends (BORDER_ENDS_MM), which no
#: chip on the cell reaches.
BORDER_ACROSS_MM = (8.0, 14.5)
BORDER_MID_MM = 3.0
BORDER_ENDS_MM = (7.0, 10.0)
#: The centre disc (radius, mm) compared with the cell's cream by :func:`plain_centre`.
PLAIN_DISC_MM = 8.0
#: A cell with its border alike all round (BORDER_EMPTY) and a centre at most this far
#: from the cell's cream (:func:`plain_centre`) is empty if "empty" is the nearest class
#: at all (the arrow, blurred by a shaking hand or absent on the spiral's last cell,
#: cannot tell), and unsure if another class is (an empty last cell read "w" on design
#: frame standard hard 9005).  Readable cells of 60 design frames so: 761 of 823 empty ones (658 at
#: 6.0), 1 of 69 white chips (washed out; the same at 6.0), no other chip (0 of 395)
#: (`.venv/bin/python tests/bench/duel_chip_classes.py --plain --border --frames 60`).
PLAIN_EMPTY = 10.0
#: ... this far when the ends of the cell's sides show its printed border plainly
#: (``outline`` at least PLAIN_OUTLINE_MIN): under hard light an empty cell's centre
#: lies 10-16 from its cream (empty last cells tied with "w" at 10.1-15.4), while a
#: hand over a chip, which also leaves the border alike and the centre plain, hides
#: those ends (outline 10-16).  On 144 design frames (seeds 9200-9211, 7000-7011, each
#: difficulty and lens) no readable chip has its border alike at all; 6 readable
#: empty cells more read, no hidden cell more answered (the spreads:
#: `.venv/bin/python tests/bench/duel_chip_classes.py --plain --outline --frames 60`;
#: the counts: `splendor-companion vision world --game duel --split design --seed
#: 9200 --count 12 --mistakes`, both lenses, and the same at --seed 7000).
PLAIN_EMPTY_CLEAR = 16.0
PLAIN_OUTLINE_MIN = 30.0
#: Such a cell (border alike, centre within PLAIN_EMPTY_CLEAR, outline at least
#: PLAIN_OUTLINE_MIN, at most LIT_WASHED_MAX washed) is empty before its colours are
#: asked: on 288 design frames (seeds 9200-9211, 9300-9311, 9400-9411, 9600-9611, each
#: difficulty and lens) all 3821 readable cells so are empty, 7 of them left unsure by
#: their colours (dim last cells tied with "w", a sleeve's colour beside an arrowed
#: cell); of the hidden cells so one chip under a hand, already read empty
#: (`.venv/bin/python tests/bench/duel_chip_ties.py --count 12 --seeds
#: 9200,9300,9400,9600 --cream`, "plain-clear").  The same with the arrow's line
#: showing (``LINE_EMPTY``) and the border up to LINED_BORDER_MAX (a shadow's or a lamp's
#: edge across the cell lifts it past BORDER_EMPTY): on those frames 3595 readable
#: cells so, all empty, 3 left unsure by their colours, no chip so up to a border of 16.
LINED_BORDER_MAX = 12.0
#: ... and past LINED_BORDER_MAX, and where the wood round the cell is lit up
#: (``SURROUND_MAX``), the arrow's line, a plain centre and plain ends still say empty:
#: a lamp's veil on the neighbours' chips, or a sleeve's shadow, spreads over the cell's
#: corners and lifts its border to 12-42 while the arrow shows whole.  On 216 design
#: frames (seeds 9000, 9100, 9500: 12 a difficulty and lens) no readable chip has its
#: arrow line, plain centre and plain ends together (2609 empty cells do; 9 of them left
#: unsure by their border or the lit wood, every one now read empty) (`.venv/bin/python
#: tests/bench/duel_chip_ties.py --count 12 --seeds 9000,9100,9500 --cream`,
#: "lined-clear" and "lined-clear+").  Its confidence is then the line's lead over LINE_EMPTY.


@dataclass(frozen=True)
class PlaceLook:
    """What a token place shows, measured: the nine colours, the edge, the glare."""

    #: per ring of ``RINGS_MM``: L less the rings' mean L, a, b, spread of L (Lab, 8-bit
    #: scale); then the rings' mean L and the edge
    features: np.ndarray
    edge: float
    offset: tuple[float, float]
    radius: float
    washed: float
    #: share of the centre (``FILL_DISC_MM``) that is the mat's grey place fill (0 on the
    #: board): an empty player's place is that fill all over, a chip's sticker is cream
    fill: float = 0.0
    #: lightness (Lab L, white-balanced) of the board's wood between this cell and its
    #: neighbours (0 off the board): glare lifts it
    surround: float = 0.0
    #: strength of the printed arrow's line through the cell's centre (0 off the board):
    #: strong only on an empty cell (:func:`arrow_line`)
    line: float = 0.0
    #: how much the middles of the cell's sides differ from their ends (Lab; the second
    #: least of the four sides; 0 off the board): small only on an empty cell
    #: (:func:`border_change`)
    border: float = 0.0
    #: how plainly the ends of the cell's sides show the printed border (L range across
    #: it, the second least of the four sides; 0 off the board): a hand over the cell
    #: hides them
    outline: float = 0.0
    #: how far the cell's centre is from the cell's own cream (:func:`plain_centre`; 0
    #: off the board): small only on an empty cell
    plain: float = 0.0
    #: the glare-blind colours (:func:`veil_features`; empty off the board)
    veil: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    #: how pink the chip's rim is against the cell's cream (:func:`rim_pink`; 0 off the
    #: board): a pearl's rim is pink, a white chip's grey
    pink: float = 0.0


@lru_cache(maxsize=4)
def _maps(n: int, s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ang = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    cand = np.array([(dx, dy, r) for r in RADII_MM for dy in SHIFTS_MM for dx in SHIFTS_MM],
                    np.float32)
    c = (n - 1) / 2
    xs = c + (cand[:, :1] + cand[:, 2:] * np.cos(ang)[None]) * s
    ys = c + (cand[:, 1:2] + cand[:, 2:] * np.sin(ang)[None]) * s
    return xs.astype(np.float32), ys.astype(np.float32), cand


@lru_cache(maxsize=4)
def _grid(n: int, s: float) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    c = (n - 1) / 2
    return (xx - c) / s, (yy - c) / s


def look_at_place(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
                  centre: tuple[float, float] | None = None) -> PlaceLook:
    """Measure the token place ``slot`` (or a square round ``centre``, table mm)."""
    s = CHIP_PX_PER_MM
    raw = rectify(image, h, slot, s, 0.0, (PATCH_MM, PATCH_MM), centre)
    n = raw.shape[0]
    gx, gy = _grid(n, s)
    on_board = slot.zone == "board"
    if not on_board:  # a player's place: the paper between the places sets the white
        paper = np.median(raw[np.hypot(gx, gy) > PAPER_FROM_MM], axis=0).astype(np.float32)
        local = np.asarray(PAPER, np.float32) / np.maximum(paper, 1.0)
        if float(np.abs(local / local.mean() - 1).max()) < 0.25 and 0.5 < local.mean() < 4.0:
            gain = local
    surround = 0.0
    if on_board:  # a cell: the board's wood between the cells sets the white
        gap = (np.abs(np.abs(gx) - GAP_MM) < 1.2) & (np.abs(gy) < 3.0) | (
            (np.abs(np.abs(gy) - GAP_MM) < 1.2) & (np.abs(gx) < 3.0))
        wood = np.percentile(raw[gap], 25, axis=0).astype(np.float32)
        surround = float(lab_image(normalise(wood.astype(np.uint8).reshape(1, 1, 3), gain)
                                   )[0, 0, 0])
        local = np.asarray(WOOD_BGR, np.float32) / np.maximum(wood, 1.0)
        if float(np.abs(local / local.mean() - 1).max()) < 0.3 and 0.4 < local.mean() < 4.0:
            # the wood's colour sets the balance, the markers the level: the wood's own
            # level would lift the cream cells past white (41 % of an empty cell's
            # patch clipped at the median on design frames)
            gain = local * float(np.mean(gain)) / float(local.mean())
        # ... unless that level clips the cell: a white chip on its cream then reads as
        # the cream itself (54 % of the patch clipped, standard medium 7007 board.2)
        bright = float(np.percentile(raw.max(axis=2), CLIP_PERCENTILE))
        top = bright * float(np.max(gain))
        if top > CLIP_LEVEL:
            gain = gain * (CLIP_LEVEL / top)
    lab = cv2.GaussianBlur(lab_image(normalise(raw, gain)), (0, 0), 0.7)
    grad = np.zeros(lab.shape[:2], np.float32)
    for ch, w in zip(cv2.split(lab), (L_WEIGHT, 1.0, 1.0), strict=True):
        grad += w * (np.abs(cv2.Sobel(ch, cv2.CV_32F, 1, 0)) +
                     np.abs(cv2.Sobel(ch, cv2.CV_32F, 0, 1))) / 8
    xs, ys, cand = _maps(n, s)
    along = cv2.remap(grad, xs, ys, cv2.INTER_LINEAR)
    # the edge's strength all round (its lower quartile): a chip's rim is a circle; an
    # empty cell's square border, or a neighbour's rim, meets a circle in places only
    q = int(along.shape[1] * EDGE_QUANTILE / 100)
    low = np.partition(along, q, axis=1)[:, q]
    k = int(low.argmax())
    edge = float(low[k])
    ox, oy, radius = (float(v) for v in cand[k])
    r = np.hypot(gx - ox, gy - oy)
    feats: list[float] = []
    for lo, hi in pairwise(RINGS_MM):
        px = lab[(r >= lo) & (r < hi)]
        q25, q50, q75 = np.percentile(px[:, 0], (25, 50, 75))
        med = np.median(px[:, 1:], axis=0)
        feats += [float(q50), float(med[0]), float(med[1]), float(q75 - q25)]
    # lightness relative to the place's mean (a lamp's spot lifts it all), the mean apart
    rings = np.asarray(feats, np.float32).reshape(-1, 4)
    mean_l = float(rings[:, 0].mean())
    rings[:, 0] -= mean_l
    inside = r <= radius
    darkest = raw.min(axis=2)
    washed = float((darkest[inside] >= WASHED_LEVEL).mean())
    fill = 0.0
    if not on_board:
        centre_px = lab[np.hypot(gx, gy) <= FILL_DISC_MM]
        fill = float((lab_distance(centre_px[None], _FILL_LAB)[0] < FILL_DIST).mean())
    line = arrow_line(lab[..., 0]) if on_board else 0.0
    border, outline = border_change(lab) if on_board else (0.0, 0.0)
    plain = plain_centre(lab, gx, gy) if on_board else 0.0
    veil = veil_features(raw, gain, r) if on_board else np.zeros(0, np.float32)
    pink = rim_pink(lab, gx, gy) if on_board else 0.0
    return PlaceLook(np.asarray([*rings.ravel(), mean_l, edge], np.float32), edge, (ox, oy),
                     radius, washed, fill, surround, line, border, outline, plain, veil, pink)


#: The rings (mm from the chip's found centre) of :func:`veil_features`: the chip only
#: (its gloss, so its glare, is one; the wood round it shines less).
VEIL_RINGS_MM = (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 11.0, 12.0)
#: A pixel with a channel at this (as recorded) is clipped; a ring's colour is taken
#: over its unclipped pixels when at least VEIL_KEPT of them are.
VEIL_CLIPPED = 250
VEIL_KEPT = 0.3


def veil_features(raw: np.ndarray, gain: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Colours of the chip that a lamp's glare does not change: per ring of
    ``VEIL_RINGS_MM``, the median of red less green and of blue less green, and the
    ring's grey less the whole chip's (the white-balanced sensor values, unclipped).

    WHY: the world's glare (:func:`vision.synth.world._photograph`, as a real lamp's
    reflection) adds the same light to every channel of a pixel.  Channel differences
    are then unchanged at every pixel, and grey differences across the chip nearly
    so (the spot is smooth over 25 mm), while the Lab colours of
    :func:`look_at_place` fade towards white: a veiled green chip sits between
    "green" and "white" there (design frame medium 9411, board.17) and not here."""
    bal = cv2.GaussianBlur(raw.astype(np.float32) * gain.astype(np.float32), (0, 0), 0.7)
    grey = bal.mean(axis=2)
    rg = bal[..., 2] - bal[..., 1]
    bg = bal[..., 0] - bal[..., 1]
    # a clipped channel no longer adds the glare: its differences shrink towards white
    unclipped = raw.max(axis=2) < VEIL_CLIPPED
    inside = r < VEIL_RINGS_MM[-1]
    mean_grey = float(np.median(grey[inside]))
    out: list[float] = []
    for lo, hi in pairwise(VEIL_RINGS_MM):
        ring = (r >= lo) & (r < hi)
        kept = ring & unclipped
        use = kept if kept.sum() >= VEIL_KEPT * ring.sum() else ring
        out += [float(np.median(rg[use])), float(np.median(bg[use])),
                float(np.median(grey[ring])) - mean_grey]
    return np.asarray(out, np.float32)


#: The ring (mm from the cell's centre) where a chip's rim lies wherever the chip sits
#: on its cell (the rim 10.6-12.5 mm from the chip's centre, the chip up to 2 mm off),
#: and the share of its pixels, the pinkest, whose a* :func:`rim_pink` takes.
PINK_RING_MM = (9.0, 12.5)
PINK_QUANTILE = 90.0


def _cell_cream(lab: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """The cell's own cream (Lab): the median just inside the ends of its sides,
    which no chip on the cell reaches."""
    a = np.abs(gx)
    b = np.abs(gy)
    ends = ((a > BORDER_ENDS_MM[0]) & (a < BORDER_ENDS_MM[1]) & (b > 8.0) & (b < 10.0)) | (
        (b > BORDER_ENDS_MM[0]) & (b < BORDER_ENDS_MM[1]) & (a > 8.0) & (a < 10.0))
    return cast(np.ndarray, np.median(lab[ends], axis=0))


def rim_pink(lab: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> float:
    """How pink the ring where a chip's rim lies is against the cell's cream (a*, the
    ``PINK_QUANTILE`` percentile over ``PINK_RING_MM``, less the cream's).

    WHY: a pearl's rim is a thin pink ring, a white chip's grey; under a dim or veiled
    light the rings' medians of :func:`look_at_place` (the chip's centre found from a
    faint edge, a few millimetres off) blur that ring with the sticker and the cream,
    while its pinkest pixels round the cell's centre still show it."""
    cream = _cell_cream(lab, gx, gy)
    r = np.hypot(gx, gy)
    ring = lab[(r >= PINK_RING_MM[0]) & (r < PINK_RING_MM[1])][:, 1].astype(np.float32)
    return float(np.percentile(ring, PINK_QUANTILE)) - float(cream[1])


def plain_centre(lab: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> float:
    """How far the cell's centre is from the cell's own cream (Lab, the upper quartile
    over the centre disc ``PLAIN_DISC_MM``): the cream is the median just inside the
    ends of the cell's sides, which no chip on the cell reaches.  An empty cell's
    centre is that cream but for the arrow's thin line; a chip's is a gem, a pearl or
    gold."""
    cream = _cell_cream(lab, gx, gy)
    centre = lab[np.hypot(gx, gy) <= PLAIN_DISC_MM].astype(np.float32)
    return float(np.percentile(np.sqrt(((centre - cream) ** 2).sum(axis=1)), 75))


@lru_cache(maxsize=4)
def _border_maps(n: int, s: float) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]:
    """Per side (right, left, below, above): remap maps of the points across it
    (rows) at the side's middle and at its two ends (columns), and which are which."""
    c = (n - 1) / 2
    across = np.arange(BORDER_ACROSS_MM[0], BORDER_ACROSS_MM[1] + 1e-6, 0.25)
    lo, hi = BORDER_ENDS_MM
    ends = np.arange(lo, hi + 1e-6, 0.5)
    along = np.concatenate([np.arange(-BORDER_MID_MM, BORDER_MID_MM + 1e-6, 0.5), -ends, ends])
    mid = np.abs(along) <= BORDER_MID_MM
    u = np.broadcast_to(across[:, None], (len(across), len(along)))
    v = np.broadcast_to(along[None, :], u.shape)
    out = []
    for sx, sy, swap in ((1, 1, False), (-1, 1, False), (1, 1, True), (1, -1, True)):
        a, b = (v, u) if swap else (u, v)
        xs = c + sx * a * s
        ys = c + sy * b * s
        out.append((xs.astype(np.float32), ys.astype(np.float32), mid))
    return tuple(out)


def border_change(lab: np.ndarray) -> tuple[float, float]:
    """How much a cell's border looks different at the middle of its sides than at
    their ends (Lab distance, root mean square across the border; the second least of
    the four sides).

    A chip (25 mm) on a cell (23.3 mm) covers the middle of each side of the cell's
    cream square and never its ends, so on an empty cell the border is the same all
    along each side and under a chip it is not.  The cell is its own reference: the
    light, the blur and the board's print are the same at a side's middle and ends.
    The second least side: a side next to the board's edge or reminder strip differs
    all along, and a chip pushed towards one side may leave that one nearly alike.

    Also returns how plainly the ends show the border (the L range across it, the
    second least side, as a chip's glare or the board's edge may spoil one): no chip
    on the cell reaches the ends, so when they show no border something else lies
    over the cell."""
    sides, outline = [], []
    for xs, ys, mid in _border_maps(lab.shape[0], CHIP_PX_PER_MM):
        p = cv2.remap(lab.astype(np.float32), xs, ys, cv2.INTER_LINEAR)
        middle = np.median(p[:, mid], axis=1)
        ends = np.median(p[:, ~mid], axis=1)
        sides.append(float(np.sqrt(((middle - ends) ** 2).sum(axis=1).mean())))
        outline.append(float(np.ptp(ends[:, 0])))
    return sorted(sides)[1], sorted(outline)[1]


@lru_cache(maxsize=4)
def _arrow_maps(n: int, s: float) -> tuple[np.ndarray, np.ndarray]:
    """Sample points of the arrow search: (rays x shifts x 3 lines [side, centre, side])
    rows of points along the ray, as remap maps."""
    c = (n - 1) / 2
    along = np.arange(ARROW_FROM_MM, ARROW_TO_MM + 1e-6, 0.25)
    shifts = np.arange(-ARROW_SHIFT_MM, ARROW_SHIFT_MM + 1e-6, 0.25)
    xs, ys = [], []
    for sign in (1.0, -1.0):
        for horizontal in (True, False):
            for d in shifts:
                for off in (-ARROW_SIDE_MM, 0.0, ARROW_SIDE_MM):
                    u = c + sign * along * s
                    v = np.full_like(u, c + (d + off) * s)
                    xs.append(u if horizontal else v)
                    ys.append(v if horizontal else u)
    return np.asarray(xs, np.float32), np.asarray(ys, np.float32)


def arrow_line(lightness: np.ndarray) -> float:
    """How strongly a dark straight line runs from the cell's centre along an axis (L).

    The board prints an arrow on every cell but the spiral's last (a line from the
    centre to a side, a triangle on it); a chip on the cell hides it.  A white, pearl
    or gold chip is otherwise near the cell's cream, so this tells them from an empty
    cell where their colours do not.  Measured on the cell-centred patch, the line
    searched a few millimetres across (the board lies by hand in its frame)."""
    xs, ys = _arrow_maps(lightness.shape[0], CHIP_PX_PER_MM)
    v = cv2.remap(lightness.astype(np.float32), xs, ys, cv2.INTER_LINEAR)
    v = v.reshape(-1, 3, xs.shape[1])
    darker = (v[:, 0] + v[:, 2]) / 2 - v[:, 1]
    return float(np.percentile(darker, 25, axis=1).max())


@dataclass(frozen=True)
class ChipReading:
    """A place read: ``value`` a token letter, ``""`` empty, None unsure."""

    value: str | None
    confidence: float
    why: str = ""


#: A class's spread is never taken below this (Lab units for the colours, gradient
#: units for the edge): a class measured on alike samples would otherwise refuse its
#: own slight variations.
MIN_SPREAD = np.array([4.0] * (FEATURES - 1) + [1.5], np.float32)
#: How much each feature counts: per ring its lightness (relative to the place's mean),
#: colour and texture alike; the mean lightness half (a shadow or a lamp's spot the
#: white balance leaves changes it most); the edge (a chip's outline or none) as much
#: as four features.
WEIGHTS = np.array([1.0] * (FEATURES - 2) + [0.5, 4.0], np.float32)
#: Largest distance (in units of the class's spread, root mean square over the nine
#: features) at which a place still belongs to its nearest class.
MAX_DISTANCE = 3.5
#: The second-nearest class must be this many times farther than the nearest.
MIN_RATIO = 1.3
#: "Empty" needs a clearer lead: a white chip found off its centre passed for an empty
#: cell at 1.31 (design frame easy 1000, board.21); empty cells lead by 3-5 as a rule.
#: 2.0 cost a fifth of the board in abstentions on 12 design frames, 1.5 a seventh
#: (`splendor-companion vision world --game duel --split design --count 4 --seed 1000`).
EMPTY_MIN_RATIO = 1.5
#: A cell whose arrow line (:func:`arrow_line`) is at least this strong holds no white,
#: pearl or gold chip: on readable cells of 60 design frames those reach 10.1, 9.0 and
#: 17.1, empty cells 52.8 as a rule, 30.2 at the fifth percentile (the spiral's last
#: cell has no arrow)
#: (`.venv/bin/python tests/bench/duel_chip_classes.py --arrow --frames 60`).
LINE_EMPTY = 20.0
#: The spiral's last cell (board order): the one cell printed without an arrow, so its
#: empty look is a class of its own (``e.24`` in :mod:`vision.duel.chip_classes`).
LAST_CELL = 24
#: ... and "empty" there needs this lead either way: with no arrow, the empty cell lies
#: about twice as near a white chip as the arrows' cells do (e.24 at 0.4-1.2, w at
#: 1.2-1.5 on design frames; one empty read "w" at 0.85 against 1.52, hard seed 1001)
#: (`.venv/bin/python tests/bench/duel_chip_classes.py --frames 30`, then
#: `splendor-companion vision world --game duel --split design --count 5 --seed 1000`).
LAST_CELL_MIN_RATIO = 2.0
#: ... unless the chip's edge is this strong: no empty cell's reaches it (at most 8.7
#: over 1976 readable empty cells of 144 design frames, seeds 9200-9211 and 9600-9611),
#: where a gold chip in a shadow's edge showed a line of 23 with an edge of 18
#: (design frame standard hard 9603, board.21).
LINED_EDGE_MAX = 12.0
#: A cell's border change (:func:`border_change`) and its arrow (:func:`arrow_line`)
#: together.  On readable cells of 60 design frames: empty cells 4.1-7.8 (5-95 %, at
#: most 23.9; the last cell 3.9-7.6), pearls from 14.0, white chips 17.8 at the fifth
#: percentile, other kinds higher (a washed-out chip lower: glare is read apart)
#: (`.venv/bin/python tests/bench/duel_chip_classes.py --border --frames 60`).
#: At most BORDER_EMPTY: empty with the arrow showing, else empty or a white or pearl
#: chip; above it with no arrow showing, or at least BORDER_CHIP: a chip.
BORDER_EMPTY = 8.0
BORDER_CHIP = 25.0
#: The ends of a cell's sides (never under its chip) show the printed border at least
#: this plainly (L range across it, :func:`border_change`), or something lies over the
#: cell: readable cells of 60 design frames 57-75 at the fifth percentile of each kind,
#: cells under a hand 3.8 as a rule, under glare 0-29
#: (`.venv/bin/python tests/bench/duel_chip_classes.py --outline --frames 60`).
OUTLINE_MIN = 10.0


Prototype = tuple[tuple[float, ...], tuple[float, ...]]


def _distance(look: PlaceLook, prototypes: tuple[Prototype, ...]) -> float:
    """Distance to the nearest prototype of a class, in units of its spread."""
    best = float("inf")
    for mean, spread in prototypes:
        z = (look.features - np.asarray(mean)) / np.maximum(np.asarray(spread), MIN_SPREAD)
        best = min(best, float(np.sqrt((WEIGHTS * z * z).sum() / WEIGHTS.sum())))
    return best


def lined_clear(look: PlaceLook) -> bool:
    """Whether a board cell shows its printed arrow (``LINE_EMPTY``, no chip's outline
    past ``LINED_EDGE_MAX``), a centre that is its own cream (``PLAIN_EMPTY_CLEAR``) and
    the ends of its sides plainly (``PLAIN_OUTLINE_MIN``), at most ``LIT_WASHED_MAX``
    washed out: what only an empty cell shows (a chip hides the arrow and the cream)."""
    return (look.line >= LINE_EMPTY and look.edge < LINED_EDGE_MAX
            and look.plain <= PLAIN_EMPTY_CLEAR and look.outline >= PLAIN_OUTLINE_MIN
            and look.washed <= LIT_WASHED_MAX)


#: A white chip washed towards the cell's cream by a lamp reads "empty" by its colours;
#: where the cell's arrow is gone (``PALE_LINE_MAX``), its border changed (above
#: ``BORDER_EMPTY``) and the ends of its sides show plainly, at least this plainly
#: (``outline``), it is read white.  On 576 design frames (seeds 9000-9700, 12 a
#: difficulty, both lenses) the cells so left unsure (on a cell with an arrow) were 7
#: readable white chips (ends 24-116; 6 from 79), one readable empty cell (52), 33
#: places under a hand (18-65) and 8 under glare (18-81, the 81 a white chip)
#: (`.venv/bin/python tests/bench/duel_chip_ties.py --count 12 --seeds
#: 9000,9100,9200,9300,9400,9500,9600,9700 --pink`, "w by the border, e by the colours").
PALE_OUTLINE_MIN = 75.0
#: ... and its arrow's line at most this (white chips reach 10.1, ``LINE_EMPTY``; the
#: readable empty cell so left unsure had a faint arrow of 16.4, standard hard 9706
#: board.3).
PALE_LINE_MAX = 12.0


def pale_chip(look: PlaceLook, by_border: str, by_colours: str, arrow: bool) -> bool:
    """Whether a cell whose border says white and whose colours say empty is a white
    chip: its arrow hidden (the cell has one), its border changed and its sides' ends
    plain (:data:`PALE_OUTLINE_MIN`: nothing but a chip over the cell)."""
    return (by_border == "w" and by_colours == "e" and arrow and look.line <= PALE_LINE_MAX
            and look.border > BORDER_EMPTY and look.outline >= PALE_OUTLINE_MIN)


def alike_lined(look: PlaceLook) -> bool:
    """Whether a board cell is alike all round with the ends of its sides plain, no
    chip's outline and an arrow's line of at least ``ALIKE_LINE_MIN``."""
    return (look.border <= BORDER_EMPTY and look.line >= ALIKE_LINE_MIN
            and look.edge < LINED_EDGE_MAX and look.outline >= PLAIN_OUTLINE_MIN)


#: An empty cell with a printed arrow shows its line (:func:`arrow_line`) at least this:
#: on the design frames of seeds 9000-9700 (576: 12 a difficulty and lens) the
#: readable cells answered empty showed lines from 4.3 (18.2 at the first percentile),
#: the chips under a hand answered empty 0.8-3.1: a hand over a chip can leave the
#: border alike and the centre plain, never the arrow (`.venv/bin/python
#: tests/bench/duel_frame_cache.py judge --held 9800,9900 --marks`).
EMPTY_LINE_MIN = 3.5
#: A white chip shows its outline (``edge``) at least this: on those frames the
#: readable white chips answered white had edges from 2.9 (4.1 at the first
#: percentile), the places under a hand answered white wrongly 1.1-8.1 (2.1 at the
#: median; same command).
WHITE_EDGE_MIN = 3.3


def judge_place(look: PlaceLook, classes: dict[str, tuple[Prototype, ...]],
                allowed: str, empty_ratio: float = EMPTY_MIN_RATIO,
                arrow: bool = True) -> ChipReading:
    """The reading of a measured place among ``allowed`` classes (letters, and
    ``e`` / ``E``: the board's empty cell / the mat's empty place); each class is one
    or more prototypes (mean and spread of the features), the nearest counts.
    ``empty_ratio``: the lead "empty" or a chip needs when the two nearest are those;
    ``arrow``: whether the cell has a printed arrow (all but the spiral's last).

    On a board cell, an answer the cell's own marks do not bear out stands but is
    never sure (confidence 0): "empty" where the cell's arrow does not show
    (``EMPTY_LINE_MIN``), white where no chip's outline does (``WHITE_EDGE_MIN``).
    WHY: a hand over a chip hides both, and its skin or sleeve, pale and plain, is
    what the colours then call empty or white."""
    got = _judge_place(look, classes, allowed, empty_ratio, arrow)
    if "e" not in allowed or got.confidence == 0.0:
        return got
    if got.value == "" and arrow and look.line < EMPTY_LINE_MIN:
        return ChipReading("", 0.0, f"empty, but no arrow shows ({look.line:.1f})")
    if got.value == "w" and look.edge < WHITE_EDGE_MIN:
        return ChipReading("w", 0.0, f"w, but no chip's outline shows ({look.edge:.1f})")
    return got


# C901: one ladder of evidence per cell, in the order the reader weighs it; the
# lead's reader work owns this module (split it there, not in a lint pass).
def _judge_place(look: PlaceLook, classes: dict[str, tuple[Prototype, ...]],  # noqa: C901
                 allowed: str, empty_ratio: float, arrow: bool) -> ChipReading:
    """:func:`judge_place` before the cell's marks are asked to bear its answer out."""
    washed = look.washed > WASHED_MAX
    if "e" in allowed and arrow and lined_clear(look):
        # the printed arrow whole, the centre the cell's cream, the ends of its sides
        # plain: an empty cell, whatever a lamp's veil or a shadow does to its border
        return ChipReading("", max(1.0 - look.border / BORDER_CHIP,
                                   1.0 - LINE_EMPTY / look.line))
    if "e" in allowed and arrow and alike_lined(look):
        # alike all round, its ends plain and an arrow's line showing, if faintly: an
        # empty cell, whatever the colours or the lit wood say (a dim cell's cream
        # nears white's)
        return ChipReading("", 1.0 - look.border / BORDER_CHIP)
    if look.surround > SURROUND_MAX:
        return _lit_chip(look, classes, allowed)
    if washed and "e" not in allowed:
        return ChipReading(None, 0.0, "glare")
    if "E" in allowed and look.fill >= FILL_EMPTY:
        return ChipReading("", look.fill)
    if "E" in allowed and look.fill <= FILL_CHIP:
        allowed = allowed.replace("E", "")
    asked = allowed
    if "e" in allowed and look.outline < OUTLINE_MIN:
        return ChipReading(None, 0.0, f"the cell's border hidden ({look.outline:.0f})")
    if "e" in allowed:  # a board cell: its border, arrow and centre rule kinds out
        alike = look.border <= BORDER_EMPTY
        lined = arrow and look.line >= LINE_EMPTY and look.edge < LINED_EDGE_MAX
        if washed and alike and not lined:
            # a washed-out cell alike all round is an empty cell or a pale chip washed
            # to the cream: only the arrow (dark, it shows through) tells them
            if arrow and look.line >= WASHED_LINE_MIN and look.plain <= WASHED_PLAIN_MAX:
                return ChipReading("", 1.0 - look.border / BORDER_CHIP)
            return ChipReading(None, 0.0, "glare")
        clear = (look.plain <= PLAIN_EMPTY_CLEAR and look.outline >= PLAIN_OUTLINE_MIN
                 and look.washed <= LIT_WASHED_MAX)
        if clear and (alike or (lined and look.border <= LINED_BORDER_MAX)):
            # alike all round (or nearly, its arrow showing), its border's ends plain
            # (nothing over the cell) and its centre the cream: empty, whatever the
            # colours say
            return ChipReading("", 1.0 - look.border / BORDER_CHIP)
        if alike and lined:
            # the border alike all round: empty, if the cell looks like a cell at all (a
            # hand or a sleeve over it is alike all round too)
            d = _distance(look, classes.get("e", ()))
            if d > MAX_DISTANCE:
                return ChipReading(None, 0.0, f"alike all round, far ({d:.1f}) from a cell")
            return ChipReading("", 1.0 - look.border / BORDER_CHIP)
        if look.border >= BORDER_CHIP or not (alike or lined):
            allowed = allowed.replace("e", "")
        elif alike:  # empty, or a white or pearl chip
            allowed = "".join(c for c in allowed if c in "ewp")
        if lined and not (look.border >= BORDER_CHIP and look.edge >= WHITE_LINED_EDGE_MIN):
            # the arrow shows: no pale chip, unless the border and a plain outline say a
            # chip (a shadow's edge across a white chip draws a line)
            allowed = "".join(c for c in allowed if c not in "wpy")
    # the border alike and the centre the cell's cream: "empty" needs no lead if nearest
    plain_max = PLAIN_EMPTY_CLEAR if look.outline >= PLAIN_OUTLINE_MIN else PLAIN_EMPTY
    plain = "e" in allowed and look.border <= BORDER_EMPTY and look.plain <= plain_max
    dist = {name: _distance(look, classes[name]) for name in allowed if classes.get(name)}
    ranked = sorted(dist.items(), key=lambda kv: kv[1])
    (best, d1), (_, d2) = ranked[0], ranked[1]
    conf = float(np.clip(1 - d1 / max(d2, 1e-6), 0, 1))
    if d1 > MAX_DISTANCE:
        return _by_cream(look, allowed if "e" in asked else "",
                         f"far ({d1:.1f}) from every class")
    if "e" in asked:  # a cell: the colours' nearest class was ruled out by its border or
        # arrow (a hand's edge over an empty cell, the last cell's missing arrow): unsure
        ruled_out = {c: _distance(look, classes[c]) for c in asked
                     if c not in allowed and classes.get(c)}
        near = min(ruled_out.items(), key=lambda kv: kv[1], default=None)
        if near is not None and near[1] < d1:
            why = f"{best} by the border, {near[0]} by the colours"
            if pale_chip(look, best, near[0], arrow):
                return ChipReading(best, conf, why)
            return ChipReading(None, conf, why)
    if plain and best != "e":  # alike all round and its centre the cream: a cell that
        # shows no chip, whatever the colours say (no arrow on the last cell to tell)
        return ChipReading(None, conf, f"a plain cell, {best} by the colours")
    # chip or empty is decided with the larger lead either way
    either = best in "eE" or ranked[1][0] in "eE"
    need = 1.0 if plain and best == "e" else empty_ratio if either else MIN_RATIO
    if d2 < need * d1:
        pick = tie_break(look, best, ranked[1][0]) if "e" in asked and not either else None
        # a pick the cream round the chip names too (:func:`_by_cream`) is as sure as
        # that: two readings agree
        why = f"between {ranked[0][0]} and {ranked[1][0]}"
        creamy = _by_cream(look, allowed if "e" in asked else "", why)
        if pick is not None and not contradicted(look, pick) and creamy.value != pick:
            return ChipReading(pick, conf, f"{pick} by its colour, {why}")
        return creamy
    value = "" if best in "eE" else best
    if "e" in asked and value and contradicted(look, value):
        return _by_cream(look, allowed, f"{value} by the colours, not by the cream round it")
    if "e" in asked and value:
        other = _cream_other(look, value, allowed, d2 / max(d1, 1e-6))
        if other is not None:
            return ChipReading(other, cream_confidence(look),
                               f"{other} by the cream, {value} by the colours")
    return ChipReading(value, conf)


def judge_token_place(look: PlaceLook, slot: Slot,
                      classes: dict[str, dict[str, tuple[Prototype, ...]]]) -> ChipReading:
    """:func:`judge_place` for a token place of the layout (``classes``: a set of
    :data:`vision.duel.chip_classes.CLASSES`): a board cell among the kinds and "e",
    the spiral's last cell (no arrow) by its own empty class and
    ``LAST_CELL_MIN_RATIO``; a player's place among the kinds and "E"."""
    if slot.zone != "board":
        return judge_place(look, classes["player"], "wugrkpyE", EMPTY_MIN_RATIO, True)
    zone = classes["board"]
    if slot.index == LAST_CELL and f"e.{LAST_CELL}" in zone:
        return judge_place(look, {**zone, "e": zone[f"e.{LAST_CELL}"]}, "wugrkpye",
                           LAST_CELL_MIN_RATIO, False)
    return judge_place(look, zone, "wugrkpye", EMPTY_MIN_RATIO, True)


#: The colours' answer is not overturned by the cream (:func:`_cream_other`) when its
#: class leads the next by this ratio of distances or more.  WHY: on fresh check frames
#: (seed 9977, easy light) a black chip with a blue-grey gem, its colours a close fit to
#: black (1.53, the next class 2.2 times as far), was read blue by the cream's box, sure;
#: the cells the rule was made for led by 1.43-1.60 (the three so read over the design
#: frames of seeds 9000-9900, blue chips under glare, among the places read by the cream
#: of `.venv/bin/python tests/bench/duel_chip_ties.py --count 12 --seeds
#: 9000,9100,9200,9300,9400,9500,9600,9700,9800,9900 --cream`).  The bound is set from
#: those design cells alone.
CREAM_OTHER_LEAD = 2.0


def _cream_other(look: PlaceLook, value: str, allowed: str, lead: float = 1.0
                 ) -> str | None:
    """The kind :func:`cream_kind` names where it is not ``value`` (the colours'
    answer on a board cell, ``lead`` its second class's distance over its own), read
    as :func:`_by_cream` reads it; else None.

    WHY: a veil over a blue chip fades its rings' colours and lightness to a black
    chip's (nearest "k" with a clear lead) while its colours against the cream round
    it stay blue; the boxes held no readable place of another kind on the design
    frames (:data:`CREAM_KINDS`), the nine rings did.  Not past ``CREAM_OTHER_LEAD``
    (see there)."""
    if look.edge < CREAM_KIND_EDGE_MIN or look.washed > LIT_WASHED_MAX:
        return None
    if lead >= CREAM_OTHER_LEAD:
        return None
    kind = cream_kind(look)
    if kind is None or kind == value or kind in CREAM_NEAR_EMPTY or kind not in allowed:
        return None
    return kind


def _lit_chip(look: PlaceLook, classes: dict[str, tuple[Prototype, ...]],
              allowed: str) -> ChipReading:
    """A cell whose board round it is lit up by glare: only a plain coloured chip reads
    (``LIT_EDGE_MIN``), never empty, white or a pearl, which glare turns into one
    another."""
    unsure = ChipReading(None, 0.0, f"the board round it lit up (L {look.surround:.0f})")
    # what the cream may name: a cell's kinds, but a player's place none; and on a cell
    # whose border changed with no arrow showing (a chip's outline across it, which
    # glare does not draw), no longer empty, still never white: gold then reads by the
    # cream too (standard medium 9504 board.1; on 576 design frames, seeds 9000-9700,
    # no other reading changed)
    creamy = allowed if "e" in allowed else ""
    if creamy and look.border > BORDER_EMPTY and look.line < LINE_EMPTY:
        creamy = creamy.replace("e", "").replace("w", "")
    if look.edge < LIT_EDGE_MIN or look.washed > LIT_WASHED_MAX:
        return _by_cream(look, creamy, unsure.why)
    dist = {name: _distance(look, classes[name]) for name in allowed if classes.get(name)}
    (best, d1), (_, d2) = sorted(dist.items(), key=lambda kv: kv[1])[:2]
    if best not in "ugrky" or d1 > MAX_DISTANCE or d2 < EMPTY_MIN_RATIO * d1:
        return _by_cream(look, creamy, unsure.why)
    if "e" in allowed and contradicted(look, best):
        return _by_cream(look, allowed, unsure.why)
    return ChipReading(best, float(np.clip(1 - d1 / max(d2, 1e-6), 0, 1)))


#: The rings whose colour :func:`chroma` takes (indices into ``RINGS_MM``' rings): the
#: gem (0-4 mm) and the rim (10-12 mm), where a kind's colour is strongest.
CHROMA_RINGS = (0, 1, 5, 6)
#: Ties between two chip kinds on a board cell that one number settles (the pair, the
#: number of :func:`chroma`, the bound and its side, the winner).  On readable cells
#: of 144 design frames (seeds 9200-9211 and 7000-7011, each difficulty and lens):
#: black chips' a* -4.2 to 7.8, b* -7.5 to 8.3; blue chips b* to -2.6 (-9.3 to -18.3
#: where they tied with black); red a* from 15.2, green a* to -12.2; white chips'
#: b* to 23.7 and blue-less-green from -30.7, gold -32.6 to -63.4 where they tied
#: with white (`.venv/bin/python tests/bench/duel_chip_ties.py --count 12`).
TIE_RULES: tuple[tuple[str, str, float, str, str], ...] = (
    ("ku", "b", -9.0, "<=", "u"),
    ("kr", "a", 14.0, ">=", "r"),
    ("gk", "a", -8.0, "<=", "g"),
    ("gk", "a", -1.0, ">=", "k"),
    ("wy", "b", 20.0, ">=", "y"),
)
#: A cell washed out over more than this share is never settled so: glare fades and
#: tints its colour (a black chip under glare, 24 % washed, reached a* 12.7: design
#: frame medium standard 9205 board.6).
TIE_WASHED_MAX = 0.15
#: ... and gold over white needs its blue-less-green this low too (w reached -30.7)
GOLD_BLUE_MAX = -36.0


#: Ties the chip's colours against the cell's own cream settle (the pair, the winner, and
#: conditions that must all hold: a number of :func:`against_cream`, the bound, its
#: side).  The cream just outside the chip (``RINGS_MM``' last ring) lies under the same
#: light as the chip, so a warm lamp or a dim exposure moves both alike.  On readable
#: cells of 144 design frames (seeds 9200-9211 and 9600-9611, every difficulty, both
#: lenses): pearls' ``gem a-b`` 8.5 to 34.1 and ``ring4 L`` 14.7 to 30.0, white chips'
#: -2.9 to 4.1 and -21.1 to 10.6; red chips' ``inner a+b`` from 19.1, pearls' to -2.5;
#: gold chips' ``mid a+b`` from 12.9, white chips' to -1.5 (`.venv/bin/python
#: tests/bench/duel_chip_ties.py --count 12 --seeds 9200,9600 --cream`).  A pick must
#: not contradict the other pairs' numbers: a pearl is not red by ``inner a+b``, a white
#: chip not gold by ``mid a+b`` (a dim red chip tied between pearl and white and went
#: to pearl: standard hard 9800, board.11, the fresh seed the report is measured on).
#: A pearl's ``mid a+b`` is never this blue: readable pearls' from -11.3, blue chips' to
#: -20.5 on design frames of seeds 9000-9700 (576 frames, 12 a difficulty, both lenses;
#: a dim blue chip tied between pearl and white went to pearl at -20.5, design frame
#: wide hard 9105 board.22) (`.venv/bin/python tests/bench/duel_chip_ties.py --count 12
#: --seeds 9000,9100,9200,9300,9400,9500,9600,9700 --cream`).
#: A green chip under a warm lamp's veil ties with white (design frame standard hard 9100,
#: board.21: gem a-b -20.5, inner a+b -10.8); on readable cells of the design frames of
#: seeds 9000-9700 (576 frames) green chips' gem a-b reach -8.0 at most and inner a+b
#: -10.2, white chips' gem a-b -4.8 at least (under a hand or glare -13.8), yellow
#: chips' inner a+b 5.0 at least (same command, ``--seeds 9000,...,9700 --cream``).
#: A black chip tied with white under a veil (design frames wide hard 9006 board.10,
#: 9105 board.13) shows a black chip's dark rim against the cream: readable black chips'
#: ``ring4 L`` from 8.9 (32.6 at the first percentile), white chips' to 15.2; the gem
#: a-b between -7.0 and 5.5 keeps out green chips (to -8.0), pearls (from 6.1) and blue
#: and red chips (from 5.9 and 7.7) that may tie so too (same command, ``--seeds
#: 9000,...,9700 --cream``).
PEARL_MID_MIN = -15.0
CREAM_TIES: tuple[tuple[str, str, tuple[tuple[str, float, str], ...]], ...] = (
    ("pw", "p", (("gem a-b", 6.5, ">="), ("ring4 L", 12.5, ">="), ("inner a+b", 8.0, "<="),
                 ("mid a+b", PEARL_MID_MIN, ">="))),
    ("pw", "w", (("gem a-b", 6.5, "<="), ("ring4 L", 12.5, "<="), ("mid a+b", 6.0, "<="))),
    ("pr", "r", (("inner a+b", 8.0, ">="),)),
    ("pr", "p", (("inner a+b", 8.0, "<="),)),
    ("wy", "y", (("mid a+b", 6.0, ">="),)),
    ("wy", "w", (("mid a+b", 6.0, "<="),)),
    ("gw", "g", (("gem a-b", -10.0, "<="), ("inner a+b", -8.0, "<="))),
    ("kw", "k", (("ring4 L", 20.0, ">="), ("gem a-b", -7.0, ">="), ("gem a-b", 5.5, "<="))),
)

#: A tie between a pearl and a white chip goes to the pearl, whatever its edge, when its
#: rim is this pink against the cell's cream (:func:`rim_pink`) and its gem at least
#: ``PEARL_GEM_MIN`` pink (``gem a-b``): on readable cells of 576 design frames (seeds
#: 9000, 9100, 9200, 9300, 9400, 9500, 9600, 9700; 12 a difficulty, both lenses)
#: pearls' rims 6.1-26.5 (9.9 at the fifth percentile), white chips' 0.5-8.8 (6.5 at the
#: 99th); the seven tied cells so settled are pearls (`.venv/bin/python
#: tests/bench/duel_chip_ties.py --count 12 --seeds 9000,9100,9200,9300,9400,9500,9600,9700
#: --pink`).
PEARL_PINK_MIN = 9.0
#: ... and the gem not red against the cream (``inner a+b``): a dim red chip, or a hand
#: over one, tied so too with a rim 13-23 and a gem 8-22 pink, but its inner ring 5.7
#: and more, where readable pearls' reach -1.2 and red chips' start at 5.9 (same
#: frames; design frame wide hard 9305, board.21).
PEARL_INNER_MAX = 2.0


def pink_pearl(look: PlaceLook) -> bool:
    """Whether a chip tied between a pearl and a white chip shows a pearl's pink rim
    and gem and no red gem (:data:`PEARL_PINK_MIN`, :data:`PEARL_INNER_MAX`), its
    colours against the cream naming no other kind."""
    c = against_cream(look)
    return (look.pink >= PEARL_PINK_MIN and c["gem a-b"] >= PEARL_GEM_MIN
            and c["inner a+b"] <= PEARL_INNER_MAX and c["mid a+b"] >= PEARL_MID_MIN
            and cream_kind(look) in (None, "p"))
#: ... and only on a chip whose edge shows this plainly: a hand over a cell tied so too
#: and went to "w" or "y" with edges 1.1-4.8, where the readable ties settled had 5.0
#: and more (same frames, the tied cells of `tests/bench/duel_chip_ties.py`).
CREAM_EDGE_MIN = 5.5

#: A tie between a pearl and a white chip goes to the white chip, its outline however
#: faint (from ``WHITE_EDGE_MIN``), when its rim is no pinker than this against the cell's
#: cream (:func:`rim_pink`) and its colours against the cream lie within ``GREY_WHITE``:
#: on readable cells of the design frames of seeds 9000-9700 (576: 12 a difficulty and
#: lens) white chips' rims 0.5-8.8 (4.4 at the 95th percentile), pearls' 6.1-26.5 (7.2 at
#: the first); blue, green, black and gold rims can be as grey (from 0.4-1.0) and are
#: kept out by the bounds: white chips' ``gem a-b`` to 4.4 at the 99th percentile, blue
#: chips' from 5.9 (13.0 at the first); ``inner a+b`` from -13.8 (-10.3 at the first),
#: green chips' to -10.2, blue -16.6; ``ring4 L`` to 15.2 (10.0 at the 99th), black
#: chips' from 8.9 (32.6 at the first); ``mid a+b`` as ``GOLD_MID_MIN`` (`.venv/bin/python
#: tests/bench/duel_chip_ties.py --count 12 --seeds 9000,...,9700 --pink`, and
#: ``--cream``).  Two dim white chips tied so (design frames wide hard 9311 board.16,
#: 9601 board.13).
WHITE_PINK_MAX = 4.0
GREY_WHITE: dict[str, tuple[float | None, float | None]] = {
    "gem a-b": (None, 8.0), "ring4 L": (None, 12.5), "inner a+b": (-10.0, None),
    "mid a+b": (None, 6.0)}


def grey_white(look: PlaceLook) -> bool:
    """Whether a chip tied between a pearl and a white chip shows a white chip's grey
    rim and its colours against the cream (:data:`WHITE_PINK_MAX`, :data:`GREY_WHITE`),
    its outline showing and no other kind's box holding it."""
    c = against_cream(look)
    return (look.pink <= WHITE_PINK_MAX and look.edge >= WHITE_EDGE_MIN
            and look.washed <= TIE_WASHED_MAX and cream_kind(look) in (None, "w")
            and all((lo is None or c[n] >= lo) and (hi is None or c[n] <= hi)
                    for n, (lo, hi) in GREY_WHITE.items()))


def against_cream(look: PlaceLook) -> dict[str, float]:
    """The chip's colours less the cell's cream just outside it (the last ring): ``gem
    a-b`` (the centre's a* less b*: a pearl is pink and cool, a white gem neutral),
    ``ring4 L`` (8-10 mm out: a pearl's white sticker, a white chip's grey rim),
    ``inner a+b`` (2-4 mm: a red gem, a pearl not) and ``mid a+b`` (4-6 mm: gold, a
    white chip not)."""
    f = look.features
    cream = 4 * (len(RINGS_MM) - 2)
    ca, cb = f[cream + 1], f[cream + 2]
    return {"gem a-b": float((f[1] - f[2]) - (ca - cb)),
            "ring4 L": float(f[16]),
            "inner a+b": float((f[5] + f[6]) - (ca + cb)),
            "mid a+b": float((f[9] + f[10]) - (ca + cb))}


def chroma(look: PlaceLook) -> dict[str, float]:
    """The chip's colour where its kind shows most: ``a`` and ``b`` (Lab, less the
    neutral 128, median over ``CHROMA_RINGS``) and ``bg`` (blue less green, the
    white-balanced sensor values, glare-blind: :func:`veil_features`)."""
    f = look.features
    a = float(np.median([f[4 * i + 1] for i in CHROMA_RINGS])) - 128.0
    b = float(np.median([f[4 * i + 2] for i in CHROMA_RINGS])) - 128.0
    bg = float(np.median(look.veil.reshape(-1, 3)[:, 1])) if look.veil.size else 0.0
    return {"a": a, "b": b, "bg": bg}


def tie_break(look: PlaceLook, first: str, second: str) -> str | None:
    """The kind a tie between two chip kinds on a board cell goes to, by the one number
    that tells them apart (:data:`TIE_RULES`), or None: still unsure.

    WHY: the nine rings' colours weigh lightness and texture as much as colour, so a
    dim blue chip (hard light, exposure down to 0.45) lies as near "black" as "blue";
    its colour alone, which no black chip reaches, still says blue."""
    if look.washed > TIE_WASHED_MAX:
        return None
    pair = "".join(sorted(first + second))
    c = chroma(look)
    for rule_pair, name, bound, side, winner in TIE_RULES:
        if rule_pair != pair:
            continue
        v = c[name]
        if not (v <= bound if side == "<=" else v >= bound):
            continue
        if winner == "y" and c["bg"] > GOLD_BLUE_MAX:
            continue
        return winner
    if pair == "pw" and pink_pearl(look):
        return "p"
    if pair == "pw" and grey_white(look):
        return "w"
    if look.edge < CREAM_EDGE_MIN:
        return None
    cream = against_cream(look)
    for rule_pair, winner, conditions in CREAM_TIES:
        if rule_pair == pair and all(
                cream[name] >= bound if side == ">=" else cream[name] <= bound
                for name, bound, side in conditions):
            return winner
    return None


#: The chip kinds the colours against the cell's cream (:func:`against_cream`) tell by
#: themselves: per kind, bounds every one of its numbers lies within (None: no bound),
#: each set between that kind's measured extremes and the nearest other kind's (e.g.
#: green ``gem a-b`` at most -8.0 where black's is at least -7.9 and white's -4.8: the
#: bound -10, with green's other two bounds no black chip meets; at -15 a green chip
#: under a warm lamp's veil, the board round it lit up, was left unsure at -13.6 and
#: -15.0, design frames standard and wide hard 9100; at -10 the box holds no readable
#: place of another kind of 576 design frames, seeds 9000-9700, and one blue chip under
#: glare, too faint to be read so, ``CREAM_KIND_EDGE_MIN``).  On 288 design frames (seeds
#: 9200-9211, 9300-9311, 9400-9411, 9600-9611; each difficulty and lens) no box holds a
#: readable place of another kind but white's, which holds 399 empty cells (white is so
#: read only where the border ruled "empty" out: ``CREAM_NEAR_EMPTY``); gold's ``ring4
#: L`` bound keeps out a hand's skin over a chip (5 and more) (`.venv/bin/python
#: tests/bench/duel_chip_ties.py --count 12 --seeds 9200,9300,9400,9600 --cream`).
CREAM_KINDS: dict[str, dict[str, tuple[float | None, float | None]]] = {
    "g": {"gem a-b": (None, -10.0), "inner a+b": (None, -15.0), "mid a+b": (None, -15.0)},
    "u": {"gem a-b": (8.0, None), "inner a+b": (None, -20.0), "mid a+b": (None, -22.0)},
    "r": {"gem a-b": (7.0, None), "inner a+b": (12.0, None), "mid a+b": (12.0, None)},
    "k": {"gem a-b": (-7.0, 5.0), "ring4 L": (20.0, None), "inner a+b": (None, -5.0)},
    "y": {"gem a-b": (None, -7.0), "ring4 L": (None, 0.0), "inner a+b": (8.0, None),
          "mid a+b": (8.0, None)},
    "w": {"gem a-b": (-4.0, 4.0), "ring4 L": (None, 7.0), "inner a+b": (-10.0, 2.0),
          "mid a+b": (-14.0, 0.0)},
    "p": {"gem a-b": (12.0, None), "ring4 L": (12.0, 40.0), "inner a+b": (None, -3.0),
          "mid a+b": (-11.0, 0.0)},
}
#: ... read so only where a chip's outline shows at least this plainly and at most
#: LIT_WASHED_MAX of it is washed out: on the design frames above, the readable chips
#: so settled had edges 3.7-15.3, cells under a hand or glare that a box took for
#: another kind 1.2-1.7 but for a hand's skin over a green chip (gold's box then
#: bounds its ``ring4 L``).
CREAM_KIND_EDGE_MIN = 3.5
#: The most confidence a kind told by its box alone gets (:func:`cream_confidence`).
CREAM_KIND_CONFIDENCE = 0.5
#: A hand over a chip leaves it an outline (``edge``) of at most this as a rule: 4.24 at
#: the 90th percentile over the 469 chips under a hand of the medium and hard design
#: frames of seeds 9000-9700 (both lenses), where the boxes that named another kind
#: under a hand had edges 3.5-5.0 (`.venv/bin/python tests/bench/duel_frame_cache.py
#: judge --held 9800,9900 --cream`, after its `render` and `cells` of those frames).
CREAM_HAND_EDGE = 4.3
#: The kinds whose box holds or borders empty cells (a white chip's colours are the
#: cream's; gold's box held 46 empty cells before its ``ring4 L`` was bounded): read so
#: only where the border or arrow ruled "empty" out.
CREAM_NEAR_EMPTY = "wy"


def cream_kind(look: PlaceLook) -> str | None:
    """The one chip kind whose box of :data:`CREAM_KINDS` holds the chip's colours
    against the cell's cream, or None.

    WHY: the nine rings' colours fade towards white under a lamp's veil and towards
    black in a shadow, so a veiled green or red chip lies as near "white" or "pearl"
    as its own kind; its colour against the cream just round it, under the same light,
    still has the sign and much of the size of its kind's."""
    c = against_cream(look)
    hits = [kind for kind, box in CREAM_KINDS.items()
            if all((lo is None or c[n] >= lo) and (hi is None or c[n] <= hi)
                   for n, (lo, hi) in box.items())]
    return hits[0] if len(hits) == 1 else None


def cream_confidence(look: PlaceLook) -> float:
    """How sure a kind told by its box of :data:`CREAM_KINDS` alone is: the chip's
    outline's lead over a hand's (``1 - CREAM_HAND_EDGE / edge``, as a colour's lead
    over the next class), at most ``CREAM_KIND_CONFIDENCE``.

    WHY: a hand over a chip shows the box its skin and the chip's rim in part, and a
    box then names a kind, often the wrong one; what the hand cannot leave is the
    chip's whole outline.  So the answer is sure only where that outline leads a
    hand's as a colour must lead the next class (vision/duel/confidence.py)."""
    return float(np.clip(1.0 - CREAM_HAND_EDGE / max(look.edge, 1e-6), 0.0,
                         CREAM_KIND_CONFIDENCE))


def _by_cream(look: PlaceLook, allowed: str, why: str) -> ChipReading:
    """A board cell the colours left unsure (``why``): read by :func:`cream_kind` if
    its outline shows, it is not washed out and the kind is ``allowed`` (empty for a
    player's place: never so read)."""
    if look.edge >= CREAM_KIND_EDGE_MIN and look.washed <= LIT_WASHED_MAX:
        kind = cream_kind(look)
        if kind is not None and kind in allowed and not (
                kind in CREAM_NEAR_EMPTY and "e" in allowed) and not contradicted(look, kind):
            return ChipReading(kind, cream_confidence(look), f"{kind} by the cream ({why})")
    return ChipReading(None, 0.0, why)


#: The colour against the cell's cream that a gold chip always shows and a white one
#: never (``mid a+b``, :func:`against_cream`): readable gold chips from 12.9, white to
#: -0.9 on the design frames of :data:`CREAM_KINDS`; a white chip under a warm cast
#: read "y" at -1.7 and a veiled gold one "w" at 12.2 (wide 9303 board.23, 9310 board.12).
GOLD_MID_MIN = 6.0
#: ... and a white chip is never both this pink (``gem a-b``) and this light a sticker
#: (``ring4 L``) against its cream: of the readable white chips of those frames one
#: reaches both (tied between pearl and white), a pearl read "w" had 6.3 and 10.4
#: (wide hard 9403 board.24; pearls from 6.3 and 10.4, white chips to 4.0 and 9.9 at
#: the 99th percentile).
PEARL_GEM_MIN = 5.0
PEARL_RING4_MIN = 8.0


#: A white answer on a cell whose arrow's line reaches ``ALIKE_LINE_MIN`` needs a chip's
#: outline at least this plain (``edge``): on 576 design frames (seeds 9000-9700, 12 a
#: difficulty, both lenses) the readable white chips with such a line had edges 9.2-12.7
#: (a shadow's edge across them), the empty cells with an arrow so read white 1.3-3.6
#: (one readable, standard hard 9105 board.17; four under a hand, one of them sure), a
#: white chip under a hand 2.4 (`.venv/bin/python
#: tests/bench/duel_chip_ties.py --count 12 --seeds 9000,9100,9200,9300,9400,9500,9600,9700
#: --pink`, "white, lined").  The other way, a cell whose border says a chip
#: (``BORDER_CHIP``) with an outline so plain keeps its pale kinds though an arrow's line
#: shows (a shadow's edge across a white chip or a pearl: standard hard 9001 board.5, wide
#: hard 9503 board.21); on those frames the places so were those two and five black or
#: red chips, no empty cell (their borders below 25; under a hand, edges to 4.7).
WHITE_LINED_EDGE_MIN = 6.0


def contradicted(look: PlaceLook, kind: str) -> bool:
    """Whether the colours against the cell's cream rule out a white or gold answer, or
    the arrow's line a white chip with a faint outline, or a rim as pink as a pearl's
    (``PEARL_PINK_MIN``: readable white chips' rims reach 8.8) a white one."""
    c = against_cream(look)
    pearly = c["gem a-b"] >= PEARL_GEM_MIN and c["ring4 L"] >= PEARL_RING4_MIN
    lined = look.line >= ALIKE_LINE_MIN and look.edge < WHITE_LINED_EDGE_MIN
    pink = look.pink >= PEARL_PINK_MIN
    return (kind == "y" and c["mid a+b"] < GOLD_MID_MIN) or (
        kind == "w" and (c["mid a+b"] > GOLD_MID_MIN or pearly or lined or pink))
