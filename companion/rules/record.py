"""Game records: replayable text with headers, numbered turns and a result.

Shaped like PGN (python-chess ``chess.pgn``)::

    [Game "Splendor"]
    [Players "Ann, Bob, Cy"]
    [Nobles "n3 n5 n8 n9"]
    [Market1 "1w3 1u1 1k6 1r2"]
    [Market2 "2g1 2r4 2w6 2k2"]
    [Market3 "3u2 3g4 3k1 3w3"]
    [Result "Ann 16 (9 cards), Bob 14 (11 cards), Cy 12 (8 cards)"]

    1. take wug
    2. reserve 2g1 reveal 2u5   ; Bob keeps it for later
    3. buy 1w3 pay uuk reveal 1g2

Headers are ``[Name "value"]``; unknown headers are kept.  Each turn is
``N. <turn notation>`` (see :mod:`companion.rules.actions`), numbered from 1;
``;`` starts a comment.  ``Result`` is ``*`` for a game not finished.  Blank
lines are ignored.  Readers report the line number of the first bad line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from companion.rules.actions import Turn, parse_turn
from companion.rules.catalogue import LEVELS
from companion.rules.errors import NotationError, RulesError
from companion.rules.state import GameState

GAME_NAME = "Splendor"
_HEADER = re.compile(r'^\[(\w+)\s+"(.*)"\]$')
_TURN = re.compile(r"^(\d+)\.\s*(.*)$")


class RecordError(RulesError):
    """A record line that cannot be read or played; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


@dataclass
class Record:
    """A game record: headers (in order) and turns with their line numbers."""

    headers: dict[str, str] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        return [n.strip() for n in self.headers.get("Players", "").split(",") if n.strip()]

    def initial_state(self) -> GameState:
        """Set the game up from the headers (``SetupError`` if they are wrong)."""
        try:
            nobles = self.headers["Nobles"].split()
            market = [self.headers[f"Market{level}"].split() for level in LEVELS]
        except KeyError as exc:
            raise RecordError(1, f"the record has no {exc.args[0]} header") from None
        return GameState.new(self.players, nobles, market)

    def replay(self) -> Iterator[tuple[int, Turn, GameState, GameState]]:
        """Play every turn: yields (line, turn, state before, state after).

        Raises :class:`RecordError` naming the line of the first illegal turn.
        """
        try:
            state = self.initial_state()
        except RecordError:
            raise
        except RulesError as exc:
            raise RecordError(1, f"bad set-up: {exc}") from None
        for line, turn in zip(self.line_numbers(), self.turns, strict=True):
            try:
                after = state.apply(turn)
            except RulesError as exc:
                who = state.player.name
                raise RecordError(line, f"turn {state.turn + 1} ({who}) '{turn}': {exc}") from None
            yield line, turn, state, after
            state = after

    def line_numbers(self) -> list[int]:
        """Each turn's line: as read, or as :meth:`text` would write it for a built record."""
        if len(self.lines) == len(self.turns):
            return self.lines
        first = len(self.headers) + 2
        return [first + i for i in range(len(self.turns))]

    def final_state(self) -> GameState:
        state = self.initial_state()
        for _, _, _, after in self.replay():
            state = after
        return state

    def text(self) -> str:
        """The record as text, turns numbered from 1."""
        out = [f'[{k} "{v}"]' for k, v in self.headers.items()]
        out.append("")
        for i, turn in enumerate(self.turns, start=1):
            comment = self.comments.get(i)
            out.append(f"{i}. {turn}" + (f"   ; {comment}" if comment else ""))
        return "\n".join(out) + "\n"


def new_record(state: GameState, **headers: str) -> Record:
    """A record whose set-up headers describe ``state`` (a freshly dealt game)."""
    h = {"Game": GAME_NAME, "Players": ", ".join(p.name for p in state.players)}
    h["Nobles"] = " ".join(n.id for n in state.nobles)
    for level, row in zip(LEVELS, state.market, strict=True):
        h[f"Market{level}"] = " ".join(c.id for c in row if c)
    h.update(headers)
    h.setdefault("Result", "*")
    return Record(headers=h)


def read_record(text: str) -> Record:
    """Parse a record; raises :class:`RecordError` on the first unreadable line."""
    record = Record()
    in_turns = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line, _, comment = raw.partition(";")
        line = line.strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header:
            if in_turns:
                raise RecordError(number, "headers must come before the turns")
            record.headers[header.group(1)] = header.group(2)
            continue
        m = _TURN.match(line)
        if not m:
            raise RecordError(number, f"'{line}' is neither a header nor a numbered turn")
        in_turns = True
        expected = len(record.turns) + 1
        if int(m.group(1)) != expected:
            raise RecordError(number, f"turn number {m.group(1)} where {expected} was expected")
        try:
            record.turns.append(parse_turn(m.group(2)))
        except NotationError as exc:
            raise RecordError(number, f"cannot read turn {expected}: {exc}") from None
        record.lines.append(number)
        if comment.strip():
            record.comments[expected] = comment.strip()
    if not record.headers and not record.turns:
        raise RecordError(1, "the file holds no game record")
    game = record.headers.get("Game", GAME_NAME)
    if game != GAME_NAME:
        raise RecordError(1, f"this is a {game} record, not {GAME_NAME}")
    return record
