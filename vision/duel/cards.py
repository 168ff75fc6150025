"""Duel cards in their places: found on the mat, cut out, and named against a bank.

Finding (:func:`find_card`): the place is cut out with a margin at
``FIND_PX_PER_MM``; an empty place is the mat's paper over nearly all of it (and
not washed out), or plain paper like the band round it (a shadow or a lamp's spot
over it: :func:`plain_place`), and shows its printed outline all round (a hand or a
sleeve hides it: :func:`outline_depth`); a place mostly not paper holds something;
between, unsure.

Naming (:func:`name_card`): the card is cut out upright at every pose of a small
grid round its place (:func:`posed_faces`: cards lie a little off and turned) at
``CUT_PX_PER_MM`` and reduced to small colour pictures (:func:`descriptor`: the
whole face and its printed features' regions, Lab, centred, of unit length: blind
to exposure and to a uniform cast the white balance left).  It is compared with the same picture of
every candidate face in a :class:`CardBank` (a pyramid place: the cards of its
level; a royal place: the four royals); the best correlation names it when it is
high enough (at the best pose) and clear of the second best.  The bank is built from one face set
(:func:`vision.duel.bank.default_bank`), never from the frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibrate import rectify
from vision.layout import Slot
from vision.pixels import PAPER_LAB, lab_distance, lab_image, normalise

#: Scale a place is searched at (px/mm) and the margin cut round it (mm).
FIND_PX_PER_MM = 2.0
FIND_MARGIN_MM = 3.0
#: A pixel is paper within this Lab distance of the mat's paper or of white paper.
PAPER_DIST = 24.0
#: The band round a place (RING_WIDTH_MM wide, ending RING_OUT_MM outside the place's
#: edge) whose paper an empty place is compared with by :func:`plain_place`.
RING_OUT_MM = 7.0
RING_WIDTH_MM = 3.0
#: :func:`plain_place`: at this percentile over the place, how far its colour (each
#: channel's share of the brightness) is from the band's, and how steep its lightness
#: (log, blurred 1.5 px) is.  Card and royal places of design frames (seeds 5000-5011,
#: centre framing, both lenses): empty readable ones at most 0.018 and 0.017, cards at
#: least 0.08 and 0.085 (0.041 and 0.053 under glare)
#: (`.venv/bin/python tests/bench/duel_cards.py --split design --empty`).
PLAIN_PERCENTILE = 90.0
PLAIN_CHROMA_MAX = 0.03
PLAIN_GRAD_MAX = 0.03
#: :func:`outline_depth`: the profile across each side spans OUTLINE_SPAN_MM either
#: way; an empty place shows its outline at least OUTLINE_DEPTH deep (readable empty
#: places 0.30 and more, places under a hand or a sleeve 0.03 at most, same frames).
OUTLINE_SPAN_MM = 3.0
OUTLINE_DEPTH = 0.15
#: Share of the place that is not paper: below EMPTY_MAX empty, above CARD_MIN a card
#: may be there (then naming it decides: a hand names no card).  A white card shows
#: as little as 16 % not paper (design frame easy 301), so the two meet.
EMPTY_MAX = 0.06
CARD_MIN = EMPTY_MAX
#: Paper washed out over more than this share is not said empty (a pale card under
#: glare passes for paper there).  Over the royal places of the design frames of
#: seeds 9200-9700 (both lenses, every difficulty) the empty ones found empty were
#: washed out over none of their paper (the mat is matte), a royal under glare over
#: 34 % (wide hard 9509, royal.1: said empty, sure) (`.venv/bin/python
#: tests/bench/duel_places.py --seeds 9200,9300,9400,9500,9600,9700` lists it).
EMPTY_WASHED_MAX = 0.1
#: Scale a card is cut at (px/mm), and the inset (mm) left off its edges.
CUT_PX_PER_MM = 3.0
INSET_MM = 2.0
#: The descriptor: the card's picture at this size (w, h px), blurred by DESCRIPTOR_BLUR px.
DESCRIPTOR_PX = (16, 24)
DESCRIPTOR_BLUR = 0.7
#: The printed features' regions of an upright face (fractions x0, y0, x1, y1 of the
#: inset face) and the size each is reduced to (px): the top band (points, crowns,
#: ability, bonus) and the cost column (bottom left).  Measured on the design sprites.
FEATURE_REGIONS = (((0.0, 0.0, 1.0, 0.24), (24, 8)), ((0.0, 0.45, 0.3, 1.0), (6, 16)))
#: How much each feature region counts against the whole face (jokers of one level share
#: their picture and differ only there).
FEATURE_WEIGHT = 1.5
#: Lightness counts this much against colour in the descriptor.
DESCRIPTOR_L_WEIGHT = 0.5
#: The pose grid a card is searched on round its slot's centre (mm each way, degrees):
#: cards lie up to 1.5 mm and 2 deg off (the renderer's JITTER) plus the calibration.
POSE_SHIFTS_MM = (-2.0, -1.0, 0.0, 1.0, 2.0)
POSE_ANGLES = (-2.0, 0.0, 2.0)
#: A pixel washed out (darkest channel as recorded) at this level; a card with more
#: than GLARE_MAX of them is unsure.  Below it the naming's own score decides: on
#: medium and hard design frames (seeds 5000-5015, 7000-7011, both lenses) cards
#: washed over 12-31 % and readable were named right (scores 0.72-0.99), those over
#: 20-65 % under the glare a person could not read scored below MIN_SCORE
#: (`.venv/bin/python tests/bench/duel_cards.py --split design --washed`).
WASHED_LEVEL = 245
GLARE_MAX = 0.35
#: Least correlation for a name, and least lead over the second best.  On 137 readable
#: cards of 9 design frames the right name scored 0.83-1.0 and led by 0.038 at least
#: (two jokers that share their picture), no card was named wrong
#: (`.venv/bin/python tests/bench/duel_cards.py --split design`).
MIN_SCORE = 0.7
MIN_MARGIN = 0.025
#: The same for a royal, named among four pictures that share nothing: a royal under
#: shadow and glare a person reads at once scored 0.525 and 0.683 (leads 0.11, 0.15;
#: design frames hard and medium standard 9203, royal.1), while over 419 royal places
#: found present on 120 medium and hard design frames (seeds 9200-9211, 7000-7011,
#: 5000-5005, both lenses) a wrong best match, under a hand, scored 0.458 at most
#: (`.venv/bin/python tests/bench/duel_royal_scores.py --seeds 9200,9206,7000,7006,5000
#: --count 6`).  A royal scoring MIN_SCORE or more keeps MIN_MARGIN (r3 led r1 by
#: 0.06-0.08, scoring over 0.7, under glare: check frame wide hard 9205, design wide
#: medium 9605).
ROYAL_MIN_SCORE = 0.5
ROYAL_MIN_MARGIN = 0.08
#: A royal's second look (:func:`name_royal`): its detail (:func:`detail_descriptor`:
#: the face at DETAIL_PX less its own blur by DETAIL_SIGMA px, so a lamp's veil,
#: glare's slope and a cast fall away) names it at ROYAL_DETAIL_MIN_SCORE or more
#: and ROYAL_DETAIL_MIN_MARGIN ahead.  Over the 1467 royal places found present on
#: the design frames of seeds 9200-9700 (both lenses, every difficulty) readable
#: royals' detail scored 0.54 and more, 0.18 ahead; wrong best details, under a hand,
#: 0.27 and less, 0.08 ahead at most (`.venv/bin/python tests/bench/duel_royal_scores.py
#: --detail --seeds 9200,9300,9400,9500,9600,9700 --difficulties easy,medium,hard`).
DETAIL_PX = (48, 72)
DETAIL_SIGMA = 6.0
ROYAL_DETAIL_MIN_SCORE = 0.4
ROYAL_DETAIL_MIN_MARGIN = 0.12

_WHITE_LAB = np.array([255.0, 128.0, 128.0], np.float32)


@dataclass(frozen=True)
class FoundCard:
    """What a card place shows: ``state`` present / empty / unsure, the share of the
    place that is not paper, and the share washed out (glare)."""

    state: str
    share: float
    washed: float = 0.0


def not_paper(lab: np.ndarray) -> np.ndarray:
    """Mask of the pixels that are neither the mat's paper nor white paper."""
    d = np.minimum(lab_distance(lab, PAPER_LAB), lab_distance(lab, _WHITE_LAB))
    return np.asarray(d > PAPER_DIST, np.uint8)


