"""The one error the vision package raises for input it cannot use."""

from __future__ import annotations


class VisionError(ValueError):
    """A frame or a file the reader cannot use (unreadable, empty, truncated,
    odd-sized, black, or a malformed layout).  Its message is one line a user can
    act on; the CLI prints it as is."""
