"""The game log's SQLite schema and its migrations.

The schema version lives in ``PRAGMA user_version``; ``MIGRATIONS[n]`` takes
a database at version ``n - 1`` to version ``n``, and :func:`migrate` runs the
missing steps in one transaction, so a power cut mid-migration leaves the
old version intact.  A new version is a new function appended to the table,
never an edit of an old one: databases in the field are at every version.

``PRAGMA application_id`` marks the file as ours, so a foreign SQLite file
found at the log's path is recognised and set aside instead of being
written into.

Tables (version 1):

``games``
    one row per game: ``game_type`` (``Splendor`` / ``Splendor Duel``),
    ``players`` (JSON list, seating order), ``headers`` (JSON object: the
    record's set-up headers, in order), ``start_hash`` (the digest of the
    dealt state), ``started_at`` / ``finished_at`` (ISO 8601, UTC),
    ``result`` (the outcome summary, or ``abandoned``), ``winners`` (JSON
    list), ``reason`` (the tie-break explanation).
``turns``
    one row per confirmed turn: ``seq`` (order of confirmation within the
    game, from 1, never reused), ``notation``, ``state_hash`` (digest of the
    state after the turn), ``confidence`` (the reader's, or NULL for a turn
    entered with the buttons), ``thumbnail`` (small JPEG or NULL),
    ``confirmed_at`` and ``taken_back_at`` (NULL while the turn stands).
    Undo sets ``taken_back_at``; rows are never deleted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

#: "SPLC" — marks a SQLite file as a splendor-companion game log.
APPLICATION_ID = 0x53504C43


def _v1(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE games (
            id          INTEGER PRIMARY KEY,
            game_type   TEXT NOT NULL,
            players     TEXT NOT NULL,
            headers     TEXT NOT NULL,
            start_hash  TEXT NOT NULL,
            started_at  TEXT NOT NULL,
            finished_at TEXT,
            result      TEXT,
            winners     TEXT,
            reason      TEXT
        )
        """
    )
    db.execute(
        """
        CREATE TABLE turns (
            id            INTEGER PRIMARY KEY,
            game_id       INTEGER NOT NULL REFERENCES games(id),
            seq           INTEGER NOT NULL,
            notation      TEXT NOT NULL,
            state_hash    TEXT NOT NULL,
            confidence    REAL,
            thumbnail     BLOB,
            confirmed_at  TEXT NOT NULL,
            taken_back_at TEXT,
            UNIQUE (game_id, seq)
        )
        """
    )
    db.execute("CREATE INDEX games_unfinished ON games(finished_at)")


#: ``MIGRATIONS[n]`` upgrades a database from version ``n - 1`` to ``n``.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1}
LATEST = max(MIGRATIONS)


def version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection) -> int:
    """Bring ``db`` (in autocommit mode) to :data:`LATEST`; return the version found."""
    found = version(db)
    if found >= LATEST:
        return found
    db.execute("BEGIN IMMEDIATE")
    try:
        current = version(db)  # another process may have migrated meanwhile
        for step in range(current + 1, LATEST + 1):
            MIGRATIONS[step](db)
        db.execute(f"PRAGMA user_version = {LATEST}")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return found
