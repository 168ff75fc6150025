"""Level 5 of the Duel computer spends privileges; the levels below do not.

The position is built so that one privilege decides the game: Ann holds 9
crowns, one privilege and two black tokens, and the pyramid's 1r4 (1
crown, 3 black) would be her tenth crown.  The one black token left is on
the board, so a take brings it only for her next turn, and Bob, at 9
crowns with three red tokens, buys his tenth (1g4) before that: only a
privilege spent on the black wins.
"""

from __future__ import annotations

import random

from companion.analysis.seat import LEVELS, _completing, duel_choice
from companion.rules.duel.board import cell_name
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Buy
from companion.rules.fast.duel.convert import determinise
from tests.rules.duel.duel_helpers import player, position

CROWNS = ("3w1", "3u1", "3g1", "2w4", "2u4", "1w4")  # 2+2+2+1+1+1 = 9 crowns
BOB_CROWNS = ("3r1", "3k1", "2g4", "2r4", "2k4", "1u4", "1k4")  # 9 crowns
PYRAMID = (("1w1", "1u1", "1g4", "1r4", "1k1"), ("2w1", "2u2", "2g2", "2k1"),
           ("3w2", "3u2", "3g2"))
ROWS = "k...p/...../...../...../....."


def state(privileges: int = 1) -> GameState:
    ann = player("Ann", "kk", privileges=privileges, cards=CROWNS)
    bob = player("Bob", "rrr", cards=BOB_CROWNS)
    return position(ROWS, ann=ann, bob=bob, pyramid=PYRAMID)


def test_level_5_spends_the_privilege_that_buys_the_tenth_crown() -> None:
    choice = duel_choice(state(), LEVELS[5], seed=7)
    assert choice is not None
    turn = choice.turn
    assert [cell_name(c) for c in turn.privileges] == ["a5"]
    assert isinstance(turn.action, Buy) and turn.action.card == "1r4"
    assert choice.options[0].chance == 1.0  # the search sees the game won, and only there
    assert all(o.chance is not None and o.chance < 1.0 for o in choice.options[1:])


def test_level_4_keeps_its_privileges() -> None:
    choice = duel_choice(state(), LEVELS[4], seed=7)
    assert choice is not None and choice.turn.privileges == ()
    assert not (isinstance(choice.turn.action, Buy) and choice.turn.action.card == "1r4")


def test_a_price_is_completed_only_with_privileges_enough_and_tokens_on_the_board() -> None:
    base = determinise(state(), random.Random(0), {})
    card = base.pyramid[3]  # 1r4
    assert len(_completing(base, card)) == 1
    assert _completing(determinise(state(privileges=0), random.Random(0), {}), card) == ()
    bare = determinise(position("....p/...../...../...../.....",
                                ann=player("Ann", "kk", privileges=1, cards=CROWNS),
                                bob=player("Bob", "rrr", cards=BOB_CROWNS),
                                pyramid=PYRAMID), random.Random(0), {})
    assert _completing(bare, card) == ()  # no black on the board
