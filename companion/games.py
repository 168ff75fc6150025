"""The registry of games (pgx's ``make``): every game the companion knows, once.

A game is looked up here by the name a command line gives (``--game duel``:
:func:`by_key`), by the name a log or record stores (``Splendor Duel``:
:func:`kind`), or by a state its engine made (:func:`kind_of_state`).
Commands, the log and the review ask this module and never compare a game's
name themselves (``tests/test_shape.py`` checks it): a third game is a new
entry here, and every table keyed by :class:`GameKind` elsewhere must then
cover it (the same test checks that too).

Once ``companion/record/kinds.py``: the log's record kinds are this
registry's entries, by the name stored in the log's ``game type`` column.

The log stores turns as notation *text* and set-ups as the record's header
lines, so it needs from each game only: how to set a game up from those
headers, how to read one turn, and how to make a replayable record.  A
:class:`GameKind` bundles exactly that with the rest of the engine contract
(:class:`companion.rules.contract.Game`: apply, describe, what the table
shows), so Splendor Duel sits beside Splendor without a schema change: its
rows say ``Splendor Duel``.

This module is the one place above the rules that names each game's engine;
everything else asks it for a :class:`GameKind` by name or by state and is
written once against the contract.  A caller that must stay generic over the
game's state and turn types passes a :class:`KindUser` to :meth:`GameKind.use`.

Why text and not pickled states: the notation is the project's stable,
human-readable interchange format (records, tests, exports all use it), it is
small, and a log written today stays readable by tomorrow's engine; the
stored state hashes catch any disagreement when the game is replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from companion.i18n import words as splendor_words
from companion.rules import duel
from companion.rules.contract import CardFace, Game, Position, Scoreboard
from companion.rules.duel import scoreboard as duel_scoreboard
from companion.rules.duel import state as duel_state
from companion.rules.splendor import actions as splendor_actions
from companion.rules.splendor import record as splendor_record
from companion.rules.splendor import scoreboard as splendor_scoreboard
from companion.rules.splendor import state as splendor_state

SPLENDOR = "Splendor"
DUEL = "Splendor Duel"

#: Headers the log writes from a game's result rather than from its set-up.
_RESULT_HEADERS = ("Result", "Winner")

S = TypeVar("S", bound=Position)
T = TypeVar("T")
R_co = TypeVar("R_co", covariant=True)


class UnknownGameType(ValueError):
    """A game type this version of the companion cannot replay."""


class Record(Protocol):
    """A game's record as the log hands it out: set-up headers and the text of
    the whole game (:class:`companion.rules.record_format.GameRecord`)."""

    @property
    def headers(self) -> dict[str, str]: ...

    def text(self) -> str: ...


class KindUser(Protocol[R_co]):
    """Code written once for any game: called with the game's :class:`GameKind`."""

    def __call__(self, game: GameKind[S, T], /) -> R_co: ...


@dataclass(frozen=True)
class GameKind(Generic[S, T]):
    """What the log and the reviews need to know about one game.

    Implements :class:`companion.rules.contract.Game` for states ``S`` and
    turns ``T``.  Beyond it: ``make_record(headers, turns)`` builds the
    game's replayable record (whose ``text()`` the ``export`` command writes
    and whose ``replay()`` the ``replay`` command checks); ``new_record(state)``
    makes the record of a freshly dealt state (its headers are the set-up);
    ``state_type`` is the engine's state class.  ``key`` is the game's name
    on the command line (``--game``) and in file names; ``players`` the
    numbers of players it is for; ``unseen`` what an analysis shuffles of
    what the players cannot see, in words.
    """

    name: str
    key: str
    players: tuple[int, ...]
    unseen: str
    initial_state: Callable[[Mapping[str, str]], S]
    parse_turn: Callable[[str], T]
    make_record: Callable[[Mapping[str, str], Sequence[str]], Record]
    apply: Callable[[S, T], S]
    describe_turn: Callable[[S, T], str]
    face_up_ids: Callable[[S], frozenset[str]]
    purchases: Callable[[S, int], Sequence[tuple[CardFace, str | None]]]
    new_record: Callable[[S], Record]
    scoreboard: Callable[[S], Scoreboard]
    state_type: type[S]
    winning_points: int
    honours_name: str

    def use(self, user: KindUser[R_co]) -> R_co:
        """``user(self)``: lets a caller holding either game stay generic over it."""
        return user(self)


SplendorKind = GameKind[splendor_state.GameState, splendor_actions.Turn]
DuelKind = GameKind[duel.GameState, duel.Turn]
AnyKind = SplendorKind | DuelKind


def _via_text(
    read_record: Callable[[str], Record],
) -> Callable[[Mapping[str, str], Sequence[str]], Record]:
    """A record built through its text, so a RecordError from ``replay()``
    names the line of the exported file."""

    def make_record(headers: Mapping[str, str], turns: Sequence[str]) -> Record:
        head = [f'[{k} "{v}"]' for k, v in headers.items()]
        body = [f"{i}. {t}" for i, t in enumerate(turns, start=1)]
        return read_record("\n".join([*head, "", *body]) + "\n")

    return make_record


def _splendor_setup(headers: Mapping[str, str]) -> splendor_state.GameState:
    return splendor_record.Record(headers=dict(headers)).initial_state()


def _splendor_apply(
    state: splendor_state.GameState, turn: splendor_actions.Turn
) -> splendor_state.GameState:
    return state.apply(turn)


def _splendor_face_up(state: splendor_state.GameState) -> frozenset[str]:
    return frozenset(c.id for c in state.market_cards())


def _splendor_purchases(
    state: splendor_state.GameState, player: int
) -> tuple[tuple[CardFace, str | None], ...]:
    return tuple((c, c.bonus.letter) for c in state.players[player].cards)


