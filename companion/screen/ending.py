"""The frame of an end screen both games share: the winners under a crown, the reason.

Splendor's and Duel's standings differ in their rows (nobles and cards
against crowns and the best colour), not in the panel round them; drawing
the panel once keeps the two end screens alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import ngettext, words
from companion.screen import layout as lay
from companion.screen import palette
from companion.screen.painter import Painter
from companion.screen.pygame_loaded import pygame


def end_panel(p: Painter, layout: lay.Layout, box: pygame.Rect, winners: Sequence[str],
              why: str) -> tuple[pygame.Rect, int, int]:
    """Draw the panel, the winners' headline and ``why`` at its foot; return the
    panel's inner box, and the top and height left between them for the rows."""
    p.rounded(box, palette.PANEL, palette.PANEL_EDGE, radius=layout.px(8), width=1)
    pad = layout.px(12)
    inner = box.inflate(-2 * pad, -2 * pad)
    title = pygame.Rect(inner.left, inner.top, inner.width, layout.px(40))
    crown = pygame.Rect(title.left, 0, layout.px(34), layout.px(26))
    crown.centery = title.centery
    p.crown(crown, palette.WINNER)
    p.mark("crown", crown)
    names = {f"w{i}": name for i, name in enumerate(winners)}
    template = ngettext("{names} wins", "{names} share the victory", len(names)).replace(
        "{names}", words.join_words(["{" + key + "}" for key in names])
    )
    head_left = crown.right + layout.px(10)
    head = pygame.Rect(head_left, title.top, title.right - head_left, title.height)
    p.text_with_names(head, template, names, layout.px(40), palette.WINNER,
                      min_size=layout.px(22))
    reason_h = layout.px(84)
    reason = pygame.Rect(inner.left, inner.bottom - reason_h, inner.width, reason_h)
    p.paragraph(reason, why, layout.px(28), palette.TEXT, min_size=layout.px(16))
    top = title.bottom + layout.px(8)
    return inner, top, reason.top - layout.px(8) - top
