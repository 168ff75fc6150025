"""The loop around the Duel referee: views and buttons in; log, screen, screenshots out.

:class:`DuelLoop` is :class:`companion.referee.driver.TableLoop` -- the one
loop, written for any game's referee -- fed with Duel's referee: it logs the
game in the SQLite log under the game type ``Splendor Duel`` (the record
format of :mod:`companion.rules.duel.record`, so ``review``, ``export`` and
``replay`` read it as they read any logged game), draws the screen, saves
screenshots, and prints each confirmed turn.

What it adds is for recorded games, which have no motion frames:
:meth:`DuelLoop.show` stands for "hands passed over the table, then it was
seen still": :class:`~companion.referee.machine.Motion` then ``agree``
identical reads.

The screen draws the Duel scoreboard the game computes
(:mod:`companion.rules.duel.scoreboard`); every redraw can be saved as a
screenshot.

The loop keeps a game's result as the engine contract's ``Outcome`` (it is
written once for both games); :func:`outcome_of` gives it back as Duel's,
with its one winner and the victory condition met.
"""

from __future__ import annotations

from companion.referee.driver import TableLoop
from companion.referee.duel.candidates import Candidate
from companion.referee.duel.compare import Quirks
from companion.referee.duel.hooks import Effect, Reading
from companion.referee.machine import Motion, TableRead
from companion.rules.duel.outcome import Outcome
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Turn

#: How many identical reads of a still table the loop feeds (the referee acts on 2).
STILL_READS = 3


class DuelLoop(TableLoop[GameState, Turn, Reading, Candidate, Quirks]):
    """Feeds a :class:`~companion.referee.duel.hooks.DuelReferee` and carries
    out its effects (see :class:`~companion.referee.driver.TableLoop`)."""

    def show(self, view: Reading, source: object = None) -> list[Effect]:
        """Hands passed over the table, then it was seen still and read as ``view``."""
        effects = self.dispatch(Motion())
        for _ in range(STILL_READS):
            effects += self.dispatch(TableRead(view, source))
        return effects


def outcome_of(loop: DuelLoop) -> Outcome | None:
    """The result of the loop's last game, as Duel's ``Outcome`` (None: not over)."""
    outcome = loop.outcome
    # a Duel referee's states end their games with Duel's outcome
    assert outcome is None or isinstance(outcome, Outcome), outcome
    return outcome
