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

#: Headers the log writes from a game's result rather than from its set-up.
_RESULT_HEADERS = ("Result", "Winner")


MakeRecord = Callable[[Mapping[str, str], Sequence[str]], Any]


class UnknownGameType(ValueError):
    """A game type this version of the companion cannot replay."""


@dataclass(frozen=True)
class GameKind:
    """What the log and the reviews need to know about one game.

    ``initial_state(headers)`` sets the game up from its record headers;
    ``parse_turn(text)`` reads one turn; ``make_record(headers, turns)``
    builds the game's replayable record (whose ``text()`` the ``export``
    command writes and whose ``replay()`` the ``replay`` command checks);
    ``describe_turn(state, turn)`` says a turn in words; ``new_record(state)``
    makes the record of a freshly dealt state (its headers are the set-up);
    ``winning_points`` is the score that ends (or starts ending) the game.
    States must offer ``apply(turn)``, ``digest()`` and ``outcome()``.
    """

    name: str
    initial_state: Callable[[Mapping[str, str]], Any]
    parse_turn: Callable[[str], Any]
    make_record: MakeRecord
    describe_turn: Callable[[Any, Any], str]
    new_record: Callable[..., Any]
    state_type: type
    winning_points: int



def _via_text(read_record: Callable[[str], Any]) -> MakeRecord:
    """A record built through its text, so a RecordError from ``replay()``
    names the line of the exported file."""

    def make_record(headers: Mapping[str, str], turns: Sequence[str]) -> Any:
        head = [f'[{k} "{v}"]' for k, v in headers.items()]
        body = [f"{i}. {t}" for i, t in enumerate(turns, start=1)]
        return read_record("\n".join([*head, "", *body]) + "\n")

    return make_record


def _splendor() -> GameKind:
    from companion.rules.actions import parse_turn
    from companion.rules.describe import describe_turn
    from companion.rules.record import Record, new_record, read_record
    from companion.rules.state import WINNING_POINTS, GameState

    def initial_state(headers: Mapping[str, str]) -> Any:
        return Record(headers=dict(headers)).initial_state()

    return GameKind(
        SPLENDOR, initial_state, parse_turn, _via_text(read_record), describe_turn,
        new_record, GameState, WINNING_POINTS,
    )


def _duel() -> GameKind:
    """Splendor Duel (:mod:`companion.rules.duel`), imported only when a Duel game is met."""
    try:
        duel = importlib.import_module("companion.rules.duel")
    except ImportError:
        raise UnknownGameType(
            "Splendor Duel games cannot be replayed: this version has no Duel engine"
        ) from None
    record_cls = duel.DuelRecord

    def initial_state(headers: Mapping[str, str]) -> Any:
        return record_cls(headers=dict(headers)).initial_state()

    return GameKind(
        DUEL, initial_state, duel.parse_turn, _via_text(duel.read_record), duel.describe_turn,
        duel.new_record, duel.GameState, 20,
    )


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


def kind_of_state(state: Any) -> GameKind:
    """The :class:`GameKind` whose engine made ``state``."""
    for name in _FACTORIES:
        try:
            found = kind(name)
        except UnknownGameType:
            continue
        if isinstance(state, found.state_type):
            return found
    raise UnknownGameType(f"not a game state of a known game: {type(state).__name__}")


def setup_headers(state: Any, **extra: str) -> dict[str, str]:
    """The set-up headers of a freshly dealt game (Splendor or Duel), for ``start_game``.

    ``extra`` headers (``Event``, ``Seed``...) are kept.  ``Result`` and
    ``Winner`` are left out: the log writes them from the game's result.
    """
    headers = kind_of_state(state).new_record(state, **extra).headers
    return {k: v for k, v in headers.items() if k not in _RESULT_HEADERS}
