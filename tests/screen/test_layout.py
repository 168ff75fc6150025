"""Nothing drawn is cut off or overlaps: checked on every recorded text and shape.

Every sample screen (setup, waiting, proposals, error, the four menus, the
final round, the end standings) for 2, 3 and 4 players with long names, at
the official 800×480 and at other sizes, goes through ``layout_problems``,
which checks the rectangle of every text and shape the painter drew.
"""

from __future__ import annotations

import itertools
import re
from functools import cache

import pygame
import pytest

from companion.screen import Screen, ScreenView
from companion.screen import layout as lay
from companion.screen.painter import Drawn, Painter, layout_problems
from companion.screen.splendor.samples import LONG_NAMES, sample_views
from companion.screen.text import ELLIPSIS, FontBook
from companion.screen.view import Mode

SIZES = [(800, 480), (1024, 600), (1280, 720), (1920, 1080), (800, 600), (640, 480)]


@cache
def views(players: int) -> dict[str, ScreenView]:
    return sample_views(players)


@cache
def screen(size: tuple[int, int]) -> Screen:
    return Screen(size)


def draw(view: ScreenView, size: tuple[int, int] = (800, 480)) -> list[Drawn]:
    s = screen(size)
    s.draw(view)
    return list(s.drawn)


KIND_NAMES = sorted(views(4))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", KIND_NAMES)
def test_nothing_cut_off_or_overlapping_at_800x480(players, kind):
    drawn = draw(views(players)[kind])
    assert drawn, "nothing was drawn"
    assert layout_problems(drawn, (800, 480)) == []


@pytest.mark.parametrize("size", SIZES[1:], ids=lambda s: f"{s[0]}x{s[1]}")
def test_nothing_cut_off_or_overlapping_at_other_sizes(size):
    for players in (2, 4):
        for kind, view in views(players).items():
            problems = layout_problems(draw(view, size), size)
            assert problems == [], f"{players} players, {kind}: {problems[:3]}"


def test_checker_finds_overlaps_and_cut_offs():
    """The checker itself: plant each kind of fault and see it reported."""
    surface = pygame.Surface((200, 100))
    p = Painter(surface, FontBook())
    p.text(pygame.Rect(10, 10, 100, 30), "Ann", 30)
    p.text(pygame.Rect(20, 15, 100, 30), "Bob", 30)  # over Ann
    p.rounded(pygame.Rect(120, 50, 40, 40), (1, 2, 3), label="a")
    p.rounded(pygame.Rect(140, 70, 40, 40), (1, 2, 3), label="b")  # half over a
    p.mark("off", pygame.Rect(190, 90, 20, 20))  # leaves the surface
    problems = layout_problems(p.drawn, (200, 100))
    assert any("texts 'Ann'" in x and "'Bob'" in x for x in problems)
    assert any("shapes 'a'" in x and "'b'" in x for x in problems)
    assert any("'off'" in x and "cut off" in x for x in problems)
    nested = Painter(surface, FontBook())
    nested.rounded(pygame.Rect(10, 10, 80, 80), (1, 2, 3), label="card")
    nested.rounded(pygame.Rect(20, 20, 20, 20), (1, 2, 3), label="chip")
    nested.text(pygame.Rect(22, 22, 16, 16), "3", 20)
    assert layout_problems(nested.drawn, (200, 100)) == []


