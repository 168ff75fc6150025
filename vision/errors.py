"""The one error the vision package raises for input it cannot use."""

from __future__ import annotations

from pathlib import Path


class VisionError(ValueError):
    """A frame or a file the reader cannot use (unreadable, empty, truncated,
    odd-sized, black, or a malformed layout).  Its message is one line a user can
    act on; the CLI prints it as is."""


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path`` (a BOM is dropped), or a ``VisionError`` naming it as
    ``what`` ("truth file", "colour file") when it cannot be read or is not UTF-8."""
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise VisionError(f"{what} {path} is not UTF-8 text") from None
    except OSError as exc:
        raise VisionError(f"cannot read {what} {path}: {exc.strerror}") from None
