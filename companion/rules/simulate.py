"""Splendor's seeded self-play, now :mod:`companion.rules.splendor.simulate`.

Kept, as a re-export of what vision/ reads, until vision's import lines move
(the learned reader is work in progress there); tests/test_shape.py lists
this module as pending.  Import the new path in new code.
"""

from companion.rules.splendor.simulate import play_game as play_game