def find_card(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              card_mm: tuple[float, float]) -> FoundCard:
    """Whether ``slot`` holds something (see the module); ``card_mm`` is unused and kept
    for the signature's sake."""
    s, m = FIND_PX_PER_MM, FIND_MARGIN_MM
    raw = rectify(image, h, slot, s, m)
    lab = lab_image(normalise(raw, gain))
    mask = not_paper(lab)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    hh, ww = mask.shape
    inner = mask[round(m * s): hh - round(m * s), round(m * s): ww - round(m * s)]
    share = float(inner.mean())
    raw_inner = raw[round(m * s): hh - round(m * s), round(m * s): ww - round(m * s)]
    washed_all = float((raw_inner.min(axis=2) >= WASHED_LEVEL).mean())
    if (share < EMPTY_MAX and washed_all < EMPTY_WASHED_MAX) or plain_place(image, h, slot):
        if outline_depth(image, h, slot) < OUTLINE_DEPTH:  # a hand or a sleeve over it
            return FoundCard("unsure", share, washed=washed_all)
        return FoundCard("empty", share, washed=washed_all)
    if share >= CARD_MIN:
        return FoundCard("present", share, washed=washed_all)
    return FoundCard("unsure", share, washed=washed_all)


def _around(image: np.ndarray, h: np.ndarray, slot: Slot) -> np.ndarray:
    """The place and RING_OUT_MM round it at FIND_PX_PER_MM, as float BGR."""
    return rectify(image, h, slot, FIND_PX_PER_MM, RING_OUT_MM).astype(np.float32)


