"""Names in Hebrew and Arabic are drawn, an emoji is the ◆ the README promises (issue 41).

The bundled face has neither script nor ◆; the machine's DejaVu Sans (which
``install-pi`` installs) has both, but was never asked: "דנה" showed as "¤¤¤".
"""

from __future__ import annotations

import pytest

from companion.screen.text import PLACEHOLDERS, FontBook, find_script_face, visual_order

needs_dejavu = pytest.mark.skipif(find_script_face() is None,
                                  reason="no DejaVu Sans (apt install fonts-dejavu-core)")


@needs_dejavu
@pytest.mark.parametrize("name", ["דנה", "مريم", "Ann דנה כהן"])
def test_names_in_other_scripts_are_drawn_not_placeholders(name: str) -> None:
    book = FontBook(fallback="")  # no CJK face: DejaVu alone
    shown = book.displayable(name)
    assert not set(shown) & set(PLACEHOLDERS), shown
    assert sorted(shown) == sorted(name)  # the same letters, maybe in drawing order
    assert book.face_for(shown) == 2


@needs_dejavu
def test_an_emoji_is_the_diamond() -> None:
    book = FontBook(fallback="")
    assert book.placeholder == "◆"
    assert book.displayable("Bob 🎲") == "Bob ◆"


def test_latin_names_stay_in_the_bundled_face() -> None:
    book = FontBook()
    assert book.face_for(book.displayable("Zoë")) == 0


@pytest.mark.parametrize(("text", "drawn"), [
    ("דנה", "הנד"),                  # right to left: the letters reversed for drawing
    ("Ann דנה כהן", "Ann ןהכ הנד"),  # a left-to-right line keeps its words' order
    ("דנה Ann", "Ann הנד"),          # a right-to-left line puts the Latin word first
    ("דנה 2", "2 הנד"),
    ("Zoë", "Zoë"),
])
def test_right_to_left_runs_are_put_in_drawing_order(text: str, drawn: str) -> None:
    assert visual_order(text) == drawn
