"""The Splendor Duel table as printed: a central mat that frames the publisher's board,
and one mat per player, with the ArUco markers of the Splendor mats.

The same :class:`vision.layout.Layout` value as Splendor's (so the mats are drawn by
:func:`vision.mats.draw_mats`, calibrated by :func:`vision.calibrate.calibrate` and
photographed by :mod:`vision.synth.world` unchanged); only the slots differ:

* ``centre`` mat: the pyramid (``pyramid.<level>.<i>``, kind ``card``: 3 level-3,
  4 level-2, 5 level-1 cards, centred like a pyramid) with its three deck places
  (``deck.<level>``) in a column on its left; the board's printed frame in the middle
  with the 25 cells (``board.<i>``, kind ``token``, zone ``board``, in
  :mod:`companion.rules.duel.board` order: reading order, the board's reminder strip
  at the top, away from player 1); the 3 privilege places above the board
  (``privilege.<i>``); the 4 royal places on the right (``royal.<i>``, kind
  ``noble``, zone ``royals``).
* ``player1`` (bottom) and ``player2`` (top, turned 180°): token places per kind
  (``player<p>.tokens.<letter>.<i>``: 4 per gem, 2 pearls, 3 gold, ``colour`` the
  kind), 3 reserved places, 3 privilege places, and a bonus column per gem colour.

The board
---------
The publisher's board is not ours to print: the mat prints its outline (a frame
``BOARD_CLEARANCE_MM`` larger a side) and the board is laid in it.  The cells'
centres are known from the board's art: on ``card-faces/duel/board.jpg`` (436 ×
525 px) the cream cells are 68 px squares at a pitch of 84.2 px, the first centre
at (49, 136) px, the last at (386, 472) px (column and row profiles of the pixels
with Lab L > 185; ``vision/duel/layout.py`` docstring, measured once by hand with
numpy).  The physical size is ``BOARD_MM``: a board 180 mm tall is assumed (it must
be measured on a real board and this one constant changed; everything scales).
"""

from __future__ import annotations

from vision.layout import (
    BAND_MM,
    CARD_PITCH_MM,
    CARD_SLOT_MM,
    ROW_PITCH_MM,
    SMALL_MARKER_MM,
    Layout,
    Mat,
    _MatBuilder,
)

#: A Duel card (w, h) mm: 88 mm tall; the width from the aspect of the publisher's
#: sprites (120/183) and print scans (480/729-746): 0.644-0.658.
DUEL_CARD_MM = (57.5, 88.0)

#: The board's art: size (px), first cell centre (px) and pitch (px) on board.jpg.
BOARD_ART_PX = (436.0, 525.0)
CELL0_ART_PX = (49.0, 136.0)
CELL_PITCH_ART_PX = 84.2
CELL_ART_PX = 68.0
#: The physical board (w, h) in mm: 180 mm tall assumed (see the module docstring).
BOARD_MM = (180.0 * BOARD_ART_PX[0] / BOARD_ART_PX[1], 180.0)
MM_PER_ART_PX = BOARD_MM[1] / BOARD_ART_PX[1]
CELL_PITCH_MM = CELL_PITCH_ART_PX * MM_PER_ART_PX
CELL_MM = CELL_ART_PX * MM_PER_ART_PX
#: A Duel token (chip) diameter, mm: it sits inside a cell (23.3 mm square) with a
#: little overhang, as on the publisher's digital board.
DUEL_TOKEN_MM = 25.0
#: Printed frame round the board: this much room a side.
BOARD_CLEARANCE_MM = 3.0
#: A privilege scroll (w, h) mm and its printed place.
PRIVILEGE_MM = (20.0, 40.0)
PRIVILEGE_SLOT_MM = (24.0, 44.0)
PRIVILEGE_PITCH_MM = 30.0
#: A player's token places: one column per kind, this pitch.
TOKEN_PLACE_MM = 28.0
TOKEN_PLACE_PITCH_MM = 30.0
#: Places per kind on a player's mat: every token of that kind in the game.
PLACES_PER_KIND = {"w": 4, "u": 4, "g": 4, "r": 4, "k": 4, "p": 2, "y": 3}
KIND_ORDER = "wugrkpy"
#: A bonus column shows the top card whole and the ones under it by this step.
BONUS_COLUMN_MM = (CARD_SLOT_MM[0], 150.0)
GAP_MM = 50.0
PYRAMID_ROWS = ((3, 3), (2, 4), (1, 5))
ROYALS = 4
PRIVILEGES = 3
#: Markers of the central mat: ids 0..; the players' follow.
SMALL_QUIET_MM = SMALL_MARKER_MM + 6


