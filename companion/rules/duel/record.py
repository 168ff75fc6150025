"""Duel game records: the shape of Splendor's (:mod:`companion.rules.splendor.record`).

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
(:class:`~companion.rules.splendor.record.RecordError`, shared with Splendor).
"""

from __future__ import annotations

from companion.rules.duel.cards import LEVELS
from companion.rules.duel.state import GameState, spiral_text
from companion.rules.duel.turns import Turn, parse_turn
from companion.rules.record_format import GameRecord, RecordError, game_name

GAME_NAME = "Splendor Duel"

__all__ = ["GAME_NAME", "DuelRecord", "RecordError", "game_name", "new_record", "read_record"]


class DuelRecord(GameRecord[Turn, GameState]):
    """A Duel record: set up from ``Players``, ``Board`` and ``Pyramid1``-``3``."""

    GAME = GAME_NAME

    def setup(self) -> GameState:
        board = self.headers["Board"]
        pyramid = [self.headers[f"Pyramid{level}"].split() for level in LEVELS]
        return GameState.new(self.players, board, pyramid)


def new_record(state: GameState, **headers: str) -> DuelRecord:
    """A record whose set-up headers describe ``state`` (a freshly dealt game)."""
    h = {"Game": GAME_NAME, "Players": ", ".join(p.name for p in state.players)}
    h["Board"] = spiral_text(state)
    for level, row in zip(LEVELS, state.pyramid, strict=True):
        h[f"Pyramid{level}"] = " ".join(c.id for c in row if c)
    h.update(headers)
    h.setdefault("Result", "*")
    return DuelRecord(headers=h)


def read_record(text: str) -> DuelRecord:
    """Parse a Duel record; raises :class:`RecordError` on the first unreadable line."""
    return DuelRecord.read(text, parse_turn)
