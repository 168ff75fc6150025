"""``read_duel``: one still frame of a Splendor Duel table -> :class:`DuelView`.

The pipeline is Splendor's (``vision.read``): the mats' markers calibrate the
frame (:func:`vision.calibrate.calibrate`, the lens fitted when enough markers
show), each place is rectified on its own and read by its reader, and a reading
that is not sure is ``None``, never a guess and never "empty":

* board cells and players' token places: the Duel chips network
  (:mod:`vision.duel.chip_net`: a kind, empty, or unsure under glare, a hand or a
  shadow; every place of the still in one batch);
* pyramid and royal places: :mod:`vision.duel.cards` (found on the paper, named
  by the learned reader among the cards of their level / the royals, every card
  of the still in one batch);
* decks, reserved cards and privilege scrolls: present or not, by how much of the
  place is not its printed ground.

An answer below its kind's sure threshold (:mod:`vision.duel.confidence`) is kept in
the place's reading but is ``None`` in the view.  Places not wholly in the frame are
``None``.  A player's count is given only when
every place behind it was read; bonuses, crowns and a player's royals are not read
(``None``): the referee knows them from the turns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import cv2
import numpy as np

from companion.rules.duel import cards as duel_cards
from companion.rules.duel.view import DuelView, Place, PlayerView
from vision.calibrate import Calibration, calibrate, rectify, slots_visible
from vision.duel import chip_net
from vision.duel.cards import (
    GLARE_MAX,
    OUTLINE_DEPTH,
    CardName,
    find_card,
    name_cards,
    outline_depth,
    plain_share,
    posed_faces,
    royal_place_empty,
)
from vision.duel.confidence import is_sure
from vision.duel.layout import DUEL_CARD_MM, KIND_ORDER, PYRAMID_ROWS, build_duel_layout
from vision.layout import Layout, Slot
from vision.mats import PAPER, TOKEN_SLOT_FILL
from vision.pixels import lab_distance, lab_image, normalise

#: Scale presence is judged at (px/mm), and how far in from the place's edge (mm).
PRESENCE_PX_PER_MM = 1.5
PRESENCE_INSET_MM = 3.0
#: A pixel differs from the printed ground (grey fill, paper) beyond this Lab distance.
GROUND_DIST = 22.0
#: Share of a place that differs from its ground: at most ABSENT_MAX nothing there, at
#: least PRESENT_MIN something there; between, unsure.
ABSENT_MAX = 0.1
PRESENT_MIN = 0.5
#: A privilege place's median lightness below the paper round it (L): the grey fill is
#: ~60 below, a scroll ~10 (the printed and drawn colours, vision.mats / synth.duel).
#: On the central mat's privilege places of 45 design frames (seeds 5000-5044, the
#: central framing): scrolls -0.2 to 7.6, empty places 36.8 to 70.4.
FILL_BELOW_PAPER = 30.0
#: A privilege place's median b* (yellowness) above the paper round it: scrolls 9.5 to
#: 20, empty places -7.0 to 0.8, places under a hand -16 to 2 (60 design frames,
#: seeds 5000-5059, the central framing; a scroll in a shadow band was read empty on
#: its lightness alone, hard seed 4003).  A scroll is read on its colour only.
SCROLL_YELLOW = 5.0
#: ... unless the place is SCROLL_DARK_BELOW darker than the paper or more, nearly the
#: grey fill: then it must be SCROLL_YELLOW_DARK yellower.  Under a warm lamp an empty
#: fill came out 6.5 yellower and 24 below the paper and was read a scroll (design
#: frame wide hard 9611, privilege.2; the scrolls beside it 3-4 yellower, 0 below);
#: over 648 privilege places of 216 design frames (seeds 9200-9211, 7000-7011,
#: 5000-5011, every difficulty, both lenses) scrolls 12 or more below the paper were
#: 11.2-18.4 yellower (one under a hand 7.7, 19 below), readable empty fills never 4
#: (`splendor-companion vision world --game duel --split design --seed 9600 --lens
#: wide --count 12 --mistakes` for the frame).
SCROLL_DARK_BELOW = 20.0
SCROLL_YELLOW_DARK = 9.0
#: A scroll under a warm lamp is as yellow and as light as the paper round it (the
#: Wide's hard frames 9206 and 9611: about 3 yellower, 0.3 below); what still shows it is
#: its two printed bars.  A place at most SCROLL_PAPER_BELOW from the paper's lightness
#: either way, yellower than it (SCROLL_BARS_YELLOW, below), whose darkest column
#: is at least SCROLL_BARS below its median column (L) holds a scroll.  Over the
#: privilege places of 144 design frames (seeds 9200-9211 and 9600-9611, every
#: difficulty, both lenses) readable scrolls' bars were 11.1 and more, the grey fill is
#: never that light (24 or more below the paper), and under a hand the empty places as
#: light as the paper showed bars of 1.2-4.3
#: (`.venv/bin/python tests/bench/duel_scrolls.py --seeds 9200,9600 --count 12`).
#: The grey fill under the same lamp came out 24 below the paper, 6 yellower, bars 4
#: (Wide hard 9611, privilege.2): a place SCROLL_DARK_BELOW or more below the paper
#: with bars under SCROLL_BARS is the fill (scrolls that dark showed bars of 18 and
#: more, same frames).
SCROLL_PAPER_BELOW = 6.0
SCROLL_BARS = 8.0
#: ... and it must be at least SCROLL_BARS_YELLOW yellower than the paper: a hand's
#: fingers show bars too.  Over the privilege places of the design frames of seeds
#: 9200, 9300, 9400 and 9600 (both lenses, every difficulty; /tmp/dv6/priv.py) the
#: readable scrolls known by their bars were 2.9-4.6 yellower, the empty places
#: under a hand that showed bars -0.3 to 1.5 (7 answered "present", one at 0.95).
SCROLL_BARS_YELLOW = 2.0
#: An overexposed frame lifts the grey fill towards the clipped paper (design frame
#: standard hard 11509, privilege.0: 18 below it, left unsure); what still shows the
#: fill is its blue: a place FILL_BLUE_BELOW or more below the paper and FILL_BLUER or
#: more bluer (b*) is empty.  Of the privilege places left unsure on the medium and hard
#: design frames of seeds 9000-9700 and 11000-11700, both lenses, readable empty ones
#: were 17.8-20.2 below and 3.5-9.5 bluer, those under a hand 5 or more below at most
#: 2.4 bluer but for one 10.9 below, 20.7 bluer (wide hard 9305); readable scrolls were
#: never bluer but under an arm, 27 lighter than the paper (`.venv/bin/python
#: tests/bench/duel_scrolls.py --unsure --difficulties medium,hard --seeds
#: 9000,9100,9200,9300,9400,9500,9600,9700,11000,11100,11200,11300,11400,11500,11600,11700`).
FILL_BLUE_BELOW = 14.0
FILL_BLUER = 4.0
#: A scroll under a cool lamp is as light and as white as the paper round it (design
#: frame hard 9103: "0 below the paper, 0 yellower", no bars yellow enough); what
#: still shows it is its rolled ends, yellower than the paper (b*) by SCROLL_ENDS_YELLOW
#: or more at both ends of its length and by SCROLL_ENDS_LIFT or more than its middle.
#: Over the privilege places of 144 design frames (seeds 9200-9211 and 9600-9611, every
#: difficulty, both lenses): readable scrolls' ends 16 and more yellower (p1; lift 11 at
#: p5), readable empty places' ends at most 8 (lift at most 7.5), under a hand at most 1
#: (`.venv/bin/python tests/bench/duel_scrolls.py --seeds 9200,9600 --count 12`).
SCROLL_ENDS_YELLOW = 12.0
SCROLL_ENDS_LIFT = 10.0
#: The band's own balance sets the place's white balance when it is within this
#: share, per channel, of grey or of the markers' cast (a warm lamp's cast left to
#: the markers' balance lifted the paper round an empty place to white and its grey
#: fill to 10 yellower: a scroll, design frame wide hard 9504, privilege.1); measured
#: over the privilege places of the design frames of seeds 9200-9700 by
#: `.venv/bin/python tests/bench/duel_places.py --seeds 9200,9300,9400,9500,9600,9700`.
LOCAL_CAST_MAX = 0.25
#: ... and, round a deck's place, when it lifts the band by less than this (a mean
#: gain; 4 round a privilege place, where more let a hand pass for the grey fill): a
#: deep shadow over an empty deck place left it to the markers' balance, under which
#: it was all "not paper", read a deck (design frame wide hard 9502, deck.1, 8.2);
#: readable deck places ran to 13 on the design frames of seeds 9200-9700 (same command).
LOCAL_GAIN_MAX = 16.0
#: A privilege place left unsure that is BAND_DARKER (L) or more lighter than the
#: band round it has something darker than the paper over the band (an arm: design
#: frames wide hard 9306 and 9507, the place 25 and 27 lighter): it is judged again
#: against the band's sides at most BAND_SIDE_DARKER (a share of brightness) below
#: the lightest, and taken only if that finds a scroll by its colour (by its bars, a
#: hand's edge over a sleeve passed for one, standard hard 9610); same command.
BAND_DARKER = 15.0
BAND_SIDE_DARKER = 0.15
#: A privilege place's printed outline is judged in pieces this long (mm), this far
#: clear of the corners (18 pieces round a 24 x 44 mm place), at this scale (px/mm).
OUTLINE_PIECE_MM = 6.0
OUTLINE_CORNER_MM = 3.0
OUTLINE_PX_PER_MM = 8.0
#: A piece is hidden (a hand, an arm, a sleeve over the place's edge) when its ink is
#: less than OUTLINE_IN_DEPTH (log lightness) below the lightest just inside it AND
#: less than OUTLINE_OUT_DEPTH below the paper just outside; the tallies hold alike for
#: either from 0.1 to 0.15, on the medium and hard design frames of seeds 9000-9700
#: (`.venv/bin/python tests/bench/duel_scrolls.py --outline --cache /tmp/duelc --seeds
#: 9000,9100,9200,9300,9400,9500,9600,9700,9800,9900 --held 9800,9900
#: --difficulties medium,hard`).
OUTLINE_IN_DEPTH = 0.1
OUTLINE_OUT_DEPTH = 0.15
#: A privilege place with OUTLINE_HIDDEN pieces hidden or more has a hand over it and
#: is answered at most OUTLINE_HIDDEN_CONFIDENCE sure, below either sure threshold
#: (vision.duel.confidence): places under a hand answered sure by their colour hid 3
#: and more, readable ones none but where an arm lay over a whole side (same command).
OUTLINE_HIDDEN = 3
OUTLINE_HIDDEN_CONFIDENCE = 0.1
#: Paper washed out over more than this share is not said empty (vision.duel.cards).
WASHED_ABSENT_MAX = 0.35
#: The band round a place whose paper sets the place's white balance (mm).
RING_MM = 4.0
_PAPER_BGR = PAPER
_FILL_LAB = lab_image(np.array([[TOKEN_SLOT_FILL]], np.uint8))[0, 0]
_PAPER_LABS = (lab_image(np.array([[_PAPER_BGR]], np.uint8))[0, 0],
               lab_image(np.array([[(255, 255, 255)]], np.uint8))[0, 0])


@dataclass(frozen=True)
class PlaceReading:
    """One place read: ``value`` (id, letter, "" empty, "present", or None unsure)."""

    place: str
    value: str | None
    confidence: float
    why: str = ""

    @property
    def sure(self) -> bool:
        """An answer at or above its kind's threshold (:mod:`vision.duel.confidence`):
        the only answers the view (and so the referee) takes."""
        return self.value is not None and is_sure(self.place, self.confidence, self.value)


@dataclass(frozen=True)
class DuelReading:
    """The view, and every place's reading behind it (``places`` by slot id)."""

    view: DuelView
    places: dict[str, PlaceReading] = field(default_factory=dict)
    markers: int = 0


