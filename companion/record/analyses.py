"""Stored analyses of logged games, so a review shows them without searching again.

An analysis takes a minute of search per game; the review page is written
in a second.  So ``splendor-companion analyse`` stores its result here and
``review`` reads it.  The table lives beside the log's own (created on first
use with ``CREATE TABLE IF NOT EXISTS``, no schema version step), so older
companions ignore it and the log's migrations stay untouched:

``analyses``
    ``game_id``, ``created_at`` (ISO 8601, UTC), ``turns`` (live turns
    analysed) and ``last_hash`` (the state hash after the last of them: an
    analysis of a game played on or taken back since is stale and not
    returned), ``budget`` and ``seed`` (what reproduces it), ``data`` (the
    analysis as JSON, :meth:`companion.analysis.GameAnalysis.to_json`).

The value stored is text the caller made; this module knows nothing of its
shape, so the record package keeps importing nothing of the analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.record.log import GameLog, LogError, _stamp

_TABLE = """
CREATE TABLE IF NOT EXISTS analyses (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    created_at  TEXT NOT NULL,
    turns       INTEGER NOT NULL,
    last_hash   TEXT,
    budget      INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    data        TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class StoredAnalysis:
    game_id: int
    created_at: str
    budget: int
    seed: int
    data: str


def _fingerprint(log: GameLog, game_id: int) -> tuple[int, str | None]:
    rows = log.turns(game_id)
    return len(rows), rows[-1].state_hash if rows else None


def save_analysis(log: GameLog, game_id: int, data: str, budget: int, seed: int) -> None:
    """Store ``data`` as the analysis of the game as it stands now (committed)."""
    turns, last = _fingerprint(log, game_id)
    try:
        with log._write() as db:  # the log's own committed-transaction helper
            db.execute(_TABLE)
            db.execute(
                "INSERT INTO analyses (game_id, created_at, turns, last_hash, budget, seed, data)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, _stamp(log._clock()), turns, last, budget, seed, data),
            )
    except Exception as exc:
        if isinstance(exc, LogError):
            raise
        raise LogError(f"cannot store the analysis in {log.path}: {exc}") from None


def load_analysis(log: GameLog, game_id: int) -> StoredAnalysis | None:
    """The newest analysis of the game as it stands now, or None (none, or stale)."""
    db = log._db
    exists = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'analyses'"
    ).fetchone()
    if not exists:
        return None
    turns, last = _fingerprint(log, game_id)
    row = db.execute(
        "SELECT created_at, budget, seed, data FROM analyses WHERE game_id = ? AND turns = ?"
        " AND last_hash IS ? ORDER BY id DESC LIMIT 1",
        (game_id, turns, last),
    ).fetchone()
    if row is None:
        return None
    return StoredAnalysis(game_id, row[0], int(row[1]), int(row[2]), str(row[3]))
