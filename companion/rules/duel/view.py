"""What a Splendor Duel table shows: the rules' side of "what the camera sees".

The engine contract asks every game to say what its table should show after
any position (face-up cards by place, tokens by place, what each player
holds).  For Duel that is a :class:`DuelView`.  The same type carries what
the camera *read*: the Duel reader (``vision.duel``) fills it in with
``None`` wherever it is unsure, and the Duel referee compares the view it
expects after each legal turn with the view it read.  One type for both
sides means the comparison needs no translation and the reader's output can
be checked against :func:`view_of` in tests.

Conventions, shared with the reader:

* a board cell is a token letter (``w u g r k p y``), ``""`` when empty,
  ``None`` when unsure;
* a pyramid place is a jewel card id, ``""`` when empty (its deck ran out),
  ``None`` when unsure;
* a count is an ``int``, or ``None`` when unsure.

Places the camera never sees (the bag, the order of the decks, a card held in
the hand) are not part of the view.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.duel.position import Position
from companion.rules.duel.tokens import KINDS

#: One place read or predicted: an id or letter, "" for empty, None for unsure.
Place = str | None


@dataclass(frozen=True)
class PlayerView:
    """What one player's area shows.

    ``tokens`` counts each kind in :data:`~companion.rules.duel.tokens.KINDS`
    order (w u g r k p y); ``bonuses`` counts the discount per gem colour
    (w u g r k; a double-bonus card counts twice), as the cards laid out
    by colour show it; ``reserved`` is how many cards the player holds in
    reserve (face-up or not).
    """

    tokens: tuple[int | None, ...]
    privileges: int | None
    reserved: int | None
    bonuses: tuple[int | None, ...]
    crowns: int | None
    royals: frozenset[str] | None


@dataclass(frozen=True)
class DuelView:
    """A whole Duel table: board, pyramid, decks, royals, scrolls, two players.

    ``board`` has the 25 cells in :mod:`companion.rules.duel.board` order
    (reading order, top row first, the reminder strip at the top);
    ``pyramid[level - 1]`` holds that row's places left to right (5, 4 and 3
    places); ``decks[level - 1]`` says whether any card is left face down;
    ``royals`` are the royal cards still on the table (a set: their places do
    not matter to the rules); ``privileges`` are the scrolls still above the
    board.
    """

    board: tuple[Place, ...]
    pyramid: tuple[tuple[Place, ...], ...]
    decks: tuple[bool | None, ...]
    royals: frozenset[str] | None
    privileges: int | None
    players: tuple[PlayerView, PlayerView]


def view_of(position: Position) -> DuelView:
    """What the table shows after ``position``: every place known."""
    players = tuple(
        PlayerView(
            tokens=tuple(player.tokens[kind] for kind in KINDS),
            privileges=player.privileges,
            reserved=len(player.reserved),
            bonuses=tuple(player.bonuses),
            crowns=player.crowns,
            royals=frozenset(r.id for r in player.royals),
        )
        for player in position.players
    )
    return DuelView(
        board=tuple("" if t is None else t.letter for t in position.board),
        pyramid=tuple(tuple("" if c is None else c.id for c in row) for row in position.pyramid),
        decks=tuple(n > 0 for n in position.decks),
        royals=frozenset(r.id for r in position.royals),
        privileges=position.privileges,
        players=(players[0], players[1]),
    )
