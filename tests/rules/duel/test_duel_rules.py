"""One test per rule of the Splendor Duel rulebook (issue 3), with its edge cases.

Positions are built with :mod:`tests.rules.duel.duel_helpers`; boards are
written rank 5 (top) first.  Turns are written in the notation, so these
tests also exercise the parser.
"""

import pytest

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import parse_cell
from companion.rules.duel.outcome import Termination
from companion.rules.duel.planner import TurnPlanner, complete_turn
from companion.rules.duel.state import GameState, Hidden
from companion.rules.duel.table import royals_earned
from companion.rules.duel.tokens import DuelTokens, Token
from companion.rules.duel.turns import parse_turn
from companion.rules.errors import AmbiguousAction, IllegalAction
from tests.rules.duel.duel_helpers import SETUP_PYRAMID, new_game, player, position

# The setup board of new_game(), rank 5 first:
#   5 u g r k p
#   4 w k w u p
#   3 k r w g y
#   2 r g u r y
#   1 g u w k y
#     a b c d e


def play(state: GameState, text: str) -> GameState:
    return state.apply(parse_turn(text))


def refused(state: GameState, text: str, match: str) -> None:
    with pytest.raises(IllegalAction, match=match):
        play(state, text)


def tokens(state: GameState, who: int = 0) -> str:
    return str(state.players[who].tokens)


def cell(name: str) -> int:
    return parse_cell(name)


# ------------------------------------------------------------ privileges
def test_privilege_takes_1_gem_or_pearl_from_the_board():
    state = position("p..../...../..r../...../.....", ann=player("Ann", privileges=1))
    after = play(state, "privilege a5 take c3")
    assert tokens(after) == "rp"
    assert after.players[0].privileges == 0 and after.privileges == 3


def test_privilege_cannot_take_gold():
    state = position("y..../...../..r../...../.....", ann=player("Ann", privileges=1))
    refused(state, "privilege a5 take c3", "privilege cannot take gold")


def test_privileges_used_cannot_exceed_those_held():
    state = position("p..../...../..rw./...../.....", ann=player("Ann", privileges=1))
    refused(state, "privilege a5,d3 take c3", "holds 1 privilege and cannot use 2")


def test_privilege_needs_a_token_on_its_cell():
    state = position("...../...../..r../...../.....", ann=player("Ann", privileges=1))
    refused(state, "privilege a5 take c3", "a5 is empty")


def test_privileges_come_before_the_replenish():
    state = position("p..../...../..r../...../.....", ann=player("Ann", privileges=1))
    planner = TurnPlanner(state)
    planner.replenish(tuple(state.bag.kinds()))
    assert planner.privilege_cells() == []
    with pytest.raises(IllegalAction, match="Privileges are used first"):
        planner.use_privilege(cell("a5"))


# ------------------------------------------------------------- replenish
def _board_without(*names: str) -> tuple[Token | None, ...]:
    cells = list(new_game().board)
    for name in names:
        cells[cell(name)] = None
    return tuple(cells)


def test_replenish_places_the_bag_along_the_spiral_on_empty_cells():
    # d1 (10th on the spiral), b2 (3rd) and c2 (2nd) are empty; the bag holds their tokens.
    state = position(_board_without("d1", "b2", "c2"))
    assert state.bag == DuelTokens.parse("ugk")
    after = play(state, "replenish kgu take a5")
    assert after.board[cell("c2")] is Token.BLACK  # first drawn, first on the spiral
    assert after.board[cell("b2")] is Token.GREEN
    assert after.board[cell("d1")] is Token.BLUE
    assert not after.bag


def test_replenish_gives_the_opponent_a_privilege():
    state = position(_board_without("c2"))
    after = play(state, "replenish u take a5")
    assert after.players[1].privileges == 1 and after.privileges == 2


def test_replenish_is_refused_when_the_bag_is_empty():
    refused(new_game(), "replenish w take a5", "bag is empty")


def test_replenish_places_exactly_the_tokens_of_the_bag():
    state = position(_board_without("c2", "b2"))
    refused(state, "replenish uu take a5", "it holds 1 blue, 1 green")