def read_duel(image: np.ndarray, calibration: Calibration | None = None, *,
              layout: Layout | None = None) -> DuelView:
    """The Duel table in ``image``; ``None`` wherever the reader is not sure.

    ``calibration``: from :func:`vision.calibrate.calibrate` on this frame and the
    Duel layout (None: calibrated here).
    """
    return read_duel_places(image, calibration, layout=layout).view


def read_duel_places(image: np.ndarray, calibration: Calibration | None = None, *,
                     layout: Layout | None = None) -> DuelReading:
    """:func:`read_duel` with the reading of every place and its confidence."""
    layout = layout or build_duel_layout()
    cal = calibration if calibration is not None else calibrate(image, layout)
    if cal is None:
        return DuelReading(view_from(layout, {}), {}, 0)
    slots = [s for s in layout.slots if s.kind not in ("frame", "tableau")]
    visible = dict(zip((s.id for s in slots), slots_visible(cal, slots, image.shape),
                       strict=True))
    cal.prepare_slots([s for s in slots if visible[s.id]])
    out: dict[str, PlaceReading] = {}
    to_name: dict[str, tuple[list[np.ndarray], tuple[str, ...]]] = {}
    chips: dict[str, np.ndarray] = {}
    for s in slots:
        if not visible[s.id]:
            out[s.id] = PlaceReading(s.id, None, 0.0, "not in the frame")
            continue
        h = cal.h_for_slot(s)
        gain = cal.gain_at(s.center)
        if s.kind == "token":
            chips[s.id] = chip_net.crop(image, h, s, gain)
        elif s.kind in ("card", "noble"):
            found = _find(image, h, s, gain)
            if isinstance(found, PlaceReading):
                out[s.id] = found
            else:
                ids = ROYAL_IDS if s.kind == "noble" else _level_ids(s.level or 1)
                to_name[s.id] = (found, ids)
        else:
            ground = "fill" if s.kind == "privilege" else "paper"
            out[s.id] = _presence(image, h, s, gain, ground)
            if s.kind == "privilege":
                out[s.id] = _outline_seen(image, h, s, out[s.id])
    out.update(_named(to_name))
    for sid, (value, confidence, why) in zip(chips, chip_net.read_places(list(chips.values())),
                                             strict=True):
        out[sid] = PlaceReading(sid, value, confidence, why)
    return DuelReading(view_from(layout, out), out, len(cal.markers))


