"""Splendor's scoreboard: what the companion's screen shows of a position.

The screen is written once against :class:`~companion.rules.contract.Scoreboard`
and never imports a game's state; this function is Splendor's answer (Duel's
is :func:`companion.rules.duel.scoreboard.scoreboard`).  Splendor has no
victory condition that ends the game at once: reaching
:data:`~companion.rules.splendor.state.WINNING_POINTS` starts the final round, so the
seats carry no :class:`~companion.rules.contract.Goal` and the screen shows
the winning score by the points' colour and the final-round banner.
"""

from __future__ import annotations

from companion.rules.contract import Scoreboard, Seat
from companion.rules.gems import COLOURS, Gem
from companion.rules.splendor.state import WINNING_POINTS, GameState

#: The token kinds in the screen's column order: five colours, then gold.
TOKEN_ORDER = (*COLOURS, Gem.GOLD)


def scoreboard(state: GameState) -> Scoreboard:
    """The scoreboard of ``state`` (every number the screen draws)."""
    seats = tuple(
        Seat(
            name=p.name,
            points=p.points,
            tokens=tuple(p.tokens[g] for g in TOKEN_ORDER),
            bonuses=tuple(p.bonuses[g] for g in COLOURS),
            reserved=len(p.reserved),
            honours=len(p.nobles),
        )
        for p in state.players
    )
    return Scoreboard(
        seats=seats,
        current=state.current,
        round=state.round,
        turn=state.turn,
        winning_points=WINNING_POINTS,
        token_letters="".join(g.letter for g in TOKEN_ORDER),
        colour_letters="".join(g.letter for g in COLOURS),
        table_tokens=tuple(state.supply[g] for g in TOKEN_ORDER),
        face_up=tuple(tuple(c.id if c else None for c in row) for row in state.market),
        decks=tuple(state.decks),
        honours=tuple(n.id for n in state.nobles),
        final_round=state.final_round,
    )
