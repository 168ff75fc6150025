"""The game log: every confirmed turn on disk before the screen moves on.

One SQLite file (standard library, no server).  Why these choices:

* **WAL + ``synchronous=FULL``**: each :meth:`GameLog.append_turn` is its own
  transaction, and with FULL the WAL is fsynced at every commit, so a turn
  whose call has returned survives a power cut; WAL also lets ``review`` read
  the file while the companion writes it.
* **Notation text + state hash per turn**: the game is rebuilt by replaying
  the rules, and the stored hashes prove the rebuilt state is the one the
  players saw (see :meth:`GameLog.resume`).
* **Undo marks, never deletes**: ``taken_back_at`` is set on the turn, so an
  argument about "what did the box think I did" can be settled later.
* **A damaged or foreign file is set aside, not repaired**: the companion must
  start at the table whatever happened to the SD card, and the old file is
  kept byte for byte (renamed with a timestamp suffix) for whoever wants to
  rescue it.  Only SQLite's "corrupt"/"not a database" answers, a foreign
  ``application_id`` or a schema newer than this code count; a locked or
  unreadable file is an error reported to the user and left where it is.
  Only the writer (``run``) sets a file aside: :meth:`GameLog.open_readonly`
  (``games``, ``review``, ``export``) reports the problem and changes nothing.
* **One writer**: ``GameLog.open(..., lock=True)`` holds the writer lock of
  :mod:`companion.record.lock`, so a second ``run`` on the log refuses to
  start and names the first.
* **A damaged row is reported, not fatal**: a game whose stored JSON or
  times do not decode is listed by :meth:`GameLog.damaged` (id and what is
  wrong) and left out of :meth:`GameLog.games` and
  :meth:`GameLog.unfinished`, so the sound games stay usable and ``run``
  still starts.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from companion.games import AnyKind, GameKind, Record, UnknownGameType, kind
from companion.output import LOG_COMPANIONS, note_input
from companion.record import schema
from companion.record.lock import LogInUse, WriterLock
from companion.rules.contract import Outcome, Position
from companion.rules.record_format import name_problem, shown, text_problem

APP_DIR = "splendor-companion"
DB_NAME = "games.db"
#: The result stored for a game the players chose not to resume.
ABANDONED = "abandoned"


class LogError(Exception):
    """A game-log failure the user can act on; the message is one line."""


class DamagedGame(LogError):
    """A game row whose stored values do not decode; ``problem`` says what is wrong."""

    def __init__(self, game_id: int, problem: str) -> None:
        super().__init__(f"game {game_id} is damaged in the log: {problem}")
        self.game_id = game_id
        self.problem = problem


class ResumeError(LogError):
    """The stored turns do not replay to the stored states.

    ``turn`` is the 1-based number of the live turn that failed.
    """

    def __init__(self, game_id: int, turn: int, message: str) -> None:
        super().__init__(f"game {game_id}, turn {turn}: {message}")
        self.game_id = game_id
        self.turn = turn


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/splendor-companion/games.db`` (``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME")
    if not base:
        try:
            base = str(Path.home() / ".local" / "share")
        except RuntimeError:  # HOME unset and no passwd entry (a container, a bare unit)
            raise LogError("cannot tell where your home folder is (HOME is not set) for the"
                           " game log: set HOME or XDG_DATA_HOME, or give --db FILE") from None
    return Path(base) / APP_DIR / DB_NAME


def now_utc() -> datetime:
    return datetime.now(UTC)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class GameSummary:
    """One game as listed by ``splendor-companion games``."""

    id: int
    game_type: str
    players: tuple[str, ...]
    started_at: str
    finished_at: str | None
    turns: int
    """Live turns (not taken back)."""
    taken_back: int
    result: str | None
    winners: tuple[str, ...]
    reason: str | None
    headers: Mapping[str, str]

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def abandoned(self) -> bool:
        return self.result == ABANDONED


@dataclass(frozen=True)
class TurnRow:
    """One confirmed turn as stored; ``number`` counts live turns from 1 (0 if taken back)."""

    seq: int
    number: int
    notation: str
    state_hash: str
    confidence: float | None
    confirmed_at: str
    taken_back_at: str | None
    has_thumbnail: bool

    @property
    def taken_back(self) -> bool:
        return self.taken_back_at is not None


# ---------------------------------------------------------------- opening
def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or any(
        words in str(exc) for words in ("not a database", "malformed", "corrupt")
    )


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """A connection that cannot change ``path`` nor create anything beside it.

    ``mode=ro`` alone still creates the ``-wal`` and ``-shm`` files of a WAL
    log and leaves them behind; so when there is no ``-wal`` file (no writer
    has the log open: a writer keeps it until it closes) the file is opened
    ``immutable``, which reads it without locks or side files.  While a
    writer runs its side files exist and ``mode=ro`` shares them.
    """
    uri = path.resolve().as_uri()
    wal = path.with_name(path.name + "-wal")
    flags = "?mode=ro" if wal.exists() else "?mode=ro&immutable=1"
    return sqlite3.connect(uri + flags, uri=True, isolation_level=None)


def _size(path: Path) -> int | None:
    """The size of the file at ``path`` (None: there is none); a one-line ``LogError``
    when the system refuses the name (``games --db`` with a 5000-character name was
    an ``OSError`` traceback: found by the generated misuse, issue 41)."""
    try:
        return path.stat().st_size
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise LogError(f"cannot use the game log {path}: {reason}") from None


def _problem(path: Path) -> str | None:
    """Why the file at ``path`` cannot be our log (None when it can).

    Only reads: the checks run before anything is written to the file.
    ``PRAGMA quick_check`` reads the whole file once: about 20 ms for 60
    games (14 MB) here, so a few seconds for years of games on a Pi's SD
    card (``tests/bench/bench_record.py``) -- paid at start-up, where finding
    a bad page beats failing in the middle of a game.
    """
    if not _size(path):
        return None
    try:
        db = _connect_readonly(path)
    except sqlite3.DatabaseError as exc:
        if _is_damage(exc):
            return f"not a readable SQLite database ({exc})"
        raise LogError(f"cannot open the game log {path}: {exc}") from None
    try:
        app_id = int(db.execute("PRAGMA application_id").fetchone()[0])
        user_version = schema.version(db)
        tables = int(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
        if tables and app_id != schema.APPLICATION_ID:
            return "not a splendor-companion game log (another program's database)"
        if user_version > schema.LATEST:
            return (
                f"written by a newer splendor-companion (schema {user_version};"
                f" this one knows up to {schema.LATEST})"
            )
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            return f"damaged ({check})"
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            return "not a database file (or one damaged beyond reading)"
        if _is_damage(exc):
            return f"damaged ({exc})"
        raise LogError(f"cannot read the game log {path}: {exc}") from None
    finally:
        db.close()
    return None


def set_aside(path: Path, moment: datetime | None = None) -> Path:
    """Rename ``path`` (and its -wal/-shm files) with a timestamp suffix; return the new name."""
    suffix = (moment or now_utc()).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.set-aside-{suffix}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.set-aside-{suffix}-{n}")
    path.rename(target)
    for extra in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + extra)
        if side.exists():
            side.rename(target.with_name(target.name + extra))
    return target


# ---------------------------------------------------------------- the log
F = TypeVar("F", bound=Callable[..., Any])
S = TypeVar("S", bound=Position)
T = TypeVar("T")


def _sqlite_errors(method: F) -> F:
    """Turn SQLite failures during use (disk full, I/O error, a page gone bad
    since opening) into a one-line :class:`LogError` naming the file."""

    @functools.wraps(method)
    def wrapper(self: GameLog, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise LogError(f"the game log {self.path} failed: {exc}") from None

    return wrapper  # type: ignore[return-value]


class GameLog:
    """The SQLite game log.  Open with :meth:`open`; use as a context manager.

    Every write method commits before it returns.  One ``GameLog`` belongs
    to one thread (the companion's main loop), as its connection does.
    """

    def __init__(
        self,
        db: sqlite3.Connection,
        path: Path,
        notice: str | None = None,
        set_aside_as: Path | None = None,
        clock: Callable[[], datetime] = now_utc,
        writer_lock: WriterLock | None = None,
    ) -> None:
        self._db = db
        self.path = path
        #: One line for the user when the file found was set aside, else None.
        self.notice = notice
        #: Where a damaged or foreign file was moved, if it was.
        self.set_aside_as = set_aside_as
        self._clock = clock
        self._lock = writer_lock

    # ----------------------------------------------------------- lifecycle
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        clock: Callable[[], datetime] = now_utc,
        lock: bool = False,
    ) -> GameLog:
        """Open (creating or migrating) the log at ``path`` or :func:`default_db_path`.

        A damaged or foreign file is moved aside and a fresh log started; the
        returned log's :attr:`notice` then says so in one line.  With ``lock``
        the log's writer lock is taken first (and held until :meth:`close`):
        a log another process writes raises :class:`LogError` naming it,
        before anything is checked, moved or written.
        """
        where = Path(path) if path is not None else default_db_path()
        note_input(where, LOG_COMPANIONS)  # no output of this command may write over it
        _size(where)  # a name the system refuses (too long, a loop): one line
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LogError(
                f"cannot create the folder for the game log {where}: {exc.strerror}"
            ) from None
        if where.is_dir():
            raise LogError(f"the game log {where} is a folder, not a file")
        writer = WriterLock(where) if lock else None
        if writer is not None:
            try:
                writer.acquire()
            except LogInUse as exc:
                raise LogError(str(exc)) from None
            except OSError as exc:
                raise LogError(f"cannot lock the game log {where}: {exc.strerror}") from None
        try:
            return cls._open_locked(where, clock, writer)
        except BaseException:
            if writer is not None:
                writer.release()
            raise

    @classmethod
    def _open_locked(
        cls, where: Path, clock: Callable[[], datetime], writer: WriterLock | None
    ) -> GameLog:
        notice = None
        aside = None
        problem = _problem(where)
        if problem:
            try:
                aside = set_aside(where, clock())
            except OSError as exc:
                raise LogError(
                    f"the game log {where} is {problem}; cannot move it aside: {exc}"
                ) from None
            notice = f"{where} is {problem}; kept it as {aside.name} and started a fresh game log"
        try:
            db = sqlite3.connect(where, isolation_level=None, timeout=10.0)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            schema.migrate(db)
        except sqlite3.DatabaseError as exc:
            raise LogError(f"cannot open the game log {where}: {exc}") from None
        return cls(db, where, notice, aside, clock, writer)

    @classmethod
    def open_readonly(cls, path: str | os.PathLike[str] | None = None) -> GameLog:
        """Open an existing log for reading only (``games``, ``review``, ``export``).

        Nothing is created, renamed or written, not even SQLite's side files
        (see :func:`_connect_readonly`): a missing, damaged or foreign file is
        a :class:`LogError` with one line, and the file stays as it was.
        """
        where = Path(path) if path is not None else default_db_path()
        note_input(where, LOG_COMPANIONS)
        size = _size(where)
        if size is None:
            raise LogError(f"no game log at {where}: no game has been played yet (or use --db)")
        if where.is_dir():
            raise LogError(f"the game log {where} is a folder, not a file")
        if size == 0:
            raise LogError(f"the game log {where} is empty: no game has been logged in it")
        problem = _problem(where)
        if problem:
            raise LogError(f"{where} is {problem}; left as it is (`run` would set it aside)")
        try:
            db = _connect_readonly(where)
            if schema.version(db) < schema.LATEST:
                raise LogError(
                    f"the game log {where} is of an older version; `run` brings it up to date"
                )
        except sqlite3.DatabaseError as exc:
            raise LogError(f"cannot read the game log {where}: {exc}") from None
        return cls(db, where)

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction (BEGIN IMMEDIATE: no surprise lock upgrade)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
            what = "is busy (another program is writing it)" if busy else "failed"
            raise LogError(f"the game log {self.path} {what}: {exc}") from None
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            # SQLite may already have rolled back (disk full, I/O error).
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------- writing
    @_sqlite_errors
    def start_game(
        self, game_type: str, players: Sequence[str], setup_headers: Mapping[str, str]
    ) -> int:
        """Log a new game and return its id.

        ``setup_headers`` are the record headers that set the game up (for
        Splendor: ``Nobles``, ``Market1``..``Market3``; see
        :func:`companion.games.setup_headers`).  ``Game`` and
        ``Players`` are filled in from the arguments.  The set-up is checked by
        dealing it, so a game that could not be resumed is never started.
        """
        game = _kind(game_type)
        for name in players:
            problem = name_problem(name)
            if problem is not None:
                raise LogError(f"player name {shown(name)} cannot be recorded: {problem}")
        headers = {"Game": game_type, "Players": ", ".join(players)}
        headers.update({k: v for k, v in setup_headers.items() if k not in ("Result", "Winner")})
        headers["Game"] = game_type
        headers["Players"] = ", ".join(players)
        try:
            start = game.initial_state(headers)
        except ValueError as exc:
            raise LogError(f"cannot start a {game_type} game: {exc}") from None
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (game_type, players, headers, start_hash, started_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    game_type,
                    json.dumps(list(players)),
                    json.dumps(headers),
                    start.digest(),
                    _stamp(self._clock()),
                ),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    @_sqlite_errors
    def append_turn(
        self,
        game_id: int,
        turn: object,
        state_hash: str,
        thumbnail_jpeg: bytes | None = None,
        confidence: float | None = None,
    ) -> int:
        """Store one confirmed turn, committed (fsynced) before returning its number.

        ``turn`` is the notation text (or a turn value, written with ``str``);
        ``state_hash`` is ``state.digest()`` of the state *after* the turn.
        Returns the turn's number among the game's live turns, from 1.
        The notation is read once here, so a log never holds unreadable text.
        """
        notation = str(turn).strip()
        info = self._game_row(game_id)
        if info["finished_at"] is not None:
            raise LogError(f"game {game_id} is over; no more turns can be logged")
        try:
            _kind(info["game_type"]).parse_turn(notation)
        except ValueError as exc:
            raise LogError(f"cannot log turn '{notation}': {exc}") from None
        if confidence is not None and not 0.0 <= confidence <= 1.0:
            raise LogError(f"confidence must be between 0 and 1, not {confidence}")
        with self._write() as db:
            seq = db.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            db.execute(
                "INSERT INTO turns (game_id, seq, notation, state_hash, confidence, thumbnail,"
                " confirmed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seq,
                    notation,
                    state_hash,
                    confidence,
                    None if thumbnail_jpeg is None else sqlite3.Binary(thumbnail_jpeg),
                    _stamp(self._clock()),
                ),
            )
            live = db.execute(
                "SELECT count(*) FROM turns WHERE game_id = ? AND taken_back_at IS NULL",
                (game_id,),
            ).fetchone()[0]
        return int(live)

    @_sqlite_errors
    def undo_last(self, game_id: int) -> TurnRow | None:
        """Mark the last live turn as taken back and return it (None if there is none).

        Undoing the last turn of a finished game reopens it: its result is
        cleared, since the game is being played on.
        """
        self._game_row(game_id)
        with self._write() as db:
            row = db.execute(
                "SELECT seq FROM turns WHERE game_id = ? AND taken_back_at IS NULL"
                " ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE turns SET taken_back_at = ? WHERE game_id = ? AND seq = ?",
                (_stamp(self._clock()), game_id, row[0]),
            )
            db.execute(
                "UPDATE games SET finished_at = NULL, result = NULL, winners = NULL,"
                " reason = NULL WHERE id = ?",
                (game_id,),
            )
        return next(t for t in self.turns(game_id, taken_back=True) if t.seq == row[0])

    @_sqlite_errors
    def finish(
        self, game_id: int, result: str, winners: Sequence[str], reason: str = ""
    ) -> None:
        """Record the end of a game: ``result`` is ``Outcome.summary()``,
        ``reason`` the tie-break explanation (``Outcome.reason``)."""
        self._game_row(game_id)
        with self._write() as db:
            db.execute(
                "UPDATE games SET finished_at = ?, result = ?, winners = ?, reason = ?"
                " WHERE id = ?",
                (_stamp(self._clock()), result, json.dumps(list(winners)), reason, game_id),
            )

    @_sqlite_errors
    def set_header(self, game_id: int, name: str, value: str) -> None:
        """Set one header of a game's record after it started (a hint asked: ``Hints``).

        Headers describe the game, not a turn, so this changes no turn and no
        hash; ``Game``, ``Players`` and the set-up headers are not changed this
        way (the game would no longer replay)."""
        if name in ("Game", "Players", "Result", "Winner") or any(
            ch in name + value for ch in '"[]\n'
        ):
            raise LogError(f"header {name!r} cannot be set to {value!r}")
        row = self._game_row(game_id)
        headers = _json(game_id, "headers", row["headers"])
        headers[name] = value
        with self._write() as db:
            db.execute("UPDATE games SET headers = ? WHERE id = ?", (json.dumps(headers), game_id))

    def finish_with(self, game_id: int, outcome: Outcome) -> None:
        """:meth:`finish` from an ``Outcome`` value (``summary()``, ``winners``, ``reason``)."""
        self.finish(game_id, outcome.summary(), outcome.winners, outcome.reason)

    def abandon(self, game_id: int) -> None:
        """Close a game the players chose not to resume (its turns stay)."""
        self.finish(game_id, ABANDONED, (), "The players chose not to resume this game.")

    # ------------------------------------------------------------- reading
    def _game_row(self, game_id: int) -> sqlite3.Row:
        cur = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,))
        cur.row_factory = sqlite3.Row
        row = cur.fetchone()
        if row is None:
            raise LogError(f"there is no game {game_id} in {self.path}")
        return row  # type: ignore[no-any-return]

    def _rows(self, where: str = "", params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        cur = self._db.execute(
            "SELECT g.*,"
            " (SELECT count(*) FROM turns t WHERE t.game_id = g.id"
            "   AND t.taken_back_at IS NULL) AS live,"
            " (SELECT count(*) FROM turns t WHERE t.game_id = g.id"
            "   AND t.taken_back_at IS NOT NULL) AS back"
            f" FROM games g {where} ORDER BY g.id",
            params,
        )
        cur.row_factory = sqlite3.Row
        return cur.fetchall()

    def _summaries(self, where: str = "", params: tuple[Any, ...] = ()) -> list[GameSummary]:
        """The sound games among the rows selected; damaged ones are left out
        (:meth:`damaged` lists them)."""
        found = []
        for r in self._rows(where, params):
            try:
                found.append(_summary(r))
            except DamagedGame:
                continue
        return found

    @_sqlite_errors
    def damaged(self) -> list[DamagedGame]:
        """Every game whose row does not decode, oldest first: one error each,
        naming the game and what is wrong.  They are left out of :meth:`games`."""
        out = []
        for r in self._rows():
            try:
                _summary(r)
            except DamagedGame as exc:
                out.append(exc)
        return out

    @_sqlite_errors
    def games(self) -> list[GameSummary]:
        """Every sound logged game, oldest first (see :meth:`damaged` for the others)."""
        return self._summaries()

    @_sqlite_errors
    def last_id(self) -> int | None:
        """The newest game's id, sound or damaged (None for an empty log)."""
        row = self._db.execute("SELECT max(id) FROM games").fetchone()
        return None if row is None or row[0] is None else int(row[0])

    @_sqlite_errors
    def game(self, game_id: int) -> GameSummary:
        """One game; :class:`DamagedGame` when its row does not decode."""
        found = self._rows("WHERE g.id = ?", (game_id,))
        if not found:
            raise LogError(f"there is no game {game_id} in {self.path}")
        return _summary(found[0])

    @_sqlite_errors
    def unfinished(self) -> list[GameSummary]:
        """Sound games neither finished nor abandoned, most recent first: offered for resuming."""
        return list(reversed(self._summaries("WHERE g.finished_at IS NULL")))

    @_sqlite_errors
    def turns(self, game_id: int, taken_back: bool = False) -> list[TurnRow]:
        """The game's live turns in order; with ``taken_back``, every row ever confirmed."""
        cur = self._db.execute(
            "SELECT seq, notation, state_hash, confidence, confirmed_at, taken_back_at,"
            " thumbnail IS NOT NULL FROM turns WHERE game_id = ?"
            + ("" if taken_back else " AND taken_back_at IS NULL")
            + " ORDER BY seq",
            (game_id,),
        )
        rows, number = [], 0
        for seq, notation, digest, conf, at, back, thumb in cur.fetchall():
            if back is None:
                number += 1
            if not isinstance(notation, str) or not isinstance(digest, str):
                raise DamagedGame(game_id, f"turn {seq} has no notation or state hash")
            if conf is not None and not isinstance(conf, int | float):
                raise DamagedGame(game_id, f"turn {seq} has a confidence that is not a number")
            rows.append(
                TurnRow(seq, number if back is None else 0, notation, digest, conf, at, back,
                        bool(thumb))
            )
        return rows

    @_sqlite_errors
    def thumbnail(self, game_id: int, seq: int) -> bytes | None:
        """The JPEG stored with a turn (by its ``seq``), or None."""
        row = self._db.execute(
            "SELECT thumbnail FROM turns WHERE game_id = ? AND seq = ?", (game_id, seq)
        ).fetchone()
        if row is None or row[0] is None:
            return None
        if not isinstance(row[0], bytes):  # a hand edit: text where a JPEG was
            raise DamagedGame(game_id, f"the thumbnail of turn {seq} is not a picture")
        return bytes(row[0])

    @_sqlite_errors
    def headers(self, game_id: int) -> dict[str, str]:
        """The game's record headers, with ``Result`` and ``Winner`` from its result."""
        summary = self.game(game_id)
        headers = dict(summary.headers)
        headers["Result"] = summary.result or "*"
        if summary.winners:
            headers["Winner"] = ", ".join(summary.winners)
        return headers

    @_sqlite_errors
    def record(self, game_id: int) -> Record:
        """The game's record (headers and live turns), as :mod:`companion.rules.splendor.record`."""
        info = self._game_row(game_id)
        notations = [t.notation for t in self.turns(game_id)]
        try:
            return _kind(info["game_type"]).make_record(self.headers(game_id), notations)
        except ValueError as exc:
            raise LogError(f"game {game_id} cannot be read back: {exc}") from None

    @_sqlite_errors
    def resume(self, game_id: int) -> tuple[Record, Position]:
        """Rebuild a game: ``(record, state)`` after replaying every live turn.

        Each replayed state is checked against the hash stored with its turn;
        the first turn that is illegal, or whose hash differs, raises
        :class:`ResumeError` naming it.  Nothing is written.  The record is
        the game's own record type and the state its ``GameState``.
        """
        info = self._game_row(game_id)
        game = _kind(info["game_type"])
        headers = self.headers(game_id)
        rows = self.turns(game_id)

        def replay(found: GameKind[S, T]) -> Position:
            try:
                state = found.initial_state(headers)
            except ValueError as exc:
                raise ResumeError(
                    game_id, 0, f"the set-up cannot be dealt again: {exc}"
                ) from None
            if state.digest() != info["start_hash"]:
                raise ResumeError(
                    game_id, 0, "the set-up does not deal the state that was stored at the start"
                )
            for row in rows:
                try:
                    state = found.apply(state, found.parse_turn(row.notation))
                except ValueError as exc:
                    raise ResumeError(
                        game_id, row.number, f"'{row.notation}' cannot be replayed: {exc}"
                    ) from None
                if state.digest() != row.state_hash:
                    raise ResumeError(
                        game_id,
                        row.number,
                        f"'{row.notation}' replays to state {state.digest()} but the log stored"
                        f" {row.state_hash}: the log and the rules disagree",
                    )
            return state

        state = game.use(replay)
        return game.make_record(headers, [r.notation for r in rows]), state


def _json(game_id: int, column: str, text: Any) -> Any:
    if not isinstance(text, str | bytes):
        raise DamagedGame(game_id, f"{column} is not text")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise DamagedGame(game_id, f"{column} is not valid JSON ({exc})") from None


def _strings(game_id: int, column: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DamagedGame(game_id, f"{column} is not a list of names")
    return tuple(value)


def _time(game_id: int, column: str, value: Any, required: bool) -> str | None:
    if value is None and not required:
        return None
    try:
        datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise DamagedGame(game_id, f"{column} is not a time ({str(value)[:40]!r})") from None
    return str(value)


def _summary(r: sqlite3.Row) -> GameSummary:
    """One game row decoded and checked; :class:`DamagedGame` says what does not decode.

    Every value a reader later relies on is checked here, once, so that a
    row edited by hand or a page gone bad is reported by id instead of
    crashing ``games`` or keeping ``run`` from starting.
    """
    gid = int(r["id"])
    try:
        kind(str(r["game_type"]))
    except UnknownGameType as exc:
        raise DamagedGame(gid, str(exc)) from None
    players = _strings(gid, "players", _json(gid, "players", r["players"]))
    if not players:
        raise DamagedGame(gid, "players is an empty list")
    headers = _json(gid, "headers", r["headers"])
    if not isinstance(headers, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        raise DamagedGame(gid, "headers is not a set of names and values")
    for name in players:  # an older version logged names its records cannot carry
        problem = name_problem(name)
        if problem is not None:
            raise DamagedGame(gid, f"player name {shown(name)} cannot be read back: {problem}")
    for key, value in headers.items():
        problem = text_problem(value) if re.fullmatch(r"\w+", key) else "not a header name"
        if problem is not None:
            raise DamagedGame(gid, f"header {shown(key)} cannot be read back: {problem}")
    winners = _strings(gid, "winners", _json(gid, "winners", r["winners"])) if r["winners"] else ()
    for column in ("result", "reason"):
        if r[column] is not None and not isinstance(r[column], str):
            raise DamagedGame(gid, f"{column} is not text")
    return GameSummary(
        id=gid,
        game_type=str(r["game_type"]),
        players=players,
        started_at=_time(gid, "started_at", r["started_at"], True) or "",
        finished_at=_time(gid, "finished_at", r["finished_at"], False),
        turns=r["live"],
        taken_back=r["back"],
        result=r["result"],
        winners=winners,
        reason=r["reason"],
        headers=headers,
    )


def _kind(game_type: str) -> AnyKind:
    try:
        return kind(game_type)
    except UnknownGameType as exc:
        raise LogError(str(exc)) from None
