"""The pure rules of Splendor (:mod:`companion.rules.splendor`) and Splendor Duel
(:mod:`companion.rules.duel`), side by side, and what both share (the engine
contract, errors, gems, the record format) here at the root.

No I/O, pixels or pins: everything here is a value.  Splendor's main names,
re-exported here as before:

* :class:`GameState` — ``GameState.new(names, nobles, market)``, ``state.apply(turn)``,
  ``state.legal_actions()``, ``state.outcome()``;
* :class:`Turn` and the actions :class:`Take`, :class:`ReserveCard`,
  :class:`ReserveDeck`, :class:`Buy`, :class:`Pass`, with ``Turn.parse`` / ``str(turn)``;
* errors :class:`NotationError`, :class:`IllegalAction`, :class:`AmbiguousAction`.
"""

from companion.rules.errors import (
    AmbiguousAction,
    IllegalAction,
    NotationError,
    RulesError,
    SetupError,
)
from companion.rules.gems import COLOURS, TOKENS, Gem, Tokens
from companion.rules.splendor.actions import (
    Action,
    Buy,
    Pass,
    ReserveCard,
    ReserveDeck,
    Take,
    Turn,
    parse_turn,
)
from companion.rules.splendor.catalogue import Card, Noble
from companion.rules.splendor.outcome import Outcome, Standing, Termination
from companion.rules.splendor.state import GameState, Hidden, Player

__all__ = [
    "COLOURS",
    "TOKENS",
    "Action",
    "AmbiguousAction",
    "Buy",
    "Card",
    "GameState",
    "Gem",
    "Hidden",
    "IllegalAction",
    "Noble",
    "NotationError",
    "Outcome",
    "Pass",
    "Player",
    "ReserveCard",
    "ReserveDeck",
    "RulesError",
    "SetupError",
    "Standing",
    "Take",
    "Termination",
    "Tokens",
    "Turn",
    "parse_turn",
]
