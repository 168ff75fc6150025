"""Rows for a game won at once by a victory condition: Splendor Duel's scoreboard.

Drawn from the game's :class:`~companion.rules.contract.Scoreboard` (never
from Duel's state class) when its seats carry
:class:`~companion.rules.contract.Goal` s.  Design decisions (where the
issue was silent):

* The two players' rows are as Splendor's (name, points, per colour a card
  square and a token circle, then pearl, gold, privilege scrolls, royal
  cards and reserved cards), but taller: under the figures runs a strip of
  progress towards the three conditions of the Victory tile, each right
  under the figure it measures — points towards 20 under the points, crowns
  towards 10 under the crowns, and under every colour that colour's points
  towards 10 (the 10-in-one-colour win read off where the colour is).  The
  colour nearest its goal is outlined, and a condition met turns gold.
* Each progress is a number ("7/10") above a thin bar: the number is read,
  the bar is seen from across the table, and neither depends on colour.
* The pearl is drawn as a pale chip marked ``P``, the scrolls as parchment
  tiles: a kind is never told by colour alone.
* The end screen names the winner and the condition met (the rules'
  sentence), and for each player the three figures the conditions count.
* The setup screen shows the pyramid (level 3 at the top, as on the table)
  and the royal cards by id, for the players to check against the table.
"""

from __future__ import annotations

from companion.i18n import _, ngettext, words
from companion.rules.contract import Goal, Outcome, Scoreboard, Seat
from companion.rules.gems import Gem
from companion.screen import layout as lay
from companion.screen import palette
from companion.screen.ending import end_panel
from companion.screen.painter import Painter
from companion.screen.pygame_loaded import pygame
from companion.screen.view import reason_of

#: Tallest row, in units: the figures (as Splendor's 72) plus the progress strip.
ROW_MAX = 96

#: Relative widths of a Duel row's columns: name, points, crowns, 5 colours,
#: pearl, gold, scrolls, royals, reserved.
COLUMN_WEIGHTS = (15, 9, 9, 9, 9, 9, 9, 9, 5, 5, 7, 7, 8)

#: Share of a row's height given to the progress strip.
STRIP = 0.34

CARD_FACE: palette.Colour = (228, 222, 206)


