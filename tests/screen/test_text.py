"""Fitting text into boxes: shrink, then cut with "…"; never outside the box."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.screen.text import ELLIPSIS, FontBook, ellipsize, paragraph_height, wrap_words


@pytest.fixture(scope="module")
def book() -> FontBook:
    pygame.font.init()
    return FontBook()


def test_short_text_keeps_its_size_and_words(book):
    fit = book.fit_line("Bob", 300, 40, 40, 20)
    assert (fit.size, fit.text) == (40, "Bob")


def test_long_text_shrinks_before_it_is_cut(book):
    name = "Maximilian-Alexander"
    full = book.font(40).size(name)[0]
    fit = book.fit_line(name, full - 20, 40, 40, 20)
    assert fit.text == name
    assert fit.size < 40
    assert fit.font.size(name)[0] <= full - 20


def test_text_too_long_even_at_min_size_is_cut_with_ellipsis(book):
    name = "Maximilian-Alexander"
    fit = book.fit_line(name, 80, 40, 40, 20)
    assert fit.size == 20
    assert fit.text.endswith(ELLIPSIS)
    assert name.startswith(fit.text[:-1])
    assert fit.font.size(fit.text)[0] <= 80


def test_box_height_caps_the_size(book):
    fit = book.fit_line("Bob", 300, 15, 60, 10)
    assert fit.font.size(fit.text)[1] <= 15


def test_ellipsize_gives_nothing_when_not_even_the_ellipsis_fits(book):
    font = book.font(30)
    assert ellipsize(font, "Catherine", 2) == ""
    assert ellipsize(font, "Bob", 500) == "Bob"


def test_wrap_breaks_after_hyphens_and_reports_cut_words(book):
    font = book.font(30)
    width = font.size("Maximilian-")[0] + 2
    lines, cut = wrap_words(font, "Maximilian-Alexander", width)
    assert lines == ["Maximilian-", "Alexander"]
    assert not cut
    lines, cut = wrap_words(font, "Supercalifragilistic", 40)
    assert cut and lines[0].endswith(ELLIPSIS)


def test_paragraph_prefers_shrinking_to_cutting_a_word(book):
    text = "Catherine-Elisabeth takes 1 white, 1 blue and 1 green"
    fit = book.fit_paragraph(text, 200, 200, 40, 12)
    assert all(not line.endswith(ELLIPSIS) for line in fit.lines)
    rejoined = "".join(line if line.endswith("-") else line + " " for line in fit.lines)
    assert rejoined.strip() == text


def test_paragraph_that_cannot_fit_ends_with_ellipsis(book):
    text = " ".join(["Bob took 2 red but only 3 red were in the supply."] * 6)
    fit = book.fit_paragraph(text, 300, 60, 30, 20)
    assert fit.size == 20
    assert fit.lines and fit.lines[-1].endswith(ELLIPSIS)
    assert paragraph_height(fit.font, fit.lines) <= 60


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(
        alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ -·…0123456789"),
        max_size=80,
    ),
    width=st.integers(1, 500),
    height=st.integers(1, 120),
    size=st.integers(8, 60),
)
def test_fitted_text_never_leaves_its_box(book, text, width, height, size):
    line = book.fit_line(text, width, height, size, max(size // 2, 1))
    if line.text:
        w, h = line.font.size(line.text)
        assert w <= width and h <= height
    para = book.fit_paragraph(text, width, height, size, max(size // 2, 1))
    for row in para.lines:
        assert para.font.size(row)[0] <= width
        assert para.font.size(row)[1] <= height
    assert paragraph_height(para.font, para.lines) <= height


def test_symbols_the_font_lacks_are_replaced_not_drawn_as_boxes(book):
    assert book.displayable("Bob → 15 ★ ✓") == "Bob -> 15 * ok"
    assert book.displayable("José, Zoë, Łukasz, Дмитрий") == "José, Zoë, Łukasz, Дмитрий"
    # no face covers it: a visible placeholder, never a "?" that reads like a typo
    bare = FontBook(fallback="")
    assert bare.displayable("王") == bare.placeholder != "?"
    assert book.displayable("plain ascii") == "plain ascii"
