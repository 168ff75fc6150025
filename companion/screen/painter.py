"""Drawing primitives that remember what they drew.

A :class:`Painter` wraps the target surface and the :class:`FontBook`; every
text and every shape goes through it, and it records the rectangle each one
took.  The records are how the tests prove the layout requirement ("nothing
drawn is cut off or overlaps") for any view and any size, instead of trusting
eyes on a few screenshots: texts must lie inside their boxes and the surface
and never overlap each other; shapes (chips, tiles) must not overlap each
other; a text may sit on a shape only when its box lies inside that shape
(the count written on a token).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules.gems import Gem
from companion.screen import palette
from companion.screen.palette import Colour
from companion.screen.pygame_loaded import pygame
from companion.screen.text import ELLIPSIS, FontBook, line_pitch, paragraph_height


@dataclass(frozen=True)
class Drawn:
    """One thing drawn: a text (with the box it had to fit and its font size) or a shape."""

    kind: str  # "text" or "shape"
    label: str
    rect: pygame.Rect
    box: pygame.Rect
    size: int = 0


def layout_problems(drawn: list[Drawn], size: tuple[int, int]) -> list[str]:
    """Everything that breaks "nothing is cut off or overlaps", in words; [] when none.

    * a text or shape reaching outside the surface (cut off);
    * a text outside the box it was fitted to;
    * two texts overlapping;
    * two shapes overlapping unless one holds the other (a chip on a card);
    * a text over a shape unless the shape holds it (the count on a token).
    """
    screen = pygame.Rect((0, 0), size)
    problems = []
    texts = [d for d in drawn if d.kind == "text"]
    shapes = [d for d in drawn if d.kind == "shape"]
    for d in drawn:
        if not screen.contains(d.rect):
            problems.append(f"{d.kind} {d.label!r} at {d.rect} is cut off by the screen {size}")
    for t in texts:
        if not t.box.contains(t.rect):
            problems.append(f"text {t.label!r} at {t.rect} leaves its box {t.box}")
    # Rect.collidelistall runs in C: the check stays cheap for hundreds of items.
    text_rects = [t.rect for t in texts]
    shape_rects = [s.rect for s in shapes]
    for i, a in enumerate(texts):
        for j in a.rect.collidelistall(text_rects[i + 1 :]):
            b = texts[i + 1 + j]
            problems.append(f"texts {a.label!r} {a.rect} and {b.label!r} {b.rect} overlap")
    for i, a in enumerate(shapes):
        for j in a.rect.collidelistall(shape_rects[i + 1 :]):
            b = shapes[i + 1 + j]
            if not (a.rect.contains(b.rect) or b.rect.contains(a.rect)):
                problems.append(f"shapes {a.label!r} {a.rect} and {b.label!r} {b.rect} overlap")
    for t in texts:
        for j in t.rect.collidelistall(shape_rects):
            s = shapes[j]
            if not s.rect.contains(t.rect):
                problems.append(f"text {t.label!r} {t.rect} runs over shape {s.label!r} {s.rect}")
    return problems


class Painter:
    """Draws onto ``surface`` and records every text and shape."""

    def __init__(self, surface: pygame.Surface, fonts: FontBook) -> None:
        self.surface = surface
        self.fonts = fonts
        self.drawn: list[Drawn] = []

    # ------------------------------------------------------------------ text
    def text(
        self,
        box: pygame.Rect,
        text: str,
        size: float,
        colour: Colour = palette.TEXT,
        min_size: float | None = None,
        align: str = "left",
    ) -> pygame.Rect:
        """One line fitted into ``box`` (shrunk, then cut with "…"), centred vertically."""
        size_i = max(int(size), 1)
        min_i = max(int(min_size if min_size is not None else size * 0.6), 1)
        text = self.fonts.displayable(text)
        fit = self.fonts.fit_line(text, box.width, box.height, size_i, min_i)
        if not fit.text:
            return pygame.Rect(box.x, box.y, 0, 0)
        image = fit.font.render(fit.text, True, colour)
        rect = image.get_rect()
        rect.centery = box.centery
        if align == "center":
            rect.centerx = box.centerx
        elif align == "right":
            rect.right = box.right
        else:
            rect.left = box.left
        rect.clamp_ip(box)
        self.surface.blit(image, rect)
        self.drawn.append(Drawn("text", fit.text, rect, pygame.Rect(box), fit.size))
        return rect

    def text_named(
        self,
        box: pygame.Rect,
        text: str,
        names: Mapping[str, str] | Sequence[str],
        size: float,
        colour: Colour = palette.TEXT,
        min_size: float | None = None,
        align: str = "left",
    ) -> pygame.Rect:
        """:meth:`text`, but when ``text`` cannot fit whole, its names are shortened first.

        A 46-character name must not push "to play" out of "Round 3 · … to
        play": the names (values of ``names``) are cut with "…" to the
        longest length at which the whole line fits at ``min_size``; only if
        no length does is the line cut at its end as usual.
        """
        size_i = max(int(size), 1)
        min_i = max(int(min_size if min_size is not None else size * 0.6), 1)
        shown = self.fonts.displayable(text)
        fit = self.fonts.fit_line(shown, box.width, box.height, size_i, min_i)
        people = sorted({n for n in (names.values() if isinstance(names, Mapping) else names)
                         if n and n in text}, key=len, reverse=True)
        if fit.text == shown or not people:
            return self.text(box, text, size, colour, min_size, align)

        def shortened(keep: int) -> str:
            out = text
            for name in people:
                if len(name) > keep:
                    out = out.replace(name, name[:keep].rstrip() + ELLIPSIS)
            return out

        def fits(candidate: str) -> bool:
            shown = self.fonts.displayable(candidate)
            return self.fonts.fit_line(shown, box.width, box.height, size_i, min_i).text == shown

        lo, hi = 1, len(people[0]) - 1  # the longest kept length that fits is in [lo, hi]
        if not fits(shortened(lo)):
            return self.text(box, text, size, colour, min_size, align)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(shortened(mid)):
                lo = mid
            else:
                hi = mid - 1
        return self.text(box, shortened(lo), size, colour, min_size, align)

    def text_with_names(
        self,
        box: pygame.Rect,
        template: str,
        names: Mapping[str, str],
        size: float,
        colour: Colour = palette.TEXT,
        min_size: float | None = None,
        align: str = "left",
    ) -> pygame.Rect:
        """``template`` with ``{key}`` filled from ``names``, drawn by :meth:`text_named`."""
        text = template
        for key, name in names.items():
            text = text.replace("{" + key + "}", name)
        return self.text_named(box, text, names, size, colour, min_size, align)

    def paragraph(
        self,
        box: pygame.Rect,
        text: str,
        size: float,
        colour: Colour = palette.TEXT,
        min_size: float | None = None,
        align: str = "left",
        valign: str = "top",
    ) -> pygame.Rect:
        """Word-wrapped text fitted into ``box`` (from its top, or centred); returns the area."""
        size_i = max(int(size), 1)
        min_i = max(int(min_size if min_size is not None else size * 0.6), 1)
        text = self.fonts.displayable(text)
        fit = self.fonts.fit_paragraph(text, box.width, box.height, size_i, min_i)
        y = box.top
        if valign == "center":
            y += (box.height - paragraph_height(fit.font, fit.lines)) // 2
        used = pygame.Rect(box.x, y, box.width, 0)
        pitch = line_pitch(fit.font, fit.lines)
        for line in fit.lines:
            if not line:
                y += pitch
                continue
            image = fit.font.render(line, True, colour)
            rect = image.get_rect(top=y)
            if align == "center":
                rect.centerx = box.centerx
            else:
                rect.left = box.left
            self.surface.blit(image, rect)
            self.drawn.append(Drawn("text", line, rect, pygame.Rect(box), fit.size))
            y += pitch
        used.height = paragraph_height(fit.font, fit.lines)
        return used

    # ---------------------------------------------------------------- shapes
    def mark(self, label: str, rect: pygame.Rect) -> None:
        """Record a shape drawn directly (a circle, a crown) for the layout checks."""
        self.drawn.append(Drawn("shape", label, pygame.Rect(rect), pygame.Rect(rect)))

    def rounded(
        self,
        rect: pygame.Rect,
        fill: Colour,
        edge: Colour | None = None,
        radius: int = 6,
        width: int = 2,
        label: str = "",
    ) -> None:
        """A rounded rectangle; recorded as a shape when it has a ``label``."""
        pygame.draw.rect(self.surface, fill, rect, border_radius=radius)
        if edge is not None:
            pygame.draw.rect(self.surface, edge, rect, width=max(width, 1), border_radius=radius)
        if label:
            self.mark(label, rect)

    def circle(self, center: tuple[int, int], radius: int, fill: Colour, edge: Colour) -> None:
        x, y = center
        pygame.gfxdraw.filled_circle(self.surface, x, y, radius, fill)
        pygame.gfxdraw.aacircle(self.surface, x, y, radius, edge)
        if radius > 10:
            pygame.gfxdraw.aacircle(self.surface, x, y, radius - 1, edge)

    def polygon(self, points: list[tuple[float, float]], fill: Colour) -> None:
        pts = [(round(x), round(y)) for x, y in points]
        pygame.gfxdraw.filled_polygon(self.surface, pts, fill)
        pygame.gfxdraw.aapolygon(self.surface, pts, fill)

    def star(self, center: tuple[float, float], radius: float, fill: Colour) -> None:
        """A five-pointed star: gold's sign, since the font has no ★ glyph."""
        cx, cy = center
        points = []
        for i in range(10):
            r = radius if i % 2 == 0 else radius * 0.45
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
        self.polygon(points, fill)

    def triangle_right(self, rect: pygame.Rect, fill: Colour) -> None:
        """A ▶ marker (the current player, the highlighted menu item)."""
        self.polygon(
            [(rect.left, rect.top), (rect.right, rect.centery), (rect.left, rect.bottom)], fill
        )
        self.mark("marker", rect)

    def crown(self, rect: pygame.Rect, fill: Colour) -> None:
        """A small crown: the nobles' sign and the winner's."""
        x, y, w, h = rect.x, rect.y, rect.width, rect.height
        self.polygon(
            [
                (x, y + h),
                (x, y + h * 0.25),
                (x + w * 0.27, y + h * 0.6),
                (x + w * 0.5, y),
                (x + w * 0.73, y + h * 0.6),
                (x + w, y + h * 0.25),
                (x + w, y + h),
            ],
            fill,
        )

    # ----------------------------------------------------------- gem glyphs
    def gem_chip(
        self,
        rect: pygame.Rect,
        gem: Gem,
        count: int | None,
        square: bool = False,
        faint: bool = False,
        letter: bool = False,
    ) -> None:
        """A token (circle) or a card bonus (rounded square) of ``gem``.

        ``count`` is written inside; ``None`` writes the gem's letter (the
        header), and gold's letter is a drawn star.  ``faint`` draws an empty
        outline: the player has none (no "0" to read past).  ``letter``
        writes the gem's letter after the count ("3W") on a pill-shaped chip
        as wide as ``rect``: a cost or a noble's requirement is then read
        without telling colours apart.
        """
        colour, edge = palette.GEM[gem], palette.GEM_EDGE[gem]
        label = f"{'card' if square else 'token'} {gem.letter}"
        if faint:  # an outline only, whatever the background (the mover's row is lighter)
            if square:
                pygame.draw.rect(
                    self.surface, palette.FAINT, rect, width=max(rect.width // 16, 1),
                    border_radius=max(rect.width // 6, 2),
                )
            else:
                x, y = rect.center
                for r in range(rect.width // 2, rect.width // 2 - max(rect.width // 16, 1), -1):
                    pygame.gfxdraw.aacircle(self.surface, x, y, r, palette.FAINT)
            self.mark(label, rect)
            return
        if letter:
            radius = max(rect.height // 2 if not square else rect.height // 6, 2)
            self.rounded(rect, colour, edge, radius=radius, label=label)
            inner = rect.inflate(-max(rect.height // 4, 2), -max(rect.height // 6, 2))
            text = f"{count}{gem.letter.upper()}" if count is not None else gem.letter.upper()
            self.text(inner, text, rect.height * 1.05, palette.ink_on(gem), align="center",
                      min_size=rect.height * 0.5)
            return
        if square:
            self.rounded(rect, colour, edge, radius=max(rect.width // 6, 2), label=label)
        else:
            self.circle(rect.center, rect.width // 2, colour, edge)
            self.mark(label, rect)
        inner = rect.inflate(-rect.width // 5, -rect.height // 5)
        if count is None and gem is Gem.GOLD:
            self.star(rect.center, rect.width * 0.36, palette.TEXT_DARK)
            return
        text = gem.letter.upper() if count is None else str(count)
        self.text(inner, text, rect.height * 1.05, palette.ink_on(gem), align="center")