#: The royals' ids, the classes a royal place is named among.
ROYAL_IDS = tuple(r.id for r in duel_cards.royals())


def _level_ids(level: int) -> tuple[str, ...]:
    return tuple(c.id for c in duel_cards.cards_of_level(level))


def _find(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
          ) -> PlaceReading | list[np.ndarray]:
    """A pyramid or royal place's answer when it needs no naming (empty, covered, a
    jewel card under glare over more than ``GLARE_MAX``), else its cuts to name."""
    royal = slot.kind == "noble"
    found = find_card(image, h, slot, gain, DUEL_CARD_MM)
    if found.state == "empty":
        return PlaceReading(slot.id, "", 1.0 - found.share)
    if royal and royal_place_empty(image, h, slot):
        return PlaceReading(slot.id, "", plain_share(image, h, slot))
    if found.state != "present":
        return PlaceReading(slot.id, None, 0.0, f"{found.share:.0%} covered")
    if found.washed > GLARE_MAX and not royal:
        return PlaceReading(slot.id, None, 0.0, f"glare over {found.washed:.0%}")
    return posed_faces(image, h, slot, gain, DUEL_CARD_MM)


def _named(to_name: dict[str, tuple[list[np.ndarray], tuple[str, ...]]]
           ) -> dict[str, PlaceReading]:
    """Every place of ``to_name`` named in one batch.  A royal place whose leader is
    named surely at another royal place is named again among the other royals: there
    is one card of each (glare over a royal left it "r1 or r2" with r2 plain beside it)."""
    sids = list(to_name)
    names = name_cards([to_name[s][0] for s in sids], [to_name[s][1] for s in sids])
    out = {s: _reading(s, n) for s, n in zip(sids, names, strict=True)}
    royals = [s for s in sids if s.startswith("royal.")]
    again = {}
    for s in royals:
        taken = frozenset(out[o].value for o in royals if o != s and out[o].sure)
        if out[s].sure or names[sids.index(s)].leader not in taken:
            continue
        rest = tuple(r for r in ROYAL_IDS if r not in taken)
        if rest:
            again[s] = name_cards([to_name[s][0]], [rest])[0]
    out.update({s: _reading(s, n) for s, n in again.items()})
    return out


