"""The screen in French, and with names in any script: the layout checker still passes.

Also: a cost or a noble's requirement always carries its gem letter (never
colour alone), Chinese names are drawn (not "?"), a character no face has
is the visible placeholder, and a long name is shortened before the words
around it.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from companion.i18n import set_language
from companion.screen import Screen, ScreenView
from companion.screen.painter import Drawn, layout_problems
from companion.screen.splendor.samples import LONG_NAMES, sample_views
from companion.screen.text import PLACEHOLDERS, FontBook, find_fallback

WORLD = ("王小明", "Alexandra-Maximiliane von Hohenzollern-Sigmarn", "Bob 😀", "Zoë")
SIZES = [(800, 480), (1280, 720), (640, 480)]


@cache
def french_views(players: int, names: tuple[str, ...] = LONG_NAMES) -> dict[str, ScreenView]:
    set_language("fr")
    try:
        return sample_views(players, names)
    finally:
        set_language("en")


def draw(view: ScreenView, size: tuple[int, int] = (800, 480)) -> list[Drawn]:
    set_language("fr")  # the screen's own words (buttons, headers) are made while drawing
    try:
        screen = Screen(size)
        screen.draw(view)
        return list(screen.drawn)
    finally:
        set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_french_screens_fit_with_long_names(players: int, size: tuple[int, int]) -> None:
    for kind, view in french_views(players).items():
        drawn = draw(view, size)
        assert layout_problems(drawn, size) == [], (players, kind)
        texts = " ".join(d.label for d in drawn if d.kind == "text")
        assert "VALIDER" in texts or "RETOUR" in texts or "SUIVANT" in texts, kind


def test_world_names_fit_and_are_drawn() -> None:
    for kind, view in french_views(4, WORLD).items():
        assert layout_problems(draw(view), (800, 480)) == [], kind


def test_costs_and_requirements_carry_their_gem_letter() -> None:
    view = sample_views(4)["setup"]
    drawn = Screen((800, 480))
    drawn.draw(view)
    chips = [d for d in drawn.drawn if d.kind == "text" and re.fullmatch(r"\d[WUGRK]", d.label)]
    state = view.state
    assert state is not None
    costs = sum(
        sum(1 for n in card.cost.counts if n) for row in state.market for card in row if card
    )
    needs = sum(sum(1 for n in noble.requirement.counts if n) for noble in state.nobles)
    assert len(chips) == costs + needs  # every cost and requirement says its letter


@pytest.mark.skipif(find_fallback() is None, reason="no CJK font (apt install fonts-wqy-zenhei)")
def test_chinese_is_drawn_and_an_uncovered_character_is_a_visible_placeholder() -> None:
    book = FontBook()
    assert book.displayable("王小明") == "王小明" and book.face_for("王小明") == 1
    assert book.displayable("Bob 😀") == f"Bob {book.placeholder}"
    assert book.placeholder == PLACEHOLDERS[0]
    assert book.face_for("Zoë") == 0  # Latin stays in the bundled face (goldens unchanged)
    screen = Screen((800, 480))
    screen.draw(sample_views(4, WORLD)["waiting"])
    labels = [d.label for d in screen.drawn if d.kind == "text"]
    assert "王小明" in labels and "?" not in "".join(labels)


def test_without_a_fallback_face_the_placeholder_is_still_visible() -> None:
    book = FontBook(fallback="", scripts="")
    shown = book.displayable("王 😀")
    assert "?" not in shown and shown == f"{PLACEHOLDERS[-1]} {PLACEHOLDERS[-1]}"


def test_a_long_name_is_shortened_and_the_title_keeps_its_words() -> None:
    view = sample_views(4, WORLD)["final_round"]
    state = view.state
    assert state is not None and state.player.name == WORLD[1]
    for lang, tail in (("en", "to play"), ("fr", "de jouer")):
        set_language(lang)
        try:
            screen = Screen((800, 480))
            screen.draw(view)
        finally:
            set_language("en")
        title = next(d.label for d in screen.drawn if d.label.startswith(("Round", "Tour")))
        assert title.endswith(tail) and "…" in title, title
