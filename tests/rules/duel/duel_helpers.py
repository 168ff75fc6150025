"""Build Duel positions for tests from a few readable strings.

Every position built here is a real one: the tokens not placed on the board
or in a hand are in the bag (25 in all), the privileges not held are in the
supply (3 in all) and the decks hold the cards not shown anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import CELLS
from companion.rules.duel.state import ALL_TOKENS, PRIVILEGES, GameState, Hidden, Owned, Player
from companion.rules.duel.tokens import DuelTokens, Token

#: A fixed legal setup (any 25-token spiral and 5/4/3 pyramid would do).
SETUP_BOARD = "wugrkwugrkwugrkwugrkppyyy"
SETUP_PYRAMID = (
    ("1w1", "1u1", "1g1", "1r1", "1k1"),
    ("2w1", "2u2", "2g2", "2k4"),
    ("3w1", "3u2", "3g2"),
)


def new_game(names: Sequence[str] = ("Ann", "Bob")) -> GameState:
    return GameState.new(names, SETUP_BOARD, SETUP_PYRAMID)


def board(rows: str) -> tuple[Token | None, ...]:
    """Five rows, rank 5 (top) first, separated by '/', '.' for empty: "w.... / ..."."""
    lines = [r.strip() for r in rows.split("/")]
    assert len(lines) == 5, rows
    cells: list[Token | None] = []
    for line in lines:
        assert len(line) == 5, line
        cells += [None if ch == "." else Token.from_letter(ch) for ch in line]
    return tuple(cells)


EMPTY = "...../...../...../...../....."
#: The default board: one pearl on e5, so a take is always possible and the
#: forced-replenish rule stays out of tests about other rules.
ONE_PEARL = "....p/...../...../...../....."


def owned(spec: str) -> Owned:
    """``"1w1"`` or a joker with its colour ``"1j1=r"``."""
    card_id, _, colour = spec.partition("=")
    card = catalogue.card(card_id)
    return Owned(card, Token.from_letter(colour) if colour else card.colour)


def reserved(spec: str) -> JewelCardOrHidden:
    if spec.startswith("deck"):
        return Hidden(int(spec[4:]))
    return catalogue.card(spec)


JewelCardOrHidden = catalogue.JewelCard | Hidden


def player(
    name: str,
    tokens: str = "-",
    privileges: int = 0,
    cards: Sequence[str] = (),
    reserve: Sequence[str] = (),
    royals: Sequence[str] = (),
) -> Player:
    return Player(
        name,
        DuelTokens.parse(tokens),
        privileges,
        tuple(owned(c) for c in cards),
        tuple(reserved(r) for r in reserve),
        tuple(catalogue.royal(r) for r in royals),
    )


def position(
    rows: str | tuple[Token | None, ...] = ONE_PEARL,
    ann: Player | None = None,
    bob: Player | None = None,
    pyramid: Sequence[Sequence[str | None]] = SETUP_PYRAMID,
    current: int = 0,
    empty_decks: Sequence[int] = (),
) -> GameState:
    """A position with Ann and Bob; the bag gets every token not placed."""
    a = ann or player("Ann")
    b = bob or player("Bob")
    cells = board(rows) if isinstance(rows, str) else rows
    on_board = DuelTokens.of(*(t for t in cells if t is not None))
    bag = ALL_TOKENS - on_board - a.tokens - b.tokens
    rows_ = tuple(tuple(catalogue.card(c) if c else None for c in row) for row in pyramid)
    shown_list = [c for row in rows_ for c in row if c]
    for p in (a, b):
        shown_list += [o.card for o in p.cards]
        shown_list += [c for c in p.reserved if not isinstance(c, Hidden)]
    shown = set(shown_list)
    assert len(shown) == len(shown_list), "a card is placed twice"
    decks = []
    for level in (1, 2, 3):
        hidden = sum(1 for p in (a, b) for c in p.reserved if c == Hidden(level))
        left = sum(1 for c in catalogue.cards_of_level(level) if c not in shown) - hidden
        decks.append(0 if level in empty_decks else left)
    taken_royals = {r for p in (a, b) for r in p.royals}
    state = replace(
        new_game(),
        players=(a, b),
        board=cells,
        bag=bag,
        privileges=PRIVILEGES - a.privileges - b.privileges,
        pyramid=rows_,
        decks=(decks[0], decks[1], decks[2]),
        royals=tuple(r for r in catalogue.royals() if r not in taken_royals),
        current=current,
    )
    assert len(state.board) == len(CELLS)
    return state
