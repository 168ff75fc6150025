"""A card reserved blind from a deck, shared by Splendor and Splendor Duel.

Both games let a player reserve the top card of a deck without showing it;
the table then knows only its level until the owner buys it and names it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Hidden:
    """A card reserved blind from a deck: only its level is known to the table."""

    level: int

    def __str__(self) -> str:
        return f"deck{self.level}"
