"""Splendor Duel's scoreboard: what the companion's screen shows of a position.

Duel's answer to :class:`~companion.rules.contract.Scoreboard` (Splendor's
is :func:`companion.rules.splendor.scoreboard.scoreboard`).  Each seat carries its
progress towards the three conditions of the Victory tile, any of which
ends the game at once: :data:`~.position.WIN_POINTS` prestige points,
:data:`~.position.WIN_CROWNS` crowns, or :data:`~.position.WIN_COLOUR_POINTS`
points on the cards of one colour (jokers count in the colour they joined;
the goal names the player's best colour, the first in w u g r k order on a
tie, as :meth:`~.position.Player.best_colour` picks it).  The table's tokens
are those on the board: the bag is out of reach.
"""

from __future__ import annotations

from companion.rules.contract import Goal, Scoreboard, Seat
from companion.rules.duel.position import (
    WIN_COLOUR_POINTS,
    WIN_CROWNS,
    WIN_POINTS,
    Player,
    Position,
)
from companion.rules.duel.tokens import COLOURS, KINDS


def goals(player: Player) -> tuple[Goal, Goal, Goal]:
    """``player``'s progress towards the three victory conditions, in the tile's order."""
    best, best_points = player.best_colour()
    return (
        Goal("points", player.points, WIN_POINTS),
        Goal("crowns", player.crowns, WIN_CROWNS),
        Goal("colour", best_points, WIN_COLOUR_POINTS, best.letter),
    )


def scoreboard(position: Position) -> Scoreboard:
    """The scoreboard of ``position`` (every number the screen draws)."""
    seats = tuple(
        Seat(
            name=p.name,
            points=p.points,
            tokens=tuple(p.tokens[k] for k in KINDS),
            bonuses=tuple(p.bonuses),
            reserved=len(p.reserved),
            honours=len(p.royals),
            colour_points=tuple(p.colour_points(c) for c in COLOURS),
            crowns=p.crowns,
            privileges=p.privileges,
            goals=goals(p),
        )
        for p in position.players
    )
    board = position.board_tokens()
    return Scoreboard(
        seats=seats,
        current=position.current,
        round=position.round,
        turn=position.turn,
        winning_points=WIN_POINTS,
        token_letters="".join(k.letter for k in KINDS),
        colour_letters="".join(c.letter for c in COLOURS),
        table_tokens=tuple(board[k] for k in KINDS),
        face_up=tuple(tuple(c.id if c else None for c in row) for row in position.pyramid),
        decks=tuple(position.decks),
        honours=tuple(r.id for r in position.royals),
        privileges=position.privileges,
    )