def _centre_size() -> tuple[float, float]:
    pyramid_w = CARD_PITCH_MM + 8 + 5 * CARD_PITCH_MM
    board_w = BOARD_MM[0] + 2 * BOARD_CLEARANCE_MM
    royals_w = 2 * CARD_PITCH_MM
    inner_h = 3 * ROW_PITCH_MM
    return 2 * BAND_MM + pyramid_w + GAP_MM + board_w + GAP_MM + royals_w, 2 * BAND_MM + inner_h


def _player_size() -> tuple[float, float]:
    tokens_w = len(KIND_ORDER) * TOKEN_PLACE_PITCH_MM
    columns_w = 5 * CARD_PITCH_MM
    reserved_w = 3 * CARD_PITCH_MM
    h = max(BONUS_COLUMN_MM[1], 4 * TOKEN_PLACE_PITCH_MM, CARD_SLOT_MM[1] + 10
            + PRIVILEGE_SLOT_MM[0])
    return 2 * BAND_MM + tokens_w + 30 + columns_w + 30 + reserved_w, 2 * BAND_MM + h


def board_rect() -> tuple[float, float, float, float]:
    """The board's own outline on the table (x0, y0, x1, y1 mm), as the mat frames it."""
    cw, ch = _centre_size()
    x0 = -cw / 2 + BAND_MM + CARD_PITCH_MM + 8 + 5 * CARD_PITCH_MM + GAP_MM + BOARD_CLEARANCE_MM
    y1 = -ch / 2 + BAND_MM + 3 * ROW_PITCH_MM
    return x0, y1 - BOARD_MM[1], x0 + BOARD_MM[0], y1


def cell_centre(index: int) -> tuple[float, float]:
    """Centre (table mm) of board cell ``index`` (reading order, strip at the top)."""
    x0, y0, _, _ = board_rect()
    r, c = divmod(index, 5)
    return (x0 + (CELL0_ART_PX[0] + c * CELL_PITCH_ART_PX) * MM_PER_ART_PX,
            y0 + (CELL0_ART_PX[1] + r * CELL_PITCH_ART_PX) * MM_PER_ART_PX)


def build_duel_layout() -> Layout:
    """The Duel table: the central mat, player 1 below it and player 2 above, turned."""
    cw, ch = _centre_size()
    pw, ph = _player_size()
    centre = _central(_MatBuilder(Mat("centre", (0.0, 0.0), (cw, ch)), 0))
    off = ch / 2 + 30.0 + ph / 2
    builders = [centre]
    next_id = centre.next_id
    for p, (y, angle) in ((1, (off, 0.0)), (2, (-off, 180.0))):
        b = _player(_MatBuilder(Mat(f"player{p}", (0.0, y), (pw, ph), angle, p), next_id), p)
        builders.append(b)
        next_id = b.next_id
    return Layout(2, tuple(b.mat for b in builders),
                  tuple(m for b in builders for m in b.markers),
                  tuple(s for b in builders for s in b.slots))


