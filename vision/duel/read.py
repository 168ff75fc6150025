"""``read_duel``: one still frame of a Splendor Duel table -> :class:`DuelView`.

The pipeline is Splendor's (``vision.read``): the mats' markers calibrate the
frame (:func:`vision.calibrate.calibrate`, the lens fitted when enough markers
show), each place is rectified on its own and read by its reader, and a reading
that is not sure is ``None``, never a guess and never "empty":

* board cells and players' token places: the Duel chips network
  (:mod:`vision.duel.chip_net`: a kind, empty, or unsure under glare, a hand or a
  shadow; every place of the still in one batch);
* every card, royal, deck, reserved and privilege place: present, empty or unsure
  under glare, a hand or a shadow, by the Duel slots network
  (:mod:`vision.duel.slot_net`, every such place of the still in one batch);
* a pyramid or royal place with something in it: named by the learned reader
  among the cards of its level / the royals (:mod:`vision.duel.cards`, every card
  of the still in one batch).

An answer below its kind's sure threshold (:mod:`vision.duel.confidence`) is kept in
the place's reading but is ``None`` in the view.  Places not wholly in the frame are
``None``.  A player's count is given only when
every place behind it was read; bonuses, crowns and a player's royals are not read
(``None``): the referee knows them from the turns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from companion.rules.duel import cards as duel_cards
from companion.rules.duel.view import DuelView, Place, PlayerView
from vision.calibrate import Calibration, calibrate, slots_visible
from vision.duel import chip_net, slot_net
from vision.duel.cards import CardName, name_cards, posed_faces
from vision.duel.confidence import is_sure
from vision.duel.layout import DUEL_CARD_MM, KIND_ORDER, PYRAMID_ROWS, build_duel_layout
from vision.layout import Layout, Slot


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
    chips: dict[str, np.ndarray] = {}
    places: dict[str, np.ndarray] = {}
    for s in slots:
        if not visible[s.id]:
            out[s.id] = PlaceReading(s.id, None, 0.0, "not in the frame")
            continue
        h = cal.h_for_slot(s)
        gain = cal.gain_at(s.center)
        if s.kind == "token":
            chips[s.id] = chip_net.crop(image, h, s, gain)
        elif s.kind in slot_net.KINDS:
            places[s.id] = slot_net.crop(image, h, s, gain)
    for cut, net in ((chips, chip_net), (places, slot_net)):
        for sid, (value, confidence, why) in zip(cut, net.read_places(list(cut.values())),
                                                 strict=True):
            out[sid] = PlaceReading(sid, value, confidence, why)
    out.update(_named({s.id: _cuts(image, cal, s) for s in slots
                       if s.kind in CARD_KINDS and out[s.id].value == slot_net.PRESENT}))
    return DuelReading(view_from(layout, out), out, len(cal.markers))


#: The royals' ids, the classes a royal place is named among.
ROYAL_IDS = tuple(r.id for r in duel_cards.royals())
#: The place kinds whose cards are named (pyramid places, royal places).
CARD_KINDS = ("card", "noble")


def _level_ids(level: int) -> tuple[str, ...]:
    return tuple(c.id for c in duel_cards.cards_of_level(level))


def _cuts(image: np.ndarray, cal: Calibration, slot: Slot
          ) -> tuple[list[np.ndarray], tuple[str, ...]]:
    """A pyramid or royal place the slots network found a card in: its cuts to name,
    and the ids it is named among."""
    cuts = posed_faces(image, cal.h_for_slot(slot), slot, cal.gain_at(slot.center),
                       DUEL_CARD_MM)
    return cuts, ROYAL_IDS if slot.kind == "noble" else _level_ids(slot.level or 1)


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
