"""The pure rules of Splendor Duel, beside Splendor's with the same conventions.

No I/O, pixels or pins (the catalogues are read as package data): an
immutable :class:`GameState`, whole turns as :class:`Turn` values with a text
notation that round-trips (:func:`parse_turn` / :func:`format_turn`, see
:mod:`companion.rules.duel.turns`), reveals supplied from outside, errors that
name the broken rule, records (:mod:`companion.rules.duel.record`) and seeded
simulations (:mod:`companion.rules.duel.simulate`).

Modules: ``tokens`` (7 token kinds, pearl ``p``), ``cards`` (67 jewel cards,
4 royals, stable ids), ``board`` (cells a1-e5, spiral, lines), ``turns``
(actions, turns, notation), ``position`` (the state's fields and
questions), ``table`` (how a turn is resolved), ``planner`` (step-by-step
turn building), ``words`` (sentences for the screen), ``state`` (the state
value: a position that plays, on top of those), ``outcome``, ``record``,
``simulate``.  Imports point one way only (checked by
``tests/rules/test_imports.py``).

Functions for the CLI and the referee:

* :func:`replay_record` — ``(states, outcome)`` of a record text; raises
  :class:`~companion.rules.splendor.record.RecordError` (``.line``) at the first bad line;
* :func:`describe_turn` — a turn in words; :func:`standings` — the scores;
* :func:`simulate_game` — a seeded game as record text;
* :func:`is_duel_record` — whether a record text is a Duel game;
* :class:`TurnPlanner` — one turn's options step by step (computer players,
  the referee's candidate list); :func:`complete_turn` — fills in the only
  legal choice a typed turn left out, or raises ``AmbiguousAction``.
"""

from __future__ import annotations

from companion.rules.duel.board import SPIRAL, cell_name, parse_cell
from companion.rules.duel.cards import Ability, JewelCard, Royal
from companion.rules.duel.outcome import Outcome, Termination
from companion.rules.duel.planner import TurnPlanner, complete_turn
from companion.rules.duel.record import (
    GAME_NAME,
    DuelRecord,
    RecordError,
    game_name,
    new_record,
    read_record,
)
from companion.rules.duel.simulate import POLICIES, DuelDeck, play_game, simulate_game
from companion.rules.duel.state import GameState, Hidden, Owned, Player
from companion.rules.duel.tokens import DuelTokens, Token
from companion.rules.duel.turns import (
    Action,
    Buy,
    ReserveCard,
    ReserveDeck,
    RoyalPick,
    Take,
    Turn,
    format_turn,
    parse_turn,
)
from companion.rules.duel.words import describe_turn, standings


def replay_record(text: str) -> tuple[list[GameState], Outcome | None]:
    """Read and replay a Duel record: every state from the setup, and the outcome.

    Raises :class:`RecordError` whose ``line`` is the first unreadable line
    or the line of the first illegal turn.
    """
    record = read_record(text)
    states = record.states()
    return states, states[-1].outcome()


def is_duel_record(text: str) -> bool:
    """True when the record's ``Game`` header names Splendor Duel."""
    return game_name(text) == GAME_NAME


__all__ = [
    "GAME_NAME",
    "POLICIES",
    "SPIRAL",
    "Ability",
    "Action",
    "Buy",
    "DuelDeck",
    "DuelRecord",
    "DuelTokens",
    "GameState",
    "Hidden",
    "JewelCard",
    "Outcome",
    "Owned",
    "Player",
    "RecordError",
    "ReserveCard",
    "ReserveDeck",
    "Royal",
    "RoyalPick",
    "Take",
    "Termination",
    "Token",
    "Turn",
    "TurnPlanner",
    "cell_name",
    "complete_turn",
    "describe_turn",
    "format_turn",
    "is_duel_record",
    "new_record",
    "parse_cell",
    "parse_turn",
    "play_game",
    "read_record",
    "replay_record",
    "simulate_game",
    "standings",
]
