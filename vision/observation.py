"""What the reader saw: frozen values with a confidence on everything unsure.

The JSON form (:meth:`Observation.to_json`) is documented in ``vision/SCHEMA.md``.
A card always carries its id, level, bonus, points and cost, so a consumer
never needs the catalogue to understand an observation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion.rules.catalogue import Card, Noble
from companion.rules.gems import COLOURS

SCHEMA = "splendor-companion/observation"
VERSION = 1


def card_dict(card: Card) -> dict[str, Any]:
    return {"id": card.id, "level": card.level, "bonus": card.bonus.letter,
            "points": card.points, "cost": {g.letter: card.cost[g] for g in COLOURS}}


def noble_dict(noble: Noble) -> dict[str, Any]:
    return {"id": noble.id, "points": noble.points,
            "requirement": {g.letter: noble.requirement[g] for g in COLOURS}}


@dataclass(frozen=True)
class CardReading:
    """A market (or reserved) card slot: ``empty``, ``card`` or ``unknown`` (abstained)."""

    slot: str
    state: str
    card: Card | None = None
    confidence: float = 1.0
    #: how far the reading is from the chosen card (0 = perfect), None if no card.
    distance: float | None = None
    #: the runner-up's id, to show what the reader hesitated between.
    runner_up: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "state": self.state,
                "card": card_dict(self.card) if self.card else None,
                "confidence": round(self.confidence, 3),
                "distance": None if self.distance is None else round(self.distance, 3),
                "runner_up": self.runner_up}


@dataclass(frozen=True)
class DeckReading:
    level: int
    present: bool | None
    confidence: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "present": self.present,
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class NobleReading:
    slot: str
    state: str
    noble: Noble | None = None
    confidence: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "state": self.state,
                "noble": noble_dict(self.noble) if self.noble else None,
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class TokenSlotReading:
    """A printed token slot: ``empty``, ``token`` (with ``colour``) or ``unknown``."""

    slot: str
    zone: str
    state: str
    colour: str | None = None
    confidence: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "zone": self.zone, "state": self.state,
                "colour": self.colour, "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class ReservedReading:
    slot: str
    player: int
    occupied: bool | None
    confidence: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "player": self.player, "occupied": self.occupied,
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class TableauReading:
    """Cards counted in one colour column of a player's tableau (None = unreadable)."""

    player: int
    colour: str
    count: int | None
    confidence: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "colour": self.colour, "count": self.count,
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class PileReading:
    """A token pile: its colour and an estimated count (the rules pin the exact count)."""

    slot: str
    zone: str
    colour: str | None
    count: int
    confidence: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "zone": self.zone, "colour": self.colour,
                "count": self.count, "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class ZoneTokens:
    """Token counts of a zone; ``exact`` when no slot in it was unknown or unseen."""

    zone: str
    counts: dict[str, int]
    unknown: int
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        return {"zone": self.zone, "counts": self.counts, "unknown": self.unknown,
                "exact": self.exact}


@dataclass(frozen=True)
class Observation:
    """Everything read from one frame.  ``calibrated`` is False when no marker was seen;
    then every list is empty and ``reason`` says why."""

    calibrated: bool
    image_size: tuple[int, int]
    markers: tuple[int, ...] = ()
    cards: tuple[CardReading, ...] = ()
    decks: tuple[DeckReading, ...] = ()
    nobles: tuple[NobleReading, ...] = ()
    token_slots: tuple[TokenSlotReading, ...] = ()
    tokens: tuple[ZoneTokens, ...] = ()
    reserved: tuple[ReservedReading, ...] = ()
    tableau: tuple[TableauReading, ...] = ()
    piles: tuple[PileReading, ...] = ()
    #: slots of the layout outside the frame, not read.
    unseen: tuple[str, ...] = ()
    reason: str = ""
    colours: str = "built-in defaults"
    elapsed_ms: float = field(default=0.0, compare=False)

    def card_at(self, slot: str) -> CardReading | None:
        return next((c for c in self.cards if c.slot == slot), None)

    def zone_tokens(self, zone: str) -> ZoneTokens | None:
        return next((z for z in self.tokens if z.zone == zone), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA, "version": VERSION,
            "calibrated": self.calibrated, "reason": self.reason,
            "image_size": list(self.image_size), "markers": list(self.markers),
            "colours": self.colours,
            "cards": [c.to_dict() for c in self.cards],
            "decks": [d.to_dict() for d in self.decks],
            "nobles": [n.to_dict() for n in self.nobles],
            "token_slots": [t.to_dict() for t in self.token_slots],
            "tokens": [z.to_dict() for z in self.tokens],
            "reserved": [r.to_dict() for r in self.reserved],
            "tableau": [t.to_dict() for t in self.tableau],
            "piles": [p.to_dict() for p in self.piles],
            "unseen": list(self.unseen),
            "elapsed_ms": round(self.elapsed_ms, 1),
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)
