"""Fitting text into boxes: shrink first, then cut with an ellipsis.

Every string the screen draws goes through :func:`fit_line` or
:func:`fit_paragraph`, which is how "nothing is cut off or overlaps" holds
for any name and any screen size: a text never leaves the box it was given.

Design decisions:

* One font: pygame's bundled ``freesansbold.ttf`` (``pygame.font.Font(None,
  size)``), never a system font, so the golden PNGs are the same on every
  machine and the Pi needs no font package.  It is bold only, which suits a
  screen read from a metre away.
* Sizes are pygame font sizes (``Font(None, 40)`` is about 27 px tall); the
  rendered height is checked against the box, never assumed.
* Shrink before cutting: a long name is first drawn smaller, down to a
  minimum size that stays legible, and only then cut with "…".  A paragraph
  is first wrapped at spaces and after hyphens, then shrunk (a size at which
  a word would have to be cut is refused), then its last line cut.
* Results are cached by (text, box, sizes): the scoreboard redraws the same
  strings every frame, and measuring text is the slow part of drawing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

ELLIPSIS = "…"
#: Stand-ins for symbols the bundled font lacks (see :meth:`FontBook.displayable`).
SUBSTITUTES = {
    "→": "->", "←": "<-", "⇒": "=>", "✓": "ok", "✔": "ok", "✗": "x", "✘": "x",
    "★": "*", "☆": "*", "●": "·", "■": "·", "▶": ">", "◀": "<",
}
#: A private-use character no font has: what a missing glyph measures like.
_NO_GLYPH = "\uffff"
#: Fitted texts kept per FontBook; a frame draws about a hundred.
CACHE_LIMIT = 4000


class FontBook:
    """Fonts by size, created once (creating a ``pygame.font.Font`` reads the file)."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._glyphs: dict[str, bool] = {}
        self._lines: dict[tuple[str, int, int, int, int], tuple[int, str]] = {}
        self._paragraphs: dict[tuple[str, int, int, int, int], tuple[int, tuple[str, ...]]] = {}

    def displayable(self, text: str) -> str:
        """``text`` with the characters the font lacks replaced, instead of boxes.

        The bundled font covers Latin (accents included), Greek and Cyrillic
        names and the usual punctuation, but no arrows, check marks, stars or
        CJK: the common symbols get a text stand-in, anything else a "?".
        """
        if text.isascii():
            return text
        out = []
        for ch in text:
            if ch.isascii():
                out.append(ch)
            elif ch in SUBSTITUTES:
                out.append(SUBSTITUTES[ch])
            else:
                out.append("?" if self._missing(ch) else ch)
        return "".join(out)

    def _missing(self, ch: str) -> bool:
        known = self._glyphs.get(ch)
        if known is None:
            probe = self.font(40)
            known = probe.metrics(ch)[0] == probe.metrics(_NO_GLYPH)[0] and not ch.isspace()
            self._glyphs[ch] = known
        return known

    def font(self, size: int) -> pygame.font.Font:
        size = max(int(size), 1)
        font = self._fonts.get(size)
        if font is None:
            font = pygame.font.Font(None, size)
            self._fonts[size] = font
        return font

    def fit_line(self, text: str, width: int, height: int, size: int, min_size: int) -> FitLine:
        """See :func:`fit_line`; cached."""
        key = (text, width, height, size, min_size)
        hit = self._lines.get(key)
        if hit is None:
            hit = _fit_line(self, text, width, height, size, min_size)
            if len(self._lines) >= CACHE_LIMIT:  # a companion runs for days: stay bounded
                self._lines.clear()
            self._lines[key] = hit
        return FitLine(self.font(hit[0]), hit[0], hit[1])

    def fit_paragraph(
        self, text: str, width: int, height: int, size: int, min_size: int
    ) -> FitParagraph:
        """See :func:`fit_paragraph`; cached."""
        key = (text, width, height, size, min_size)
        hit = self._paragraphs.get(key)
        if hit is None:
            hit = _fit_paragraph(self, text, width, height, size, min_size)
            if len(self._paragraphs) >= CACHE_LIMIT:
                self._paragraphs.clear()
            self._paragraphs[key] = hit
        return FitParagraph(self.font(hit[0]), hit[0], hit[1])


@dataclass(frozen=True)
class FitLine:
    """A line fitted to a box: the font chosen and the (possibly cut) text."""

    font: pygame.font.Font
    size: int
    text: str


@dataclass(frozen=True)
class FitParagraph:
    """A paragraph fitted to a box: the font chosen and its lines."""

    font: pygame.font.Font
    size: int
    lines: tuple[str, ...]


def ellipsize(font: pygame.font.Font, text: str, width: int) -> str:
    """``text`` cut at the end with "…" so it fits ``width``; "" if not even "…" fits."""
    if font.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits is in [lo, hi)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid].rstrip() + ELLIPSIS)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    cut = text[:lo].rstrip()
    candidate = cut + ELLIPSIS
    return candidate if font.size(candidate)[0] <= width else ""


