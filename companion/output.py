"""The one place that opens every file a command writes.

Each command writes its reports, records, pages, images and settings through
:func:`open_output` (or :func:`write_text` / :func:`write_bytes`), which:

* **refuses to write over an input of the same command**: ``export 1 --db
  g.db --out g.db`` used to replace the log by text.  The CLI notes every
  path argument that is not an output (:func:`begin`), the log notes the file
  it opens (and its ``-wal``/``-shm``/``.lock`` companions), and an output
  that is the same file as one of them (same device and inode, or the same
  path for one that does not exist yet) is refused in one line;
* **writes atomically**: into a temporary file in the target's folder,
  flushed and fsynced, then renamed over the target, so a failure (disk
  full, a killed process) leaves the old file or none, never half a file;
* **honours the umask**: a new file gets ``0666 & ~umask`` (``mkstemp``'s
  private 0600 is not what ``touch`` or the shell would make); a file
  written over keeps its mode;
* **never follows a symlink it did not ask for**: a path the user named
  (``named=True``, the default) is resolved, so ``--out link`` writes the
  file the link points to and keeps the link, as the shell's ``>`` does; a
  file the command names itself inside a folder (``named=False``: the
  PNGs ``mats`` writes into ``--out DIR``) replaces whatever is at that
  name, a planted link included, and writes nothing anywhere else.

Failures are an :class:`OutputError` with one line naming the file; the CLI
prints it like a ``CommandError``.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

#: Files SQLite and the writer lock keep beside a log: all inputs when the log is.
LOG_COMPANIONS = ("-wal", "-shm", "-journal", ".lock")


class OutputError(Exception):
    """An output that cannot or must not be written; the message is one line."""


class _Inputs:
    """The files the running command reads: by identity, and by path for those
    not created yet (a log's ``-wal`` appears while the command runs)."""

    def __init__(self) -> None:
        self.ids: dict[tuple[int, int], Path] = {}
        self.paths: dict[str, Path] = {}

    def add(self, path: Path) -> None:
        try:
            self.paths[os.path.realpath(path)] = path
            st = path.stat()
        except (OSError, ValueError, RuntimeError):  # absent, a bad name, a link loop
            return
        self.ids[(st.st_dev, st.st_ino)] = path

    def holding(self, target: Path) -> Path | None:
        """The input ``target`` is (the path the user gave for it), or None."""
        try:
            st = target.stat()
        except (OSError, ValueError):
            st = None
        if st is not None and (st.st_dev, st.st_ino) in self.ids:
            return self.ids[(st.st_dev, st.st_ino)]
        return self.paths.get(os.path.realpath(target))


_inputs = _Inputs()


def begin(inputs: Iterable[Path | None] = ()) -> None:
    """Start a command: forget the previous command's inputs, note these."""
    global _inputs
    _inputs = _Inputs()
    for path in inputs:
        if path is not None:
            note_input(path)


def note_input(path: Path, companions: Iterable[str] = ()) -> None:
    """Note ``path`` (and ``path`` + each suffix of ``companions``) as read by this command."""
    _inputs.add(Path(path))
    for suffix in companions:
        _inputs.add(Path(f"{path}{suffix}"))


def umask() -> int:
    """The process's umask, read without changing it where Linux tells it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: read it by setting it, and put it back at once
    os.umask(mask)
    return mask


def target(path: Path, named: bool = True) -> Path:
    """Where writing ``path`` lands, checked: an :class:`OutputError` says why not.

    ``named``: the user typed this path, so a symlink there is followed (see
    the module's docstring).  Checked before any work is done, so a command
    that would write over its input says so before a long analysis, not
    after.
    """
    path = Path(path)
    try:
        where = Path(os.path.realpath(path)) if named else path
    except (OSError, ValueError, RuntimeError):
        raise OutputError(f"{path}: not a path that can be written") from None
    shown = f"{path} (a link to {where})" if named and path.is_symlink() else str(path)
    held = _inputs.holding(where)
    if held is not None:
        raise OutputError(f"{shown} is an input of this command ({held}); refusing to write"
                          " over it: choose another file")
    if where.is_dir() and not where.is_symlink():
        raise OutputError(f"{shown} is a folder; give a file name")
    folder = where.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(f"{path}: the folder {folder} {what}")
    if where.exists() and not where.is_symlink() and not where.is_file():
        raise OutputError(f"{shown} is not a regular file; refusing to replace it")
    return where


@contextmanager
def open_output(path: Path, named: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into; it replaces ``path``
    atomically when the block ends without an exception, and is removed
    otherwise.  See the module's docstring for what is refused."""
    where = target(path, named)
    try:
        old = where.lstat()
    except OSError:
        old = None
    keep = stat.S_IMODE(old.st_mode) if old is not None and stat.S_ISREG(old.st_mode) else None
    mode = keep if keep is not None else 0o666 & ~umask()
    try:
        fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=f".{where.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    done = False
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(tmp, where)
        done = True
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if not done:
            with suppress(OSError):
                os.unlink(tmp)


def write_bytes(path: Path, data: bytes, named: bool = True) -> Path:
    """Write ``data`` to ``path`` through :func:`open_output`; returns ``path``."""
    with open_output(path, named) as out:
        out.write(data)
    return Path(path)


def write_text(path: Path, text: str, named: bool = True) -> Path:
    """Write ``text`` as UTF-8 to ``path`` through :func:`open_output`; returns ``path``."""
    return write_bytes(path, text.encode("utf-8", "surrogateescape"), named)
