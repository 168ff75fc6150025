"""splendor-companion: a table companion that referees physical games of
Splendor and Splendor Duel.

Packages (see ../shared/DESIGN.md): ``companion.rules`` holds the pure game
rules; ``companion.referee``, ``screen``, ``record`` and ``review`` build the
application on top of ``vision`` (pixels -> observations) and ``firmware``
(buttons, LEDs, cameras).
"""

__version__ = "0.1.0"
