"""Duel game records: the shape of Splendor's (:mod:`companion.rules.record`).

::

    [Game "Splendor Duel"]
    [Players "Ann, Bob"]
    [Board "kwgupryyrgwkubgkwurpgkuwy"]
    [Pyramid1 "1w3 1u1 1k2 1r4 1j1"]
    [Pyramid2 "2g1 2r4 2w3 2k2"]
    [Pyramid3 "3u2 3g1 3x1"]
    [Result "Ann wins: Ann reaches 21 prestige points"]

    1. take c3,c4,c5
    2. reserve 2g1 gold e1 reveal 2u4   ; Bob keeps it for later
    3. buy 1w3 pay uuk reveal 1g2

``Players`` lists the first player first (the second starts with a
privilege).  ``Board`` is the 25 tokens of the setup in the order they were
placed along the spiral from the centre (so its first letter is on c3; see
:mod:`companion.rules.duel.board`).  ``Pyramid1``-``3`` are the face-up cards
of each level.  Turns are numbered from 1 in the order played; a player who
plays again simply has two turns in a row.  ``;`` starts a comment, blank
lines are ignored, unknown headers are kept, ``Result`` is ``*`` while the
game is unfinished.  Errors carry the 1-based line number
(:class:`~companion.rules.record.RecordError`, shared with Splendor).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from companion.rules.duel.cards import LEVELS
from companion.rules.duel.state import GameState, spiral_text
from companion.rules.duel.turns import Turn, parse_turn
from companion.rules.errors import NotationError, RulesError
from companion.rules.record import RecordError

GAME_NAME = "Splendor Duel"
_HEADER = re.compile(r'^\[(\w+)\s+"(.*)"\]$')
_TURN = re.compile(r"^(\d+)\.\s*(.*)$")

__all__ = ["GAME_NAME", "DuelRecord", "RecordError", "game_name", "new_record", "read_record"]


@dataclass
class DuelRecord:
    """A Duel record: headers (in order) and turns with their line numbers."""

    headers: dict[str, str] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        return [n.strip() for n in self.headers.get("Players", "").split(",") if n.strip()]

    def initial_state(self) -> GameState:
        try:
            board = self.headers["Board"]
            pyramid = [self.headers[f"Pyramid{level}"].split() for level in LEVELS]
        except KeyError as exc:
            raise RecordError(1, f"the record has no {exc.args[0]} header") from None
        try:
            return GameState.new(self.players, board, pyramid)
        except RulesError as exc:
            raise RecordError(1, f"bad set-up: {exc}") from None

    def replay(self) -> Iterator[tuple[int, Turn, GameState, GameState]]:
        """Play every turn: yields (line, turn, state before, state after).

        Raises :class:`RecordError` naming the line of the first illegal turn.
        """
        state = self.initial_state()
        for line, turn in zip(self.lines, self.turns, strict=True):
            try:
                after = state.apply(turn)
            except RulesError as exc:
                who = state.player.name
                raise RecordError(line, f"turn {state.turn + 1} ({who}) '{turn}': {exc}") from None
            yield line, turn, state, after
            state = after

    def states(self) -> list[GameState]:
        """The initial state and the state after every turn."""
        result = [self.initial_state()]
        result += [after for _, _, _, after in self.replay()]
        return result

    def text(self) -> str:
        out = [f'[{k} "{v}"]' for k, v in self.headers.items()]
        out.append("")
        for i, turn in enumerate(self.turns, start=1):
            comment = self.comments.get(i)
            out.append(f"{i}. {turn}" + (f"   ; {comment}" if comment else ""))
        return "\n".join(out) + "\n"


def new_record(state: GameState, **headers: str) -> DuelRecord:
    """A record whose set-up headers describe ``state`` (a freshly dealt game)."""
    h = {"Game": GAME_NAME, "Players": ", ".join(p.name for p in state.players)}
    h["Board"] = spiral_text(state)
    for level, row in zip(LEVELS, state.pyramid, strict=True):
        h[f"Pyramid{level}"] = " ".join(c.id for c in row if c)
    h.update(headers)
    h.setdefault("Result", "*")
    return DuelRecord(headers=h)


def game_name(text: str) -> str | None:
    """The ``Game`` header of a record text, if any (for dispatching Splendor/Duel)."""
    for raw in text.splitlines():
        line = raw.partition(";")[0].strip()
        m = _HEADER.match(line)
        if m and m.group(1) == "Game":
            return m.group(2)
        if _TURN.match(line):
            break
    return None


def read_record(text: str) -> DuelRecord:
    """Parse a Duel record; raises :class:`RecordError` on the first unreadable line."""
    record = DuelRecord()
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
            name, value = header.group(1), header.group(2)
            if name == "Game" and value != GAME_NAME:
                raise RecordError(number, f"this is a {value} record, not {GAME_NAME}")
            record.headers[name] = value
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
    return record
