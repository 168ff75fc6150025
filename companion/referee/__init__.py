"""The referee: table readings and button events in, confirmed turns out.

* :mod:`companion.referee.reading` — :class:`TableReading`, what the referee
  needs from one still frame, and :func:`predict`, the table a state implies;
* :mod:`companion.referee.explain` — the legal turns that explain a reading,
  ranked (predicted table scored against the reading), and the reason in
  words when none does;
* :mod:`companion.referee.entry` — the short three-button menus that build a
  turn (or a new game's market) step by step;
* :mod:`companion.referee.machine` — :class:`Referee`, the pure, event-driven
  state machine tying them together; it returns effects and a screen view;
* :mod:`companion.referee.observe` — vision's ``Observation`` to a reading;
* :mod:`companion.referee.driver` — the loop that owns camera, panel, screen
  and log, and feeds the machine (used by ``run`` and ``demo``);
* :mod:`companion.referee.demo` — the recorded demo game: rendered frames,
  hands over the table, the button script and the operator who writes it.
"""

from companion.referee.machine import (
    Buzz,
    Effect,
    Event,
    GameOver,
    GameStarted,
    Key,
    Light,
    Motion,
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
from companion.referee.reading import CardRead, PlayerReading, TableReading, predict

__all__ = [
    "Buzz",
    "CardRead",
    "Effect",
    "Event",
    "GameOver",
    "GameStarted",
    "Key",
    "Light",
    "Motion",
    "Phase",
    "PlayerReading",
    "Press",
    "Referee",
    "Screenshot",
    "SetLight",
    "TableRead",
    "TableReading",
    "TurnConfirmed",
    "TurnUndone",
    "Undo",
    "predict",
]
