"""A real window (or the Pi's full screen) that shows what :class:`Screen` drew.

Drawing and showing are apart on purpose: :class:`~companion.screen.draw.Screen`
draws off-screen and works everywhere; a :class:`Window` only blits the
finished surface, so the referee runs the same code with a display, without
one (tests, CI, a headless Pi), and when the display goes away.

* :func:`open_window` returns ``None`` instead of failing when there is no
  display (``SDL_VIDEODRIVER=dummy``/``offscreen``, no X/Wayland/KMS): the
  caller then runs headless and saves screenshots.
* Full screen opens at the display's own resolution; make the ``Screen`` at
  :attr:`Window.size` so the layout is computed for it.  A surface of another
  size is scaled to fit, keeping its proportions (letterboxed).
* :meth:`Window.events` drains pygame's event queue, which a window must do
  to stay responsive; the referee maps keys to buttons from it.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from companion.output import open_output
from companion.screen import palette
from companion.screen.pygame_loaded import pygame
from firmware.closing import Closing

HEADLESS_DRIVERS = ("dummy", "offscreen")
TITLE = "Splendor companion"


class Window(Closing):
    """A pygame display showing surfaces drawn elsewhere."""

    def __init__(
        self,
        size: tuple[int, int] = (800, 480),
        fullscreen: bool = False,
        title: str = TITLE,
    ) -> None:
        pygame.display.init()
        self.fullscreen = fullscreen
        if fullscreen:
            self.display = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            self.display = pygame.display.set_mode(size)
        pygame.display.set_caption(title)

    @property
    def size(self) -> tuple[int, int]:
        """The display's size in pixels: make the :class:`Screen` at this size."""
        w, h = self.display.get_size()
        return (w, h)

    @property
    def headless(self) -> bool:
        """True when pygame runs a driver that shows nothing (tests)."""
        return pygame.display.get_driver() in HEADLESS_DRIVERS

    def show(self, surface: pygame.Surface) -> None:
        """Blit ``surface`` (scaled to fit, centred, if its size differs) and flip."""
        if surface.get_size() == self.size:
            self.display.blit(surface, (0, 0))
        else:
            self.display.fill(palette.BACKGROUND)
            sw, sh = surface.get_size()
            dw, dh = self.size
            scale = min(dw / sw, dh / sh)
            scaled = pygame.transform.smoothscale(
                surface, (max(round(sw * scale), 1), max(round(sh * scale), 1))
            )
            self.display.blit(scaled, scaled.get_rect(center=(dw // 2, dh // 2)))
        pygame.display.flip()

    def events(self) -> list[pygame.event.Event]:
        """Every pending event (keys, quit); call it each frame."""
        return list(pygame.event.get())

    def close(self) -> None:
        pygame.display.quit()


def display_available() -> bool:
    """True when a window can be shown: a real video driver initialises."""
    if os.environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS:
        return False
    try:
        pygame.display.init()
    except pygame.error:
        return False
    driver = pygame.display.get_driver()
    if driver in HEADLESS_DRIVERS:
        pygame.display.quit()
        return False
    return True


def open_window(
    size: tuple[int, int] = (800, 480), fullscreen: bool = False, title: str = TITLE
) -> Window | None:
    """A :class:`Window` when there is a display, else ``None`` (run headless)."""
    if not display_available():
        return None
    try:
        return Window(size, fullscreen, title)
    except pygame.error:
        pygame.display.quit()
        return None


def save_screenshot(surface: pygame.Surface, path: str | Path) -> Path:
    """Save ``surface`` as a PNG, creating the folder; returns the path.

    pygame writes PNG through its SDL_image extension; a pygame built without it
    (some distributions' packages) has OpenCV encode the PNG instead, so a
    screenshot never stops a game."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with open_output(target, named=False) as out:  # atomic, the umask's mode
        if pygame.image.get_extended():
            pygame.image.save(surface, out, target.name)
        else:
            out.write(png_bytes(surface))
    return target


def png_bytes(surface: pygame.Surface) -> bytes:
    """``surface`` encoded as PNG by OpenCV (no SDL_image needed)."""
    # lazy: OpenCV loads only on a pygame without SDL_image
    import cv2

    w, h = surface.get_size()
    rgb = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(h, w, 3)
    ok, encoded = cv2.imencode(".png", np.ascontiguousarray(rgb[:, :, ::-1]))
    if not ok:
        raise pygame.error("OpenCV could not encode the screenshot as PNG")
    return encoded.tobytes()