def _texts(drawn: list[Drawn]) -> list[str]:
    return [d.label for d in drawn if d.kind == "text"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_name_is_shown_whole_or_recognisably(players):
    view = views(players)["waiting"]
    texts = _texts(draw(view))
    joined = " ".join(texts)
    for name in LONG_NAMES[:players]:
        # Whole (perhaps wrapped after its hyphen), or cut with "…" after a readable part.
        parts = name.replace("-", "- ").split()
        whole = all(part in texts for part in parts) or name in texts
        cut = any(t.endswith(ELLIPSIS) and name.startswith(t[:-1]) and len(t) > 6 for t in texts)
        assert whole or cut, f"{name!r} not found in {joined!r}"


def test_text_stays_legible_at_800x480():
    """From a metre away: labels no smaller than 16, what matters larger.

    Font sizes are pygame's (size 20 is about 13 px, 2.5 mm on the 7" panel);
    the prompt, the names and the button hints are the text a player must
    read from their seat.
    """
    for players in (2, 3, 4):
        for kind, view in views(players).items():
            drawn = draw(view)
            texts = [d for d in drawn if d.kind == "text"]
            assert min(d.size for d in texts) >= 16, kind
            if view.text and view.mode is not Mode.END:
                first_word = view.text.split()[0]
                # a cost chip ("4R") is a shape's label, not the prompt's text
                body = [d for d in texts if d.label.startswith(first_word)
                        and not re.fullmatch(r"\d+[A-Z]", d.label)]
                assert body and min(d.size for d in body) >= 20, kind
    view = views(4)["waiting"]
    assert view.state is not None
    drawn = draw(view)
    names = [d for d in drawn if d.kind == "text" and d.label.startswith(("Bob", "Dmitri"))]
    assert names and min(d.size for d in names) >= 26
    points = [d for d in drawn if d.kind == "text" and d.label == str(view.state.players[1].points)]
    assert points and max(d.rect.height for d in points) >= 28
    hints = [d for d in drawn if d.kind == "text" and d.label == view.hints.next]
    assert hints and hints[0].size >= 24


def test_layout_scales_with_the_size():
    small = lay.compute((800, 480), 4, banner=True)
    large = lay.compute((1600, 960), 4, banner=True)
    pairs = [
        (small.top, large.top),
        (small.prompt, large.prompt),
        (small.buttons, large.buttons),
        *zip(small.rows, large.rows, strict=True),
    ]
    for a, b in pairs:
        assert abs(b.width - 2 * a.width) <= 2 and abs(b.height - 2 * a.height) <= 2
    wide = lay.compute((1280, 480), 4, banner=False)
    assert wide.prompt.width > small.prompt.width  # extra width goes to the columns
    assert wide.top.height == small.top.height


def test_regions_stack_without_overlap():
    for players in (2, 3, 4):
        for banner in (False, True):
            layout = lay.compute((800, 480), players, banner)
            strip = [layout.banner] if layout.banner else []
            stack = [
                layout.top, *strip, layout.header, *layout.rows, layout.prompt, layout.buttons
            ]
            for upper, lower in itertools.pairwise(stack):
                assert upper.bottom <= lower.top
            assert layout.buttons.bottom <= 480
            assert layout.prompt.height >= lay.PROMPT_MIN_WITH_BANNER


def test_choice_menu_keeps_the_movers_row_only():
    view = views(4)["return_tokens"]
    assert view.mode is Mode.CHOICE and view.state is not None
    texts = _texts(draw(view))
    mover = view.state.player.name
    others = [p.name.split("-")[0] for p in view.state.players if p.name != mover]
    assert mover in texts
    assert not [t for t in texts if t.startswith(tuple(others))]


ODD_NAMES = (
    "Supercalifragilisticexpialidocious-Smith",
    "Anna Maria de la Cruz y Fernández",
    "W",
    "Дмитрий Александрович",
)


@pytest.mark.parametrize("players", [2, 4])
def test_pathological_names_still_fit_and_show_a_readable_start(players):
    odd = sample_views(players, ODD_NAMES)
    for kind in ("waiting", "final_round", "end", "return_tokens"):
        drawn = draw(odd[kind])
        assert layout_problems(drawn, (800, 480)) == [], kind
    texts = _texts(draw(odd["waiting"]))
    for name in ODD_NAMES[:players]:
        first = name.split()[0].split("-")[0]
        assert any(t.startswith(first[:5]) for t in texts), (name, texts)
