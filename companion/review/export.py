"""Exports of a logged game: the record text that ``replay`` checks, or JSON.

The text export is exactly ``Record.text()`` of the live turns (taken-back
turns are not part of the game; ``Result`` is ``*`` while it is unfinished),
so ``splendor-companion replay`` accepts it and replays it to the same end.
The JSON export is for other programs: it keeps everything the log knows,
taken-back turns included (in confirmation order, flagged), but not the
thumbnails, which belong to the HTML review.
"""

from __future__ import annotations

import json
from typing import Any

from companion.record.log import GameLog

#: Bumped when the JSON layout changes in a way readers must know about.
JSON_FORMAT = 1


def export_text(log: GameLog, game_id: int) -> str:
    """The game as a record: headers, numbered live turns, result."""
    return str(log.record(game_id).text())


def export_data(log: GameLog, game_id: int) -> dict[str, Any]:
    """The game as plain data (what :func:`export_json` writes)."""
    game = log.game(game_id)
    turns = [
        {
            "seq": t.seq,
            "number": t.number or None,
            "notation": t.notation,
            "state_hash": t.state_hash,
            "confidence": t.confidence,
            "confirmed_at": t.confirmed_at,
            "taken_back": t.taken_back,
            "taken_back_at": t.taken_back_at,
        }
        for t in log.turns(game_id, taken_back=True)
    ]
    result = None
    if game.finished:
        result = {
            "summary": game.result,
            "winners": list(game.winners),
            "reason": game.reason,
            "abandoned": game.abandoned,
        }
    return {
        "format": JSON_FORMAT,
        "id": game.id,
        "game_type": game.game_type,
        "players": list(game.players),
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "headers": log.headers(game_id),
        "turns": turns,
        "result": result,
    }


def export_json(log: GameLog, game_id: int) -> str:
    return json.dumps(export_data(log, game_id), indent=2, ensure_ascii=False) + "\n"
