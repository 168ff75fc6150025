"""The record format both games share: headers, numbered turns, comments.

Shaped like PGN (python-chess ``chess.pgn``): ``[Name "value"]`` headers,
then one ``N. <turn notation>`` line per turn, numbered from 1; ``;`` starts
a comment and blank lines are ignored.  This module knows nothing of either
game: :mod:`companion.rules.splendor.record` (Splendor) and
:mod:`companion.rules.duel.record` subclass :class:`GameRecord` with their
turn parser and set-up headers.  Errors carry the 1-based line number.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from companion.rules.errors import NotationError, RulesError

HEADER = re.compile(r'^\[(\w+)\s+"(.*)"\]$')
TURN = re.compile(r"^(\d+)\.\s*(.*)$")
#: Longest piece of a record line quoted in a message: a 60 MB line (a file that
#: is not a record at all) must not be echoed whole to the terminal.
QUOTE_CHARS = 60


def clip(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` shortened to ``limit`` characters for a message (``...`` marks the cut)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: What the format gives a meaning to inside a header value, and why it cannot
#: be part of one: a value holding it reads back as something else.
RESERVED = {
    ";": "';' starts a comment",
    '"': "quotes end a header's value",
    "[": "brackets mark a header",
    "]": "brackets mark a header",
}
#: Unicode categories that end a line for ``str.splitlines`` (CR, U+2028, U+2029,
#: NEL...), cannot be stored as UTF-8 (lone surrogates, as undecodable bytes in
#: ``sys.argv`` become) or are invisible controls: never part of a record's text.
_UNCARRIED = {"Cc": "a control character", "Zl": "a line break", "Zp": "a line break",
              "Cs": "bytes that are not UTF-8"}
#: Longest player name: it must fit a 800 x 480 scoreboard column and a prompt.
NAME_CHARS = 40


def shown(text: str, limit: int = NAME_CHARS) -> str:
    """``text`` quoted for a one-line message, its line breaks and controls as
    ``\\uXXXX`` (a carriage return in a name must not break the message)."""
    out = "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in _UNCARRIED else ch
                  for ch in text)
    return f"'{clip(out, limit + 3)}'"


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be a header value of a record, or None when it can.

    The one test of user text that reaches the record (player names, and any
    header a user fills in): a value passes only when ``[Name "value"]``
    reads back as exactly ``value``.  Asked where the text is typed, so a
    game is never logged that ``export``, ``review`` or a resume cannot read
    back; asked again by the log of every stored game, so an older log's bad
    game is reported as damaged instead of stopping ``run``.
    """
    for ch in value:
        if ch in RESERVED:
            return RESERVED[ch]
        what = _UNCARRIED.get(unicodedata.category(ch))
        if what is not None:
            return f"it holds {what} (U+{ord(ch):04X})"
    if value != value.strip():
        return "it starts or ends with a space"
    lines = f'[Name "{value}"]'.splitlines()
    match = HEADER.match(lines[0].partition(";")[0].strip()) if len(lines) == 1 else None
    if match is None or match.group(2) != value:  # a guard: the checks above cover the format
        return "the game record cannot carry it"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name in a record, or None when it can.

    Beyond :func:`text_problem`: the ``Players`` header separates names by
    commas, so a name has none; it is not empty; at most :data:`NAME_CHARS`.
    """
    if not name.strip():
        return "a name cannot be empty"
    if "," in name:
        return "commas separate the names"
    if len(name) > NAME_CHARS:
        return f"at most {NAME_CHARS} characters"
    return text_problem(name)


class RecordError(RulesError):
    """A record line that cannot be read or played; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class Playable(Protocol):
    """What a record needs of a game state to replay it."""

    @property
    def turn(self) -> int: ...

    @property
    def player(self) -> _Named: ...

    def apply(self, turn: Any) -> Self: ...


TurnT = TypeVar("TurnT")
StateT = TypeVar("StateT", bound=Playable)


