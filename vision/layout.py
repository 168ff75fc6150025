"""The table description: mats, ArUco markers and every slot, in millimetres.

``layout.json`` is the single description of the table that the mats are
printed from, that the renderer draws and that the reader rectifies; its schema
is documented in ``vision/SCHEMA.md``.  Everything is in table millimetres
with x to the right and y down (image convention), seen from above with
player 1 at the bottom.

Design decisions
----------------
* A slot is a rotated rectangle: ``center``, ``size`` (w, h) and ``angle``
  (degrees, clockwise on screen).  The slot's local "up" is the direction
  away from its owner, so a rectified card is upright for the player who
  reads it.  The market and nobles face player 1.
* Each mat is printed separately and laid by hand, so mats are never exactly
  where the layout says relative to each other.  Every slot and marker names
  its ``mat``; the reader calibrates each mat from its own markers when it
  can see one and only falls back to the other mats' markers otherwise.
* Token slots are printed round slots that hold exactly one token, so counts
  are exact.  The supply has 7 of each gem and 5 gold; a player mat has 10.
* Sizes fit the real components: cards 63×88 mm (slots 67×92), nobles
  60×60 mm (slots 64×64), tokens about 40 mm (slots 44 mm).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from vision.errors import VisionError

SCHEMA = "splendor-companion/layout"
VERSION = 1
ARUCO_DICTIONARY = "DICT_4X4_50"

CARD_MM = (63.0, 88.0)
NOBLE_MM = (60.0, 60.0)
TOKEN_MM = 40.0
CARD_SLOT_MM = (67.0, 92.0)
NOBLE_SLOT_MM = (64.0, 64.0)
TOKEN_SLOT_MM = 44.0
MARKER_MM = 30.0
#: The markers squeezed between the market and the supply.
SMALL_MARKER_MM = 20.0
EXTRA_MARKER_ID = 45
#: White square printed around every marker (its quiet zone), edge length.
MARKER_QUIET_MM = 40.0
#: Margin band of every mat, where the markers live.
BAND_MM = 40.0
CARD_PITCH_MM = 72.0
ROW_PITCH_MM = 98.0
TOKEN_PITCH_MM = 46.0
NOBLE_PITCH_MM = 70.0
#: Offset between the cards stacked in a tableau column (each shows its top band).
TABLEAU_STEP_MM = 22.0
TABLEAU_HEIGHT_MM = 250.0
GAP_MM = 30.0
SUPPLY_ORDER = "wugrky"
SUPPLY_COUNTS = {"w": 7, "u": 7, "g": 7, "r": 7, "k": 7, "y": 5}
PLAYER_TOKEN_SLOTS = 10
#: How far each token of a pile is shifted from the one below (a shingled row).
PILE_STEP_MM = 5.0


@dataclass(frozen=True, slots=True)
class Marker:
    """A printed ArUco marker; corners in table mm, in ArUco order (TL, TR, BR, BL)."""

    id: int
    mat: str
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Slot:
    """A place on a mat that holds one thing (or, for a tableau column, a stack).

    ``kind`` is one of ``noble``, ``deck``, ``card`` (market), ``token``,
    ``reserved``, ``tableau``, ``pile``.  ``zone`` groups slots whose contents
    are counted together (``supply``, ``player1.tokens`` …).
    """

    id: str
    kind: str
    zone: str
    mat: str
    center: tuple[float, float]
    size: tuple[float, float]
    angle: float = 0.0
    level: int | None = None
    colour: str | None = None
    player: int | None = None
    index: int = 0

    def corners(self) -> tuple[tuple[float, float], ...]:
        """Table-mm corners TL, TR, BR, BL of the slot as its owner sees it."""
        w, h = self.size
        return tuple(
            _place(self.center, self.angle, (u, v))
            for u, v in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
        )


@dataclass(frozen=True, slots=True)
class Mat:
    """One printed mat: its size and where it lies on the table."""

    name: str
    center: tuple[float, float]
    size: tuple[float, float]
    angle: float = 0.0
    player: int | None = None

    def to_table(self, local: tuple[float, float]) -> tuple[float, float]:
        """Mat-local mm (origin at the printed sheet's top-left) to table mm."""
        w, h = self.size
        return _place(self.center, self.angle, (local[0] - w / 2, local[1] - h / 2))

    def corners(self) -> tuple[tuple[float, float], ...]:
        w, h = self.size
        return tuple(self.to_table(p) for p in ((0, 0), (w, 0), (w, h), (0, h)))


@dataclass(frozen=True)
class Layout:
    """The whole table; build it with :func:`build_layout` or :func:`load_layout`."""

    players: int
    mats: tuple[Mat, ...]
    markers: tuple[Marker, ...]
    slots: tuple[Slot, ...]
    dictionary: str = ARUCO_DICTIONARY
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @cached_property
    def slot_index(self) -> dict[str, Slot]:
        return {s.id: s for s in self.slots}

    @cached_property
    def marker_index(self) -> dict[int, Marker]:
        return {m.id: m for m in self.markers}

    def mat(self, name: str) -> Mat:
        for m in self.mats:
            if m.name == name:
                return m
        raise KeyError(name)

    def slots_of(self, kind: str | None = None, zone: str | None = None) -> tuple[Slot, ...]:
        return tuple(
            s
            for s in self.slots
            if (kind is None or s.kind == kind) and (zone is None or s.zone == zone)
        )

    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of everything printed, in table mm."""
        pts = [p for m in self.mats for p in m.corners()]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)

    # -- JSON ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        def r(p: tuple[float, float]) -> list[float]:
            return [round(p[0], 3), round(p[1], 3)]

        return {
            "schema": SCHEMA,
            "version": VERSION,
            "units": "mm",
            "players": self.players,
            "aruco_dictionary": self.dictionary,
            "mats": [
                {
                    "name": m.name,
                    "center": r(m.center),
                    "size": list(m.size),
                    "angle": m.angle,
                    "player": m.player,
                }
                for m in self.mats
            ],
            "markers": [
                {"id": k.id, "mat": k.mat, "corners": [r(c) for c in k.corners]}
                for k in self.markers
            ],
            "slots": [
                {
                    "id": s.id,
                    "kind": s.kind,
                    "zone": s.zone,
                    "mat": s.mat,
                    "center": r(s.center),
                    "size": list(s.size),
                    "angle": s.angle,
                    "level": s.level,
                    "colour": s.colour,
                    "player": s.player,
                    "index": s.index,
                }
                for s in self.slots
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Layout:
        """The layout ``data`` describes; ``VisionError`` with one line naming the
        first wrong entry (``slots[12] "market.1.2" size ...``) and what it needs.

        ``version`` is checked: a file from a newer program may mean something
        this one would read wrongly, so it is refused rather than half read.
        """
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            found = data.get("schema") if isinstance(data, dict) else None
            raise VisionError(f"not a layout file (schema is {_short(found)})")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise _Malformed(f"version must be a whole number from 1, not {_short(version)}")
        if version > VERSION:
            raise VisionError(
                f"layout version {version} is newer than this program reads (up to {VERSION});"
                " update splendor-companion or write the layout again with `mats`"
            )
        players = data.get("players")
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise _Malformed(f"players must be 2, 3 or 4, not {_short(players)}")
        dictionary = data.get("aruco_dictionary", ARUCO_DICTIONARY)
        if not isinstance(dictionary, str) or not _known_dictionary(dictionary):
            raise _Malformed(
                f"aruco_dictionary {_short(dictionary)} is not an OpenCV ArUco dictionary"
                f" (the mats use {ARUCO_DICTIONARY})"
            )
        mats = tuple(_mat(m, f"mats[{i}]") for i, m in enumerate(_entries(data, "mats")))
        names = {m.name for m in mats}
        markers = tuple(_marker(k, f"markers[{i}]", names)
                        for i, k in enumerate(_entries(data, "markers")))
        slots = tuple(_slot(v, f"slots[{i}]", names)
                      for i, v in enumerate(_entries(data, "slots")))
        for what, ids in (("marker", [k.id for k in markers]), ("slot", [v.id for v in slots])):
            seen: set[Any] = set()
            for i in ids:
                if i in seen:
                    raise _Malformed(f"{what} id {_short(i)} is used twice")
                seen.add(i)
        for what, things in (("mat", mats), ("slot", slots)):
            for thing in things:  # a player the table does not have: found here, not mid-read
                if thing.player is not None and not 1 <= thing.player <= int(players):
                    name = thing.name if isinstance(thing, Mat) else thing.id
                    raise _Malformed(f"{what} {_short(name)} is for player {thing.player};"
                                     f" the layout has players 1 to {players}")
        return cls(int(players), mats, markers, slots, dictionary)


class _Malformed(VisionError):
    """A layout entry that is missing or of the wrong shape (the file is a layout)."""


#: What a slot's ``kind`` may be (see :class:`Slot`).
SLOT_KINDS = ("noble", "deck", "card", "token", "reserved", "tableau", "pile",
              "privilege", "frame")  # the last two: Splendor Duel (vision.duel.layout)
#: The slots whose level says which deck's cards they hold, and the levels there are.
LEVELLED_KINDS = ("deck", "card")
LEVELS = (1, 2, 3)


def _short(value: Any) -> str:
    """A value for a message: JSON-like and at most 40 characters (no Python repr)."""
    if isinstance(value, str | int | float | bool) or value is None:
        text = json.dumps(value)
    elif isinstance(value, list):
        text = f"a list of {len(value)}" if value else "an empty list"
    else:
        text = "an object"
    return text if len(text) <= 40 else text[:37] + "..."


def _known_dictionary(name: str) -> bool:
    import cv2

    return name.startswith("DICT_") and isinstance(getattr(cv2.aruco, name, None), int)


def _entries(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    if key not in data:
        raise _Malformed(f"the layout has no {key} list")
    items = data[key]
    if not isinstance(items, list) or not items:
        raise _Malformed(f"{key} must be a non-empty list, not {_short(items)}")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise _Malformed(f"{key}[{i}] must be an object, not {_short(item)}")
    return items


def _field(entry: dict[str, Any], key: str, where: str) -> Any:
    if key not in entry:
        raise _Malformed(f"{where} has no {key}")
    return entry[key]


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _Malformed(f"{what} must be a number, not {_short(value)}")
    return float(value)


def _point(value: Any, what: str, positive: bool = False) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise _Malformed(f"{what} must be two numbers [x, y], not {_short(value)}")
    a, b = (_number(v, what) for v in value)
    if positive and (a <= 0 or b <= 0):
        raise _Malformed(f"{what} must be two positive numbers, not [{a:g}, {b:g}]")
    return a, b


def _optional_int(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Malformed(f"{what} must be a whole number or null, not {_short(value)}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise _Malformed(f"{what} must be a non-empty string, not {_short(value)}")
    return value


def _mat(m: dict[str, Any], where: str) -> Mat:
    name = _text(_field(m, "name", where), f"{where} name")
    where = f"{where} {_short(name)}"
    return Mat(name, _point(_field(m, "center", where), f"{where} center"),
               _point(_field(m, "size", where), f"{where} size", positive=True),
               _number(m.get("angle", 0), f"{where} angle"),
               _optional_int(m.get("player"), f"{where} player"))


def _marker(k: dict[str, Any], where: str, mats: set[str]) -> Marker:
    mid = _field(k, "id", where)
    if isinstance(mid, bool) or not isinstance(mid, int) or not 0 <= mid < 1000:
        raise _Malformed(f"{where} id must be a marker number 0-999, not {_short(mid)}")
    where = f"{where} (id {mid})"
    mat = _text(_field(k, "mat", where), f"{where} mat")
    if mat not in mats:
        raise _Malformed(f"{where} is on mat {_short(mat)}, which the layout does not have")
    corners = _field(k, "corners", where)
    if not isinstance(corners, list) or len(corners) != 4:
        raise _Malformed(f"{where} corners must be 4 points, not {_short(corners)}")
    return Marker(mid, mat, tuple(_point(c, f"{where} corner") for c in corners))


def _slot(v: dict[str, Any], where: str, mats: set[str]) -> Slot:
    sid = _text(_field(v, "id", where), f"{where} id")
    where = f"{where} {_short(sid)}"
    kind = _field(v, "kind", where)
    if kind not in SLOT_KINDS:
        raise _Malformed(f"{where} kind {_short(kind)} is not one of {', '.join(SLOT_KINDS)}")
    mat = _text(_field(v, "mat", where), f"{where} mat")
    if mat not in mats:
        raise _Malformed(f"{where} is on mat {_short(mat)}, which the layout does not have")
    colour = v.get("colour")
    if colour is not None and colour not in ("w", "u", "g", "r", "k", "y", "p"):
        raise _Malformed(f"{where} colour {_short(colour)} is not one of w, u, g, r, k, y, p")
    level = _optional_int(v.get("level"), f"{where} level")
    if (level is not None or kind in LEVELLED_KINDS) and level not in LEVELS:
        # a card's level picks the catalogue it is decoded against: 9 was a traceback
        raise _Malformed(f"{where} level {_short(level)} is not one of 1, 2, 3")
    return Slot(
        id=sid, kind=kind, zone=_text(_field(v, "zone", where), f"{where} zone"), mat=mat,
        center=_point(_field(v, "center", where), f"{where} center"),
        size=_point(_field(v, "size", where), f"{where} size", positive=True),
        angle=_number(v.get("angle", 0), f"{where} angle"),
        level=level,
        colour=colour, player=_optional_int(v.get("player"), f"{where} player"),
        index=_optional_int(v.get("index", 0), f"{where} index") or 0,
    )


def load_layout(path: str | Path) -> Layout:
    """Read ``layout.json``; ``VisionError`` with one line naming the file if it cannot
    be used (UTF-8 with or without a byte-order mark)."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise VisionError(f"layout file {path} not found") from None
    except IsADirectoryError:
        raise VisionError(f"layout {path} is a folder, not a file") from None
    except OSError as exc:
        raise VisionError(f"cannot read layout {path}: {exc.strerror}") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise VisionError(f"cannot read layout {path}: not UTF-8 text") from None
    except RecursionError:
        raise VisionError(f"layout {path} is nested too deeply to be a layout") from None
    except ValueError as exc:
        line = getattr(exc, "lineno", 1)
        raise VisionError(f"cannot read layout {path}: not valid JSON (line {line})") from None
    if not isinstance(data, dict):
        raise VisionError(f"{path} is not a layout file")
    try:
        return Layout.from_dict(data)
    except _Malformed as exc:
        raise VisionError(f"malformed layout {path}: {exc}") from None
    except VisionError as exc:
        raise VisionError(f"layout {path}: {exc}") from None


def _place(
    center: tuple[float, float], angle: float, local: tuple[float, float]
) -> tuple[float, float]:
    t = math.radians(angle)
    c, s = math.cos(t), math.sin(t)
    u, v = local
    return center[0] + u * c - v * s, center[1] + u * s + v * c


# -- the standard layout ------------------------------------------------------
class _MatBuilder:
    """Collects a mat's markers and slots in mat-local mm, then places them."""

    def __init__(self, mat: Mat, first_marker: int) -> None:
        self.mat = mat
        self.next_id = first_marker
        self.markers: list[Marker] = []
        self.slots: list[Slot] = []

    def marker(self, cx: float, cy: float, size: float = MARKER_MM,
               marker_id: int | None = None) -> None:
        h = size / 2
        local = ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h))
        mid = self.next_id if marker_id is None else marker_id
        self.markers.append(
            Marker(mid, self.mat.name, tuple(self.mat.to_table(p) for p in local))
        )
        if marker_id is None:
            self.next_id += 1

    def slot(self, sid: str, kind: str, zone: str, cx: float, cy: float,
             size: tuple[float, float], **kw: Any) -> None:
        self.slots.append(
            Slot(sid, kind, zone, self.mat.name, self.mat.to_table((cx, cy)), size,
                 self.mat.angle, player=self.mat.player, **kw)
        )


