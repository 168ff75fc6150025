"""The referee: table readings and button events in, confirmed turns out.

One state machine for both games, written against each game's hooks:

* :mod:`companion.referee.machine` — :class:`Referee`, the pure, event-driven
  state machine; it returns effects and a screen view;
* :mod:`companion.referee.game` — :class:`~companion.referee.game.RefereeGame`,
  the hooks a game plugs into the machine (readings compared, candidate
  turns, menus, words and views);
* :mod:`companion.referee.menu` — the three-button menu (question, options);
* :mod:`companion.referee.driver` — the loop that owns camera, panel, screen
  and log, and feeds the machine (used by ``run`` and ``demo``);
* :mod:`companion.referee.splendor` — Splendor's hooks (reading, explain,
  entry, observe) and its recorded demo; :class:`SplendorReferee`;
* :mod:`companion.referee.duel` — Splendor Duel's hooks, loop and demo;
  ``DuelReferee``.

Only the two game packages name their game's state class
(``tests/test_seams.py`` checks the rest).
"""

from companion.referee.machine import (
    Blind,
    Buzz,
    Effect,
    Event,
    GameOver,
    GameStarted,
    Key,
    Light,
    Motion,
    Notice,
    Phase,
    Press,
    Referee,
    Screenshot,
    SetLight,
    TableRead,
    TurnConfirmed,
    TurnUndone,
    Undo,
)

__all__ = [
    "Blind",
    "Buzz",
    "Effect",
    "Event",
    "GameOver",
    "GameStarted",
    "Key",
    "Light",
    "Motion",
    "Notice",
    "Phase",
    "Press",
    "Referee",
    "Screenshot",
    "SetLight",
    "TableRead",
    "TurnConfirmed",
    "TurnUndone",
    "Undo",
]