def test_when_no_mandatory_action_is_possible_the_player_must_replenish_first():
    # Only gold on the board, 3 cards reserved, nothing affordable: no action.
    ann = player("Ann", reserve=("1w2", "1w3", "1w4"))
    state = position("y..../...../...../...../.....", ann=ann)
    refused(state, "take a5", "must be replenished first")
    refused(state, "buy 1w2", "must be replenished first")
    assert TurnPlanner(state).must_replenish()
    draw = "".join(k.letter for k in state.bag.kinds())
    after = play(state, f"replenish {draw} take c3")
    assert after.players[0].tokens.total() == 1
    assert after.players[1].privileges == 1


def test_replenish_is_optional_when_an_action_is_possible():
    state = position(_board_without("c2"))
    assert not TurnPlanner(state).must_replenish()
    play(state, "take a5")  # without replenishing
    play(state, "replenish u take a5")  # or with


# ------------------------------------------------------------------ take
@pytest.mark.parametrize(
    ("cells", "got"),
    [
        ("a1", "g"),
        ("a1,b1", "ug"),
        ("a1,b1,c1", "wug"),  # row
        ("c1,c2,c3", "wwu"),  # column
        ("a1,b2,c3", "wgg"),  # diagonal
        ("a3,b2,c1", "wgk"),  # the other diagonal
        ("c3,a1,b2", "wgg"),  # cells in any order
        ("d5,e4", "kp"),
    ],
)
def test_take_1_to_3_adjacent_tokens_in_a_row_column_or_diagonal(cells, got):
    after = play(new_game(), f"take {cells}")
    assert tokens(after) == got
    assert all(after.board[cell(c)] is None for c in cells.split(","))


def test_take_refuses_a_line_through_a_gap():
    state = position("...../...../.u.u./...../.....")
    refused(state, "take b3,c3,d3", "c3 is empty")
    refused(state, "take b3,d3", "b3 and d3 are not adjacent")


def test_take_refuses_tokens_not_in_one_straight_line():
    refused(new_game(), "take a1,c3", "a1 and c3 are not adjacent")
    refused(new_game(), "take a1,a2,b1", "not lie in one straight line")
    refused(new_game(), "take a1,a2,a4", "a2 and a4 are not adjacent")


def test_take_refuses_gold():
    refused(new_game(), "take e1", "cannot take gold")
    refused(new_game(), "take c3,d2,e1", "cannot take gold")


def test_take_at_most_3_tokens():
    refused(new_game(), "take a1,a2,a3,a4", "1 to 3 tokens, not 4")


def test_taking_3_tokens_of_one_colour_gives_the_opponent_a_privilege():
    state = position("...../...../.rrr./...../.....")
    after = play(state, "take b3,c3,d3")
    assert after.players[1].privileges == 1 and after.privileges == 2


def test_taking_2_pearls_gives_the_opponent_a_privilege():
    state = position("...../...../.ppw./...../.....")
    assert play(state, "take b3,c3").players[1].privileges == 1
    assert play(state, "take b3,c3,d3").players[1].privileges == 1
    assert play(state, "take c3,d3").players[1].privileges == 0


def test_taking_different_or_two_same_gems_gives_no_privilege():
    state = position("...../...../.rrw./...../.....")
    assert play(state, "take b3,c3").players[1].privileges == 0
    assert play(state, "take b3,c3,d3").players[1].privileges == 0


def test_a_privilege_with_none_left_is_taken_from_the_opponent():
    ann, bob = player("Ann", privileges=2), player("Bob", privileges=1)
    after = play(position("...../...../.rrr./...../.....", ann=ann, bob=bob), "take b3,c3,d3")
    assert (after.players[0].privileges, after.players[1].privileges) == (1, 2)
    assert after.privileges == 0


def test_a_player_with_all_3_privileges_takes_none():
    bob = player("Bob", privileges=3)
    after = play(position("...../...../.rrr./...../.....", bob=bob), "take b3,c3,d3")
    assert (after.players[0].privileges, after.players[1].privileges, after.privileges) == (0, 3, 0)


# --------------------------------------------------------------- reserve
def test_reserve_takes_a_gold_and_a_pyramid_card_which_a_reveal_replaces():
    after = play(new_game(), "reserve 2w1 gold e1 reveal 2w2")
    ann = after.players[0]
    assert str(ann.tokens) == "y" and ann.reserved == (catalogue.card("2w1"),)
    assert after.pyramid[1][0] == catalogue.card("2w2")
    assert after.decks == (25, 19, 10)


