"""The companion's screen: the scoreboard, prompts and standings, drawn with pygame.

Two halves, so that the referee's state machine never imports pygame:

* :mod:`companion.screen.view` — :class:`ScreenView`, the immutable value the
  referee fills in (state, mode, prompt, menu, button hints); no pygame;
* :mod:`companion.screen.draw` — :class:`Screen`, which draws a view onto an
  off-screen ``pygame.Surface`` (headless under ``SDL_VIDEODRIVER=dummy``), and
  :mod:`companion.screen.window` — :class:`Window`, which shows that surface
  on a real display when there is one, and screenshots.

``Screen``, ``Window``, ``open_window`` and ``save_screenshot`` are imported
lazily from here, so ``from companion.screen import ScreenView`` stays free
of pygame.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from companion.screen.view import ButtonHints, Mode, ScreenView

if TYPE_CHECKING:
    from companion.screen.draw import Screen
    from companion.screen.window import Window, open_window, save_screenshot

__all__ = [
    "ButtonHints",
    "Mode",
    "Screen",
    "ScreenView",
    "Window",
    "open_window",
    "save_screenshot",
]

_LAZY = {
    "Screen": "companion.screen.draw",
    "Window": "companion.screen.window",
    "open_window": "companion.screen.window",
    "save_screenshot": "companion.screen.window",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'companion.screen' has no attribute {name!r}")
