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
``N. <turn notation>`` (see :mod:`companion.rules.splendor.actions`), numbered from 1;
``;`` starts a comment.  ``Result`` is ``*`` for a game not finished.  Blank
lines are ignored.  Readers report the line number of the first bad line.
"""

from __future__ import annotations

from companion.rules.record_format import GameRecord, RecordError
from companion.rules.splendor.actions import Turn, parse_turn
from companion.rules.splendor.catalogue import LEVELS
from companion.rules.splendor.state import GameState

GAME_NAME = "Splendor"

__all__ = ["GAME_NAME", "Record", "RecordError", "new_record", "read_record"]


class Record(GameRecord[Turn, GameState]):
    """A Splendor record: set up from ``Players``, ``Nobles`` and ``Market1``-``3``."""

    GAME = GAME_NAME

    def setup(self) -> GameState:
        nobles = self.headers["Nobles"].split()
        market = [self.headers[f"Market{level}"].split() for level in LEVELS]
        return GameState.new(self.players, nobles, market)


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
    """Parse a Splendor record; raises :class:`RecordError` on the first bad line."""
    return Record.read(text, parse_turn)