def test_reserve_the_top_of_a_deck_stays_hidden_until_bought():
    after = play(new_game(), "reserve deck3 gold e2")
    assert after.players[0].reserved == (Hidden(3),) and after.decks == (25, 20, 9)
    state = position(ann=player("Ann", "ugrk", reserve=("deck1",)))
    bought = play(state, "buy 1w2 pay ugrk")
    assert [o.card.id for o in bought.players[0].cards] == ["1w2"]
    assert bought.players[0].reserved == ()


def test_a_blind_reserved_card_cannot_be_a_card_already_on_the_table():
    state = position(
        "w..../...../...../...../.....",
        ann=player("Ann", "ugrk", reserve=("deck1",)),
        bob=player("Bob", cards=("1w2",)),
    )
    refused(state, "buy 1w2 pay ugrk", "already on the table")


def test_reserve_is_refused_without_gold_on_the_board():
    refused(position("w..../...../...../...../....."), "reserve 2w1 gold a5", "no gold")


def test_reserve_takes_the_gold_from_a_cell_holding_gold():
    refused(new_game(), "reserve 2w1 gold a1 reveal 2w2", "a1 is holds green|a1 holds green")


def test_reserve_is_refused_with_3_reserved_cards():
    ann = player("Ann", reserve=("1w2", "deck1", "2k2"))
    state = position("y...p/...../...../...../.....", ann=ann)
    refused(state, "reserve 2w1 gold a5 reveal 2w2", "at most 3 reserved cards; Ann holds 3")


def test_reserve_from_an_empty_deck_is_refused():
    state = position("y..../...../...../...../.....", empty_decks=(3,))
    refused(state, "reserve deck3 gold a5", "level 3 deck is empty")


def test_the_pyramid_reveal_must_match_the_deck():
    state = new_game()
    refused(state, "reserve 2w1 gold e1", "name the card revealed")
    refused(state, "reserve 2w1 gold e1 reveal 1w2", "level 1; the empty pyramid slot is level 2")
    refused(state, "reserve 2w1 gold e1 reveal 2k4", "already on the table")
    refused(state, "take a1 reveal 1w2", "No card left the pyramid")
    emptied = position("y..../...../...../...../.....", empty_decks=(2,))
    after = play(emptied, "reserve 2w1 gold a5")
    assert after.pyramid[1][0] is None
    refused(emptied, "reserve 2w1 gold a5 reveal 2w2", "level 2 deck is empty")


# ------------------------------------------------------------------- buy
def test_buy_pays_the_cost_minus_bonuses_into_the_bag():
    ann = player("Ann", "uuuggk", cards=("1u2", "1u3"))  # blue bonus 2
    state = position(ann=ann)
    assert str(state.price(catalogue.card("2w1"))) == "uuugg"  # 5 blue 2 green - 2 blue
    after = play(state, "buy 2w1 pay uuugg reveal 2w2")
    assert tokens(after) == "k"
    assert after.bag == state.bag + DuelTokens.parse("uuugg")
    assert after.players[0].bonuses == (2, 2, 0, 0, 0)  # 2w1 is a double bonus


def test_the_payment_must_be_exact():
    state = position(ann=player("Ann", "uuuuggk", cards=("1u2", "1u3")))
    refused(state, "buy 2w1 pay uuuugg reveal 2w2", "too much blue")
    refused(state, "buy 2w1 pay uugg reveal 2w2", "leaves 1 to cover with gold, but 0 gold")
    refused(state, "buy 2w1 pay uuuggy reveal 2w2", "cannot pay")


def test_there_are_no_pearl_bonuses():
    state = position(ann=player("Ann", "ugp", cards=("1u2", "1g2")))
    assert str(state.price(catalogue.card("1w1"))) == "ugp"
    refused(state, "buy 1w1 pay ug reveal 1w2", "leaves 1 to cover")


def test_gold_is_wild_for_gems_and_pearls():
    state = position(ann=player("Ann", "uuggpy"))
    assert tokens(play(state, "buy 1w1 pay uuggy reveal 1w2")) == "p"  # gold for the pearl
    assert tokens(play(state, "buy 1w1 pay uggpy reveal 1w2")) == "u"  # gold for a held blue


def test_the_cost_never_goes_below_zero():
    state = position(ann=player("Ann", "wp", cards=("2u1", "1u2", "2g1", "1g2")))
    assert str(state.price(catalogue.card("1w1"))) == "p"
    assert tokens(play(state, "buy 1w1 pay p reveal 1w2")) == "w"


