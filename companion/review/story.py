"""A logged game retold: every turn in words, points by round, purchases and nobles.

:func:`game_story` replays the log's turns with the rules (the log stores
notation, not states) and gathers what a review shows.  Decisions:

* The live turns are replayed from the set-up and checked against their
  stored hashes, like :meth:`GameLog.resume`; a turn that fails stops the
  replay and is reported in ``problem``, and the report still shows every
  turn up to it (a review is most wanted exactly when something went wrong).
* Turns that were taken back are shown in their place, struck through: that
  is what settles "but the box said I took three".  The state each was
  proposed in is found by the hashes: undo always takes back the newest live
  turn, so a taken-back turn was played on one of the states still on the
  stack, and the one that replays to its stored hash is it.
* Points are sampled after every completed round (and at the end, when the
  game stopped mid-round), round 0 being the deal, which is what a chart
  "points by round" means to players.  In Duel a round is two turns (a
  "play again" makes a round of three; the chart's x is turns / players).
  Crowns are sampled with the points, for a game whose scoreboard counts
  them (Duel's second victory condition); the figures come from the game's
  :class:`~companion.rules.contract.Scoreboard`, as the screen's do.
* Both games are told with the same story, written once against the engine
  contract (:mod:`companion.rules.contract`): what differs (the words, the
  winning score, nobles or royals, market or pyramid, what a bought card
  counts as) comes from the game's :class:`~companion.games.GameKind`.
  The replay is generic over the game's state and turn types
  (:meth:`GameKind.use`), so nothing here guesses which game it holds, and
  only the rules' own refusals (:class:`RulesError`) are caught: anything
  else is a bug and is let through.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from companion.games import AnyKind, GameKind, UnknownGameType, kind
from companion.record.log import GameLog, GameSummary, TurnRow
from companion.record.seats import hints_from_headers, seats_from_headers
from companion.rules.contract import CardFace, Holding, Honour, Outcome, Position, Scoreboard
from companion.rules.errors import RulesError

S = TypeVar("S", bound=Position)
T = TypeVar("T")


class ReviewError(ValueError):
    """A game that cannot be reviewed (e.g. a game type without a review yet)."""


@dataclass(frozen=True)
class TurnEntry:
    """One row of the turn list."""

    seq: int
    number: int
    """Live turn number from 1; 0 for a turn taken back."""
    round: int
    player: str
    notation: str
    words: str
    confidence: float | None
    confirmed_at: str
    taken_back: bool
    thumbnail: bytes | None
    points_after: int | None
    """The mover's points after the turn (None for a turn taken back or not replayed)."""


@dataclass(frozen=True)
class Purchase:
    """A card bought; ``colour`` is its gem letter (a Duel joker: the colour it
    joined; None for grey cards)."""

    number: int
    player: str
    card: CardFace
    colour: str | None
    from_reserve: bool


@dataclass(frozen=True)
class Visit:
    """A noble's visit (Splendor) or a royal card taken (Duel)."""

    number: int
    player: str
    noble: Honour


@dataclass
class GameStory:
    """Everything a review page shows about one game."""

    summary: GameSummary
    kind: AnyKind
    players: tuple[str, ...]
    start: Position
    final: Position
    entries: list[TurnEntry] = field(default_factory=list)
    #: x values of the chart: rounds completed (a fraction for a game ended mid-round).
    rounds: list[float] = field(default_factory=list)
    #: points of each player at each x value.
    points: dict[str, list[int]] = field(default_factory=dict)
    #: crowns of each player at each x value (empty for a game without crowns).
    crowns: dict[str, list[int]] = field(default_factory=dict)
    #: the scoreboard of ``final`` (crowns, bonuses, victory conditions), as the game says it.
    board: Scoreboard | None = None
    purchases: list[Purchase] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    problem: str | None = None

    @property
    def outcome(self) -> Outcome | None:
        """The game's outcome, or None while it is not over."""
        return self.final.outcome()

    @property
    def honours(self) -> str:
        """What visits or is taken at the end of a turn: "Nobles" or "Royal cards"."""
        return self.kind.honours_name

    @property
    def seats(self) -> dict[str, int]:
        """The computer seats and their levels (the record's ``Computer`` header)."""
        return seats_from_headers(self.summary.headers)

    @property
    def hinted(self) -> list[int]:
        """The live turn numbers a hint was asked for (the record's ``Hints`` header)."""
        return hints_from_headers(self.summary.headers)

    @property
    def live_turns(self) -> int:
        return sum(1 for e in self.entries if not e.taken_back)


def _words(game: GameKind[S, T], state: S, turn: T | None, notation: str) -> str:
    if turn is None:
        return notation
    try:
        return game.describe_turn(state, turn)
    except RulesError:
        return notation