def _reading(sid: str, name: CardName) -> PlaceReading:
    return PlaceReading(sid, name.value, name.confidence, name.why)


def _presence(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              ground: str, lightest_sides: bool = False) -> PlaceReading:
    """Something on the place or not, by the share that differs from its printed ground.

    The white balance is the paper's just round the place (``RING_MM`` outside it),
    when that band looks like paper: a lamp's spot or fall-off between the markers
    otherwise lifts a grey place towards white.  ``lightest_sides``: of the band, only
    the sides as light as its lightest (:func:`paper_band`)."""
    s = PRESENCE_PX_PER_MM
    ring = round(RING_MM * s)
    raw = rectify(image, h, slot, s, RING_MM)
    band = paper_band(raw, ring, BAND_SIDE_DARKER if lightest_sides else 1.0)
    paper = np.median(band, axis=0).astype(np.float32)
    local = np.asarray(_PAPER_BGR, np.float32) / np.maximum(paper, 1.0)
    gain0 = gain
    if local_paper(local, gain, 4.0 if ground == "fill" else LOCAL_GAIN_MAX):
        gain = local
    band_l = float(np.median(lab_image(normalise(band.reshape(-1, 1, 3), gain))[..., 0]))
    placed = raw[ring: raw.shape[0] - ring, ring: raw.shape[1] - ring]
    inset = round((RING_MM + PRESENCE_INSET_MM) * s)
    raw = raw[inset: raw.shape[0] - inset, inset: raw.shape[1] - inset]
    lab = cv2.GaussianBlur(lab_image(normalise(raw, gain)), (0, 0), 0.7)
    refs = (_FILL_LAB,) if ground == "fill" else _PAPER_LABS
    d = np.min([lab_distance(lab, r) for r in refs], axis=0)
    share = float((d > GROUND_DIST).mean())
    washed = float((raw.min(axis=2) >= 245).mean())
    if ground == "fill":  # a scroll is yellower than the paper round it, the grey fill not
        band_lab = lab_image(normalise(band.reshape(-1, 1, 3), gain))
        yellow = float(np.median(lab[..., 2])) - float(np.median(band_lab[..., 2]))
        below = band_l - float(np.median(lab[..., 0]))
        if yellow >= SCROLL_YELLOW and (below < SCROLL_DARK_BELOW or yellow >= SCROLL_YELLOW_DARK):
            return PlaceReading(slot.id, "present", min(1.0, yellow / 20))
        if lightest_sides:  # a second look: a scroll by its colour, nothing else
            return PlaceReading(slot.id, None, 0.0, "")
        bars = scroll_bars(lab[..., 0])
        if abs(below) <= SCROLL_PAPER_BELOW and yellow >= SCROLL_BARS_YELLOW \
                and bars >= SCROLL_BARS:
            return PlaceReading(slot.id, "present", min(1.0, bars / 40))
        ends, lift = scroll_ends(placed, gain, float(np.median(band_lab[..., 2])))
        if ends >= SCROLL_ENDS_YELLOW and lift >= SCROLL_ENDS_LIFT:
            return PlaceReading(slot.id, "present", min(1.0, lift / 30))
    if share <= ABSENT_MAX and washed < WASHED_ABSENT_MAX:
        return PlaceReading(slot.id, "", 1.0 - share)
    if ground == "fill":  # ... and the fill darker than the paper, a scroll not
        if below >= FILL_BELOW_PAPER or (below >= SCROLL_DARK_BELOW and bars < SCROLL_BARS):
            return PlaceReading(slot.id, "", min(1.0, below / 60))
        if below >= FILL_BLUE_BELOW and yellow <= -FILL_BLUER:  # the fill, lifted but blue
            return PlaceReading(slot.id, "", min(1.0, below / 60 - yellow / 20))
        unsure = PlaceReading(slot.id, None, 0.0, f"{below:.0f} below the paper, "
                              f"{yellow:.0f} yellower")
        if lightest_sides or below > -BAND_DARKER:
            return unsure
        # the band darker than the place: an arm or a sleeve over part of it
        retry = _presence(image, h, slot, gain0, ground, lightest_sides=True)
        return unsure if retry.value is None else retry
    if share >= PRESENT_MIN:
        if slot.kind == "deck":  # a deck leaves its place's printed outline to be seen
            depth = outline_depth(image, h, slot)
            if depth < OUTLINE_DEPTH:  # a hand or a sleeve over the place: not sure
                return PlaceReading(slot.id, "present", depth, "its outline hidden")
        return PlaceReading(slot.id, "present", share)
    return PlaceReading(slot.id, None, 0.0, f"{share:.0%} covered")