def test_buy_a_reserved_card_reveals_nothing():
    state = position(ann=player("Ann", "ggrrkkp", reserve=("2w4",)))
    after = play(state, "buy 2w4 pay ggrrkkp")
    assert after.players[0].reserved == () and after.pyramid == state.pyramid
    refused(state, "buy 2w4 pay ggrrkkp reveal 2w2", "No card left the pyramid")


def test_buy_a_card_neither_in_the_pyramid_nor_reserved_is_refused():
    refused(new_game(), "buy 3x1", "neither face up in the pyramid nor reserved by Ann")


# ------------------------------------------------------------- abilities
def test_play_again_gives_another_turn():
    state = position("...../...../..r../...../.....", ann=player("Ann", "uuggp"))
    after = play(state, "buy 1w1 pay uuggp reveal 1w2")
    assert after.current == 0 and after.turn == 1
    assert play(after, "take c3").current == 1


def test_play_again_chains():
    ann = player("Ann", "uuggggrrpp")
    state = position("...../...../..r../...../.....", ann=ann)
    s1 = play(state, "buy 1w1 pay uuggp reveal 1w2")
    s2 = play(s1, "buy 1u1 pay ggrrp reveal 1u2")
    assert (s1.current, s2.current) == (0, 0)
    s3 = play(s2, "take c3")
    assert s3.current == 1 and s3.turn == 3


_JOKER_PYRAMID = ((("1j2", *SETUP_PYRAMID[0][1:])), *SETUP_PYRAMID[1:])


def test_the_joker_joins_a_card_with_a_bonus_and_takes_its_colour():
    state = position(ann=player("Ann", "kkkkp", cards=("1r2",)), pyramid=_JOKER_PYRAMID)
    after = play(state, "buy 1j2 pay kkkkp as r reveal 1w2")
    ann = after.players[0]
    assert ann.bonuses == (0, 0, 0, 2, 0)
    assert ann.colour_points(Token.RED) == 1 and ann.points == 1




def test_the_joker_cannot_be_bought_without_a_card_with_a_bonus():
    state = position(ann=player("Ann", "kkkkp", cards=("1x1",)), pyramid=_JOKER_PYRAMID)
    refused(state, "buy 1j2 pay kkkkp as r reveal 1w2", "has none, so 1j2 cannot be bought")
    assert all(getattr(a, "card", None) != "1j2" for a in state.legal_actions())


def test_the_joker_joins_only_a_colour_the_player_has():
    state = position(ann=player("Ann", "kkkkp", cards=("1r2",)), pyramid=_JOKER_PYRAMID)
    refused(state, "buy 1j2 pay kkkkp as g reveal 1w2", "can only join a colour Ann has")
    refused(state, "buy 1j2 pay kkkkp reveal 1w2", "Name the colour joker 1j2 joins")
    refused(
        position(ann=player("Ann", "uggp")), "buy 1w1 pay uggp as u reveal 1w2", "is not a joker"
    )


def test_the_token_ability_takes_a_token_of_the_cards_colour_from_the_board():
    rows = "...../.w.../...../..u../....."
    state = position(rows, ann=player("Ann", "rrkk"), pyramid=_with_l1("1w3"))
    after = play(state, "buy 1w3 pay rrkk token b4 reveal 1w2")
    assert tokens(after) == "w" and after.board[cell("b4")] is None
    refused(state, "buy 1w3 pay rrkk reveal 1w2", "takes a white token from the board: name")
    refused(state, "buy 1w3 pay rrkk token c2 reveal 1w2", "c2 holds none")


def test_the_token_ability_is_ignored_without_a_token_of_that_colour():
    rows = "...../...../...../..u../....."
    state = position(rows, ann=player("Ann", "rrkk"), pyramid=_with_l1("1w3"))
    assert tokens(play(state, "buy 1w3 pay rrkk reveal 1w2")) == "-"
    refused(state, "buy 1w3 pay rrkk token c2 reveal 1w2", "no white token on the board")


def test_the_privilege_ability_takes_a_privilege_even_from_the_opponent():
    ann = player("Ann", "wwwwkkp", privileges=0)
    state = position(ann=ann, pyramid=_with_l2("2w3"))
    assert play(state, "buy 2w3 pay wwwwkkp reveal 2w2").players[0].privileges == 1
    bob = player("Bob", privileges=3)
    state = position(ann=ann, bob=bob, pyramid=_with_l2("2w3"))
    taken = play(state, "buy 2w3 pay wwwwkkp reveal 2w2")
    assert (taken.players[0].privileges, taken.players[1].privileges) == (1, 2)