def central_mat_size() -> tuple[float, float]:
    market_w = CARD_PITCH_MM * 5 + 8
    supply_w = TOKEN_PITCH_MM * 7
    inner_h = NOBLE_SLOT_MM[1] + 10 + ROW_PITCH_MM * 3
    return 2 * BAND_MM + market_w + GAP_MM + supply_w, 2 * BAND_MM + inner_h


def player_mat_size() -> tuple[float, float]:
    w = 2 * BAND_MM + TOKEN_PITCH_MM * 5 + GAP_MM + CARD_PITCH_MM * 3
    h = 2 * BAND_MM + TABLEAU_HEIGHT_MM + 15 + TOKEN_PITCH_MM * 2
    return w, h


def build_layout(players: int, piles: bool = False) -> Layout:
    """The standard table for 2–4 players: a central mat and one mat per player.

    Player 1 sits at the bottom, player 2 opposite, 3 on the left, 4 on the right.
    With ``piles`` each player mat has six pile zones (one per colour, tokens
    shingled in a row) instead of ten token slots, for players who keep piles.
    """
    if not 2 <= players <= 4:
        raise VisionError(f"a Splendor table has 2 to 4 players, not {players}")
    cw, ch = central_mat_size()
    pw, ph = player_mat_size()
    centre = Mat("centre", (0.0, 0.0), (cw, ch))
    builders = [_central(_MatBuilder(centre, 0))]
    # markers added later take the ids after all the players' (45..), so the
    # ids of the first version's markers never change
    _central_extra(builders[0])
    off_y = ch / 2 + GAP_MM + ph / 2
    off_x = cw / 2 + GAP_MM + ph / 2
    places = {1: ((0.0, off_y), 0.0), 2: ((0.0, -off_y), 180.0),
              3: ((-off_x, 0.0), 90.0), 4: ((off_x, 0.0), 270.0)}
    next_id = builders[0].next_id
    for p in range(1, players + 1):
        center, angle = places[p]
        b = _player(_MatBuilder(Mat(f"player{p}", center, (pw, ph), angle, p), next_id), p,
                    piles)
        builders.append(b)
        next_id = b.next_id
    return Layout(
        players,
        tuple(b.mat for b in builders),
        tuple(m for b in builders for m in b.markers),
        tuple(s for b in builders for s in b.slots),
    )