# ------------------------------------------------------------------ glyphs
def token_chip(
    p: Painter,
    rect: pygame.Rect,
    letter: str,
    count: int | None,
    square: bool = False,
    faint: bool = False,
) -> None:
    """A token or card bonus of any kind named by its letter, the pearl included."""
    if letter != "p":
        p.gem_chip(rect, Gem(letter), count, square=square, faint=faint)
        return
    if faint:
        x, y = rect.center
        pygame.draw.circle(p.surface, palette.FAINT, (x, y), rect.width // 2,
                           width=max(rect.width // 16, 1))
        p.mark("token p", rect)
        return
    p.circle(rect.center, rect.width // 2, palette.PEARL, palette.PEARL_EDGE)
    p.mark("token p", rect)
    inner = rect.inflate(-rect.width // 5, -rect.height // 5)
    text = "P" if count is None else str(count)
    p.text(inner, text, rect.height * 1.05, palette.TEXT_DARK, align="center")


def scroll(p: Painter, layout: lay.Layout, rect: pygame.Rect, count: int | None) -> None:
    """A privilege scroll: a parchment tile, with a count (or a rolled edge as a header)."""
    if count == 0:
        pygame.draw.rect(p.surface, palette.FAINT, rect, width=max(rect.width // 16, 1),
                         border_radius=layout.px(3))
        p.mark("privileges", rect)
        return
    p.rounded(rect, palette.PRIVILEGE, palette.darker(palette.PRIVILEGE), radius=layout.px(3),
              width=1, label="privileges")
    if count is None:  # the header: two rolled ends
        for y in (rect.top + rect.height // 5, rect.bottom - rect.height // 5):
            pygame.draw.line(p.surface, palette.darker(palette.PRIVILEGE, 90),
                             (rect.left + 2, y), (rect.right - 3, y), max(layout.px(2), 1))
        return
    inner = rect.inflate(-max(rect.width // 6, 2), -max(rect.height // 6, 2))
    p.text(inner, str(count), rect.height * 1.05, palette.TEXT_DARK, align="center")


def chip_pair(cell: pygame.Rect, chip: int, inset: int) -> tuple[pygame.Rect, pygame.Rect]:
    """A colour's bonus square and token circle, side by side, centred in ``cell``."""
    left = cell.centerx - (2 * chip + inset) // 2
    square = pygame.Rect(left, 0, chip, chip)
    square.centery = cell.centery
    circle = pygame.Rect(left + chip + inset, 0, chip, chip)
    circle.centery = cell.centery
    return square, circle


def counter(
    p: Painter,
    layout: lay.Layout,
    cell: pygame.Rect,
    count: int,
    colour: palette.Colour,
    width: int,
    height: int,
    label: str,
) -> None:
    """A tile with a count (royals, reserved cards); an outline only for none."""
    rect = pygame.Rect(0, 0, width, height)
    rect.center = cell.center
    if count:
        p.rounded(rect, colour, palette.darker(colour), radius=layout.px(4), label=label)
        inner = rect.inflate(-max(width // 6, 2), -max(height // 6, 2))
        p.text(inner, str(count), height * 1.05, palette.TEXT_DARK, align="center")
    else:
        pygame.draw.rect(p.surface, palette.FAINT, rect, width=max(width // 16, 1),
                         border_radius=layout.px(4))
        p.mark(label, rect)


def progress(
    p: Painter,
    layout: lay.Layout,
    box: pygame.Rect,
    goal: Goal,
    have: int,
    fill: palette.Colour,
    outline: bool = False,
) -> None:
    """``have/need`` above a thin bar filled to ``have / need`` (full once met)."""
    need = goal.need
    met = have >= need
    bar_h = max(layout.px(6), 2)
    text_box = pygame.Rect(box.left, box.top, box.width, box.height - bar_h - layout.px(2))
    ink = palette.WINNER if met else palette.TEXT if outline else palette.TEXT_DIM
    p.text(text_box, f"{have}/{need}", layout.px(20), ink, min_size=layout.px(12),
           align="center")
    track = pygame.Rect(box.left, box.bottom - bar_h, box.width, bar_h)
    p.rounded(track, palette.TRACK, palette.CURRENT_EDGE if outline else None,
              radius=bar_h // 2, width=1, label=f"goal {goal.name}")
    done = round(track.width * min(have, need) / need) if need else track.width
    if done:
        filled = pygame.Rect(track.left, track.top, max(done, bar_h), bar_h)
        p.rounded(filled, palette.WINNER if met else fill, radius=bar_h // 2)


# ------------------------------------------------------------------- table
def table(p: Painter, layout: lay.Layout, board: Scoreboard, only_current: bool) -> None:
    """The header and a row per player (the mover's only, under a menu)."""
    _header(p, layout, board)
    if only_current:
        _row(p, layout, layout.rows[0], board, board.mover, True)
        return
    for index, (row, seat) in enumerate(zip(layout.rows, board.seats, strict=False)):
        _row(p, layout, row, board, seat, index == board.current)


def _header(p: Painter, layout: lay.Layout, board: Scoreboard) -> None:
    cells = lay.columns_of(layout.header, COLUMN_WEIGHTS)
    size = layout.px(20)
    dim = palette.TEXT_DIM
    legend = cells[0].inflate(-layout.px(8), -layout.px(6))
    mark = min(legend.height, layout.px(14))
    square = pygame.Rect(legend.left, 0, mark, mark)
    square.centery = legend.centery
    p.rounded(square, dim, radius=max(mark // 5, 1), label="legend card")
    half = legend.width // 2
    p.text(pygame.Rect(square.right + layout.px(3), legend.top,
                       half - mark - layout.px(6), legend.height), _("cards"), size, dim)
    dot = pygame.Rect(legend.left + half, 0, mark, mark)
    dot.centery = legend.centery
    p.circle(dot.center, mark // 2, dim, dim)
    p.mark("legend token", dot)
    p.text(pygame.Rect(dot.right + layout.px(3), legend.top,
                       legend.right - dot.right - layout.px(3), legend.height),
           _("tokens"), size, dim)
    p.text(cells[1].inflate(-layout.px(4), -layout.px(4)), _("Points"), size, dim,
           align="center")
    p.text(cells[2].inflate(-layout.px(4), -layout.px(4)), _("Crowns"), size, dim,
           align="center")
    chip = layout.header.height - layout.px(4)
    letters = board.colour_letters + board.token_letters[len(board.colour_letters):]
    for letter, cell in zip(letters, cells[3:10], strict=False):
        rect = pygame.Rect(0, 0, chip, chip)
        rect.center = cell.center
        token_chip(p, rect, letter, None)
    tile = pygame.Rect(0, 0, round(chip * 0.8), chip)
    tile.center = cells[10].center
    scroll(p, layout, tile, None)
    p.text(cells[11].inflate(-layout.px(4), -layout.px(4)), _("Royals"), size, dim,
           align="center")
    p.text(cells[12].inflate(-layout.px(4), -layout.px(4)), _("Reserved"), size, dim,
           align="center")


def _row(
    p: Painter,
    layout: lay.Layout,
    row: pygame.Rect,
    board: Scoreboard,
    seat: Seat,
    current: bool,
) -> None:
    body = row.inflate(0, -layout.px(4))
    fill = palette.CURRENT_ROW if current else palette.PANEL
    edge = palette.CURRENT_EDGE if current else None
    p.rounded(body, fill, edge, radius=layout.px(8), width=layout.px(2))
    cells = lay.columns_of(body, COLUMN_WEIGHTS)
    inset = layout.px(4)
    strip_h = round(body.height * STRIP)
    upper_h = body.height - strip_h - inset
    # Name, after a ▶ for the player to move, over the row's whole height.
    name_cell = cells[0]
    marker = pygame.Rect(0, 0, layout.px(12), min(layout.px(18), body.height // 2))
    marker.left = name_cell.left + layout.px(8)
    marker.centery = name_cell.centery
    if current:
        p.triangle_right(marker, palette.CURRENT_EDGE)
    name_box = pygame.Rect(marker.right + layout.px(6), body.top + inset,
                           name_cell.right - marker.right - layout.px(10),
                           body.height - 2 * inset)
    p.paragraph(name_box, seat.name, min(layout.px(32), upper_h * 0.8),
                min_size=layout.px(16), valign="center")

    def upper(cell: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(cell.left, body.top + inset, cell.width, upper_h)

    def lower(cell: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(cell.left + inset, body.bottom - strip_h - inset // 2,
                           cell.width - 2 * inset, strip_h)

    by_name = {g.name: g for g in seat.goals}
    points, crowns, colour = by_name.get("points"), by_name.get("crowns"), by_name.get("colour")
    won = points is not None and points.met
    p.text(upper(cells[1]).inflate(-inset, 0), str(seat.points), min(layout.px(48), upper_h),
           palette.WINNER if won else palette.TEXT, align="center")
    if points is not None:
        progress(p, layout, lower(cells[1]), points, points.have, palette.TEXT_DIM)
    crowns_n = seat.crowns or 0
    crown_box = upper(cells[2]).inflate(-inset, 0)
    icon = pygame.Rect(crown_box.left + layout.px(2), 0, layout.px(16), layout.px(12))
    icon.centery = crown_box.centery
    p.crown(icon, palette.WINNER if crowns is not None and crowns.met else palette.NOBLE)
    p.mark("crown", icon)
    figure = pygame.Rect(icon.right + layout.px(2), crown_box.top,
                         crown_box.right - icon.right - layout.px(2), crown_box.height)
    p.text(figure, str(crowns_n), min(layout.px(40), upper_h), palette.TEXT, align="center")
    if crowns is not None:
        progress(p, layout, lower(cells[2]), crowns, crowns.have, palette.NOBLE)
    # Per colour: card bonus (square) and tokens (circle); that colour's points below.
    chip = min(int(upper_h * 0.78), (cells[3].width - 3 * inset) // 2)
    n_colours = len(board.colour_letters)
    for i, (letter, cell) in enumerate(zip(board.colour_letters, cells[3:8], strict=False)):
        square, circle = chip_pair(upper(cell), chip, inset)
        bonus, tokens = seat.bonuses[i], seat.tokens[i]
        token_chip(p, square, letter, bonus, square=True, faint=not bonus)
        token_chip(p, circle, letter, tokens, faint=not tokens)
        if colour is not None and i < len(seat.colour_points):
            best = colour.colour == letter and seat.colour_points[i] > 0
            gem = Gem(letter)  # black's bar is drawn in its light rim colour, to show
            fill = palette.GEM_EDGE[gem] if gem is Gem.BLACK else palette.GEM[gem]
            progress(p, layout, lower(cell), colour, seat.colour_points[i], fill, outline=best)
    # Pearl and gold tokens.
    for letter, cell, count in zip(board.token_letters[n_colours:], cells[8:10],
                                   seat.tokens[n_colours:], strict=False):
        rect = pygame.Rect(0, 0, chip, chip)
        rect.center = upper(cell).center
        token_chip(p, rect, letter, count, faint=not count)
    # Scrolls, royal cards, reserved cards.
    tile = pygame.Rect(0, 0, round(chip * 0.8), chip)
    tile.center = upper(cells[10]).center
    scroll(p, layout, tile, seat.privileges or 0)
    counter(p, layout, upper(cells[11]), seat.honours, palette.NOBLE, chip, chip, "royals")
    counter(p, layout, upper(cells[12]), seat.reserved, palette.RESERVED, int(chip * 0.75), chip,
            "reserved")


# --------------------------------------------------------------- the end
def standings(
    p: Painter, layout: lay.Layout, box: pygame.Rect, outcome: Outcome, board: Scoreboard
) -> None:
    """The winner, the condition met, and each player's three figures."""
    inner, top, space = end_panel(p, layout, box, outcome.winners, reason_of(outcome))
    row_h = min(layout.px(64), space // max(len(board.seats), 1))
    ordered = sorted(board.seats, key=lambda s: s.name not in outcome.winners)
    for i, seat in enumerate(ordered):
        row = pygame.Rect(inner.left, top + i * row_h, inner.width, row_h).inflate(
            0, -layout.px(4))
        won = seat.name in outcome.winners
        ink = palette.TEXT_DARK if won else palette.TEXT
        p.rounded(row, palette.WINNER if won else palette.BACKGROUND,
                  None if won else palette.PANEL_EDGE, radius=layout.px(8), width=1,
                  label="standing")
        parts = lay.columns_of(row, (40, 20, 20, 20))
        size = min(layout.px(34), row.height * 0.7)
        p.text(parts[0].inflate(-layout.px(8), -layout.px(4)), seat.name, size, ink,
               min_size=layout.px(18))
        p.text(parts[1].inflate(-layout.px(8), -layout.px(4)), words.short_points(seat.points),
               size, ink, min_size=layout.px(16), align="right")
        p.text(parts[2].inflate(-layout.px(8), -layout.px(4)), crowns_text(seat.crowns or 0),
               size * 0.85, ink, min_size=layout.px(16), align="right")
        colour = next((g for g in seat.goals if g.name == "colour"), None)
        if colour is not None and colour.colour is not None:
            chip_h = min(round(row.height * 0.6), layout.px(30))
            chip = pygame.Rect(0, 0, round(chip_h * 1.9), chip_h)
            chip.center = parts[3].center
            p.gem_chip(chip, Gem(colour.colour), colour.have, square=True, letter=True)


def crowns_text(n: int) -> str:
    """"1 crown", "4 crowns"."""
    return ngettext("{n} crown", "{n} crowns", n).format(n=n)


# ------------------------------------------------------------------ setup
def setup(p: Painter, layout: lay.Layout, box: pygame.Rect, board: Scoreboard) -> None:
    """The pyramid (level 3 on top) and the royal cards, by id, to check against the table."""
    gap = layout.px(6)
    left_w = round(box.width * 0.72)
    pyramid = pygame.Rect(box.left, box.top, left_w - gap, box.height)
    royals = pygame.Rect(box.left + left_w, box.top, box.width - left_w, box.height)
    levels = len(board.face_up)
    row_h = pyramid.height // max(levels, 1)
    widest = max((len(r) for r in board.face_up), default=1)
    deck_w = round(pyramid.width * 0.16)
    card_w = (pyramid.width - deck_w) // max(widest, 1)
    for r, level in enumerate(range(levels, 0, -1)):
        row = pygame.Rect(pyramid.left, pyramid.top + r * row_h, pyramid.width, row_h)
        deck = pygame.Rect(row.left, row.top, deck_w, row.height).inflate(-gap, -gap)
        p.rounded(deck, palette.PANEL, palette.PANEL_EDGE, radius=layout.px(6), width=1,
                  label="deck")
        half = deck.height // 2
        top = pygame.Rect(deck.left + gap // 2, deck.top + 2, deck.width - gap, half - 2)
        bottom = pygame.Rect(deck.left + gap // 2, deck.top + half, deck.width - gap,
                             deck.height - half - 2)
        p.text(top, _("Level {level}").format(level=level), layout.px(20), palette.TEXT,
               min_size=layout.px(12), align="center")
        left = board.decks[level - 1] if level - 1 < len(board.decks) else 0
        p.text(bottom, _("{n} left").format(n=left), layout.px(18), palette.TEXT_DIM,
               min_size=layout.px(12), align="center")
        ids = board.face_up[level - 1]
        start = row.left + deck_w + (widest - len(ids)) * card_w // 2
        for i, card_id in enumerate(ids):
            rect = pygame.Rect(start + i * card_w, row.top, card_w, row.height).inflate(-gap, -gap)
            if card_id is None:
                p.rounded(rect, palette.BACKGROUND, palette.FAINT, radius=layout.px(6), width=1,
                          label="empty slot")
                p.text(rect.inflate(-gap, -gap), _("empty"), layout.px(18), palette.TEXT_DIM,
                       align="center")
            else:
                p.rounded(rect, CARD_FACE, palette.darker(CARD_FACE, 80), radius=layout.px(6),
                          width=1, label=f"card {card_id}")
                p.text(rect.inflate(-gap, -gap), card_id, layout.px(22), palette.TEXT_DARK,
                       min_size=layout.px(12), align="center")
    title = pygame.Rect(royals.left, royals.top, royals.width, layout.px(24))
    p.text(title, _("Royals"), layout.px(22), palette.TEXT_DIM, align="center")
    tile_h = min((royals.bottom - title.bottom) // max(len(board.honours), 1), layout.px(44))
    for i, royal in enumerate(board.honours):
        rect = pygame.Rect(royals.left, title.bottom + i * tile_h, royals.width, tile_h)
        rect = rect.inflate(-gap, -gap // 2 * 2)
        p.rounded(rect, palette.PANEL, palette.NOBLE, radius=layout.px(6), width=layout.px(2),
                  label=f"royal {royal}")
        crown = pygame.Rect(0, 0, min(layout.px(24), rect.height - 4),
                            min(layout.px(18), rect.height - 4))
        crown.left = rect.left + gap
        crown.centery = rect.centery
        p.crown(crown, palette.NOBLE)
        p.mark("crown", crown)
        text = pygame.Rect(crown.right + gap, rect.top + 2, rect.right - crown.right - 2 * gap,
                           rect.height - 4)
        p.text(text, royal, layout.px(22), palette.TEXT, min_size=layout.px(12))
