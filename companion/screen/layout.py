"""Where everything goes, computed from the screen size (never fixed pixels).

All lengths are multiples of a *unit*: one pixel on the official 800×480
display, ``min(width / 800, height / 480)`` elsewhere, so a 1280×720 or
1920×1080 screen shows the same picture larger and a wider screen spends the
extra width on the columns.

From top to bottom::

    top bar        round, whose turn | supply
    banner         final round (only once someone reached 15)
    table header   legend | Points | W U G R K ★ | Nobles | Reserved
    player rows    one per player, the mover highlighted
    prompt         title, the proposed turn / error / menu
    buttons        CONFIRM (green) | NEXT (yellow) | BACK (red)

The player rows get what is left once the prompt has its minimum height, up
to a comfortable maximum; a 2-player game gives the spare height to the
prompt.  On the setup and end screens the table area shows the market or the
standings instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.screen.pygame_loaded import pygame

#: The design size: one unit is one pixel here.
BASE = (800, 480)

TOP_BAR = 44
BANNER = 30
HEADER = 26
ROW_MAX = 72
PROMPT_MIN = 140
PROMPT_MIN_WITH_BANNER = 124
BUTTONS = 50
GAP = 6

#: Relative widths of the table's columns: name, points, 5 gems, gold, nobles, reserved.
COLUMN_WEIGHTS = (22, 8, 10, 10, 10, 10, 10, 6, 7, 7)


def unit(size: tuple[int, int]) -> float:
    return min(size[0] / BASE[0], size[1] / BASE[1])


@dataclass(frozen=True)
class Layout:
    """The rectangles of one screen."""

    size: tuple[int, int]
    u: float
    top: pygame.Rect
    banner: pygame.Rect | None
    header: pygame.Rect
    rows: tuple[pygame.Rect, ...]
    prompt: pygame.Rect
    buttons: pygame.Rect

    @property
    def table(self) -> pygame.Rect:
        """Header and rows together: where the market or the standings go instead."""
        bottom = self.rows[-1].bottom if self.rows else self.header.bottom
        return pygame.Rect(
            self.header.x, self.header.y, self.header.width, bottom - self.header.y
        )

    @property
    def body(self) -> pygame.Rect:
        """Everything between the top bar (or banner) and the buttons."""
        top = self.header.top
        return pygame.Rect(
            self.header.x, top, self.header.width, self.prompt.bottom - top
        )

    def px(self, length: float) -> int:
        """A length in units, in whole pixels (at least 1)."""
        return max(round(length * self.u), 1)


def compute(
    size: tuple[int, int], players: int, banner: bool, row_max: int = ROW_MAX
) -> Layout:
    """The layout for ``players`` rows (2-4), with or without the final-round banner.

    ``row_max`` is the tallest a row may be, in units (Duel's rows carry a
    second line of progress bars: :data:`companion.screen.goals.ROW_MAX`).
    """
    w, h = size
    u = unit(size)

    def px(length: float) -> int:
        return max(round(length * u), 1)

    gap = px(GAP)
    inner_w = w - 2 * gap
    top = pygame.Rect(0, 0, w, px(TOP_BAR))
    y = top.bottom + gap
    banner_rect = None
    if banner:
        banner_rect = pygame.Rect(gap, y, inner_w, px(BANNER))
        y = banner_rect.bottom + gap
    buttons = pygame.Rect(gap, h - gap - px(BUTTONS), inner_w, px(BUTTONS))
    header = pygame.Rect(gap, y, inner_w, px(HEADER))
    prompt_min = px(PROMPT_MIN_WITH_BANNER if banner else PROMPT_MIN)
    space = buttons.top - gap - prompt_min - gap - header.bottom
    n = max(players, 1)
    row_h = max(min(px(row_max), space // n), 1)
    rows = tuple(
        pygame.Rect(gap, header.bottom + i * row_h, inner_w, row_h) for i in range(players)
    )
    rows_bottom = rows[-1].bottom if rows else header.bottom
    prompt_top = rows_bottom + gap
    prompt = pygame.Rect(gap, prompt_top, inner_w, buttons.top - gap - prompt_top)
    return Layout(size, u, top, banner_rect, header, rows, prompt, buttons)


def columns(row: pygame.Rect) -> list[pygame.Rect]:
    """Split a table row into its columns by :data:`COLUMN_WEIGHTS`, edge to edge."""
    return columns_of(row, COLUMN_WEIGHTS)


def columns_of(row: pygame.Rect, weights: tuple[int, ...]) -> list[pygame.Rect]:
    """Split ``row`` into columns of relative ``weights``, edge to edge."""
    total = sum(weights)
    cells = []
    x = row.left
    acc = 0
    for weight in weights:
        acc += weight
        right = row.left + round(row.width * acc / total)
        cells.append(pygame.Rect(x, row.top, right - x, row.height))
        x = right
    return cells


def split(rect: pygame.Rect, parts: int, gap: int) -> list[pygame.Rect]:
    """``parts`` equal boxes side by side with ``gap`` between them."""
    width = (rect.width - gap * (parts - 1)) / parts
    return [
        pygame.Rect(
            rect.left + round(i * (width + gap)), rect.top, round(width), rect.height
        )
        for i in range(parts)
    ]