def _outline_seen(image: np.ndarray, h: np.ndarray, slot: Slot,
                  reading: PlaceReading) -> PlaceReading:
    """A privilege place's ``reading``, no more than OUTLINE_HIDDEN_CONFIDENCE sure when
    a hand or an arm hides its printed outline (:func:`outline_hidden`): a hand's skin is
    as yellow as a scroll, its shadow as dark as the grey fill."""
    if reading.value is None or reading.confidence <= OUTLINE_HIDDEN_CONFIDENCE:
        return reading
    hidden, pieces = outline_hidden(image, h, slot)
    if hidden < OUTLINE_HIDDEN:
        return reading
    return PlaceReading(slot.id, reading.value, OUTLINE_HIDDEN_CONFIDENCE,
                        f"its outline hidden ({hidden} of {pieces} pieces)")


def outline_hidden(image: np.ndarray, h: np.ndarray, slot: Slot) -> tuple[int, int]:
    """(pieces hidden, pieces) of a place's printed outline (see ``OUTLINE_IN_DEPTH``)."""
    pieces = outline_pieces(image, h, slot)
    return sum(1 for inside, outside in pieces
               if inside < OUTLINE_IN_DEPTH and outside < OUTLINE_OUT_DEPTH), len(pieces)


def outline_pieces(image: np.ndarray, h: np.ndarray, slot: Slot) -> list[tuple[float, float]]:
    """Per piece of a place's printed outline (``OUTLINE_PIECE_MM``): how far (log
    lightness) its line is below the lightest just inside it (1.5-3 mm in from the
    place's edge) and below the paper just outside (1.5-3.5 mm out)."""
    s, margin = OUTLINE_PX_PER_MM, 4.0
    raw = rectify(image, h, slot, s, margin)
    light = np.log(raw.astype(np.float32).sum(axis=2) + 3.0)
    edge = round(margin * s)
    out_band = slice(round(0.5 * s), round(2.5 * s))
    line = slice(edge - round(1.0 * s), edge + round(1.5 * s))
    in_band = slice(edge + round(1.5 * s), edge + round(3.0 * s))
    w, hh = slot.size
    pieces = []
    # each side seen from outside in: left, right, top, bottom
    for side, length in ((light, hh), (light[:, ::-1], hh), (light.T, w), (light[::-1].T, w)):
        n = max(1, round((length - 2 * OUTLINE_CORNER_MM) / OUTLINE_PIECE_MM))
        ends = np.linspace(edge + OUTLINE_CORNER_MM * s, edge + (length - OUTLINE_CORNER_MM) * s,
                           n + 1).round().astype(int)
        for a, b in pairwise(ends):
            profile = side[a:b].mean(axis=0)
            ink = float(profile[line].min())
            pieces.append((float(profile[in_band].max()) - ink,
                           float(profile[out_band].mean()) - ink))
    return pieces