def _central(b: _MatBuilder) -> _MatBuilder:
    w, h = b.mat.size
    x0, y0 = BAND_MM, BAND_MM
    card_x0 = x0 + CARD_PITCH_MM + 8
    for r, (level, n) in enumerate(PYRAMID_ROWS):
        cy = y0 + CARD_SLOT_MM[1] / 2 + r * ROW_PITCH_MM + 1
        b.slot(f"deck.{level}", "deck", "decks", x0 + CARD_SLOT_MM[0] / 2, cy, CARD_SLOT_MM,
               level=level)
        first = card_x0 + (5 - n) * CARD_PITCH_MM / 2
        for i in range(n):
            b.slot(f"pyramid.{level}.{i}", "card", "pyramid",
                   first + CARD_SLOT_MM[0] / 2 + i * CARD_PITCH_MM, cy, CARD_SLOT_MM,
                   level=level, index=i)
    bx0 = card_x0 + 5 * CARD_PITCH_MM + GAP_MM
    board_w = BOARD_MM[0] + 2 * BOARD_CLEARANCE_MM
    by1 = y0 + 3 * ROW_PITCH_MM
    bx = bx0 + BOARD_CLEARANCE_MM
    by = by1 - BOARD_MM[1]
    for i in range(25):
        r, c = divmod(i, 5)
        cx = bx + (CELL0_ART_PX[0] + c * CELL_PITCH_ART_PX) * MM_PER_ART_PX
        cy = by + (CELL0_ART_PX[1] + r * CELL_PITCH_ART_PX) * MM_PER_ART_PX
        b.slot(f"board.{i}", "token", "board", cx, cy, (CELL_MM, CELL_MM), index=i)
    # the board's frame, as a slot of its own (drawn as an outline; never read)
    b.slot("board", "frame", "board", bx0 + board_w / 2, by + BOARD_MM[1] / 2,
           (board_w, BOARD_MM[1] + 2 * BOARD_CLEARANCE_MM))
    py = y0 + PRIVILEGE_SLOT_MM[1] / 2
    pcx = bx0 + board_w / 2
    for i in range(PRIVILEGES):
        b.slot(f"privilege.{i}", "privilege", "privileges",
               pcx + (i - 1) * PRIVILEGE_PITCH_MM, py, PRIVILEGE_SLOT_MM, index=i)
    rx0 = bx0 + board_w + GAP_MM
    for i in range(ROYALS):
        r, c = divmod(i, 2)
        b.slot(f"royal.{i}", "noble", "royals", rx0 + CARD_SLOT_MM[0] / 2 + c * CARD_PITCH_MM,
               y0 + CARD_SLOT_MM[1] / 2 + r * ROW_PITCH_MM + 1, CARD_SLOT_MM, index=i)
    e = BAND_MM / 2
    for cx, cy in ((e, e), (w - e, e), (w - e, h - e), (e, h - e), (e, h / 2), (w - e, h / 2),
                   (card_x0 + 2.5 * CARD_PITCH_MM, e), (card_x0 + 2.5 * CARD_PITCH_MM, h - e),
                   (bx0 + board_w / 2, h - e), (rx0 + CARD_PITCH_MM, e),
                   (rx0 + CARD_PITCH_MM, h - e)):
        b.marker(cx, cy)
    # small markers in the gaps beside the board: they frame it closely
    for gx in (bx0 - GAP_MM / 2, bx0 + board_w + GAP_MM / 2):
        for gy in (by + 20, by1 - 20):
            b.marker(gx, gy, SMALL_MARKER_MM)
    return b


def _player(b: _MatBuilder, p: int) -> _MatBuilder:
    w, h = b.mat.size
    x0, y0 = BAND_MM, BAND_MM
    for k, letter in enumerate(KIND_ORDER):
        for i in range(PLACES_PER_KIND[letter]):
            b.slot(f"player{p}.tokens.{letter}.{i}", "token", f"player{p}.tokens",
                   x0 + TOKEN_PLACE_PITCH_MM / 2 + k * TOKEN_PLACE_PITCH_MM,
                   y0 + TOKEN_PLACE_PITCH_MM / 2 + i * TOKEN_PLACE_PITCH_MM,
                   (TOKEN_PLACE_MM, TOKEN_PLACE_MM), colour=letter, index=i)
    cx0 = x0 + len(KIND_ORDER) * TOKEN_PLACE_PITCH_MM + 30
    for i, letter in enumerate("wugrk"):
        b.slot(f"player{p}.tableau.{letter}", "tableau", f"player{p}.tableau",
               cx0 + CARD_SLOT_MM[0] / 2 + i * CARD_PITCH_MM, y0 + BONUS_COLUMN_MM[1] / 2,
               BONUS_COLUMN_MM, colour=letter, index=i)
    rx0 = cx0 + 5 * CARD_PITCH_MM + 30
    for i in range(3):
        b.slot(f"player{p}.reserved.{i}", "reserved", f"player{p}.reserved",
               rx0 + CARD_SLOT_MM[0] / 2 + i * CARD_PITCH_MM, y0 + CARD_SLOT_MM[1] / 2,
               CARD_SLOT_MM, index=i)
        # privileges lie across, under the reserved cards
        b.slot(f"player{p}.privilege.{i}", "privilege", f"player{p}.privileges",
               rx0 + CARD_SLOT_MM[0] / 2 + i * CARD_PITCH_MM,
               y0 + CARD_SLOT_MM[1] + 10 + PRIVILEGE_SLOT_MM[0] / 2,
               (PRIVILEGE_SLOT_MM[1], PRIVILEGE_SLOT_MM[0]), index=i)
    e = BAND_MM / 2
    for cx, cy in ((e, e), (w - e, e), (w - e, h - e), (e, h - e), (cx0 - 15, h - e),
                   (rx0 - 15, e), (e, h / 2), (w - e, h / 2)):
        b.marker(cx, cy)
    return b