def _splendor_new_record(state: splendor_state.GameState) -> splendor_record.Record:
    return splendor_record.new_record(state)


def _duel_setup(headers: Mapping[str, str]) -> duel.GameState:
    return duel.DuelRecord(headers=dict(headers)).initial_state()


def _duel_apply(state: duel.GameState, turn: duel.Turn) -> duel.GameState:
    return state.apply(turn)


def _duel_face_up(state: duel.GameState) -> frozenset[str]:
    return frozenset(c.id for c in state.pyramid_cards())


def _duel_purchases(
    state: duel.GameState, player: int
) -> tuple[tuple[CardFace, str | None], ...]:
    return tuple(
        (o.card, o.colour.letter if o.colour is not None else None)
        for o in state.players[player].cards
    )


def _duel_new_record(state: duel.GameState) -> duel.DuelRecord:
    return duel.new_record(state)


_SPLENDOR: SplendorKind = GameKind(
    name=SPLENDOR,
    key="splendor",
    players=(2, 3, 4),
    unseen="the unseen cards",
    initial_state=_splendor_setup,
    parse_turn=splendor_actions.parse_turn,
    make_record=_via_text(splendor_record.read_record),
    apply=_splendor_apply,
    describe_turn=splendor_words.describe_turn,
    face_up_ids=_splendor_face_up,
    purchases=_splendor_purchases,
    new_record=_splendor_new_record,
    scoreboard=splendor_scoreboard.scoreboard,
    state_type=splendor_state.GameState,
    winning_points=splendor_state.WINNING_POINTS,
    honours_name="Nobles",
)

_DUEL: DuelKind = GameKind(
    name=DUEL,
    key="duel",
    players=(2,),
    unseen="the unseen cards and the bag's drawing order",
    initial_state=_duel_setup,
    parse_turn=duel.parse_turn,
    make_record=_via_text(duel.read_record),
    apply=_duel_apply,
    describe_turn=duel.describe_turn,
    face_up_ids=_duel_face_up,
    purchases=_duel_purchases,
    new_record=_duel_new_record,
    scoreboard=duel_scoreboard.scoreboard,
    state_type=duel.GameState,
    winning_points=duel_state.WIN_POINTS,
    honours_name="Royal cards",
)

# Each kind implements the engine contract, and each engine's state is a
# contract Position: checked by mypy here rather than trusted.
_SPLENDOR_GAME: Game[splendor_state.GameState, splendor_actions.Turn] = _SPLENDOR
_DUEL_GAME: Game[duel.GameState, duel.Turn] = _DUEL

_KINDS: dict[str, AnyKind] = {SPLENDOR: _SPLENDOR, DUEL: _DUEL}

#: Every game, the default (Splendor) first; the keys of each layer's tables by game.
GAMES: tuple[AnyKind, ...] = tuple(_KINDS.values())
SPLENDOR_GAME: SplendorKind = _SPLENDOR
DUEL_GAME: DuelKind = _DUEL


def kind(game_type: str) -> AnyKind:
    """The :class:`GameKind` for a stored ``game type``, or :class:`UnknownGameType`."""
    found = _KINDS.get(game_type)
    if found is None:
        known = " or ".join(repr(k) for k in _KINDS)
        raise UnknownGameType(f"unknown game type {game_type!r} (expected {known})")
    return found


def game_types() -> tuple[str, ...]:
    return tuple(_KINDS)


def keys() -> tuple[str, ...]:
    """The games' names on the command line, the default (Splendor) first: ``--game``'s choices."""
    return tuple(k.key for k in _KINDS.values())


def by_key(key: str) -> AnyKind:
    """The game ``--game KEY`` names (argparse's ``choices=keys()`` refused any other)."""
    for found in _KINDS.values():
        if found.key == key:
            return found
    raise UnknownGameType(f"unknown game {key!r} (expected {' or '.join(keys())})")


def kind_of_record(text: str) -> AnyKind:
    """The game of a record's text, by its ``[Game "..."]`` header.

    No header, or one naming no known game, is Splendor's: its reader then
    says what is wrong with the header, as it always did.
    """
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[Game "):
            return _KINDS.get(line[len("[Game ") :].strip('"] '), _SPLENDOR)
    return _SPLENDOR


def kind_of_state(state: Position) -> AnyKind:
    """The :class:`GameKind` whose engine made ``state``."""
    if isinstance(state, splendor_state.GameState):
        return _SPLENDOR
    if isinstance(state, duel.GameState):
        return _DUEL
    raise UnknownGameType(f"not a game state of a known game: {type(state).__name__}")


def scoreboard_of(state: Position) -> Scoreboard:
    """What the screen shows of ``state``, computed by the game that made it.

    The screen's one way to a game's numbers: it holds a contract
    :class:`~companion.rules.contract.Position` and never imports a state class.
    """
    if isinstance(state, splendor_state.GameState):
        return _SPLENDOR.scoreboard(state)
    if isinstance(state, duel.GameState):
        return _DUEL.scoreboard(state)
    raise UnknownGameType(f"not a game state of a known game: {type(state).__name__}")


def setup_headers(state: Position, **extra: str) -> dict[str, str]:
    """The set-up headers of a freshly dealt game (Splendor or Duel), for ``start_game``.

    ``extra`` headers (``Event``, ``Seed``...) are kept.  ``Result`` and
    ``Winner`` are left out: the log writes them from the game's result.
    """
    if isinstance(state, splendor_state.GameState):
        headers = splendor_record.new_record(state, **extra).headers
    elif isinstance(state, duel.GameState):
        headers = duel.new_record(state, **extra).headers
    else:
        raise UnknownGameType(f"not a game state of a known game: {type(state).__name__}")
    return {k: v for k, v in headers.items() if k not in _RESULT_HEADERS}
