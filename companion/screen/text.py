"""Fitting text into boxes: shrink first, then cut with an ellipsis.

Every string the screen draws goes through :func:`fit_line` or
:func:`fit_paragraph`, which is how "nothing is cut off or overlaps" holds
for any name and any screen size: a text never leaves the box it was given.

Design decisions:

* The main font is pygame's bundled ``freesansbold.ttf`` (``pygame.font.Font(None,
  size)``), never a system font, so the golden PNGs are the same on every
  machine.  It is bold only, which suits a screen read from a metre away.
  It has Latin, Greek and Cyrillic but no CJK: a text it cannot draw whole
  is drawn in a *fallback* face with CJK coverage, chosen once at start
  among the Debian / Raspberry Pi OS font packages (:data:`FALLBACK_FONTS`;
  ``fonts-wqy-zenhei`` is the one ``install-pi`` and CI install: 17 MB on
  disk, read by FreeType on demand, so the resident cost stays small --
  ``tests/bench/bench_fonts.py`` measures it).  A character no face covers
  (an emoji) becomes a visible placeholder (:data:`PLACEHOLDERS`), never a
  "?" that reads like a typo nor an empty box.
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

import os
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.screen.pygame_loaded import pygame

ELLIPSIS = "…"
#: Stand-ins for symbols the bundled font lacks (see :meth:`FontBook.displayable`).
SUBSTITUTES = {
    "→": "->", "←": "<-", "⇒": "=>", "✓": "ok", "✔": "ok", "✗": "x", "✘": "x",
    "★": "*", "☆": "*", "●": "·", "■": "·", "▶": ">", "◀": "<",
}
#: A private-use character no font has: what a missing glyph measures like.
_NO_GLYPH = "\uffff"
#: Fonts with CJK coverage, from Debian / Raspberry Pi OS packages, in order of
#: preference (``SPLENDOR_FALLBACK_FONT`` names another file).  WenQuanYi Zen Hei
#: first: one 17 MB file covering CJK, Latin and Cyrillic, against 40-100 MB for
#: each Noto CJK weight.
FALLBACK_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
)
#: Faces with the other scripts players' names come in (Hebrew, Arabic, Armenian,
#: Georgian...) and the ◆ placeholder: DejaVu Sans, which ``install-pi`` installs
#: (``fonts-dejavu-core``).  Without it those names were all placeholders (¤¤¤¤)
#: although the machine had a font with the letters.
SCRIPT_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
#: What stands for a character no face has: the first one a face can draw.
PLACEHOLDERS = ("◆", "¤")
#: Fitted texts kept per FontBook; a frame draws about a hundred.
CACHE_LIMIT = 4000


class FontBook:
    """Fonts by size, created once (creating a ``pygame.font.Font`` reads the file)."""

    def __init__(self, fallback: str | None = None, scripts: str | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        #: The fallback face's file (None: none installed); see :func:`find_fallback`.
        self.fallback = find_fallback() if fallback is None else (fallback or None)
        #: The face for other scripts (face 2; None: none installed): :data:`SCRIPT_FONTS`.
        self.scripts = find_script_face() if scripts is None else (scripts or None)
        #: The faces there are, in the order they are tried: 0 bundled, 1 CJK, 2 scripts.
        self.faces: tuple[int, ...] = (0, *((1,) if self.fallback else ()),
                                       *((2,) if self.scripts else ()))
        self._fonts: dict[tuple[int, int], pygame.font.Font] = {}
        self._glyphs: dict[tuple[str, int], bool] = {}
        self._lines: dict[tuple[str, int, int, int, int], tuple[int, str]] = {}
        self._paragraphs: dict[tuple[str, int, int, int, int], tuple[int, tuple[str, ...]]] = {}

    @property
    def placeholder(self) -> str:
        """The visible stand-in for a character no face covers."""
        for ch in PLACEHOLDERS:
            if any(not self._missing(ch, face) for face in self.faces):
                return ch
        return PLACEHOLDERS[-1]

    def displayable(self, text: str) -> str:
        """``text`` with what no face can draw replaced, instead of boxes.

        The bundled font covers Latin (accents included), Greek and Cyrillic
        names and the usual punctuation, but no arrows, check marks, stars or
        CJK.  A character the fallback face has (CJK, arrows) is kept: the
        text is then drawn in that face (see :meth:`face_for`).  Otherwise the
        common symbols get a text stand-in and anything else the placeholder.
        """
        if text.isascii():
            return text
        out = []
        for ch in text:
            if ch.isascii() or not self._missing(ch, 0):
                out.append(ch)
            elif ch in SUBSTITUTES:
                out.append(SUBSTITUTES[ch])
            elif any(not self._missing(ch, face) for face in self.faces[1:]):
                out.append(ch)
            else:
                out.append(self.placeholder)
        return visual_order("".join(out))

    def face_for(self, text: str) -> int:
        """The first face that draws all of ``text`` (0, the bundled one, for Latin: the
        goldens stay as they are); else the one that draws most of it."""
        if text.isascii() or len(self.faces) == 1:
            return 0
        wanted = {ch for ch in text if not ch.isascii() and not ch.isspace()}
        best, most = 0, -1
        for face in self.faces:
            drawn = sum(not self._missing(ch, face) for ch in wanted)
            if drawn == len(wanted):
                return face
            if drawn > most:
                best, most = face, drawn
        return best

    def _missing(self, ch: str, face: int) -> bool:
        known = self._glyphs.get((ch, face))
        if known is None:
            probe = self.font(40, face)
            metrics = probe.metrics(ch)[0]
            known = not ch.isspace() and (
                metrics is None or metrics == probe.metrics(_NO_GLYPH)[0]
            )
            self._glyphs[(ch, face)] = known
        return known

    def font(self, size: int, face: int = 0) -> pygame.font.Font:
        size = max(int(size), 1)
        font = self._fonts.get((size, face))
        if font is None:
            font = pygame.font.Font({0: None, 1: self.fallback, 2: self.scripts}[face], size)
            self._fonts[(size, face)] = font
        return font

    def fit_line(self, text: str, width: int, height: int, size: int, min_size: int) -> FitLine:
        """See :func:`fit_line`; cached."""
        key = (text, width, height, size, min_size)
        hit = self._lines.get(key)
        face = self.face_for(text)
        if hit is None:
            hit = _fit_line(self, text, width, height, size, min_size, face)
            if len(self._lines) >= CACHE_LIMIT:  # a companion runs for days: stay bounded
                self._lines.clear()
            self._lines[key] = hit
        return FitLine(self.font(hit[0], face), hit[0], hit[1])

    def fit_paragraph(
        self, text: str, width: int, height: int, size: int, min_size: int
    ) -> FitParagraph:
        """See :func:`fit_paragraph`; cached."""
        key = (text, width, height, size, min_size)
        hit = self._paragraphs.get(key)
        face = self.face_for(text)
        if hit is None:
            hit = _fit_paragraph(self, text, width, height, size, min_size, face)
            if len(self._paragraphs) >= CACHE_LIMIT:
                self._paragraphs.clear()
            self._paragraphs[key] = hit
        return FitParagraph(self.font(hit[0], face), hit[0], hit[1])


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
    book: FontBook, text: str, width: int, height: int, size: int, min_size: int, face: int = 0
) -> tuple[int, str]:
    min_size = min(min_size, size)
    # The largest size whose height fits the box (at least 1).
    # Rendered heights depend on the glyphs ("Hg" is taller than the font's
    # nominal height), so measure the text itself.
    probe = text or " "
    while size > 1 and book.font(size, face).size(probe)[1] > height:
        size -= 1
    if book.font(size, face).size(probe)[1] > height:
        return size, ""  # not even the smallest font fits the box
    min_size = min(min_size, size)
    if _fits(book.font(size, face), text, width, height):
        return size, text
    lo, hi = min_size, size  # binary search the largest size in [min_size, size) that fits
    if _fits(book.font(lo, face), text, width, height):
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _fits(book.font(mid, face), text, width, height):
                lo = mid
            else:
                hi = mid
        return lo, text
    return min_size, ellipsize(book.font(min_size, face), text, width)


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
    book: FontBook, text: str, width: int, height: int, size: int, min_size: int, face: int = 0
) -> tuple[int, tuple[str, ...]]:
    min_size = min(min_size, size)
    for s in range(size, min_size - 1, -1):
        font = book.font(s, face)
        lines, cut = wrap_words(font, text, width)
        if not cut and paragraph_height(font, lines) <= height:
            return s, tuple(lines)
    font = book.font(min_size, face)
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


def find_fallback(environ: dict[str, str] | None = None) -> str | None:
    """The first fallback face installed (``SPLENDOR_FALLBACK_FONT`` first), or None."""
    env = os.environ if environ is None else environ
    chosen = env.get("SPLENDOR_FALLBACK_FONT")
    for path in ((chosen,) if chosen else ()) + FALLBACK_FONTS:
        if os.path.isfile(path):
            return path
    return None


def find_script_face() -> str | None:
    """The first of :data:`SCRIPT_FONTS` installed, or None."""
    return next((path for path in SCRIPT_FONTS if os.path.isfile(path)), None)


def visual_order(text: str) -> str:
    """``text`` in the order its letters are drawn left to right: a run of Hebrew or
    Arabic letters reversed (pygame draws in memory order), and the runs reversed too
    when the text starts right to left.  A name's whole line, not the full Unicode
    bidirectional algorithm: enough for "דנה" or "مريم" to read as they are written.
    (Arabic letters stay in their isolated forms: pygame's font does no shaping.)"""
    if text.isascii():
        return text
    kinds = [unicodedata.bidirectional(ch) for ch in text]
    if not any(k in ("R", "AL") for k in kinds):
        return text
    first = next(k for k in kinds if k in ("L", "R", "AL"))
    if first == "L":  # left to right: each right-to-left run reversed in place
        return _flip_runs(text, lambda k: k in ("R", "AL", "NSM"))
    # right to left: the whole line reversed, then each left-to-right run put back
    return _flip_runs(text[::-1], lambda k: k in ("L", "EN", "AN"))


def _flip_runs(text: str, inside: Callable[[str], bool]) -> str:
    """``text`` with every run of characters whose bidirectional class is ``inside``
    (spaces between two of them included) reversed."""
    out, i = [], 0
    while i < len(text):
        if not inside(unicodedata.bidirectional(text[i])):
            out.append(text[i])
            i += 1
            continue
        j = end = i
        while j < len(text):
            kind = unicodedata.bidirectional(text[j])
            if inside(kind):
                end = j + 1
            elif kind not in ("WS", "CS", "ON"):
                break
            j += 1
        out.append(text[i:end][::-1])
        i = end
    return "".join(out)


_BOOK: FontBook | None = None


def _default_book() -> FontBook:
    global _BOOK
    if _BOOK is None:
        _BOOK = FontBook()
    return _BOOK