def local_paper(local: np.ndarray, gain: np.ndarray, most: float = 4.0) -> bool:
    """Whether the band's balance ``local`` (the gain that makes the band round a place
    the mat's paper) is paper's: near grey, or of the same cast as the markers'
    ``gain`` under a coloured lamp (``LOCAL_CAST_MAX``; a grey or dark thing over
    the band is neither), lifting it by less than ``most`` (a mean gain)."""
    mean = float(local.mean())
    if not 0.5 < mean < most:
        return False
    flat = local / mean
    cast = flat / (np.asarray(gain, np.float32) / max(float(np.mean(gain)), 1e-6))
    return (float(np.abs(flat - 1).max()) < LOCAL_CAST_MAX
            or float(np.abs(cast - 1).max()) < LOCAL_CAST_MAX)


def paper_band(raw: np.ndarray, ring: int, darker: float = 1.0) -> np.ndarray:
    """The pixels of the band ``ring`` px wide round a rectified place: its four sides,
    less those whose median brightness is more than ``darker`` (a share) below the
    lightest side's (an arm or a sleeve lying over them, darker than the paper)."""
    sides = [raw[:ring].reshape(-1, 3), raw[-ring:].reshape(-1, 3),
             raw[:, :ring].reshape(-1, 3), raw[:, -ring:].reshape(-1, 3)]
    light = [float(np.median(side.astype(np.float32).sum(axis=1))) for side in sides]
    top = max(max(light), 1.0)
    return np.concatenate([side for side, v in zip(sides, light, strict=True)
                           if v >= (1.0 - darker) * top])


