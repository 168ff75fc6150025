"""Splendor Duel tables photographed in :mod:`vision.synth.world`'s world.

:func:`render_duel` draws a Duel :class:`~companion.rules.duel.position.Position`
on the Duel mats (:mod:`vision.duel.layout`) top-down, with the faces of one
split (:mod:`vision.synth.duel_faces`: the digital sprites for design, the print
scans for check, our own plain faces without the art), then photographs it with
the world's camera, lens and light, unchanged: the pose, the Pi Camera Module 3
lens (Kannala-Brandt), light casts, lamp fall-off, glare on glossy cards and chips,
shadows, a hand and arm, blur, noise and JPEG (``vision.synth.world``'s private
steps are called, never copied).  What a person could not read is recorded in
:attr:`DuelFrame.hidden` by the world's rules.

Where things lie: each component in its place (:mod:`vision.duel.layout`), a
little off by hand (``JITTER_MM``); the board laid in its printed frame a little
off too; a royal always in the place of its catalogue row (``royal.0`` is r1),
so it stays put while the others are taken; the privileges and each kind of a
player's tokens fill their places from the first.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.rules.duel.position import Position
from companion.rules.duel.simulate import play_game
from companion.rules.duel.tokens import KINDS
from companion.rules.duel.view import DuelView, view_of
from companion.rules.hidden import Hidden
from vision.duel.layout import (
    BOARD_MM,
    CELL_PITCH_MM,
    DUEL_CARD_MM,
    DUEL_TOKEN_MM,
    PRIVILEGE_MM,
    board_rect,
    build_duel_layout,
    cell_centre,
)
from vision.duel.mats import draw_duel_mats
from vision.layout import Layout, Slot
from vision.mats import affine_for
from vision.synth.duel_faces import DuelFaces, duel_faces
from vision.synth.render import CANVAS_PAD_MM, Canvas, _paste, _placer, _table_texture
from vision.synth.world import (
    CANVAS_OVERSAMPLE,
    DIFFICULTIES,
    LENSES,
    SENSOR_PX,
    PiCamera,
    _draw_hand,
    _draw_light,
    _footprint,
    _hidden,
    _inside,
    _photograph,
    _place_camera,
    _shine_chips,
)

#: How far off its place a component lies (mm, each way) and how much it turns (deg).
JITTER_MM = 1.5
JITTER_DEG = 2.0
#: The board in its frame: off by up to this (mm) and turned up to this (deg).
BOARD_JITTER_MM = 1.5
BOARD_JITTER_DEG = 0.8
#: A token on a cell: off the cell's centre by up to this (mm).
CELL_JITTER_MM = 1.2
#: Card corner radius (mm).
CARD_CORNER_MM = 3.0
#: Stacked cards in a bonus column: each shows this much of the one under it (mm) at most.
COLUMN_STEP_MM = 22.0


@dataclass(frozen=True)
class DuelFrame:
    """One photographed Duel table and the truth about it.

    ``truth`` is :func:`~companion.rules.duel.view.view_of` the position drawn;
    ``contents`` what each occupied place holds (id or letter); ``hidden`` the
    places a person could not read (``hand``, ``glare``, ``shadow``); ``unseen``
    the places not wholly in the frame.
    """

    image: np.ndarray
    layout: Layout
    position: Position
    truth: DuelView
    contents: dict[str, str]
    hidden: dict[str, str]
    unseen: frozenset[str]
    difficulty: str
    split: str
    tags: tuple[str, ...]
    camera: PiCamera = field(repr=False)

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) -> frame px (N, 2), the lens included (exactly as rendered)."""
        return self.camera.project(pts_mm)


def random_position(seed: int) -> Position:
    """A position of a seeded random game, at a seeded point of it (set-up to the end)."""
    _, states = play_game(seed)
    rng = np.random.default_rng(zlib.crc32(repr(("duel-position", seed)).encode()))
    return states[int(rng.integers(len(states)))]