def _central(b: _MatBuilder) -> _MatBuilder:
    w, h = b.mat.size
    x0, y0 = BAND_MM, BAND_MM
    nobles = 5
    for i in range(nobles):
        b.slot(f"noble.{i}", "noble", "nobles",
               x0 + NOBLE_SLOT_MM[0] / 2 + i * NOBLE_PITCH_MM, y0 + NOBLE_SLOT_MM[1] / 2,
               NOBLE_SLOT_MM, index=i)
    row_y0 = y0 + NOBLE_SLOT_MM[1] + 10
    row_centres = []
    for r, level in enumerate((3, 2, 1)):
        cy = row_y0 + CARD_SLOT_MM[1] / 2 + r * ROW_PITCH_MM
        row_centres.append(cy)
        b.slot(f"deck.{level}", "deck", "decks", x0 + CARD_SLOT_MM[0] / 2, cy, CARD_SLOT_MM,
               level=level)
        for i in range(4):
            cx = x0 + 8 + CARD_SLOT_MM[0] / 2 + (i + 1) * CARD_PITCH_MM
            b.slot(f"market.{level}.{i}", "card", "market", cx, cy, CARD_SLOT_MM,
                   level=level, index=i)
    sx0 = x0 + CARD_PITCH_MM * 5 + 8 + GAP_MM
    sy0 = y0 + (h - 2 * BAND_MM - TOKEN_PITCH_MM * 6) / 2
    for r, letter in enumerate(SUPPLY_ORDER):
        for i in range(SUPPLY_COUNTS[letter]):
            b.slot(f"supply.{letter}.{i}", "token", "supply",
                   sx0 + TOKEN_PITCH_MM / 2 + i * TOKEN_PITCH_MM,
                   sy0 + TOKEN_PITCH_MM / 2 + r * TOKEN_PITCH_MM,
                   (TOKEN_SLOT_MM, TOKEN_SLOT_MM), colour=letter, index=i)
    e = BAND_MM / 2
    for cx, cy in ((e, e), (w - e, e), (w - e, h - e), (e, h - e), (w / 2, e), (w / 2, h - e),
                   (sx0 + TOKEN_PITCH_MM * 3.5, e), (sx0 + TOKEN_PITCH_MM * 3.5, h - e)):
        b.marker(cx, cy)
    for cy in row_centres:
        b.marker(e, cy)
    for row in (1.5, 4.5):
        b.marker(w - e, sy0 + TOKEN_PITCH_MM * row)
    return b


