"""The end of a Duel game as a small value, as python-chess's ``Outcome``.

Duel has no final round and no tie: the game ends at once, at the end of the
turn of the player who meets a victory condition, and that player wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Termination(Enum):
    """Which victory condition of the Victory tile ended the game."""

    POINTS = "20 prestige points"
    CROWNS = "10 crowns"
    COLOUR = "10 points in one colour"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won and why.  ``reason`` is a sentence for the screen."""

    termination: Termination
    winner: str
    reason: str

    @property
    def winners(self) -> tuple[str, ...]:
        """As Splendor's ``Outcome.winners``, so callers can treat both games alike."""
        return (self.winner,)

    def summary(self) -> str:
        """One line for a record's Result header: "Ann wins: Ann reaches 21 prestige points"."""
        return f"{self.winner} wins: {self.reason}"
