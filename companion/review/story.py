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
  "points by round" means to players.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from companion.record.log import GameLog, GameSummary, TurnRow
from companion.rules.actions import Buy, Turn, parse_turn
from companion.rules.catalogue import Card, Noble
from companion.rules.describe import describe_turn
from companion.rules.errors import RulesError
from companion.rules.outcome import Outcome
from companion.rules.state import GameState


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
    number: int
    player: str
    card: Card
    from_reserve: bool


@dataclass(frozen=True)
class Visit:
    number: int
    player: str
    noble: Noble


@dataclass
class GameStory:
    """Everything a review page shows about one game."""

    summary: GameSummary
    players: tuple[str, ...]
    start: GameState
    final: GameState
    entries: list[TurnEntry] = field(default_factory=list)
    #: x values of the chart: rounds completed (a fraction for a game ended mid-round).
    rounds: list[float] = field(default_factory=list)
    #: points of each player at each x value.
    points: dict[str, list[int]] = field(default_factory=dict)
    purchases: list[Purchase] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    problem: str | None = None

    @property
    def outcome(self) -> Outcome | None:
        return self.final.outcome()

    @property
    def live_turns(self) -> int:
        return sum(1 for e in self.entries if not e.taken_back)


def _words(state: GameState, turn: Turn | None, notation: str) -> str:
    if turn is None:
        return notation
    try:
        return describe_turn(state, turn)
    except (RulesError, LookupError, TypeError):
        return notation


def _parse(notation: str) -> Turn | None:
    try:
        return parse_turn(notation)
    except RulesError:
        return None


def _proposed_in(stack: list[GameState], turn: Turn | None, row: TurnRow) -> GameState:
    """The state a taken-back turn was confirmed in (by its stored hash)."""
    if turn is not None:
        for state in reversed(stack):
            try:
                if state.apply(turn).digest() == row.state_hash:
                    return state
            except RulesError:
                continue
    return stack[-1]


def _sample(story: GameStory, state: GameState) -> None:
    story.rounds.append(state.turn / len(state.players))
    for p in state.players:
        story.points[p.name].append(p.points)


def game_story(log: GameLog, game_id: int, thumbnails: bool = True) -> GameStory:
    """Replay game ``game_id`` of ``log`` into a :class:`GameStory`."""
    summary = log.game(game_id)
    if summary.game_type != "Splendor":
        raise ReviewError(f"reviews of {summary.game_type} games are not supported yet")
    kind_record = log.record(game_id)
    start: GameState = kind_record.initial_state()
    story = GameStory(summary, tuple(p.name for p in start.players), start, start)
    story.points = {name: [] for name in story.players}
    _sample(story, start)
    state = start
    # Every state a taken-back turn may have been confirmed in, newest last.
    stack: list[GameState] = [start]
    replaying = True
    for row in log.turns(game_id, taken_back=True):
        turn = _parse(row.notation)
        jpeg = log.thumbnail(game_id, row.seq) if thumbnails and row.has_thumbnail else None
        if row.taken_back:
            before = _proposed_in(stack, turn, row)
            story.entries.append(
                TurnEntry(row.seq, 0, before.round, before.player.name, row.notation,
                          _words(before, turn, row.notation), row.confidence,
                          row.confirmed_at, True, jpeg, None)
            )
            if turn is not None:
                with contextlib.suppress(RulesError):
                    stack.append(before.apply(turn))
            continue
        mover = state.player.name
        words = _words(state, turn, row.notation)
        after: GameState | None = None
        if replaying:
            try:
                if turn is None:
                    raise RulesError(f"'{row.notation}' cannot be read")
                after = state.apply(turn)
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
        assert turn is not None
        if isinstance(turn.action, Buy):
            bought = after.players[state.current].cards[-1]
            story.purchases.append(
                Purchase(row.number, mover, bought, state.find_in_market(bought.id) is None)
            )
        if turn.noble:
            story.visits.append(Visit(row.number, mover, after.players[state.current].nobles[-1]))
        while stack and stack[-1] is not state:
            stack.pop()
        stack.append(after)
        state = after
        if state.turn % len(state.players) == 0:
            _sample(story, state)
    if state.turn % len(state.players) != 0:
        _sample(story, state)
    story.final = state
    return story


def player_summary(story: GameStory) -> list[dict[str, Any]]:
    """Per player, in seating order: points, cards by colour, nobles, reserved cards."""
    out = []
    for p in story.final.players:
        out.append(
            {
                "name": p.name,
                "points": p.points,
                "cards": len(p.cards),
                "bonuses": p.bonuses,
                "nobles": p.nobles,
                "reserved": p.reserved,
                "tokens": p.tokens,
            }
        )
    return out