def test_the_steal_ability_takes_a_gem_or_pearl_never_gold():
    ann = player("Ann", "uuuurrr")
    state = position(ann=ann, bob=player("Bob", "py"), pyramid=_with_l2("2w2"))
    after = play(state, "buy 2w2 pay uuuurrr steal p reveal 2w1")
    assert tokens(after) == "p" and tokens(after, 1) == "y"
    refused(state, "buy 2w2 pay uuuurrr steal y reveal 2w1", "cannot take gold")
    refused(state, "buy 2w2 pay uuuurrr reveal 2w1", "name one \\(pearl\\)")
    gold_only = position(ann=ann, bob=player("Bob", "yy"), pyramid=_with_l2("2w2"))
    assert tokens(play(gold_only, "buy 2w2 pay uuuurrr reveal 2w1"), 1) == "yy"


def test_double_bonus_cards_count_twice():
    state = position(ann=player("Ann", "u", cards=("2u1",)), pyramid=_with_l1("1w4"))
    assert state.player.bonuses[Token.BLUE.index] == 2
    assert str(state.price(catalogue.card("1w4"))) == "u"
    play(state, "buy 1w4 pay u reveal 1w2")


def _with_l1(card_id: str) -> tuple[tuple[str, ...], ...]:
    """The setup pyramid with ``card_id`` in the first level-1 slot."""
    return ((card_id, *SETUP_PYRAMID[0][1:]), *SETUP_PYRAMID[1:])


def _with_l2(card_id: str) -> tuple[tuple[str, ...], ...]:
    return (SETUP_PYRAMID[0], (card_id, *SETUP_PYRAMID[1][1:]), SETUP_PYRAMID[2])


def _with_l3(card_id: str) -> tuple[tuple[str, ...], ...]:
    return (*SETUP_PYRAMID[:2], (card_id, *SETUP_PYRAMID[2][1:]))


# ---------------------------------------------------------------- crowns
def test_the_third_crown_takes_a_royal_card_and_resolves_its_ability():
    ann = player("Ann", "www", cards=("1g4", "1u4"))
    state = position(ann=ann, pyramid=_with_l1("1k4"))
    after = play(state, "buy 1k4 pay www reveal 1w2 royal r3")
    a = after.players[0]
    assert a.crowns == 3 and [r.id for r in a.royals] == ["r3"] and a.privileges == 1
    assert a.points == 2 and [r.id for r in after.royals] == ["r1", "r2", "r4"]
    again = play(state, "buy 1k4 pay www reveal 1w2 royal r2")
    assert again.current == 0
    refused(state, "buy 1k4 pay www reveal 1w2", "reaches 3 crowns and takes 1 royal card")


def test_a_royal_is_taken_only_on_reaching_3_or_6_crowns():
    state = position(ann=player("Ann", "www", cards=("1g4",)), pyramid=_with_l1("1k4"))
    refused(state, "buy 1k4 pay www reveal 1w2 royal r3", "Ann has 2 and reached no new mark")


def test_the_sixth_crown_takes_a_second_royal():
    ann = player("Ann", "ggg", cards=("3r1", "3u1", "1w4"), royals=("r4",))
    state = position(ann=ann, bob=player("Bob", "rr"), pyramid=_with_l1("1u4"))
    after = play(state, "buy 1u4 pay ggg reveal 1w2 royal r1 steal r")
    a = after.players[0]
    assert a.crowns == 6 and [r.id for r in a.royals] == ["r4", "r1"]
    assert tokens(after) == "r" and tokens(after, 1) == "r"
    refused(state, "buy 1u4 pay ggg reveal 1w2 royal r4", "already been taken")
    refused(state, "buy 1u4 pay ggg reveal 1w2 royal r1", "name one \\(red\\)")


def test_crowns_crossing_3_and_6_in_one_purchase():
    # Each mark passed gives a royal, counted generally ...
    assert royals_earned(2, 6) == 2 and royals_earned(2, 5) == 1 and royals_earned(6, 9) == 0
    # ... but no real card has more than 3 crowns, so one purchase passes at most one mark.
    assert max(c.crowns for c in catalogue.cards()) == 3
    ann = player("Ann", "kkkky", cards=("3w1", "1k4", "2k1"), royals=("r4",))  # 3 crowns
    pyramid = _with_l3("3j1")
    after = play(position(ann=ann, pyramid=pyramid), "buy 3j1 pay kkkky as k reveal 3w2 royal r3")
    assert after.players[0].crowns == 6


