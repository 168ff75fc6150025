"""What the golden-playthrough scripts of both games share.

A golden file is a seeded game's record with the state digest after each
turn as that turn's comment; the scripts regenerate every file of a folder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def digested_text(record: Any, states: Sequence[Any]) -> str:
    """The record's text, each turn commented with the digest of the state after it."""
    for i, state in enumerate(states[1:], start=1):
        record.comments[i] = state.digest()
    return str(record.text())


def write_goldens(
    folder: Path,
    games: Sequence[tuple[Any, ...]],
    name: Callable[..., str],
    text: Callable[..., str],
    root: Path,
) -> int:
    """Write every game of ``games`` into ``folder``; the scripts' ``main``."""
    folder.mkdir(parents=True, exist_ok=True)
    for game in games:
        path = folder / name(*game)
        path.write_text(text(*game), encoding="utf-8")
        print(f"wrote {path.relative_to(root)}")
    return 0