def scroll_bars(lightness: np.ndarray) -> float:
    """How far the darkest column of a privilege place (rectified upright) is below its
    median column: a scroll's two printed bars run along it, the grey fill is even."""
    profile = lightness.astype(np.float32).mean(axis=0)
    return float(np.median(profile) - profile.min())


def scroll_ends(place: np.ndarray, gain: np.ndarray, paper_b: float) -> tuple[float, float]:
    """(how much yellower than the paper's ``paper_b`` the less yellow of a place's two
    ends is, how much yellower that is than its middle), along the place's length, its
    end fifths against its median row: a scroll's rolled ends."""
    b = lab_image(normalise(place, gain))[..., 2].astype(np.float32)
    if b.shape[1] > b.shape[0]:
        b = b.T
    rows = np.median(b, axis=1) - paper_b
    k = max(1, len(rows) // 5)
    ends = min(float(rows[:k].max()), float(rows[-k:].max()))
    return ends, ends - float(np.median(rows[k:-k]))


def _count(readings: list[PlaceReading]) -> int | None:
    if any(r.value is None for r in readings):
        return None
    return sum(1 for r in readings if r.value)


def view_from(layout: Layout, read: dict[str, PlaceReading]) -> DuelView:
    """The view of the sure answers: every other place ``None``, no evidence."""
    out = {sid: r if r.sure or r.value is None else
           PlaceReading(r.place, None, r.confidence, f"not sure ({r.confidence:.2f})")
           for sid, r in read.items()}
    def value(sid: str) -> Place:
        r = out.get(sid)
        return None if r is None else r.value

    board = tuple(value(f"board.{i}") for i in range(25))
    pyramid = tuple(tuple(value(f"pyramid.{level}.{i}") for i in range(n))
                    for level, n in sorted(PYRAMID_ROWS))
    decks = []
    for level in (1, 2, 3):
        v = value(f"deck.{level}")
        decks.append(None if v is None else bool(v))
    royal_places = [value(f"royal.{i}") for i in range(4)]
    royals = None if any(v is None for v in royal_places) else frozenset(
        v for v in royal_places if v)
    privileges = _count([out[s.id] for s in layout.slots_of("privilege", "privileges")
                         if s.id in out]) if out else None
    players = []
    for p in (1, 2):
        counts: list[int | None] = []
        for letter in KIND_ORDER:
            places = [out.get(s.id) for s in layout.slots_of("token", f"player{p}.tokens")
                      if s.colour == letter]
            if not out or any(r is None or r.value is None for r in places):
                counts.append(None)
                continue
            counts.append(sum(1 for r in places if r is not None and r.value == letter))
        # a token read in another kind's column counts for its own kind
        strays = [r.value for s in layout.slots_of("token", f"player{p}.tokens")
                  if (r := out.get(s.id)) is not None and r.value and r.value != s.colour]
        for letter in strays:
            k = KIND_ORDER.index(letter)
            c = counts[k]
            counts[k] = None if c is None else c + 1
        priv = [out[s.id] for s in layout.slots_of("privilege", f"player{p}.privileges")
                if s.id in out]
        res = [out[s.id] for s in layout.slots_of("reserved", f"player{p}.reserved")
               if s.id in out]
        players.append(PlayerView(
            tokens=tuple(counts),
            privileges=_count(priv) if len(priv) == 3 else None,
            reserved=_count(res) if len(res) == 3 else None,
            bonuses=(None,) * 5, crowns=None, royals=None))
    return DuelView(board, pyramid, tuple(decks), royals, privileges,
                    (players[0], players[1]))