# ------------------------------------------------------------ end of turn
def test_above_10_tokens_the_player_returns_down_to_10_into_the_bag():
    state = position("...../...../.ugr./...../.....", ann=player("Ann", "wwuuggrrk"))
    after = play(state, "take b3,c3,d3 return wk")
    assert after.players[0].tokens.total() == 10
    assert after.bag == state.bag + DuelTokens.parse("wk")
    refused(state, "take b3,c3,d3 return w", "holds 12 tokens and must return 2")
    refused(state, "take b3,c3,d3 return pp", "cannot return 2 pearl")
    refused(state, "take b3,c3 return ww", "holds 11 tokens and must return 1")
    refused(state, "take b3 return w", "returned only above 10; Ann holds 10")


def test_20_prestige_points_win_at_once():
    ann = player("Ann", "wwwkkp", cards=("2x1", "3x1", "1x1", "3w2"))  # 18 points
    state = position(ann=ann, pyramid=_with_l2("2w3"))
    after = play(state, "buy 2w3 pay wwwkkp reveal 2w1")
    outcome = after.outcome()
    assert outcome is not None and outcome.termination is Termination.POINTS
    assert outcome.winner == "Ann" and outcome.reason == "Ann reaches 20 prestige points"
    assert after.is_over()


def test_10_crowns_win_at_once():
    ann = player(
        "Ann", "uuurrrrp", cards=("1k4", "1r2", "3j1=k", "2j1=k", "2j2=k"), royals=("r4", "r3")
    )  # 8 crowns
    state = position(ann=ann)
    assert state.player.crowns == 8
    after = play(state, "buy 3w1 pay uuurrrrp reveal 3w2")
    outcome = after.outcome()
    assert outcome is not None and outcome.termination is Termination.CROWNS
    assert outcome.reason == "Ann reaches 10 crowns"


def test_10_points_on_one_colour_win_and_a_joker_counts_as_the_colour_it_joined():
    ann = player("Ann", "rrrr", cards=("3r2", "2r3", "2r1"))  # 7 points on red, 4 red bonus
    pyramid = _with_l3("3j2")
    state = position(ann=ann, pyramid=pyramid)
    after = play(state, "buy 3j2 pay rrrr as r reveal 3w2")  # 3j2 also says "play again"
    outcome = after.outcome()
    assert outcome is not None and outcome.termination is Termination.COLOUR
    assert outcome.reason == "Ann has 10 prestige points on red cards"
    ann_blue = player("Ann", "rrrr", cards=("3r2", "2r3", "2r1", "1u2"))
    other = play(position(ann=ann_blue, pyramid=pyramid), "buy 3j2 pay rrrr as u reveal 3w2")
    assert other.outcome() is None and other.current == 0  # no win: plays again


def test_no_turn_after_the_game_is_over():
    ann = player("Ann", "wwwkkp", cards=("2x1", "3x1", "1x1", "3w2"))
    after = play(position(ann=ann, pyramid=_with_l2("2w3")), "buy 2w3 pay wwwkkp reveal 2w1")
    refused(after, "take a1", "The game is over: Ann reaches 20 prestige points")


# ------------------------------------------------- lenient entry (complete_turn)
def test_complete_turn_fills_in_the_only_legal_choices():
    state = position(ann=player("Ann", "kkkkp", cards=("1r2",)), pyramid=_JOKER_PYRAMID)
    done = complete_turn(state, parse_turn("buy 1j2 reveal 1w2"))
    assert str(done) == "buy 1j2 pay kkkkp as r reveal 1w2"
    play(state, str(done))


def test_complete_turn_refuses_to_guess_between_several_choices():
    state = position(ann=player("Ann", "uuggpy"))  # no gold, or gold for u, g or p
    with pytest.raises(AmbiguousAction, match="Paying 1w1 has 4 possibilities"):
        complete_turn(state, parse_turn("buy 1w1 reveal 1w2"))
    three = position(ann=player("Ann", "www", cards=("1g4", "1u4")), pyramid=_with_l1("1k4"))
    with pytest.raises(AmbiguousAction, match="royal card taken has"):
        complete_turn(three, parse_turn("buy 1k4 pay www reveal 1w2"))
    with pytest.raises(IllegalAction, match="neither face up"):
        complete_turn(state, parse_turn("buy 3x1"))