def _central_extra(b: _MatBuilder) -> None:
    """Small markers in the gap between the market and the supply, one beside each
    market row: every row then has a marker at each end, so a view of one row
    calibrates well."""
    x0, y0 = BAND_MM, BAND_MM
    gap_x = x0 + CARD_PITCH_MM * 5 + 8 + GAP_MM / 2
    row_y0 = y0 + NOBLE_SLOT_MM[1] + 10
    for r in range(3):
        b.marker(gap_x, row_y0 + CARD_SLOT_MM[1] / 2 + r * ROW_PITCH_MM, SMALL_MARKER_MM,
                 EXTRA_MARKER_ID + r)


def _player(b: _MatBuilder, p: int, piles: bool = False) -> _MatBuilder:
    w, h = b.mat.size
    x0, y0 = BAND_MM, BAND_MM
    for i, letter in enumerate("wugrk"):
        b.slot(f"player{p}.tableau.{letter}", "tableau", f"player{p}.tableau",
               x0 + CARD_SLOT_MM[0] / 2 + i * CARD_PITCH_MM, y0 + TABLEAU_HEIGHT_MM / 2,
               (CARD_SLOT_MM[0], TABLEAU_HEIGHT_MM), colour=letter, index=i)
    ty = y0 + TABLEAU_HEIGHT_MM + 15
    if piles:
        # the same zone name as the slots, so the referee finds the player's tokens
        pw_, ph_ = TOKEN_PITCH_MM * 5 / 3, TOKEN_PITCH_MM
        for i, letter in enumerate(SUPPLY_ORDER):
            b.slot(f"player{p}.pile.{letter}", "pile", f"player{p}.tokens",
                   x0 + pw_ / 2 + (i % 3) * pw_, ty + ph_ / 2 + (i // 3) * ph_,
                   (pw_ - 2, ph_ - 2), colour=letter, index=i)
    for i in range(0 if piles else PLAYER_TOKEN_SLOTS):
        b.slot(f"player{p}.tokens.{i}", "token", f"player{p}.tokens",
               x0 + TOKEN_PITCH_MM / 2 + (i % 5) * TOKEN_PITCH_MM,
               ty + TOKEN_PITCH_MM / 2 + (i // 5) * TOKEN_PITCH_MM,
               (TOKEN_SLOT_MM, TOKEN_SLOT_MM), index=i)
    rx0 = x0 + TOKEN_PITCH_MM * 5 + GAP_MM
    for i in range(3):
        b.slot(f"player{p}.reserved.{i}", "reserved", f"player{p}.reserved",
               rx0 + CARD_SLOT_MM[0] / 2 + i * CARD_PITCH_MM, ty + CARD_SLOT_MM[1] / 2,
               CARD_SLOT_MM, index=i)
    e = BAND_MM / 2
    for cx, cy in ((e, e), (w - e, e), (w - e, h - e), (e, h - e), (w / 2, e),
                   (rx0 - GAP_MM / 2, h - e), (e, h / 2), (w - e, h / 2)):
        b.marker(cx, cy)
    return b