def _fits(font: pygame.font.Font, text: str, width: int, height: int) -> bool:
    w, h = font.size(text)
    return w <= width and h <= height


def _fit_line(
    book: FontBook, text: str, width: int, height: int, size: int, min_size: int
) -> tuple[int, str]:
    min_size = min(min_size, size)
    # The largest size whose height fits the box (at least 1).
    # Rendered heights depend on the glyphs ("Hg" is taller than the font's
    # nominal height), so measure the text itself.
    probe = text or " "
    while size > 1 and book.font(size).size(probe)[1] > height:
        size -= 1
    if book.font(size).size(probe)[1] > height:
        return size, ""  # not even the smallest font fits the box
    min_size = min(min_size, size)
    if _fits(book.font(size), text, width, height):
        return size, text
    lo, hi = min_size, size  # binary search the largest size in [min_size, size) that fits
    if _fits(book.font(lo), text, width, height):
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _fits(book.font(mid), text, width, height):
                lo = mid
            else:
                hi = mid
        return lo, text
    return min_size, ellipsize(book.font(min_size), text, width)


def fit_line(text: str, width: int, height: int, size: int, min_size: int) -> FitLine:
    """Fit one line of text into ``width`` × ``height`` pixels.

    Tries ``size``, shrinks down to ``min_size``, then cuts with "…".  The box
    height also caps the size: a text never overflows its box vertically.
    """
    return _default_book().fit_line(text, width, height, size, min_size)


_WORDS = re.compile(r"[^\s-]+-+(?=\S)|\S+")


def _words(paragraph: str) -> list[str]:
    """Words, with a hyphenated word split after its hyphens ("Maximilian-", "Alexander")."""
    return _WORDS.findall(paragraph)


def _join(line: str, word: str) -> str:
    if not line:
        return word
    return line + word if line.endswith("-") else f"{line} {word}"


def wrap_words(font: pygame.font.Font, text: str, width: int) -> tuple[list[str], bool]:
    """Greedy word wrap (breaking after hyphens too); also says whether a word was cut.

    A word wider than the box is cut with "…": the caller prefers a smaller
    size that needs no cut (see :func:`fit_paragraph`).
    """
    lines: list[str] = []
    cut = False
    for paragraph in text.split("\n"):
        line = ""
        for word in _words(paragraph):
            trial = _join(line, word)
            if font.size(trial)[0] <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            if font.size(word)[0] <= width:
                line = word
            else:
                line = ellipsize(font, word, width)
                cut = True
        lines.append(line)
    return lines, cut


def wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """Greedy word wrap; a word longer than the width is cut with "…"."""
    return wrap_words(font, text, width)[0]


def line_pitch(font: pygame.font.Font, lines: Sequence[str]) -> int:
    """Distance between lines: the font's line spacing, or the tallest line if taller."""
    tallest = max((font.size(line)[1] for line in lines if line), default=0)
    return max(font.get_linesize(), tallest)


def paragraph_height(font: pygame.font.Font, lines: Sequence[str]) -> int:
    """Pixels taken by ``lines``: the line pitch between them, the last line's height."""
    if not lines:
        return 0
    tallest = max((font.size(line)[1] for line in lines if line), default=font.get_height())
    return (len(lines) - 1) * line_pitch(font, lines) + tallest


def _fit_paragraph(
    book: FontBook, text: str, width: int, height: int, size: int, min_size: int
) -> tuple[int, tuple[str, ...]]:
    min_size = min(min_size, size)
    for s in range(size, min_size - 1, -1):
        font = book.font(s)
        lines, cut = wrap_words(font, text, width)
        if not cut and paragraph_height(font, lines) <= height:
            return s, tuple(lines)
    font = book.font(min_size)
    lines = wrap(font, text, width)
    keep = 0
    while keep < len(lines) and paragraph_height(font, lines[: keep + 1]) <= height:
        keep += 1
    if keep == 0:
        return min_size, ()
    kept = lines[:keep]
    if keep < len(lines):
        kept[-1] = ellipsize(font, kept[-1] + " " + ELLIPSIS, width)
        if kept[-1].endswith(ELLIPSIS + ELLIPSIS):
            kept[-1] = kept[-1][:-1]
    # The ellipsis may be taller than what it replaced: drop lines until it fits.
    while kept and paragraph_height(font, kept) > height:
        kept.pop()
    return min_size, tuple(kept)


def fit_paragraph(text: str, width: int, height: int, size: int, min_size: int) -> FitParagraph:
    """Wrap ``text`` into ``width`` × ``height``: shrink to ``min_size``, then cut with "…"."""
    return _default_book().fit_paragraph(text, width, height, size, min_size)


_BOOK: FontBook | None = None


def _default_book() -> FontBook:
    global _BOOK
    if _BOOK is None:
        _BOOK = FontBook()
    return _BOOK
