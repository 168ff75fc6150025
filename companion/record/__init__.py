"""The game log: a crash-safe SQLite record of every confirmed turn.

How the companion uses it (the referee's turn loop)::

    from companion.record import GameLog, setup_headers, make_thumbnail

    log = GameLog.open(args.db, lock=True)   # None: $XDG_DATA_HOME/...; lock: one writer
    if log.notice:                           # a damaged/foreign file was set aside
        show(log.notice)
    waiting = log.unfinished()               # offer the most recent for resuming
    if waiting and players_say_yes:
        game_id = waiting[0].id
        record, state = log.resume(game_id)  # replays and checks every stored hash
    else:
        for old in waiting:
            log.abandon(old.id)
        game_id = log.start_game("Splendor", names, setup_headers(state))
    ...
    after = state.apply(turn)                # on CONFIRM
    log.append_turn(game_id, str(turn), after.digest(), make_thumbnail(frame), confidence)
    state = after                            # only now move the screen on
    ...
    log.undo_last(game_id)                   # BACK held: the turn is marked taken back
    ...
    if (outcome := state.outcome()) is not None:
        log.finish_with(game_id, outcome)

Reading: :meth:`GameLog.games`, :meth:`GameLog.game`, :meth:`GameLog.turns`,
:meth:`GameLog.thumbnail`, :meth:`GameLog.record` (a replayable record whose
``text()`` is the export).  Failures the user can act on raise
:class:`LogError` with a one-line message; :class:`ResumeError` names the turn.

``game_type`` is ``"Splendor"`` or ``"Splendor Duel"`` (see
:mod:`companion.games`); turns are stored as notation text, and
``setup_headers(state)`` works for a dealt state of either game.
"""

from companion.games import (
    DUEL,
    SPLENDOR,
    GameKind,
    UnknownGameType,
    kind,
    kind_of_state,
    setup_headers,
)
from companion.record.lock import WriterLock, lock_path
from companion.record.log import (
    ABANDONED,
    DamagedGame,
    GameLog,
    GameSummary,
    LogError,
    ResumeError,
    TurnRow,
    default_db_path,
    set_aside,
)
from companion.record.thumbnail import make_thumbnail

__all__ = [
    "ABANDONED",
    "DUEL",
    "SPLENDOR",
    "DamagedGame",
    "GameKind",
    "GameLog",
    "GameSummary",
    "LogError",
    "ResumeError",
    "TurnRow",
    "UnknownGameType",
    "WriterLock",
    "default_db_path",
    "kind",
    "kind_of_state",
    "lock_path",
    "make_thumbnail",
    "set_aside",
    "setup_headers",
]