def plain_place(image: np.ndarray, h: np.ndarray, slot: Slot) -> bool:
    """Whether the place is plain paper like the band round it: its colour (brightness
    apart) and its lightness even (see ``PLAIN_CHROMA_MAX``): an empty place under a
    shadow or a lamp's spot, which the markers' balance calls "not paper"."""
    chroma, grad, _ = _plain_maps(image, h, slot)
    return (float(np.percentile(chroma, PLAIN_PERCENTILE)) <= PLAIN_CHROMA_MAX
            and float(np.percentile(grad, PLAIN_PERCENTILE)) <= PLAIN_GRAD_MAX)


def plain_share(image: np.ndarray, h: np.ndarray, slot: Slot) -> float:
    """The share of the place that is plain paper pixel by pixel (``plain_place``'s
    colour and slope within their bounds, not clipped white)."""
    chroma, grad, washed = _plain_maps(image, h, slot)
    return float(((chroma <= PLAIN_CHROMA_MAX) & (grad <= PLAIN_GRAD_MAX) & ~washed).mean())


def _plain_maps(image: np.ndarray, h: np.ndarray, slot: Slot
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Over the place: each pixel's colour distance from the band's paper (brightness
    apart), the slope of its log lightness, and whether it is clipped white."""
    s = FIND_PX_PER_MM
    outer = _around(image, h, slot)
    ring = round(RING_WIDTH_MM * s)
    band = np.concatenate([outer[:ring].reshape(-1, 3), outer[-ring:].reshape(-1, 3),
                           outer[:, :ring].reshape(-1, 3), outer[:, -ring:].reshape(-1, 3)])
    paper = np.median(band, axis=0)
    cut = round((RING_OUT_MM + FIND_MARGIN_MM) * s)
    inner = outer[cut: outer.shape[0] - cut, cut: outer.shape[1] - cut]
    total = inner.sum(axis=2) + 3.0
    chroma = np.abs(inner / total[..., None] - paper / (paper.sum() + 3.0)).max(axis=2)
    light = cv2.GaussianBlur(np.log(total), (0, 0), 1.5)
    grad = np.hypot(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1)) / 8
    return chroma, grad, inner.min(axis=2) >= WASHED_LEVEL


def outline_depth(image: np.ndarray, h: np.ndarray, slot: Slot) -> float:
    """How plainly the place's printed outline shows (log lightness the line is below
    the paper either side, across the middle three fifths of each side; the least of
    the four sides): a hand or a sleeve over the place hides it, a card in it does not
    reach it (the place is 67 x 92 mm, a Duel card 57.5 x 88)."""
    return outline_sides(image, h, slot)[0]


def outline_sides(image: np.ndarray, h: np.ndarray, slot: Slot) -> list[float]:
    """:func:`outline_depth` of each of the four sides, least first."""
    s = FIND_PX_PER_MM
    light = np.log(_around(image, h, slot).sum(axis=2) + 3.0)
    hh, ww = light.shape
    m, span = round(RING_OUT_MM * s), round(OUTLINE_SPAN_MM * s)
    rows, cols = slice(hh // 5, 4 * hh // 5), slice(ww // 5, 4 * ww // 5)
    profiles = (light[rows, m - span: m + span].mean(axis=0),
                light[rows, ww - m - span: ww - m + span].mean(axis=0),
                light[m - span: m + span, cols].mean(axis=1),
                light[hh - m - span: hh - m + span, cols].mean(axis=1))
    return sorted(float((p[0] + p[-1]) / 2 - p.min()) for p in profiles)


#: A royal place at least ROYAL_PLAIN_EMPTY of which is plain paper (:func:`plain_share`),
#: its outline seen at least ROYAL_SIDES_DEPTH deep on three sides, is empty: a shadow's
#: band across an empty place, or a sleeve over one side, leave it "not paper" by the
#: markers' balance and not plain as a whole (design frames standard hard 9807 royal.0,
#: standard medium 9000 royal.2, wide hard 9902 royal.0: plain 0.83-0.92, three sides
#: 0.47-0.53, left unsure).  Over the royal places of 720 design frames (seeds
#: 9000-9900, 12 a difficulty, both lenses): readable royals plain at most 0.39, readable
#: empty places at least 0.83 and three sides 0.41 and more; royals under a hand as
#: plain as 0.76 showed three sides 0.18 at most (`.venv/bin/python
#: tests/bench/duel_cards.py --royal-empty --seeds 9000,9100,...,9900`).  Jewel cards
#: are not so judged: a pale one reaches 0.52, and an empty pyramid place is never a
#: sure answer anyway.
ROYAL_PLAIN_EMPTY = 0.75
ROYAL_SIDES_DEPTH = 0.3


def royal_place_empty(image: np.ndarray, h: np.ndarray, slot: Slot) -> bool:
    """Whether a royal place that does not look empty as a whole still is: mostly plain
    paper, its outline whole on three sides (see ``ROYAL_PLAIN_EMPTY``)."""
    return (outline_sides(image, h, slot)[1] >= ROYAL_SIDES_DEPTH
            and plain_share(image, h, slot) >= ROYAL_PLAIN_EMPTY)


def _part(bgr: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    small = cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)
    lab = cv2.GaussianBlur(lab_image(small), (0, 0), DESCRIPTOR_BLUR)
    lab = lab - lab.reshape(-1, 3).mean(0)
    lab[..., 0] *= DESCRIPTOR_L_WEIGHT
    v = lab.ravel()
    return np.asarray(v / max(float(np.linalg.norm(v)), 1e-6))


def descriptor(bgr: np.ndarray) -> np.ndarray:
    """The card's small Lab pictures, each centred and of unit length, joined: the whole
    face, then its printed features at a finer scale (the top band: points, crowns,
    ability, bonus; the left column: the cost)."""
    hgt, wid = bgr.shape[:2]
    parts = [_part(bgr, DESCRIPTOR_PX)]
    for (x0, y0, x1, y1), size in FEATURE_REGIONS:
        crop = bgr[round(y0 * hgt): round(y1 * hgt), round(x0 * wid): round(x1 * wid)]
        parts.append(FEATURE_WEIGHT * _part(crop, size))
    v = np.concatenate(parts)
    return (v / max(float(np.linalg.norm(v)), 1e-6)).astype(np.float32)


def detail_descriptor(bgr: np.ndarray) -> np.ndarray:
    """The card's detail: its Lab picture at ``DETAIL_PX`` less its own blur
    (``DETAIL_SIGMA``), reduced to ``DESCRIPTOR_PX``, centred and of unit length.  What
    light adds slowly across a card (a lamp's veil, glare's slope, a cast) falls away;
    the drawing's lines and patches stay."""
    small = lab_image(cv2.resize(bgr, DETAIL_PX, interpolation=cv2.INTER_AREA))
    fine = cv2.resize(small - cv2.GaussianBlur(small, (0, 0), DETAIL_SIGMA), DESCRIPTOR_PX,
                      interpolation=cv2.INTER_AREA)
    fine[..., 0] *= DESCRIPTOR_L_WEIGHT
    v = fine.ravel() - float(fine.mean())
    return (v / max(float(np.linalg.norm(v)), 1e-6)).astype(np.float32)


