"""Slot readers: what is in one deck slot, reserved slot, tableau column, pile.

Decks (by the slots network, :mod:`vision.slot_net`), reserved slots, tableau
columns and piles are read here; token slots by the chips network in
:mod:`vision.chip_net`, cards in
:mod:`vision.card_reader`, nobles in :mod:`vision.noble_reader`, finding a
card in its slot in :mod:`vision.locate`.

Every reader gets the frame, the homography of the slot's mat and the
slot's white-balance gain, rectifies only its slot (never the whole frame)
and returns a value with a confidence.  Tuning constants are named here.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import cardface as cf
from vision import slot_net
from vision.calibrate import rectify
from vision.colours import STICKER_LAB, ColourModel
from vision.layout import Slot
from vision.locate import (
    EMPTY_MAX,
    EMPTY_TEXTURE,
    OCCUPIED_MIN,
    TOKEN_PX_PER_MM,
    locate,
    slot_view,
)
from vision.noble_seen import border_fraction
from vision.observation import (
    DeckReading,
    PileReading,
    ReservedReading,
    TableauReading,
)
from vision.pixels import (
    INK_LAB,
    PAPER_DIST,
    PAPER_LAB,
    lab_distance,
    lab_image,
    normalise,
)

#: Sobel response (grey levels) of an edge, and the share of edge pixels around a place
#: that makes it part of a white token.
PILE_EDGE = 60.0
PILE_DETAIL = 0.06
#: An edge is detail only this many times above the patch's median gradient (noise).
NOISE_EDGES = 4.0
#: How much wider than the tokens that detail mask reaches (measured on recorded piles).
TEXTURE_SPREAD_MM = 6.0
#: A pixel whose darkest channel (before white balance) reaches this is washed out:
#: glare or clipped light, where a card cannot be told from paper.
WASHED_MIN = 245
#: The confidence of "empty" falls by this much per unit of washed-out share, so that
#: a reserved slot washed out wholly is never said empty with more than 0.5.
#: WHY: a card under glare loses its colour and passes for paper (issue 12).
WASHED_PENALTY = 0.5


def washed_share(raw: np.ndarray) -> float:
    """Share of a patch (as the camera recorded it) washed out to white."""
    darkest = cv2.min(cv2.min(raw[..., 0], raw[..., 1]), raw[..., 2])
    return float((darkest >= WASHED_MIN).mean())


def read_deck(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> DeckReading:
    """A deck slot: a back present, the slot bare (absent), or unsure (hidden).

    The slots network (:mod:`vision.slot_net`) answers, with its calibrated
    probability as the confidence; whether that is sure is the "decks" threshold
    of :mod:`vision.sure`.  WHY the network: rules on the backs' colours and the
    paper's flatness took noisy bare paper under a dim warm lamp for a level-1
    back at 1.0 (design frame 24003, 2 players, hard, standard lens), and left
    decks in hard light unsure.
    """
    net = slot_net.guess(image, h, slot, gain)
    level = slot.level or 1
    if net.best == slot_net.HIDDEN:
        return DeckReading(level, None, 0.0)
    return DeckReading(level, net.best == slot_net.OCCUPIED, net.p)


#: A reserved slot is said occupied only while this share of the band 1-6 mm round
#: its outline looks like the mat.  WHY: a card lies 2 mm inside its slot (the
#: next slot's card 7 mm away), so a hand reaching over the slot covers the band as
#: well; lower than the nobles' 0.6 since a reserved card is put down carelessly.
RESERVED_BORDER_MIN = 0.5


def read_reserved(
    image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
) -> ReservedReading:
    """A reserved slot: occupied (a card or a back), empty, or unsure.  Empty is said
    with less confidence where the slot is washed out (glare), as for decks."""
    seen = slot_view(image, h, slot, gain)
    where = locate(image, h, slot, gain, (cf.CARD_W, cf.CARD_H), fit=False, seen=seen)
    p = slot.player or 0
    if where.coverage < EMPTY_MAX:
        if where.texture > EMPTY_TEXTURE:  # a pale card: the paper's colour, a picture's detail
            return ReservedReading(slot.id, p, True, 0.6)
        washed = washed_share(rectify(image, h, slot, TOKEN_PX_PER_MM, -6.0))
        conf = (1 - where.coverage / EMPTY_MAX / 2) * (1 - WASHED_PENALTY * washed)
        return ReservedReading(slot.id, p, False, max(0.0, conf))
    if where.coverage > OCCUPIED_MIN + 0.2:
        # a card lies inside its slot: something over the mat round it too is a hand
        if border_fraction(seen[1]) < RESERVED_BORDER_MIN:
            return ReservedReading(slot.id, p, None, 0.0)
        return ReservedReading(slot.id, p, True, min(1.0, where.coverage))
    return ReservedReading(slot.id, p, None, 0.0)


def read_tableau(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
                 ) -> TableauReading:
    """Count the cards in a colour column from how far down the stack reaches.

    Cards are stacked from the column's top, each ``TABLEAU_STEP_MM`` lower
    than the one before, so the bottom edge of the last card gives the count.
    (The visible top bands of the earlier cards are light and may pass for
    paper, so only the lowest card evidence is used; a pale card is found by its
    picture's detail where its colour passes for paper.)
    """
    from vision.layout import TABLEAU_STEP_MM

    s = TOKEN_PX_PER_MM
    patch = normalise(rectify(image, h, slot, s), gain)
    lab = lab_image(patch)
    dist = np.minimum(lab_distance(lab, PAPER_LAB), lab_distance(lab, INK_LAB))
    w = dist.shape[1]
    band = slice(w // 5, w - w // 5)
    rows = (dist[:, band] > PAPER_DIST).mean(1)
    rows = np.convolve(rows, np.ones(3) / 3, mode="same")
    card_rows = np.nonzero(rows > 0.5)[0]
    # pale cards (white bonus cards of snowy pictures) are the paper's colour but not
    # its flatness: rows of detail, less the reach of the detail mask, count too
    textured = _stack_rows(_textured(patch, s, smooth=True)[:, band].mean(1) > 0.1, s)
    if len(textured) and (not len(card_rows) or textured[-1] > card_rows[-1]):
        card_rows = textured
    p, colour = slot.player or 0, slot.colour or "?"
    if len(card_rows) < 20 * s:
        return TableauReading(p, colour, 0, float(np.clip(1 - 4 * rows.mean(), 0, 1)))
    bottom = (card_rows[-1] + 1) / s
    steps = (bottom - 2 - cf.CARD_H) / TABLEAU_STEP_MM
    n = max(1, round(steps) + 1)
    conf = float(np.clip(1 - 2 * abs(steps - round(steps)), 0, 1))
    if bottom > slot.size[1] - 4:
        conf *= 0.5  # the stack may run past the column
    return TableauReading(p, colour, n, conf)


def _stack_rows(rows: np.ndarray, s: float) -> np.ndarray:
    """The rows of a stack that starts at the column's top (within 10 mm) and runs down
    without a gap over 8 mm (a card's plain top band may show little detail), less the
    reach of the detail mask at its end; empty if none."""
    found = np.nonzero(rows)[0]
    if not len(found) or found[0] > 10 * s:
        return found[:0]
    gaps = np.nonzero(np.diff(found) > 8 * s)[0]
    end = found[gaps[0]] if len(gaps) else found[-1]
    end -= round(TEXTURE_SPREAD_MM * s)
    return found[(found <= end)] if end - found[0] >= 20 * s else found[:0]


def _textured(patch: np.ndarray, s: float, smooth: bool = False) -> np.ndarray:
    """Where the patch shows detail (edges), spread over ``TEXTURE_SPREAD_MM``: a white
    token by its rim marks and emblem, a pale card by its picture.  The grey is
    ``smooth``-ed first (for a tall column, whose paper may be dim and noisy) and an
    edge must then stand ``NOISE_EDGES`` times above the patch's median gradient, so
    the sensor noise of a dim frame is no detail.  The printed outline round the
    patch's edge (2.5 mm) is left out."""
    grey: np.ndarray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if smooth:
        grey = cv2.GaussianBlur(grey, (0, 0), 0.8)
    grad = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    floor = _noise_floor(grad) if smooth else 0.0
    edge = (grad > max(PILE_EDGE, floor)).astype(np.float32)
    b = max(1, round(2.5 * s))
    edge[:b], edge[-b:], edge[:, :b], edge[:, -b:] = 0, 0, 0, 0
    k = max(3, round(8 * s)) | 1
    return cv2.blur(edge, (k, k)) > PILE_DETAIL


def _noise_floor(grad: np.ndarray) -> float:
    """``NOISE_EDGES`` × the median gradient, or 0 when that is at most ``PILE_EDGE``
    (so the threshold is ``PILE_EDGE`` either way).  WHY: the median (a partition of
    the whole column) was a sixth of a tableau column's time, and it matters only
    when over half the gradients exceed ``PILE_EDGE / NOISE_EDGES``; counting them
    tells that first."""
    if np.count_nonzero(grad > PILE_EDGE / NOISE_EDGES) <= (grad.size - 1) // 2:
        return 0.0  # the median is at most PILE_EDGE / NOISE_EDGES
    return NOISE_EDGES * float(np.median(grad))


def read_pile(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              colours: ColourModel) -> PileReading:
    """A pile zone: the tokens' colour (most common class) and their number, estimated
    from how far the shingled row reaches (``PILE_STEP_MM`` per extra token)."""
    from vision.layout import PILE_STEP_MM, TOKEN_MM

    s = TOKEN_PX_PER_MM
    patch = normalise(rectify(image, h, slot, s), gain)
    lab = lab_image(patch)
    mat = np.minimum(lab_distance(lab, PAPER_LAB), lab_distance(lab, INK_LAB))
    token_px = mat > PAPER_DIST
    zone = slot.zone
    white = False
    if token_px.mean() < 0.08:
        # white tokens are the paper's colour: look for their rim marks and emblem
        token_px = _textured(patch, s)
        white = True
        if token_px.mean() < 0.08:
            return PileReading(slot.id, zone, None, 0, float(1 - token_px.mean() / 0.08 / 2))
    classes = {k: v for k, v in colours.tokens.items() if k != "empty"}
    names = list(classes)
    centres = np.array([np.asarray(classes[k], np.float32).reshape(-1, 3)[0] for k in names])
    px = lab[token_px]
    # a real chip is mostly its cream sticker: the colour is in its rim and gem
    chip = np.min([lab_distance(px[None], c)[0] for c in STICKER_LAB], axis=0) > PAPER_DIST
    if chip.mean() > 0.05:
        px = px[chip]
    d = px[:, None, :] - centres[None, :, :]
    dist = np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    votes = np.bincount(dist.argmin(1), minlength=len(names))
    colour = names[int(votes.argmax())]
    share = float(votes.max() / votes.sum())
    if white:  # only a white token hides by colour; its detail is all there is to vote
        colour, share = "w", 0.8
    # the longest run of token columns (the zone's printed border is not a token)
    filled = np.concatenate([[0], (token_px.mean(0) > 0.35).astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(filled))
    runs = edges[1::2] - edges[::2]
    width = float(runs.max()) / s if len(runs) else 0.0
    if white:
        width -= TEXTURE_SPREAD_MM
    # a column counts when over a third of it is token: a 40 mm disc then spans 37 mm
    steps = max(0.0, (width - (TOKEN_MM - 3)) / PILE_STEP_MM)
    count = round(steps) + 1
    conf = share * float(np.clip(1 - 2 * abs(steps - round(steps)), 0.2, 1))
    return PileReading(slot.id, zone, colour, count, conf)