def duel_frame(difficulty: str, seed: int, split: str = "design", framing: str = "table",
               lens: str = "wide", size: tuple[int, int] = SENSOR_PX) -> DuelFrame:
    """A seeded random Duel table (:func:`random_position`) photographed."""
    return render_duel(random_position(seed), seed, split=split, difficulty=difficulty,
                       framing=framing, lens=lens, size=size)


def render_duel(position: Position, seed: int, *, split: str = "design",
                difficulty: str = "medium", framing: str = "table", lens: str = "wide",
                size: tuple[int, int] = SENSOR_PX, hand: bool | None = None,
                steady: int | None = None) -> DuelFrame:
    """``position`` on the Duel mats, photographed by a Pi camera.

    ``seed`` draws the camera, the light and where things lie; the same ``seed``
    gives the same camera and light, so frames of one game can share them.
    ``split``: ``design`` or ``check`` faces (drawn ones without ``../shared``).
    ``framing``: ``table`` (all three mats) or ``centre`` (the central mat: board,
    pyramid, royals, privileges).  ``hand`` forces a hand in or out (None: as the
    difficulty draws it).  ``steady``: place each thing from this number and its
    place and identity, so what did not move between two frames lies where it was.
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty is one of {DIFFICULTIES}, not {difficulty!r}")
    layout = build_duel_layout()
    rng = np.random.default_rng(zlib.crc32(repr(("duel-world", seed)).encode()))
    faces = duel_faces(split)
    cam = _place_camera(rng, layout, LENSES[lens], size, framing, difficulty)
    view = _footprint(cam, layout)
    x0, y0, x1, y1 = view
    shiny = np.array([sl.center for sl in layout.slots if sl.kind not in ("tableau", "frame")
                      and x0 < sl.center[0] < x1 and y0 < sl.center[1] < y1]).reshape(-1, 2)
    light = _draw_light(rng, difficulty, view, shiny)
    if hand is not None:
        light = replace(light, hand=hand)
    light_rng = np.random.default_rng(rng.integers(2**32))
    s = cam.f_px / -cam.centre[2] * CANVAS_OVERSAMPLE
    table = draw_duel_table(position, layout, view, s, rng, faces, steady)
    _shine_chips(table, layout, light)
    arm = _draw_hand(table, layout, view, cam, rng) if light.hand else None
    image, masks = _photograph(table, cam, light, arm, layout, light_rng)
    unseen = frozenset(sl.id for sl in layout.slots if not _inside(cam, sl))
    hidden = _hidden(cam, layout, masks, unseen)
    tags = (cam.lens.name, framing, f"faces:{faces.name}", f"light:{light.cast}",
            *(["glare"] if light.glare else []), *(["shadow"] if light.shadow else []),
            *(["hand"] if arm is not None else []),
            *(["motion"] if light.motion[0] >= 2 else []))
    return DuelFrame(image, layout, position, view_of(position), table.contents, hidden,
                     unseen, difficulty, split, tags, cam)


# -- the table drawn top-down -------------------------------------------------------
# C901: one branch per kind of place, drawn in the order they stack on the table.
def draw_duel_table(position: Position, layout: Layout,  # noqa: C901
                    window: tuple[float, float, float, float], px_per_mm: float,
                    rng: np.random.Generator, faces: DuelFaces,
                    steady: int | None = None) -> Canvas:
    """The window of the Duel table (plus the renderer's pad) drawn at ``px_per_mm``."""
    place = _placer(rng, steady)
    wx0, wy0, wx1, wy1 = window
    s = px_per_mm
    pad = CANVAS_PAD_MM
    aff = affine_for((wx0 - pad, wy0 - pad), s)
    cw, ch = round((wx1 - wx0 + 2 * pad) * s), round((wy1 - wy0 + 2 * pad) * s)
    canvas = _table_texture(ch, cw, rng if steady is None else place("table"))
    draw_duel_mats(canvas, layout, aff)
    contents: dict[str, str] = {}
    slots = layout.slot_index
    card_mask = _rounded(DUEL_CARD_MM, s)

    def card(img: np.ndarray) -> np.ndarray:
        return cv2.resize(img, (card_mask.shape[1], card_mask.shape[0]),
                          interpolation=cv2.INTER_AREA)

    def put(slot: Slot, what: str, img: np.ndarray, mask: np.ndarray | None,
            size_mm: tuple[float, float], angle: float = 0.0) -> None:
        contents[slot.id] = what
        r = place(slot.id, what)
        d = r.uniform(-JITTER_MM, JITTER_MM, 2)
        _paste(canvas, img, mask, aff, (slot.center[0] + d[0], slot.center[1] + d[1]),
               slot.angle + angle + float(r.uniform(-JITTER_DEG, JITTER_DEG)), size_mm)

    # the board in its frame, the tokens on it
    r = place("board")
    bd = r.uniform(-BOARD_JITTER_MM, BOARD_JITTER_MM, 2)
    ba = float(r.uniform(-BOARD_JITTER_DEG, BOARD_JITTER_DEG))
    bx0, by0, bx1, by1 = board_rect()
    bc = ((bx0 + bx1) / 2 + bd[0], (by0 + by1) / 2 + bd[1])
    board = faces.board if faces.board is not None else drawn_board()
    _paste(canvas, board, None, aff, bc, ba, BOARD_MM)
    chips = {k: _chip(v, s) for k, v in faces.chips.items()}
    t = math.radians(ba)
    for i, token in enumerate(position.board):
        if token is None:
            continue
        slot = slots[f"board.{i}"]
        cx, cy = cell_centre(i)
        u, v = cx - (bx0 + bx1) / 2, cy - (by0 + by1) / 2
        rr = place(slot.id, token.letter)
        j = rr.uniform(-CELL_JITTER_MM, CELL_JITTER_MM, 2)
        centre = (bc[0] + u * math.cos(t) - v * math.sin(t) + j[0],
                  bc[1] + u * math.sin(t) + v * math.cos(t) + j[1])
        img, mask = chips[token.letter]
        contents[slot.id] = token.letter
        _paste(canvas, img, mask, aff, centre, float(rr.uniform(0, 360)),
               (DUEL_TOKEN_MM, DUEL_TOKEN_MM))
    # pyramid, decks, royals, privileges
    for level in (1, 2, 3):
        for i, c in enumerate(position.pyramid[level - 1]):
            if c is not None:
                put(slots[f"pyramid.{level}.{i}"], c.id, card(faces.cards[c.id]), card_mask,
                    DUEL_CARD_MM)
        if position.decks[level - 1]:
            slot = slots[f"deck.{level}"]
            back = card(faces.backs[level])
            for k in (2, 1):  # the stack's edge
                _paste(canvas, np.full_like(back, 40), card_mask, aff,
                       (slot.center[0] + 0.5 * k, slot.center[1] + 0.6 * k), slot.angle,
                       DUEL_CARD_MM)
            put(slot, "deck", back, card_mask, DUEL_CARD_MM)
    for royal in position.royals:
        index = int(royal.id[1:]) - 1
        put(slots[f"royal.{index}"], royal.id, card(faces.royals[royal.id]), card_mask,
            DUEL_CARD_MM)
    scroll = drawn_scroll(s)
    for i in range(position.privileges):
        put(slots[f"privilege.{i}"], "privilege", scroll, None, PRIVILEGE_MM)
    # the players
    for p, player in enumerate(position.players, 1):
        for kind in KINDS:
            for i in range(player.tokens[kind]):
                place_ = slots.get(f"player{p}.tokens.{kind.letter}.{i}")
                if place_ is not None:
                    img, mask = chips[kind.letter]
                    put(place_, kind.letter, img, mask, (DUEL_TOKEN_MM, DUEL_TOKEN_MM),
                        float(place(place_.id, "turn").uniform(0, 360)))
        for i in range(min(player.privileges, 3)):
            put(slots[f"player{p}.privilege.{i}"], "privilege", scroll, None, PRIVILEGE_MM, 90.0)
        for i, held in enumerate(player.reserved[:3]):
            slot = slots[f"player{p}.reserved.{i}"]
            if isinstance(held, Hidden):
                put(slot, str(held), card(faces.backs[held.level]), card_mask, DUEL_CARD_MM)
            else:
                put(slot, held.id, card(faces.cards[held.id]), card_mask, DUEL_CARD_MM)
        for letter in "wugrk":
            slot = slots[f"player{p}.tableau.{letter}"]
            column = [o.card.id for o in player.cards
                      if o.colour is not None and o.colour.letter == letter]
            if not column:
                continue
            contents[slot.id] = " ".join(column)
            step = min(COLUMN_STEP_MM, (slot.size[1] - DUEL_CARD_MM[1] - 2) / max(1,
                                                                             len(column) - 1))
            ta = math.radians(slot.angle)
            for k, cid in enumerate(column):
                v = -slot.size[1] / 2 + 1 + DUEL_CARD_MM[1] / 2 + k * step
                rr = place(slot.id, cid)
                ctr = (slot.center[0] - v * math.sin(ta) + rr.uniform(-1, 1),
                       slot.center[1] + v * math.cos(ta) + rr.uniform(-0.3, 0.3))
                _paste(canvas, card(faces.cards[cid]), card_mask, aff, ctr,
                       slot.angle + float(rr.uniform(-1.5, 1.5)), DUEL_CARD_MM)
    return Canvas(canvas, aff, s, contents)


def _rounded(size_mm: tuple[float, float], s: float) -> np.ndarray:
    w, h = round(size_mm[0] * s), round(size_mm[1] * s)
    r = max(1, round(CARD_CORNER_MM * s))
    m = np.zeros((h, w), np.uint8)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    return m


def _chip(face: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """A BGRA chip face cropped to its opaque disc, at the Duel token's size."""
    alpha = face[:, :, 3]
    ys, xs = np.nonzero(alpha > 127)
    face = face[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    d = max(4, round(DUEL_TOKEN_MM * s))
    img = cv2.resize(np.ascontiguousarray(face[:, :, :3]), (d, d), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(np.ascontiguousarray(face[:, :, 3]), (d, d), interpolation=cv2.INTER_AREA)
    return img, mask


def drawn_board() -> np.ndarray:
    """A plain board of our own (no art): brown ground, cream cells, the reminder strip."""
    ppm = 4.0
    w, h = round(BOARD_MM[0] * ppm), round(BOARD_MM[1] * ppm)
    img = np.full((h, w, 3), (50, 75, 115), np.uint8)
    bx0, by0, _, _ = board_rect()
    half = (CELL_PITCH_MM * 0.81) / 2
    for i in range(25):
        cx, cy = cell_centre(i)
        u, v = (cx - bx0) * ppm, (cy - by0) * ppm
        cv2.rectangle(img, (round(u - half * ppm), round(v - half * ppm)),
                      (round(u + half * ppm), round(v + half * ppm)), (190, 222, 235), -1)
    cv2.rectangle(img, (round(w * 0.25), round(2 * ppm)), (round(w * 0.75), round(16 * ppm)),
                  (30, 40, 60), -1)
    return img


def drawn_scroll(s: float) -> np.ndarray:
    """A privilege scroll (upright, ``PRIVILEGE_MM``): cream paper, rolled ends."""
    w, h = round(PRIVILEGE_MM[0] * s), round(PRIVILEGE_MM[1] * s)
    img = np.full((h, w, 3), (175, 215, 230), np.uint8)
    roll = max(2, round(4 * s))
    img[:roll] = (95, 150, 185)
    img[-roll:] = (95, 150, 185)
    cv2.line(img, (w // 2, roll + 2), (w // 2, h - roll - 2), (90, 110, 140), max(1, round(s)))
    return img