def _inset(face: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    hgt, wid = face.shape[:2]
    ix, iy = round(INSET_MM / card_mm[0] * wid), round(INSET_MM / card_mm[1] * hgt)
    return face[iy: hgt - iy, ix: wid - ix]


def face_descriptor(face: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """A bank face's descriptor, cut with the same inset as a card seen on the table."""
    return descriptor(_inset(face, card_mm))


def face_detail(face: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """A bank face's :func:`detail_descriptor`, cut as :func:`face_descriptor`."""
    return detail_descriptor(_inset(face, card_mm))


def posed_faces(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
                card_mm: tuple[float, float]) -> list[np.ndarray]:
    """The card cut out (inset, upright, white-balanced) at every pose of the search
    grid round the slot's centre: ``POSE_SHIFTS_MM`` each way, ``POSE_ANGLES``."""
    s = CUT_PX_PER_MM
    m = max(POSE_SHIFTS_MM) + 1.0
    patch = normalise(rectify(image, h, slot, s, m), gain)
    ph, pw = patch.shape[:2]
    w, hh = card_mm[0] - 2 * INSET_MM, card_mm[1] - 2 * INSET_MM
    out_size = (round(w * s), round(hh * s))
    faces = []
    for ang in POSE_ANGLES:
        t = np.radians(ang)
        c, sn = np.cos(t), np.sin(t)
        for dy in POSE_SHIFTS_MM:
            for dx in POSE_SHIFTS_MM:
                # output px -> card mm (centred) -> patch px
                cx, cy = pw / 2 + dx * s, ph / 2 + dy * s
                a = np.array([[c, -sn], [sn, c]])
                b = np.array([cx, cy]) - a @ np.array([out_size[0] / 2, out_size[1] / 2])
                faces.append(cv2.warpAffine(patch, np.hstack([a, b[:, None]]), out_size,
                                            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                            borderMode=cv2.BORDER_REPLICATE))
    return faces


@dataclass(frozen=True)
class CardBank:
    """Candidate faces' descriptors by id (see :func:`vision.duel.bank.default_bank`)."""

    name: str
    ids: tuple[str, ...]
    vectors: np.ndarray  # (len(ids), D)
    #: :func:`detail_descriptor` of each face (None: no second look)
    details: np.ndarray | None = None

    def subset(self, prefix: str) -> CardBank:
        keep = [i for i, cid in enumerate(self.ids) if cid.startswith(prefix)]
        return self._keep(keep)

    def without(self, ids: frozenset[str]) -> CardBank:
        """The bank less the faces of ``ids``."""
        return self._keep([i for i, cid in enumerate(self.ids) if cid not in ids])

    def _keep(self, keep: list[int]) -> CardBank:
        return CardBank(self.name, tuple(self.ids[i] for i in keep), self.vectors[keep],
                        None if self.details is None else self.details[keep])


@dataclass(frozen=True)
class CardName:
    """A card named: ``value`` its id or None (unsure), with the scores behind it."""

    value: str | None
    confidence: float
    score: float
    margin: float
    why: str = ""
    #: the id the best match names, named or not ("" when the bank is empty)
    leader: str = ""


def name_card(faces: list[np.ndarray], bank: CardBank, min_score: float = MIN_SCORE,
              min_margin: float = MIN_MARGIN) -> CardName:
    """The bank's id that best matches the card at its best pose (upright, inset faces
    of :func:`posed_faces`), or unsure: below ``min_score``, or less than
    ``min_margin`` ahead of the second best (a card scoring ``MIN_SCORE`` needs only
    ``MIN_MARGIN``)."""
    all_scores = np.stack([bank.vectors @ descriptor(f) for f in faces])
    scores = all_scores[int(all_scores.max(axis=1).argmax())]
    order = np.argsort(scores)[::-1]
    s1 = float(scores[order[0]])
    s2 = float(scores[order[1]]) if len(order) > 1 else -1.0
    margin = s1 - s2
    conf = float(np.clip(margin / (4 * min_margin), 0, 1))
    leader = bank.ids[order[0]]
    if s1 < min_score:
        return CardName(None, conf, s1, margin, f"best match only {s1:.2f}", leader)
    if s1 >= MIN_SCORE and margin >= MIN_MARGIN:
        # a lower bound is a second way to a name, never a harder one: a royal scoring
        # as well as a jewel card needs no more lead than one
        return CardName(leader, conf, s1, margin, "", leader)
    if margin < min_margin:
        return CardName(None, conf, s1, margin,
                        f"{leader} or {bank.ids[order[1]]} ({margin:.2f} apart)", leader)
    return CardName(leader, conf, s1, margin, "", leader)


#: A jewel card the whole picture scores below MIN_SCORE is named by its detail
#: (:func:`detail_descriptor`, at its best pose) at CARD_DETAIL_MIN_SCORE or more and
#: CARD_DETAIL_MIN_MARGIN ahead.  Over the 153 pyramid cards found present and so
#: scored on the medium and hard design frames of seeds 9000, 9100, 9300, 9500 (12 a
#: difficulty, both lenses), the detail named readable cards right at 0.54-0.95; every
#: wrong best detail scoring 0.5 or more was a joker against its twin (same picture,
#: 0.010-0.018 ahead), below 0.5 a card under a hand 0.072 ahead (`.venv/bin/python
#: tests/bench/duel_cards.py --split design --detail --seeds 9000,9100,9300,9500`).
CARD_DETAIL_MIN_SCORE = 0.5
CARD_DETAIL_MIN_MARGIN = 0.03


def by_detail(faces: list[np.ndarray], bank: CardBank) -> tuple[str, float, float] | None:
    """The bank's id whose detail best matches the card at its best pose, with the
    score and the lead over the second best (None: the bank has no details)."""
    if bank.details is None or not len(bank.ids):
        return None
    every = np.stack([bank.details @ detail_descriptor(f) for f in faces])
    scores = every[int(every.max(axis=1).argmax())]
    order = np.argsort(scores)[::-1]
    s1 = float(scores[order[0]])
    margin = s1 - (float(scores[order[1]]) if len(order) > 1 else -1.0)
    return bank.ids[order[0]], s1, margin


def name_jewel(faces: list[np.ndarray], bank: CardBank) -> CardName:
    """A jewel card named by :func:`name_card`, or, where the whole picture scores
    below ``MIN_SCORE``, by its detail (``CARD_DETAIL_MIN_SCORE``,
    ``CARD_DETAIL_MIN_MARGIN``): a lamp's veil, a cast or a dim exposure lower the
    whole picture's correlation and leave the drawing's lines."""
    first = name_card(faces, bank, MIN_SCORE, MIN_MARGIN)
    if first.value is not None or first.score >= MIN_SCORE:
        return first
    return _named_by_detail(faces, bank, CARD_DETAIL_MIN_SCORE, CARD_DETAIL_MIN_MARGIN) or first


def name_royal(faces: list[np.ndarray], bank: CardBank,
               taken: frozenset[str] = frozenset()) -> CardName:
    """A royal named by :func:`name_card` (``ROYAL_MIN_SCORE``, ``ROYAL_MIN_MARGIN``),
    or else by its detail (:func:`detail_descriptor` against ``bank.details``, at its
    best pose) when that scores ``ROYAL_DETAIL_MIN_SCORE`` and leads by
    ``ROYAL_DETAIL_MIN_MARGIN``: glare, a lamp's veil or a cast that leave a royal
    plain to a person lower the whole picture's correlation, not the detail's.  Two
    names the looks disagree on are neither.

    ``taken``: the royals named surely at the other places.  There is one card of
    each, so a royal left unsure between its leader and one of those is named again
    against the rest of the bank, and taken only if that names the same leader.  WHY:
    glare over a royal's face left it "r1 or r2 (0.07 apart)" with r2 plain in the
    next place (design frame standard hard 9107, royal.0)."""
    name = _name_royal(faces, bank)
    if name.value is not None or not name.leader or name.leader in taken \
            or not taken & set(bank.ids):
        return name
    again = _name_royal(faces, bank.without(taken))
    return again if again.value == name.leader else name


def _name_royal(faces: list[np.ndarray], bank: CardBank) -> CardName:
    first = name_card(faces, bank, ROYAL_MIN_SCORE, ROYAL_MIN_MARGIN)
    named = _named_by_detail(faces, bank, ROYAL_DETAIL_MIN_SCORE, ROYAL_DETAIL_MIN_MARGIN)
    if named is None:
        return first
    if first.value is not None:
        if first.value == named.value:
            return first
        return CardName(None, 0.0, first.score, first.margin,
                        f"{first.value} or, by its detail, {named.value}", first.leader)
    return named


def _named_by_detail(faces: list[np.ndarray], bank: CardBank, min_score: float,
                     min_margin: float) -> CardName | None:
    """The card its detail names (:func:`by_detail`) when that scores ``min_score``
    and leads by ``min_margin``, its confidence the lead over four times that; else
    None."""
    found = by_detail(faces, bank)
    if found is None:
        return None
    detail, s1, margin = found
    if s1 < min_score or margin < min_margin:
        return None
    conf = float(np.clip(margin / (4 * min_margin), 0, 1))
    return CardName(detail, conf, s1, margin, "by its detail", detail)
