"""The Splendor Duel referee: table views and button events in, confirmed Duel turns out.

The one referee machine (:mod:`companion.referee.machine`) with Duel's
hooks; with :mod:`companion.referee.splendor`, the only referee package that
names its game's state class.  Duel's own pieces:

* :mod:`companion.referee.duel.compare` -- a predicted table against the read one,
  place by place (``None`` read = no evidence);
* :mod:`companion.referee.duel.candidates` -- the legal composite turns that
  explain a reading, ranked; refusals in the rules' words;
* :mod:`companion.referee.duel.entry` -- three-button menus for every part of a turn
  and for the set-up;
* :mod:`companion.referee.duel.hooks` -- :class:`DuelGame`, the hooks, and
  :class:`DuelReferee`, the machine configured with them;
* :mod:`companion.referee.duel.loop` -- :class:`DuelLoop`, the one loop with a
  recorded table's "hands passed, then still" (:meth:`DuelLoop.show`).

The operator who knows the true game, the unsure reader and the tally of a
played game are the demo harness's: :mod:`companion.demo.duel`.
"""

from companion.referee.duel.hooks import (
    DuelOver,
    DuelRead,
    DuelReferee,
    DuelStarted,
    DuelTurnConfirmed,
    DuelTurnUndone,
)
from companion.referee.duel.loop import DuelLoop

__all__ = [
    "DuelLoop",
    "DuelOver",
    "DuelRead",
    "DuelReferee",
    "DuelStarted",
    "DuelTurnConfirmed",
    "DuelTurnUndone",
]
