"""The Splendor Duel referee: table views and button events in, confirmed Duel turns out.

Beside the Splendor referee (:mod:`companion.referee`), reusing its buttons,
phases, effects and menus, with Duel's own pieces:

* :mod:`companion.referee.duel.compare` -- a predicted table against the read one,
  place by place (``None`` read = no evidence);
* :mod:`companion.referee.duel.candidates` -- the legal composite turns that
  explain a reading, ranked; refusals in the rules' words;
* :mod:`companion.referee.duel.entry` -- three-button menus for every part of a turn
  and for the set-up;
* :mod:`companion.referee.duel.machine` -- :class:`DuelReferee`, the pure state machine;
* :mod:`companion.referee.duel.loop` -- :class:`DuelLoop`: log, screen, screenshots;
* :mod:`companion.referee.duel.demo` -- the operator who knows the true game, the
  unsure reader, the tally of a played game.
"""

from companion.referee.duel.loop import DuelLoop
from companion.referee.duel.machine import (
    DuelOver,
    DuelRead,
    DuelReferee,
    DuelStarted,
    DuelTurnConfirmed,
    DuelTurnUndone,
)

__all__ = [
    "DuelLoop",
    "DuelOver",
    "DuelRead",
    "DuelReferee",
    "DuelStarted",
    "DuelTurnConfirmed",
    "DuelTurnUndone",
]
