"""Splendor's part of the referee: its hooks for the one machine.

* :mod:`.reading` — :class:`TableReading`, what the referee needs from one
  still frame, and :func:`predict`, the table a state implies;
* :mod:`.candidates` — the legal turns that explain a reading, ranked
  (predicted table scored against the reading), and the reason in words
  when none does;
* :mod:`.entry` — the short three-button menus that build a turn (or a new
  game's market) step by step;
* :mod:`.observe` — vision's ``Observation`` to a reading;
* :mod:`.hooks` — :class:`SplendorGame`, the hooks, and
  :class:`SplendorReferee`, the machine configured with them;
* :mod:`.loop` — :data:`SplendorLoop`, the one loop typed for Splendor.

The recorded demo game (rendered frames, hands over the table, the button
script and the operator who writes it) is :mod:`companion.demo.splendor`.

With :mod:`companion.referee.duel`, the only referee package that names its
game's state class.  ``Referee`` here is :class:`SplendorReferee`, the name
Splendor's callers knew; the events a caller feeds it are re-exported, so a
Splendor caller needs one import.
"""

from companion.referee.machine import Key, Motion, Phase, Press, TableRead, Undo
from companion.referee.splendor.hooks import SPLENDOR, SplendorGame, SplendorReferee
from companion.referee.splendor.reading import CardRead, PlayerReading, TableReading, predict

#: Splendor's referee under the name its callers knew.
Referee = SplendorReferee

__all__ = [
    "SPLENDOR",
    "CardRead",
    "Key",
    "Motion",
    "Phase",
    "PlayerReading",
    "Press",
    "Referee",
    "SplendorGame",
    "SplendorReferee",
    "TableRead",
    "TableReading",
    "Undo",
    "predict",
]
