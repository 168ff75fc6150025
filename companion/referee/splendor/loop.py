"""The loop around the Splendor referee, by name.

Splendor's loop is :class:`companion.referee.driver.TableLoop` itself, fed
with :class:`~companion.referee.splendor.hooks.SplendorReferee`; Duel adds a
method for recorded tables and so has its own subclass
(:class:`companion.referee.duel.loop.DuelLoop`).  :data:`SplendorLoop` names
the loop with Splendor's types, so that ``run``, the demo and its operator
see the referee, the turns and the readings as Splendor's.

The loop keeps a game's result as the engine contract's ``Outcome`` (it is
written once for both games); :func:`outcome_of` gives it back as
Splendor's, whose standings and tie-breaks the Splendor commands print.
"""

from __future__ import annotations

from companion.referee.driver import TableLoop
from companion.referee.splendor.candidates import Candidate
from companion.referee.splendor.hooks import Quirks
from companion.referee.splendor.reading import TableReading
from companion.rules.splendor.actions import Turn
from companion.rules.splendor.outcome import Outcome
from companion.rules.splendor.state import GameState

#: The one loop, holding a Splendor referee.
SplendorLoop = TableLoop[GameState, Turn, TableReading, Candidate, Quirks]


def outcome_of(loop: SplendorLoop) -> Outcome | None:
    """The result of the loop's last game, as Splendor's ``Outcome`` (None: not over)."""
    outcome = loop.outcome
    # a Splendor referee's states end their games with Splendor's outcome
    assert outcome is None or isinstance(outcome, Outcome), outcome
    return outcome


__all__ = ["SplendorLoop", "outcome_of"]
