"""One writer per game log: an OS lock on a file beside the log.

Two ``run``s on one log both append to the same game, and the game they
write no longer replays.  SQLite's own locks only serialise single
transactions, so the companion holds an exclusive ``flock`` on
``<log>.lock`` for as long as it writes the log.  Why this shape:

* ``flock`` is released by the kernel when the process dies, however it
  dies (power cut aside, where nothing runs anyway): a crashed ``run`` never
  leaves a stale lock that a user must delete by hand.
* The lock file holds who took it (pid, host, time) as one JSON line, so
  the second ``run`` says who is in the way instead of just "busy".  The
  content is only information: the kernel lock decides, so an old file left
  behind means nothing.
* The file is never deleted (deleting it would let a third process lock a
  new inode while a second still waits on the old one); it is emptied on
  release.

Readers (``games``, ``review``, ``export``) take no lock: SQLite's WAL lets
them read while the companion writes.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path


class LogInUse(Exception):
    """Another process holds the writer lock; the message names it in one line."""


@dataclass(frozen=True)
class Holder:
    """Who holds (or last held) a log's writer lock, as written in the lock file."""

    pid: int | None
    host: str
    since: str

    def describe(self) -> str:
        pid = f"process {self.pid}" if self.pid is not None else "another process"
        host = f" on {self.host}" if self.host else ""
        since = f" since {self.since}" if self.since else ""
        return f"{pid}{host}{since}"


def lock_path(db: Path) -> Path:
    """The lock file of the log at ``db``: ``games.db`` -> ``games.db.lock``."""
    return db.with_name(db.name + ".lock")


def _read_holder(fd: int) -> Holder:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        raw = os.read(fd, 4096).decode("utf-8", "replace")
        data = json.loads(raw) if raw.strip() else {}
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    pid = data.get("pid")
    return Holder(
        pid if isinstance(pid, int) else None,
        str(data.get("host", ""))[:100],
        str(data.get("since", ""))[:40],
    )


class WriterLock:
    """The exclusive writer lock of one game log.  ``acquire`` never waits."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.path = lock_path(db)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock or raise :class:`LogInUse` naming the holder (``OSError``
        when the lock file cannot be created)."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise LogInUse(
                f"the game log {self.db} is in use by {holder.describe()};"
                " one program at a time may write it (stop the other `run` first)"
            ) from None
        except OSError:
            os.close(fd)
            raise
        since = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        info = {"pid": os.getpid(), "host": socket.gethostname(), "since": since}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        # a read-only or full disk cannot be emptied: the kernel lock still goes with the close
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the descriptor releases the flock

    def holder(self) -> Holder | None:
        """Who holds the lock now, or None when nobody does (for messages and tests)."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return _read_holder(fd)
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)