@dataclass
class GameRecord(Generic[TurnT, StateT]):
    """Headers (in order) and turns with the lines they were read from."""

    GAME: ClassVar[str] = ""

    headers: dict[str, str] = field(default_factory=dict)
    turns: list[TurnT] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    #: The line each header was read from (empty for a record built in code).
    header_lines: dict[str, int] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        return [n.strip() for n in self.headers.get("Players", "").split(",") if n.strip()]

    def setup(self) -> StateT:
        """Build the first state from the headers: each game says how.

        May raise ``KeyError`` for a missing header or a rules error for a
        wrong set-up; :meth:`initial_state` turns both into a ``RecordError``.
        """
        raise NotImplementedError

    def initial_state(self) -> StateT:
        """The game as set up by the headers; raises :class:`RecordError`."""
        try:
            return self.setup()
        except KeyError as exc:
            raise RecordError(1, f"the record has no {exc.args[0]} header") from None
        except RulesError as exc:
            raise RecordError(self.blame(str(exc)), f"bad set-up: {exc}") from None

    def blame(self, message: str) -> int:
        """The line of the header a set-up error is about (1 when none can be told).

        The rules know nothing of lines, so the header is found from the
        message: first one whose value holds what the message quotes (a card
        or noble id: ``'9z9' is not a card id``), then any word of it, else the
        header whose name the message mentions last ("2 players reveal 3
        nobles, not 4" is about ``Nobles``).
        """
        if not self.header_lines:
            return 1
        quoted = set(re.findall(r"'([^']+)'", message.lower()))
        words = set(re.findall(r"[\w-]+", message.lower()))
        setup = [(k, n) for k, n in self.header_lines.items() if k not in ("Game", "Result")]
        for among in (quoted, words):
            for name, line in setup:
                values = set(re.findall(r"[\w-]+", self.headers.get(name, "").lower()))
                if values & among - {name.lower()}:
                    return line
        text = message.lower()
        best, at = 1, -1
        for name, line in setup:
            stem = re.sub(r"\d+$", "", name.lower()).rstrip("s")
            where = text.rfind(stem) if stem else -1
            if where > at:
                best, at = line, where
        return best

    def line_numbers(self) -> list[int]:
        """Each turn's line: as read, or as :meth:`text` would write it for a built record."""
        if len(self.lines) == len(self.turns):
            return self.lines
        first = len(self.headers) + 2
        return [first + i for i in range(len(self.turns))]

    def replay(self) -> Iterator[tuple[int, TurnT, StateT, StateT]]:
        """Play every turn: yields (line, turn, state before, state after).

        Raises :class:`RecordError` naming the line of the first illegal turn.
        """
        state = self.initial_state()
        for line, turn in zip(self.line_numbers(), self.turns, strict=True):
            try:
                after = state.apply(turn)
            except RulesError as exc:
                who = state.player.name
                raise RecordError(
                    line, f"turn {state.turn + 1} ({who}) '{clip(str(turn))}': {exc}"
                ) from None
            yield line, turn, state, after
            state = after

    def states(self) -> list[StateT]:
        """The initial state and the state after every turn."""
        return [self.initial_state(), *(after for _, _, _, after in self.replay())]

    def final_state(self) -> StateT:
        return self.states()[-1]

    def text(self) -> str:
        """The record as text, turns numbered from 1."""
        out = [f'[{k} "{v}"]' for k, v in self.headers.items()]
        out.append("")
        for i, turn in enumerate(self.turns, start=1):
            comment = self.comments.get(i)
            out.append(f"{i}. {turn}" + (f"   ; {comment}" if comment else ""))
        return "\n".join(out) + "\n"

    @classmethod
    def read(cls, text: str, parse_turn: Callable[[str], TurnT]) -> Self:
        """Parse a record of this game; raises :class:`RecordError` on the first bad line."""
        record = cls()
        in_turns = False
        for number, raw in enumerate(text.splitlines(), start=1):
            line, _, comment = raw.partition(";")
            line = line.strip()
            if not line:
                continue
            header = HEADER.match(line)
            if header:
                if in_turns:
                    raise RecordError(number, "headers must come before the turns")
                name, value = header.group(1), header.group(2)
                if name == "Game" and value != cls.GAME:
                    raise RecordError(number, f"this is a {value} record, not {cls.GAME}")
                record.headers[name] = value
                record.header_lines[name] = number
                continue
            m = TURN.match(line)
            if not m:
                raise RecordError(
                    number, f"'{clip(line)}' is neither a header nor a numbered turn"
                )
            in_turns = True
            expected = len(record.turns) + 1
            if int(m.group(1)) != expected:
                raise RecordError(
                    number, f"turn number {clip(m.group(1), 12)} where {expected} was expected"
                )
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


def game_name(text: str) -> str | None:
    """The ``Game`` header of a record text, if any (for dispatching Splendor/Duel)."""
    for raw in text.splitlines():
        line = raw.partition(";")[0].strip()
        m = HEADER.match(line)
        if m and m.group(1) == "Game":
            return m.group(2)
        if TURN.match(line):
            break
    return None
