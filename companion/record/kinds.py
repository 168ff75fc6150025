"""The games the log knows, by the name stored in its ``game type`` column.

The log stores turns as notation *text* and set-ups as the record's header
lines, so it needs from each game only: how to set a game up from those
headers, how to read one turn, and how to make a replayable record.  A
:class:`GameKind` bundles exactly that, so Splendor Duel plugs in beside
Splendor without a schema change: its rows say ``Splendor Duel`` and its
functions come from :mod:`companion.rules.duel` once that engine offers a
state with ``apply``/``digest`` and a record reader.

Why text and not pickled states: the notation is the project's stable,
human-readable interchange format (records, tests, exports all use it), it is
small, and a log written today stays readable by tomorrow's engine; the
stored state hashes catch any disagreement when the game is replayed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SPLENDOR = "Splendor"
DUEL = "Splendor Duel"

#: Headers that describe the set-up of a Splendor game (kept in this order).
_RESULT_HEADERS = ("Result", "Winner")


class UnknownGameType(ValueError):
    """A game type this version of the companion cannot replay."""


@dataclass(frozen=True)
class GameKind:
    """What the log needs to know about one game.

    ``initial_state(headers)`` sets the game up from its record headers;
    ``parse_turn(text)`` reads one turn; ``make_record(headers, turns)``
    builds the game's replayable record (whose ``text()`` the ``export``
    command writes and whose ``replay()`` the ``replay`` command checks).
    States must offer ``apply(turn)``, ``digest()`` and ``outcome()``.
    """

    name: str
    initial_state: Callable[[Mapping[str, str]], Any]
    parse_turn: Callable[[str], Any]
    make_record: Callable[[Mapping[str, str], Sequence[str]], Any]


def _splendor() -> GameKind:
    from companion.rules.actions import parse_turn
    from companion.rules.record import Record, read_record

    def initial_state(headers: Mapping[str, str]) -> Any:
        return Record(headers=dict(headers)).initial_state()

    def make_record(headers: Mapping[str, str], turns: Sequence[str]) -> Any:
        # Going through the text keeps the record's line numbers honest, so a
        # RecordError from replay() names the line of the exported file.
        head = [f'[{k} "{v}"]' for k, v in headers.items()]
        body = [f"{i}. {t}" for i, t in enumerate(turns, start=1)]
        return read_record("\n".join([*head, "", *body]) + "\n")

    return GameKind(SPLENDOR, initial_state, parse_turn, make_record)


def _duel() -> GameKind:
    """Splendor Duel, when its engine offers the same record interface."""
    try:
        record = importlib.import_module("companion.rules.duel.record")
    except ImportError:
        raise UnknownGameType(
            "Splendor Duel games cannot be replayed yet: this version has no Duel record reader"
        ) from None
    turns = importlib.import_module("companion.rules.duel.turns")
    record_cls = record.Record
    read_record = record.read_record

    def initial_state(headers: Mapping[str, str]) -> Any:
        return record_cls(headers=dict(headers)).initial_state()

    def make_record(headers: Mapping[str, str], moves: Sequence[str]) -> Any:
        head = [f'[{k} "{v}"]' for k, v in headers.items()]
        body = [f"{i}. {t}" for i, t in enumerate(moves, start=1)]
        return read_record("\n".join([*head, "", *body]) + "\n")

    return GameKind(DUEL, initial_state, turns.parse_turn, make_record)


_FACTORIES: dict[str, Callable[[], GameKind]] = {SPLENDOR: _splendor, DUEL: _duel}
_CACHE: dict[str, GameKind] = {}


def kind(game_type: str) -> GameKind:
    """The :class:`GameKind` for a stored ``game type``, or :class:`UnknownGameType`."""
    if game_type not in _CACHE:
        factory = _FACTORIES.get(game_type)
        if factory is None:
            known = " or ".join(repr(k) for k in _FACTORIES)
            raise UnknownGameType(f"unknown game type {game_type!r} (expected {known})")
        _CACHE[game_type] = factory()
    return _CACHE[game_type]


def game_types() -> tuple[str, ...]:
    return tuple(_FACTORIES)


def setup_headers(state: Any, **extra: str) -> dict[str, str]:
    """The set-up headers of a freshly dealt Splendor game, for ``start_game``.

    ``extra`` headers (``Event``, ``Seed``...) are kept.  ``Result`` and
    ``Winner`` are left out: the log writes them from the game's result.
    """
    from companion.rules.record import new_record

    headers = new_record(state, **extra).headers
    return {k: v for k, v in headers.items() if k not in _RESULT_HEADERS}
