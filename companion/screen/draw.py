"""The screen: draws a :class:`ScreenView` onto an off-screen surface.

``Screen(size).draw(view)`` returns a ``pygame.Surface`` and touches no
display, so it runs headless (``SDL_VIDEODRIVER=dummy``) in tests, in the
demo and on a Pi without a desktop; :class:`~companion.screen.window.Window`
blits the result when a display exists.  As PettingZoo's
``render_mode="rgb_array"``, the picture depends on the view and the size
alone.

Design decisions (where the issue was silent):

* A scoreboard table, one row per player in seating order (the order never
  changes, so a player finds their row without reading), the mover's row
  highlighted and marked with ▶, rather than one column per player: rows
  leave each player's name a wide box and keep the gem columns aligned.
* For each colour a player's cards (bonus) are a rounded square and their
  tokens a circle, under a column headed by the gem's letter; gold (tokens
  only) is headed by a drawn star.  A count of zero is an empty outline, so
  the eye finds what players have.
* The prompt keeps the mode's colour as a stripe (green proposal, yellow
  choice, red error, grey waiting) and always says in words what it is.
* The three buttons are drawn as their colours *and* named (CONFIRM, NEXT,
  BACK), with what each does now; a button that does nothing is dimmed.
* Both games are drawn from the game's own
  :class:`~companion.rules.contract.Scoreboard` (never from its state class):
  Splendor's compact rows here, Duel's taller rows with progress towards its
  three victory conditions in :mod:`companion.screen.goals`.  A scoreboard
  whose seats carry goals gets the goal rows; that is the whole difference.
* Every text goes through :class:`~companion.screen.painter.Painter`, which
  shrinks and ellipsizes it into its box and records where it went;
  :attr:`Screen.drawn` exposes those records to the tests.
"""

from __future__ import annotations

from pathlib import Path

from companion.i18n import _, ngettext, words
from companion.rules.contract import Scoreboard, Seat
from companion.rules.gems import COLOURS, Gem
from companion.rules.splendor import outcome as splendor_outcome
from companion.screen import goals, palette
from companion.screen import layout as lay
from companion.screen.ending import end_panel
from companion.screen.market import draw_market
from companion.screen.painter import Drawn, Painter
from companion.screen.pygame_loaded import pygame
from companion.screen.text import FontBook
from companion.screen.view import Mode, ScreenView
from companion.screen.window import save_screenshot

DEFAULT_SIZE = (800, 480)


