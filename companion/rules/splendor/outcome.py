"""The end of a game as a small value, as python-chess's ``Outcome``.

The rulebook: most prestige points wins; on a tie, the tied player who
purchased the fewest development cards wins; still tied, they share the
victory.  ``Outcome.reason`` says which of these decided, in words a player
reads on the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum


class Termination(Enum):
    """Why the game ended."""

    POINTS = "points"
    """A player reached the winning points and the round was completed."""
    NO_MOVES = "no moves"
    """Every player in turn could do nothing but pass; scored as it stands."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the final table."""

    rank: int
    name: str
    points: int
    cards: int


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winners: tuple[str, ...]
    standings: tuple[Standing, ...]
    reason: str

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    def summary(self) -> str:
        """One line for a record's Result header: "Ann 16 (9 cards), Bob 14 (11 cards)"."""
        return ", ".join(f"{s.name} {s.points} ({s.cards} cards)" for s in self.standings)


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def decide(
    scores: Sequence[tuple[str, int, int]], stalemate: bool = False, unit: str = "points"
) -> Outcome:
    """Rank players given ``(name, points, purchased cards)`` in seating order."""
    ordered = sorted(scores, key=lambda s: (-s[1], s[2]))
    standings = []
    for name, points, cards in ordered:
        rank = 1 + sum(1 for _, p, c in ordered if (p, -c) > (points, -cards))
        standings.append(Standing(rank, name, points, cards))
    top = ordered[0][1]
    tied = [s for s in ordered if s[1] == top]
    fewest = min(s[2] for s in tied)
    winners = tuple(s[0] for s in tied if s[2] == fewest)
    if len(tied) == 1:
        reason = f"{winners[0]} wins with {top} {unit}."
    elif len(winners) == 1:
        others = [s for s in tied if s[0] != winners[0]]
        reason = (
            f"{_names([s[0] for s in tied])} tie on {top} {unit}; {winners[0]} wins with"
            f" fewer development cards ({fewest} against"
            f" {_names([str(s[2]) for s in others])})."
        )
    else:
        reason = (
            f"{_names(list(winners))} tie on {top} {unit} and {fewest} development cards"
            " each: they share the victory."
        )
    if stalemate:
        reason = "No player could take any action, so the game is scored as it stands. " + reason
    return Outcome(
        Termination.NO_MOVES if stalemate else Termination.POINTS, winners, tuple(standings), reason
    )
