"""The loop around the Duel referee: views and buttons in; log, screen, screenshots out.

:class:`DuelLoop` is to :class:`~companion.referee.duel.machine.DuelReferee`
what :class:`companion.referee.driver.TableLoop` is to Splendor's referee:
the only place it meets the world.  It takes table readings (a
:class:`~companion.rules.duel.view.DuelView`, or a frame and a reader) and
button events, and carries out the effects: it logs the game in the
SQLite log under the game type ``Splendor Duel`` (the record format of
:mod:`companion.rules.duel.record`, so ``review``, ``export`` and ``replay``
read it as they read any logged game), draws the screen, saves
screenshots, and prints each confirmed turn.

Motion: a recorded game has no motion frames, so :meth:`DuelLoop.show`
stands for "hands passed over the table, then it was seen still":
:class:`~companion.referee.machine.Motion` then ``agree`` identical reads.

The screen draws the Duel scoreboard the game computes
(:mod:`companion.rules.duel.scoreboard`); every redraw can be saved as a
screenshot.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.referee.driver import ShowsReferee, button_event
from companion.referee.duel.machine import DuelReferee, Effect, Event
from companion.referee.machine import (
    GameOver,
    GameStarted,
    Motion,
    Phase,
    Press,
    Screenshot,
    TableRead,
    TurnConfirmed,
    TurnUndone,
    Undo,
)
from companion.rules.duel.record import GAME_NAME, new_record
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Turn
from companion.rules.duel.view import DuelView

#: How many identical reads of a still table the loop feeds (the referee acts on 2).
STILL_READS = 3


class DuelLoop(ShowsReferee[DuelReferee]):
    """Feeds a :class:`DuelReferee` and carries out its effects.

    ``screen`` has ``draw(view) -> surface`` and ``save(path)``; ``log`` is a
    :class:`companion.record.GameLog`; ``echo`` gets one line per confirmed
    turn, undo and result.
    """

    def __init__(
        self,
        referee: DuelReferee,
        *,
        screen: Any = None,
        window: Any = None,
        log: Any = None,
        game_id: int | None = None,
        shots: Path | None = None,
        echo: Callable[[str], None] = print,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.referee = referee
        self.screen = screen
        self.window = window
        self.log = log
        self.game_id = game_id
        self.shots = shots
        self.echo = echo
        self.headers = headers or {}
        self.confirmed: list[str] = []
        #: how each confirmed turn was found (see TurnConfirmed.via)
        self.via: list[str] = []
        self.screenshots: list[Path] = []
        self.outcome: Any = None
        self.finished_game_id: int | None = None
        self._shot_count = 0
        self.redraw()

    # --------------------------------------------------------------- inputs
    def show(self, view: DuelView | None, source: object = None) -> list[Effect]:
        """Hands passed over the table, then it was seen still and read as ``view``."""
        effects = self.dispatch(Motion())
        for _ in range(STILL_READS):
            effects += self.dispatch(TableRead(view, source))
        return effects

    def press(self, event: Any) -> list[Effect]:
        """A button event from a panel (or a name: confirm, next, back, undo)."""
        mapped = button_event(event)
        return self.dispatch(mapped) if isinstance(mapped, Press | Undo) else []

    def dispatch(self, event: Event) -> list[Effect]:
        effects = self.referee.handle(event)
        for effect in effects:
            self._carry_out(effect)
        self.redraw()
        for effect in effects:
            if isinstance(effect, Screenshot):
                self.screenshot(effect.label)
        return effects

    # -------------------------------------------------------------- effects
    def _carry_out(self, effect: Effect) -> None:
        if isinstance(effect, TurnConfirmed):
            self._log_turn(effect)
            self.confirmed.append(str(effect.turn))
            self.via.append(effect.via)
            number = len(self.referee.history)
            self.echo(f"{number:3}. {effect.turn}    ({effect.before.player.name})")
        elif isinstance(effect, TurnUndone):
            game_id = self.game_id if self.game_id is not None else self.finished_game_id
            if self.log is not None and game_id is not None:
                self.log.undo_last(game_id)
                self.game_id = game_id
            if self.confirmed:
                self.confirmed.pop()
                self.via.pop()
            self.echo(f"     undone: {effect.turn}")
        elif isinstance(effect, GameStarted):
            self._start_log(effect)
        elif isinstance(effect, GameOver):
            self.outcome = effect.outcome
            if self.log is not None and self.game_id is not None:
                self.log.finish_with(self.game_id, effect.outcome)
                self.finished_game_id = self.game_id
                self.game_id = None

    def _start_log(self, effect: GameStarted[GameState]) -> None:
        if self.log is None or self.game_id is not None:
            return
        names = [p.name for p in effect.state.players]
        headers = new_record(effect.state, **self.headers).headers
        self.game_id = self.log.start_game(GAME_NAME, names, headers)

    def _log_turn(self, effect: TurnConfirmed[GameState, Turn]) -> None:
        if self.log is None:
            return
        if self.game_id is None:
            self._start_log(GameStarted(effect.before))
        thumb = effect.source if isinstance(effect.source, bytes) else None
        self.log.append_turn(
            self.game_id, str(effect.turn), effect.after.digest(), thumb, effect.confidence
        )

    @property
    def waiting_for_table(self) -> bool:
        """True when only a change of the table (not a button) moves the game on."""
        ref = self.referee
        return ref.phase in (Phase.WATCH, Phase.PROBLEM) or (
            ref.phase is Phase.SETUP and ref.setup_state is None and ref.asking is None
        )

    @property
    def finished(self) -> bool:
        return self.referee.phase is Phase.OVER