class Screen:
    """Draws views at one size; keeps its surface and fonts between frames."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE) -> None:
        w, h = size
        if w < 160 or h < 96:
            raise ValueError(f"the screen needs at least 160×96 pixels, not {w}×{h}")
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = (int(w), int(h))
        self.surface = pygame.Surface(self.size)
        self.fonts = FontBook()
        #: Every text and shape of the last frame (see :class:`Painter`).
        self.drawn: list[Drawn] = []

    # ------------------------------------------------------------------ API
    def draw(self, view: ScreenView) -> pygame.Surface:
        """Draw ``view`` and return the surface (the same object every frame)."""
        painter = Painter(self.surface, self.fonts)
        self.surface.fill(palette.BACKGROUND)
        state = view.state
        board = view.scoreboard
        players = len(board.seats) if board is not None else 0
        banner = bool(board is not None and board.final_round and view.mode is not Mode.END)
        # The setup screen shows the market where the rows go: give it 4 rows' room.
        # A menu needs room too: it keeps the mover's row only (what they hold is
        # what a return or a noble choice is about); so does a view that asks for it
        # (a computer turn's long list of steps).
        focus = (view.focus or (view.mode is Mode.CHOICE and bool(view.menu))) \
            and board is not None
        rows = 4 if view.mode is Mode.SETUP else 1 if focus else max(players, 2)
        tall = board is not None and board.has_goals and view.mode is not Mode.SETUP
        layout = lay.compute(self.size, rows, banner, goals.ROW_MAX if tall else lay.ROW_MAX)
        _top_bar(painter, layout, view, board)
        if layout.banner is not None and board is not None:
            _banner(painter, layout, board)
        if view.mode is Mode.END and state is not None and board is not None:
            outcome = view.outcome or state.outcome()
            if isinstance(outcome, splendor_outcome.Outcome):
                _standings(painter, layout, layout.body, outcome, board)
            elif outcome is not None:
                goals.standings(painter, layout, layout.body, outcome, board)
            else:
                _prompt(painter, layout, view, layout.body)
        else:
            if view.mode is Mode.SETUP and board is not None:
                if board.has_goals:
                    goals.setup(painter, layout, layout.table, board)
                else:
                    _setup(painter, layout, board)
            elif board is not None:
                _table(painter, layout, board, only_current=focus)
            # Before a game is set up there is no table: the prompt takes its room.
            _prompt(painter, layout, view, layout.prompt if board is not None else layout.body)
        _buttons(painter, layout, view)
        self.drawn = painter.drawn
        return self.surface

    def save(self, path: str | Path) -> Path:
        """Save the last frame as a PNG (a screenshot); returns the path."""
        return save_screenshot(self.surface, path)


# ---------------------------------------------------------------- top bar
def _top_bar(
    p: Painter, layout: lay.Layout, view: ScreenView, state: Scoreboard | None
) -> None:
    top = layout.top
    pygame.draw.rect(p.surface, palette.PANEL, top)
    pad = layout.px(10)
    inner = top.inflate(-2 * pad, -layout.px(8))
    if state is None:
        p.text(inner, _("Splendor companion"), layout.px(32))
        return
    if view.mode is Mode.END:
        rounds = max(state.round - 1, 1) if state.current == 0 else state.round
        p.text(inner, ngettext("Game over after {n} round", "Game over after {n} rounds",
                               rounds).format(n=rounds), layout.px(32))
        return
    if state.privileges is None:
        supply_w = min(layout.px(360), inner.width // 2)
    else:  # seven token kinds and the scrolls
        supply_w = min(layout.px(440), inner.width * 11 // 20)
    left = pygame.Rect(inner.left, inner.top, inner.width - supply_w - pad, inner.height)
    if view.mode is Mode.SETUP:
        n = len(state.seats)
        p.text(left, ngettext("New game · {n} player", "New game · {n} players", n).format(n=n),
               layout.px(32), min_size=layout.px(20))
    else:
        # A long name is shortened, never the words around it ("to play").
        template = _("Round {round} · {name} to play").replace("{round}", str(state.round))
        p.text_with_names(left, template, {"name": state.mover.name}, layout.px(32),
                          min_size=layout.px(20))
    supply = pygame.Rect(inner.right - supply_w, inner.top, supply_w, inner.height)
    _supply(p, layout, supply, state)


def _supply(p: Painter, layout: lay.Layout, box: pygame.Rect, state: Scoreboard) -> None:
    """The tokens within reach on the table: Splendor's supply, Duel's board and scrolls."""
    label_w = layout.px(66)
    p.text(
        pygame.Rect(box.left, box.top, label_w, box.height),
        _("Supply") if state.privileges is None else _("Board"),
        layout.px(22),
        palette.TEXT_DIM,
    )
    letters = state.token_letters
    cells = lay.split(
        pygame.Rect(box.left + label_w, box.top, box.width - label_w, box.height),
        len(letters) + (state.privileges is not None), 0,
    )
    chip = min(box.height, layout.px(28))
    for letter, count_, cell in zip(letters, state.table_tokens, cells, strict=False):
        rect = pygame.Rect(cell.left, 0, chip, chip)
        rect.centery = cell.centery
        goals.token_chip(p, rect, letter, None)
        left = rect.right + layout.px(3)
        count = pygame.Rect(left, cell.top, cell.right - left - layout.px(2), cell.height)
        p.text(count, str(count_), layout.px(26), align="left")
    if state.privileges is not None:
        cell = cells[-1]
        rect = pygame.Rect(cell.left, 0, round(chip * 0.8), chip)
        rect.centery = cell.centery
        goals.scroll(p, layout, rect, None)
        left = rect.right + layout.px(3)
        count = pygame.Rect(left, cell.top, cell.right - left - layout.px(2), cell.height)
        p.text(count, str(state.privileges), layout.px(26), align="left")


# ----------------------------------------------------------------- banner
def _banner(p: Painter, layout: lay.Layout, state: Scoreboard) -> None:
    rect = layout.banner
    assert rect is not None
    p.rounded(rect, palette.BANNER, radius=layout.px(6), label="banner")
    leaders = [pl.name for pl in state.seats if pl.points >= state.winning_points]
    n = len(state.seats)
    left = (n - state.current) % n
    turns = ngettext("{n} turn left", "{n} turns left", left).format(n=left)
    template = ngettext(
        "FINAL ROUND · {who} has {points}+ points · {turns}",
        "FINAL ROUND · {who} have {points}+ points · {turns}",
        max(len(leaders), 1),
    ).replace("{points}", str(state.winning_points)).replace("{turns}", turns)
    names = {f"who{i}": name for i, name in enumerate(leaders)}
    who = words.join_words(["{" + key + "}" for key in names]) if names else _("A player")
    inner = rect.inflate(-layout.px(16), -layout.px(4))
    p.text_with_names(inner, template.replace("{who}", who), names, layout.px(28),
                      palette.TEXT_DARK, min_size=layout.px(16), align="center")


# ------------------------------------------------------------------ table
def _table(p: Painter, layout: lay.Layout, state: Scoreboard, only_current: bool = False) -> None:
    if state.has_goals:
        goals.table(p, layout, state, only_current)
        return
    _table_header(p, layout)
    win = state.winning_points
    if only_current:
        _player_row(p, layout, layout.rows[0], state.mover, True, win)
        return
    for index, (row, player) in enumerate(zip(layout.rows, state.seats, strict=False)):
        _player_row(p, layout, row, player, index == state.current, win)


def _table_header(p: Painter, layout: lay.Layout) -> None:
    cells = lay.columns(layout.header)
    size = layout.px(20)
    dim = palette.TEXT_DIM
    # Legend: which shape is a card (bonus) and which a token.
    legend = cells[0].inflate(-layout.px(8), -layout.px(6))
    mark = min(legend.height, layout.px(16))
    half = legend.width // 2
    square = pygame.Rect(legend.left, 0, mark, mark)
    square.centery = legend.centery
    p.rounded(square, palette.TEXT_DIM, radius=max(mark // 5, 1), label="legend card")
    p.text(
        pygame.Rect(
            square.right + layout.px(4), legend.top, half - mark - layout.px(8), legend.height
        ),
        _("cards"),
        size,
        dim,
    )
    dot = pygame.Rect(legend.left + half, 0, mark, mark)
    dot.centery = legend.centery
    p.circle(dot.center, mark // 2, palette.TEXT_DIM, palette.TEXT_DIM)
    p.mark("legend token", dot)
    p.text(
        pygame.Rect(
            dot.right + layout.px(4),
            legend.top,
            legend.right - dot.right - layout.px(4),
            legend.height,
        ),
        _("tokens"),
        size,
        dim,
    )
    p.text(cells[1].inflate(-layout.px(4), -layout.px(4)), _("Points"), size, dim,
           align="center")
    chip = layout.header.height - layout.px(4)
    for gem, cell in zip((*COLOURS, Gem.GOLD), cells[2:8], strict=True):
        rect = pygame.Rect(0, 0, chip, chip)
        rect.center = cell.center
        p.gem_chip(rect, gem, None)
    p.text(cells[8].inflate(-layout.px(4), -layout.px(4)), _("Nobles"), size, dim,
           align="center")
    p.text(cells[9].inflate(-layout.px(4), -layout.px(4)), _("Reserved"), size, dim,
           align="center")


def _player_row(
    p: Painter, layout: lay.Layout, row: pygame.Rect, player: Seat, current: bool, win: int
) -> None:
    body = row.inflate(0, -layout.px(4))
    fill = palette.CURRENT_ROW if current else palette.PANEL
    edge = palette.CURRENT_EDGE if current else None
    p.rounded(body, fill, edge, radius=layout.px(8), width=layout.px(2))
    cells = lay.columns(body)
    inset = layout.px(4)
    # Name, after a ▶ for the player to move (space kept so names align).
    name_cell = cells[0]
    marker = pygame.Rect(0, 0, layout.px(12), min(layout.px(18), body.height // 2))
    marker.left = name_cell.left + layout.px(8)
    marker.centery = name_cell.centery
    if current:
        p.triangle_right(marker, palette.CURRENT_EDGE)
    name_box = pygame.Rect(
        marker.right + layout.px(6),
        body.top + inset,
        name_cell.right - marker.right - layout.px(10),
        body.height - 2 * inset,
    )
    # A long name wraps onto two lines (after a hyphen or space) rather than shrink.
    p.paragraph(
        name_box,
        player.name,
        min(layout.px(36), body.height * 0.8),
        min_size=layout.px(18),
        valign="center",
    )
    # Points, large.
    p.text(
        cells[1].inflate(-inset, -inset),
        str(player.points),
        min(layout.px(56), body.height * 1.05),
        palette.WINNER if player.points >= win else palette.TEXT,
        align="center",
    )
    # Bonuses (squares) and tokens (circles) per colour.
    chip = min(int(body.height * 0.7), (cells[2].width - 3 * inset) // 2)
    for i, (gem, cell) in enumerate(zip(COLOURS, cells[2:7], strict=True)):
        square, circle = goals.chip_pair(cell, chip, inset)
        bonus, tokens = player.bonuses[i], player.tokens[i]
        p.gem_chip(square, gem, bonus, square=True, faint=not bonus)
        p.gem_chip(circle, gem, tokens, faint=not tokens)
    gold = pygame.Rect(0, 0, chip, chip)
    gold.center = cells[7].center
    p.gem_chip(gold, Gem.GOLD, player.tokens[5], faint=not player.tokens[5])
    # Nobles: a tile per count; reserved: a card back.
    goals.counter(p, layout, cells[8], player.honours, palette.NOBLE, chip, chip, "nobles")
    goals.counter(
        p, layout, cells[9], player.reserved, palette.RESERVED, int(chip * 0.75), chip,
        "reserved",
    )


# ----------------------------------------------------------------- prompt
def _prompt(p: Painter, layout: lay.Layout, view: ScreenView, box: pygame.Rect) -> None:
    accent = palette.MODE_ACCENT[view.mode]
    p.rounded(box, palette.PANEL, palette.PANEL_EDGE, radius=layout.px(8), width=1)
    stripe = pygame.Rect(box.left, box.top, layout.px(8), box.height)
    pygame.draw.rect(p.surface, accent, stripe, border_radius=layout.px(4))
    pad = layout.px(12)
    inner = pygame.Rect(
        stripe.right + pad, box.top + layout.px(6), box.right - stripe.right - 2 * pad,
        box.height - layout.px(12),
    )
    title_h = layout.px(36)
    title = pygame.Rect(inner.left, inner.top, inner.width, title_h)
    tag = ""
    if view.candidate is not None and view.candidate[1] > 1:
        tag = _("{i} of {n}").format(i=view.candidate[0], n=view.candidate[1])
    pages = _menu_pages(layout, view, inner, title_h)
    if pages is not None and pages[1] > 1:
        tag = _("page {i} of {n}").format(i=pages[0] + 1, n=pages[1])
    if tag:
        tag_box = pygame.Rect(0, title.top + layout.px(3), layout.px(112), title_h - layout.px(6))
        tag_box.right = title.right
        p.rounded(tag_box, accent, radius=layout.px(14), label="tag")
        p.text(tag_box.inflate(-layout.px(10), -layout.px(4)), tag, layout.px(26),
               palette.TEXT_DARK, align="center")
        title.width -= tag_box.width + layout.px(10)
    names = {p_.name: p_.name for p_ in view.state.players} if view.state is not None else {}
    p.text_named(title, view.title, names, layout.px(36), accent, min_size=layout.px(22))
    rest = pygame.Rect(inner.left, title.bottom + layout.px(4), inner.width,
                       inner.bottom - title.bottom - layout.px(4))
    if view.note:
        note_h = layout.px(22)
        note = pygame.Rect(rest.left, rest.bottom - note_h, rest.width, note_h)
        p.text(note, view.note, layout.px(22), palette.TEXT_DIM, min_size=layout.px(16))
        rest.height -= note_h + layout.px(4)
    if not view.menu:
        if view.text:
            p.paragraph(rest, view.text, layout.px(32), palette.TEXT, min_size=layout.px(20))
        return
    if view.text:
        text_h = min(layout.px(30), rest.height // 3)
        text_box = pygame.Rect(rest.left, rest.top, rest.width, text_h)
        p.text(text_box, view.text, layout.px(26), palette.TEXT_DIM, min_size=layout.px(18))
        rest = pygame.Rect(rest.left, text_box.bottom + layout.px(4), rest.width,
                           rest.bottom - text_box.bottom - layout.px(4))
    _menu(p, layout, view, rest)


def _menu_grid(layout: lay.Layout, view: ScreenView, box: pygame.Rect) -> tuple[int, int, int]:
    """(columns, rows per column, item height) for the menu in ``box``."""
    item_h = layout.px(32)
    rows = max(box.height // item_h, 1)
    cols = 1 if len(view.menu) <= rows else 2
    if cols == 2:  # balance the two columns when everything fits on one page
        rows = min(rows, -(-len(view.menu) // 2))
    return cols, rows, item_h


def _menu_pages(
    layout: lay.Layout, view: ScreenView, inner: pygame.Rect, title_h: int
) -> tuple[int, int] | None:
    """(page shown, pages) of the menu, or None without a menu; mirrors :func:`_prompt`."""
    if not view.menu:
        return None
    height = inner.height - title_h - layout.px(4)
    if view.note:
        height -= layout.px(22) + layout.px(4)
    if view.text:
        text_h = min(layout.px(30), height // 3)
        height -= text_h + layout.px(4)
    cols, rows, _item_h = _menu_grid(layout, view, pygame.Rect(0, 0, inner.width, height))
    per_page = cols * rows
    pages = -(-len(view.menu) // per_page)
    return view.selected // per_page, pages


def _menu(p: Painter, layout: lay.Layout, view: ScreenView, box: pygame.Rect) -> None:
    cols, rows, item_h = _menu_grid(layout, view, box)
    per_page = cols * rows
    first = (view.selected // per_page) * per_page
    shown = view.menu[first : first + per_page]
    gap = layout.px(10)
    col_boxes = lay.split(box, cols, gap)
    accent = palette.MODE_ACCENT[Mode.CHOICE]
    for i, item in enumerate(shown):
        col, line = divmod(i, rows)
        column = col_boxes[col]
        cell = pygame.Rect(column.left, box.top + line * item_h, column.width, item_h)
        cell = cell.inflate(0, -layout.px(4))
        chosen = first + i == view.selected
        if chosen:
            p.rounded(cell, accent, radius=layout.px(6), label="menu item")
        else:
            p.rounded(cell, palette.BACKGROUND, palette.PANEL_EDGE, radius=layout.px(6), width=1,
                      label="menu item")
        marker = pygame.Rect(cell.left + layout.px(8), 0, layout.px(10), cell.height // 2)
        marker.centery = cell.centery
        if chosen:
            p.triangle_right(marker, palette.TEXT_DARK)
        text_box = pygame.Rect(
            marker.right + layout.px(8),
            cell.top + layout.px(2),
            cell.right - marker.right - layout.px(14),
            cell.height - layout.px(4),
        )
        p.text(text_box, item, layout.px(26), palette.TEXT_DARK if chosen else palette.TEXT,
               min_size=layout.px(18))


# ---------------------------------------------------------------- buttons
#: Space between the three button hints, in units.
GAP_BUTTONS = 8
_BUTTONS = (
    ("CONFIRM", palette.BUTTON_CONFIRM),
    ("NEXT", palette.BUTTON_NEXT),
    ("BACK", palette.BUTTON_BACK),
)


def button_name(name: str) -> str:
    """The button's printed name in the player's language (CONFIRM, NEXT, BACK)."""
    return {"CONFIRM": _("CONFIRM"), "NEXT": _("NEXT"), "BACK": _("BACK")}[name]


def _buttons(p: Painter, layout: lay.Layout, view: ScreenView) -> None:
    hints = view.hints
    texts = (hints.confirm, hints.next, hints.back or hints.hold_back)
    boxes = lay.split(layout.buttons, 3, layout.px(GAP_BUTTONS))
    for (name, colour), hint, box in zip(_BUTTONS, texts, boxes, strict=True):
        active = bool(hint)
        p.rounded(box, palette.PANEL, palette.PANEL_EDGE if active else None,
                  radius=layout.px(10), width=1)
        d = min(box.height - layout.px(12), layout.px(32))
        lamp = pygame.Rect(box.left + layout.px(8), 0, d, d)
        lamp.centery = box.centery
        if active:
            p.circle(lamp.center, d // 2, colour, palette.darker(colour))
        else:
            p.circle(lamp.center, d // 2, palette.PANEL, palette.FAINT)
        p.mark(f"button {name}", lamp)
        text_left = lamp.right + layout.px(8)
        text_w = box.right - text_left - layout.px(8)
        label = button_name(name)
        if name == "BACK" and hints.hold_back and hints.back:
            label = f"{label} · {hints.hold_back}"
        name_h = layout.px(18)
        name_box = pygame.Rect(text_left, box.top + layout.px(4), text_w, name_h)
        p.text(name_box, label, layout.px(20), palette.TEXT_DIM if active else palette.FAINT,
               min_size=layout.px(14))
        if active:
            hint_box = pygame.Rect(text_left, name_box.bottom, text_w,
                                   box.bottom - name_box.bottom - layout.px(3))
            p.text(hint_box, hint, layout.px(28), palette.TEXT, min_size=layout.px(18))


# ---------------------------------------------------------------- standings
def _standings(
    p: Painter,
    layout: lay.Layout,
    box: pygame.Rect,
    outcome: splendor_outcome.Outcome,
    state: Scoreboard,
) -> None:
    # Every place the points do not explain is explained, not only the first.
    why = " ".join([words.outcome_reason(outcome), *words.place_notes(outcome)])
    inner, top, space = end_panel(p, layout, box, outcome.winners, why)
    n = max(len(outcome.standings), 1)
    row_h = min(layout.px(56), space // n)
    nobles = {pl.name: pl.honours for pl in state.seats}
    for i, standing in enumerate(outcome.standings):
        row = pygame.Rect(inner.left, top + i * row_h, inner.width, row_h).inflate(0, -layout.px(4))
        won = standing.name in outcome.winners
        fill = palette.WINNER if won else palette.BACKGROUND
        ink = palette.TEXT_DARK if won else palette.TEXT
        p.rounded(row, fill, None if won else palette.PANEL_EDGE, radius=layout.px(8), width=1,
                  label="standing")
        parts = lay.columns_of(row, (9, 41, 18, 16, 16))
        size = min(layout.px(34), row.height * 0.8)
        p.text(parts[0].inflate(-layout.px(8), -layout.px(4)), words.ordinal(standing.rank), size,
               ink, align="center")
        p.text(parts[1].inflate(-layout.px(8), -layout.px(4)), standing.name, size, ink,
               min_size=layout.px(18))
        figures = (
            (words.short_points(standing.points), size),
            (words.cards(standing.cards), size * 0.8),
            (words.nobles(nobles.get(standing.name, 0)), size * 0.8),
        )
        for part, (figure, figure_size) in zip(parts[2:], figures, strict=True):
            box_ = part.inflate(-layout.px(8), -layout.px(4))
            p.text(box_, figure, figure_size, ink, min_size=layout.px(16), align="right")


# ------------------------------------------------------------------ setup
def _setup(p: Painter, layout: lay.Layout, state: Scoreboard) -> None:
    draw_market(p, layout, layout.table, state)
