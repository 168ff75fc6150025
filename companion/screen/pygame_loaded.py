"""pygame, imported whole before a stop request can land inside its import.

Every screen module takes pygame from here (``from companion.screen.pygame_loaded
import pygame``), so the first import in a process is this one.  WHY: pygame's
``image`` module clears any error its import of ``imageext`` raised, so a SIGTERM
or Ctrl-C that arrived in that moment was swallowed: the command went on, and
its first screenshot failed with "saving images of extended format is not
available" (seen in a CI run under load; reproduced by raising SIGTERM at each
step of ``import pygame``).  :func:`companion.processes.signals_held` holds the
signal until the import is over, and then it stops the command as it should.
"""

from __future__ import annotations

from companion.processes import signals_held

with signals_held():
    import pygame as pygame
    import pygame.gfxdraw as gfxdraw

__all__ = ["gfxdraw", "pygame"]