def _parse(game: GameKind[S, T], notation: str) -> T | None:
    try:
        return game.parse_turn(notation)
    except RulesError:
        return None


def honours_of(holder: Holding | Position) -> tuple[Honour, ...]:
    """The nobles of a Splendor player or state, the royals of a Duel one."""
    return tuple(holder.honours)


def _proposed_in(game: GameKind[S, T], stack: Sequence[S], turn: T | None, row: TurnRow) -> S:
    """The state a taken-back turn was confirmed in (by its stored hash)."""
    if turn is not None:
        for state in reversed(stack):
            try:
                if game.apply(state, turn).digest() == row.state_hash:
                    return state
            except RulesError:
                continue
    return stack[-1]


def _sample(story: GameStory, state: Position, board: Scoreboard) -> None:
    story.rounds.append(state.turn / len(state.players))
    for p in state.players:
        story.points[p.name].append(p.points)
    for seat in board.seats:
        if seat.crowns is not None:
            story.crowns.setdefault(seat.name, []).append(seat.crowns)


def game_story(log: GameLog, game_id: int, thumbnails: bool = True) -> GameStory:
    """Replay game ``game_id`` of ``log`` into a :class:`GameStory`."""
    summary = log.game(game_id)
    try:
        game = kind(summary.game_type)
    except UnknownGameType as exc:
        raise ReviewError(str(exc)) from None

    def tell(found: GameKind[S, T]) -> GameStory:
        return _tell(log, game_id, summary, found, game, thumbnails)

    return game.use(tell)


def _tell(
    log: GameLog,
    game_id: int,
    summary: GameSummary,
    game: GameKind[S, T],
    stored: AnyKind,
    thumbnails: bool,
) -> GameStory:
    """:func:`game_story` for one game's state and turn types (``stored``: the
    same kind, as the story keeps it)."""
    try:
        start = game.initial_state(log.record(game_id).headers)
    except RulesError as exc:
        raise ReviewError(f"game {game_id} cannot be set up again: {exc}") from None
    story = GameStory(summary, stored, tuple(p.name for p in start.players), start, start)
    story.points = {name: [] for name in story.players}
    _sample(story, start, game.scoreboard(start))
    state = start
    # Every state a taken-back turn may have been confirmed in, newest last.
    stack: list[S] = [start]
    replaying = True
    for row in log.turns(game_id, taken_back=True):
        turn = _parse(game, row.notation)
        jpeg = log.thumbnail(game_id, row.seq) if thumbnails and row.has_thumbnail else None
        if row.taken_back:
            before = _proposed_in(game, stack, turn, row)
            story.entries.append(
                TurnEntry(row.seq, 0, before.round, before.player.name, row.notation,
                          _words(game, before, turn, row.notation), row.confidence,
                          row.confirmed_at, True, jpeg, None)
            )
            if turn is not None:
                with contextlib.suppress(RulesError):
                    stack.append(game.apply(before, turn))
            continue
        mover = state.player.name
        words = _words(game, state, turn, row.notation)
        after: S | None = None
        if replaying:
            try:
                if turn is None:
                    raise RulesError(f"'{row.notation}' cannot be read")
                after = game.apply(state, turn)
            except RulesError as exc:
                story.problem = f"turn {row.number} '{row.notation}' cannot be replayed: {exc}"
            else:
                if after.digest() != row.state_hash:
                    story.problem = (
                        f"turn {row.number} '{row.notation}' replays to a state other than"
                        " the one stored: the log and the rules disagree"
                    )
                    after = None
            if after is None:
                replaying = False
        story.entries.append(
            TurnEntry(row.seq, row.number, state.round, mover, row.notation, words,
                      row.confidence, row.confirmed_at, False, jpeg,
                      after.players[state.current].points if after else None)
        )
        if after is None:
            continue
        me_before, me_after = state.players[state.current], after.players[state.current]
        shown = game.face_up_ids(state)
        bought = game.purchases(after, state.current)[len(game.purchases(state, state.current)):]
        for card, colour in bought:
            story.purchases.append(Purchase(row.number, mover, card, colour, card.id not in shown))
        for honour in honours_of(me_after)[len(honours_of(me_before)):]:
            story.visits.append(Visit(row.number, mover, honour))
        while stack and stack[-1] is not state:
            stack.pop()
        stack.append(after)
        state = after
        if state.turn % len(state.players) == 0:
            _sample(story, state, game.scoreboard(state))
    if state.turn % len(state.players) != 0:
        _sample(story, state, game.scoreboard(state))
    story.final = state
    story.board = game.scoreboard(state)
    return story
