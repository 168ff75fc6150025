"""The Duel table view says what a real table shows after each position."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.duel.board import SPIRAL
from companion.rules.duel.simulate import play_game
from companion.rules.duel.view import view_of
from tests.rules.duel.duel_helpers import SETUP_BOARD, SETUP_PYRAMID, new_game


def test_setup_view_shows_the_dealt_table() -> None:
    view = view_of(new_game())
    # the setup string lists the tokens in the order the spiral lays them
    assert "".join(view.board[cell] or "." for cell in SPIRAL) == SETUP_BOARD
    assert view.pyramid == SETUP_PYRAMID
    assert view.decks == (True, True, True)
    assert len(view.royals or ()) == 4
    # the player going second starts with one scroll
    assert (view.privileges, view.players[0].privileges, view.players[1].privileges) == (2, 0, 1)
    assert all(p.tokens == (0,) * 7 and p.reserved == 0 for p in view.players)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_view_accounts_for_every_token(seed: int) -> None:
    """Tokens on the board and in hands never exceed the 25 of the game."""
    _, states = play_game(seed=seed)
    for state in states:
        view = view_of(state)
        on_board = sum(1 for c in view.board if c)
        in_hands = sum(n or 0 for p in view.players for n in p.tokens)
        assert on_board + in_hands + sum(state.bag.counts) == 25
        assert (view.privileges or 0) + sum(p.privileges or 0 for p in view.players) == 3
