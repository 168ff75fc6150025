"""The loop around the Splendor referee, by name.

Splendor's loop is :class:`companion.referee.driver.TableLoop` itself, fed
with :class:`~companion.referee.splendor.game.SplendorReferee`; Duel adds a
method for recorded tables and so has its own subclass
(:class:`companion.referee.duel.loop.DuelLoop`).  :data:`SplendorLoop` names
the loop with Splendor's types, so that ``run``, the demo and its operator
see the referee, the turns and the readings as Splendor's.
"""

from __future__ import annotations

from companion.referee.driver import TableLoop
from companion.referee.splendor.explain import Candidate
from companion.referee.splendor.game import Quirks
from companion.referee.splendor.reading import TableReading
from companion.rules.actions import Turn
from companion.rules.state import GameState

#: The one loop, holding a Splendor referee.
SplendorLoop = TableLoop[GameState, Turn, TableReading, Candidate, Quirks]

__all__ = ["SplendorLoop"]
