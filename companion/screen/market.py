"""The market and nobles as read, for the players to check before a game starts.

Shown on the setup screen, where the players compare it with the table and
confirm.  Each card is drawn the way it looks: a band of its bonus colour
with its points and its bonus letter, its cost as chips that carry count and
letter ("3W") in the card order (white, blue, green, red, black) and its id, so a misread card is
easy to spot and to name.  A noble shows its requirement the same way.
"""

from __future__ import annotations

from companion.i18n import _
from companion.rules.contract import Scoreboard
from companion.rules.gems import Gem
from companion.rules.splendor.catalogue import Card, Noble, find_card, find_noble
from companion.screen import layout as lay
from companion.screen import palette
from companion.screen.painter import Painter
from companion.screen.pygame_loaded import pygame

CARD_FACE: palette.Colour = (228, 222, 206)


def draw_market(p: Painter, layout: lay.Layout, box: pygame.Rect, state: Scoreboard) -> None:
    """Splendor's market and nobles, from the scoreboard's ids (read in the catalogue)."""
    gap = layout.px(6)
    left_w = round(box.width * 0.7)
    market = pygame.Rect(box.left, box.top, left_w - gap, box.height)
    nobles = pygame.Rect(box.left + left_w, box.top, box.width - left_w, box.height)
    row_h = market.height // 3
    for level in (3, 2, 1):  # as on the table: level 3 at the top
        r = 3 - level
        row = pygame.Rect(market.left, market.top + r * row_h, market.width, row_h)
        cells = lay.columns_of(row, (16, 21, 21, 21, 21))
        deck = cells[0].inflate(-gap, -gap)
        p.rounded(deck, palette.PANEL, palette.PANEL_EDGE, radius=layout.px(6), width=1,
                  label="deck")
        top, bottom = _halves(deck.inflate(-layout.px(6), -layout.px(4)))
        p.text(top, _("Level {level}").format(level=level), layout.px(22), palette.TEXT,
               min_size=layout.px(14), align="center")
        p.text(bottom, _("{n} left").format(n=state.decks[level - 1]), layout.px(20),
               palette.TEXT_DIM, min_size=layout.px(14), align="center")
        for card_id, cell in zip(state.face_up[level - 1], cells[1:], strict=True):
            rect = cell.inflate(-gap, -gap)
            card = find_card(card_id) if card_id is not None else None
            if card is None:
                p.rounded(rect, palette.BACKGROUND, palette.FAINT, radius=layout.px(6), width=1,
                          label="empty slot")
                p.text(rect.inflate(-gap, -gap), _("empty"), layout.px(20), palette.TEXT_DIM,
                       align="center")
            else:
                draw_card(p, layout, rect, card)
    title = pygame.Rect(nobles.left, nobles.top, nobles.width, layout.px(24))
    p.text(title, _("Nobles"), layout.px(22), palette.TEXT_DIM, align="center")
    shown = [n for n in (find_noble(i) for i in state.honours) if n is not None]
    count = max(len(shown), 1)
    tile_h = min((nobles.bottom - title.bottom) // count, layout.px(60))
    for i, noble in enumerate(shown):
        rect = pygame.Rect(nobles.left, title.bottom + i * tile_h, nobles.width, tile_h)
        draw_noble(p, layout, rect.inflate(-gap, -gap // 2 * 2), noble)


def _halves(box: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    h = box.height // 2
    return (
        pygame.Rect(box.left, box.top, box.width, h),
        pygame.Rect(box.left, box.top + h, box.width, box.height - h),
    )


def draw_card(p: Painter, layout: lay.Layout, rect: pygame.Rect, card: Card) -> None:
    """One development card: colour band with points and bonus letter, cost, id."""
    p.rounded(rect, CARD_FACE, palette.darker(CARD_FACE, 80), radius=layout.px(6), width=1,
              label=f"card {card.id}")
    band = pygame.Rect(rect.left, rect.top, rect.width, round(rect.height * 0.45))
    colour = palette.GEM[card.bonus]
    pygame.draw.rect(p.surface, colour, band, border_top_left_radius=layout.px(6),
                     border_top_right_radius=layout.px(6))
    ink = palette.ink_on(card.bonus)
    pad = layout.px(5)
    inner = band.inflate(-2 * pad, -layout.px(2))
    thirds = lay.columns_of(inner, (3, 4, 3))
    if card.points:
        p.text(thirds[0], str(card.points), band.height * 1.2, ink)
    p.text(thirds[1], card.id, layout.px(20), ink, min_size=layout.px(12), align="center")
    p.text(thirds[2], card.bonus.letter.upper(), band.height * 1.1, ink, align="right")
    lower = pygame.Rect(rect.left + pad, band.bottom + layout.px(3), rect.width - 2 * pad,
                        rect.bottom - band.bottom - layout.px(6))
    _cost(p, lower, [(g, n) for g, n in card.cost.items() if n])


def _cost(p: Painter, box: pygame.Rect, cost: list[tuple[Gem, int]]) -> None:
    if not cost:
        return
    # At most 4 colours: one size for all cards.  Each chip says count and
    # letter ("3W"), so a cost never rests on colour alone.
    w = box.width // 4 - 3
    h = min(box.height, round(w * 0.8))
    if h < 6:
        return
    for i, (gem, n) in enumerate(cost):
        chip = pygame.Rect(box.left + i * (w + 3), 0, w, h)
        chip.centery = box.centery
        p.gem_chip(chip, gem, n, letter=True)


def draw_noble(p: Painter, layout: lay.Layout, rect: pygame.Rect, noble: Noble) -> None:
    """A noble tile: crown and points, its requirement in bonus squares, its id."""
    p.rounded(rect, palette.PANEL, palette.NOBLE, radius=layout.px(6), width=layout.px(2),
              label=f"noble {noble.id}")
    pad = layout.px(6)
    inner = rect.inflate(-2 * pad, -pad)
    crown = pygame.Rect(0, 0, min(layout.px(24), inner.height), min(layout.px(18), inner.height))
    crown.left = inner.left
    crown.centery = inner.centery
    p.crown(crown, palette.NOBLE)
    p.mark("crown", crown)
    id_w = layout.px(34)
    p.text(pygame.Rect(inner.right - id_w, inner.top, id_w, inner.height), noble.id,
           layout.px(20), palette.TEXT_DIM, min_size=layout.px(12), align="right")
    need = [(g, n) for g, n in noble.requirement.items() if n]
    box = pygame.Rect(crown.right + pad, inner.top, inner.right - id_w - pad - crown.right - pad,
                      inner.height)
    w = min(box.width // max(len(need), 1) - 3, round(box.height * 1.5))
    h = min(box.height, w)
    for i, (gem, n) in enumerate(need):
        chip = pygame.Rect(box.left + i * (w + 3), 0, w, h)
        chip.centery = box.centery
        p.gem_chip(chip, gem, n, square=True, letter=True)
