"""One test per rule sentence of the Splendor rulebook (2024 edition), with its edge cases.

Positions are built from a dealt game with ``dataclasses.replace`` so each
test shows exactly the situation the rule is about.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules import (
    Buy,
    GameState,
    Hidden,
    IllegalAction,
    NotationError,
    Pass,
    ReserveCard,
    ReserveDeck,
    SetupError,
    Take,
    Termination,
    Tokens,
    Turn,
)
from companion.rules.splendor import catalogue as cat
from companion.rules.splendor.state import needs_reveal

MARKET = [
    ["1w1", "1u1", "1g1", "1r1"],
    ["2w1", "2u1", "2g1", "2r1"],
    ["3w1", "3u1", "3g1", "3r1"],
]


def new(players: int = 2) -> GameState:
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    return GameState.new(names, [f"n{i}" for i in range(1, players + 2)], MARKET)


def with_player(state: GameState, index: int = 0, **changes: object) -> GameState:
    players = list(state.players)
    players[index] = replace(players[index], **changes)  # type: ignore[arg-type]
    return replace(state, players=tuple(players))


def play(state: GameState, text: str) -> GameState:
    return state.apply(Turn.parse(text))


def cards(*ids: str) -> tuple[cat.Card, ...]:
    return tuple(cat.card(i) for i in ids)


# ---------------------------------------------------------------- catalogue and setup
@pytest.mark.parametrize(("players", "gems", "nobles"), [(2, 4, 3), (3, 5, 4), (4, 7, 5)])
def test_setup_gives_4_5_7_gems_5_gold_and_players_plus_one_nobles(players, gems, nobles):
    state = new(players)
    assert state.supply == Tokens((gems,) * 5 + (5,))
    assert len(state.nobles) == nobles
    assert [len(row) for row in state.market] == [4, 4, 4]
    assert state.decks == (36, 26, 16)


def test_setup_refuses_wrong_number_of_nobles_or_players():
    with pytest.raises(SetupError, match="2 players reveal 3 nobles, not 4"):
        GameState.new(["A", "B"], ["n1", "n2", "n3", "n4"], MARKET)
    with pytest.raises(SetupError, match="2 to 4 players, not 5"):
        GameState.new(list("ABCDE"), ["n1"] * 6, MARKET)
    with pytest.raises(SetupError, match="not a level 2 card"):
        GameState.new(["A", "B"], ["n1", "n2", "n3"], [MARKET[0], MARKET[0], MARKET[2]])


# ---------------------------------------------------------------- take 3 different
def test_take_3_different_gems():
    state = play(new(), "take wug")
    assert state.players[0].tokens == Tokens.parse("wug")
    assert state.supply[cat.Gem.WHITE] == 3
    assert state.current == 1


def test_take_3_different_may_not_take_fewer_when_3_colours_are_available():
    with pytest.raises(IllegalAction, match="5 colours are left and you took 2"):
        play(new(), "take wu")


def test_take_3_with_only_2_colours_left_takes_2():
    state = replace(new(), supply=Tokens.parse("wwuuy"))
    after = play(state, "take wu")
    assert after.players[0].tokens == Tokens.parse("wu")
    with pytest.raises(IllegalAction, match="2 colours are left and you took 1"):
        play(state, "take w")


def test_take_3_with_only_1_colour_left_takes_1():
    state = replace(new(), supply=Tokens.parse("kk"))
    assert play(state, "take k").players[0].tokens == Tokens.parse("k")


def test_take_never_takes_gold():
    with pytest.raises(IllegalAction, match="Gold can never be taken"):
        play(new(), "take wuy")


def test_take_a_colour_the_supply_lacks_is_refused():
    state = replace(new(), supply=Tokens.parse("uuggrrkk"))
    with pytest.raises(IllegalAction, match="no white left"):
        play(state, "take wug")


def test_take_that_is_neither_shape_is_illegal_not_unreadable():
    with pytest.raises(IllegalAction, match="not 2 white, 1 blue"):
        play(new(), "take wwu")


# ---------------------------------------------------------------- take 2 of one colour
def test_take_2_of_one_colour_with_exactly_4_in_supply():
    state = new(2)  # 4 of each gem
    assert play(state, "take rr").supply[cat.Gem.RED] == 2


def test_take_2_of_one_colour_refused_with_3_in_supply():
    state = replace(new(), supply=Tokens.parse("wwwwuuuuggggrrrkkkk"))
    with pytest.raises(IllegalAction, match="at least 4 red in the supply; there are 3"):
        play(state, "take rr")


# ---------------------------------------------------------------- reserve
def test_reserve_face_up_card_takes_gold_and_reveals_replacement():
    state = play(new(), "reserve 2g1 reveal 2g2")
    ann = state.players[0]
    assert ann.reserved == cards("2g1")
    assert ann.tokens == Tokens.parse("y")
    assert state.market[1][2] == cat.card("2g2")
    assert state.decks[1] == 25


def test_reserve_from_deck_blind_stays_unknown():
    state = play(new(), "reserve deck3")
    assert state.players[0].reserved == (Hidden(3),)
    assert state.decks[2] == 15
    assert "deck3" in state.to_text()


def test_reserve_with_no_gold_left_still_reserves():
    state = replace(new(), supply=Tokens.parse("wwwwuuuuggggrrrrkkkk"))
    after = play(state, "reserve 1w1 reveal 1w2")
    assert after.players[0].tokens == Tokens()
    assert after.players[0].reserved == cards("1w1")


def test_fourth_reserve_is_refused():
    state = with_player(new(), reserved=(Hidden(1), Hidden(2), Hidden(3)))
    with pytest.raises(IllegalAction, match="at most 3 reserved cards; you hold 3"):
        play(state, "reserve 1w1 reveal 1w2")
    with pytest.raises(IllegalAction, match="at most 3 reserved"):
        play(state, "reserve deck1")


def test_reserved_cards_are_never_discarded():
    # No notation exists for a discard, and a turn never removes a reserved card
    # except by buying it.
    with pytest.raises(NotationError):
        Turn.parse("discard 1w1")
    state = with_player(new(), reserved=cards("1k1"), tokens=Tokens.parse("wwwwugrkk"))
    after = play(state, "take wug return ww")
    assert after.players[0].reserved == cards("1k1")


# ---------------------------------------------------------------- buy
def test_buy_pays_cost_minus_bonuses():
    # 2u1 costs ... ; give Ann bonuses and the exact tokens.
    card = cat.card("2u1")
    state = with_player(new(), tokens=card.cost, cards=())
    after = play(state, f"buy 2u1 pay {card.cost} reveal 2u2")
    assert after.players[0].cards == (card,)
    assert after.players[0].tokens == Tokens()
    assert after.supply == state.supply + card.cost


def test_bonuses_reduce_the_price():
    card = cat.card("1w4")  # 2 blue + 2 black
    state = with_player(new(), cards=cards("1u1", "1k1"), tokens=Tokens.parse("uk"))
    state = replace(state, market=((card, *state.market[0][1:]), *state.market[1:]))
    assert state.price(card) == Tokens.parse("uk")
    after = play(state, "buy 1w4 pay uk reveal 1w2")
    assert after.players[0].tokens == Tokens()


def test_bonuses_can_pay_for_a_card_entirely():
    card = cat.card("1w4")
    state = with_player(new(), cards=cards("1u1", "1u2", "1k1", "1k2"))
    state = replace(state, market=((card, *state.market[0][1:]), *state.market[1:]))
    after = play(state, "buy 1w4 reveal 1w2")
    assert after.players[0].cards[-1] == card


def test_gold_stands_in_for_any_gem_even_one_the_player_has():
    card = cat.card("1w4")  # 2 blue + 2 black
    state = with_player(new(), tokens=Tokens.parse("uukky"))
    state = replace(state, market=((card, *state.market[0][1:]), *state.market[1:]))
    after = play(state, "buy 1w4 pay ukky reveal 1w2")
    assert after.players[0].tokens == Tokens.parse("u")
    payments = state.payments(card)
    assert Tokens.parse("uukk") == payments[0]  # the fewest gold first
    assert Tokens.parse("ukky") in payments and Tokens.parse("uuky") in payments


def test_payment_must_match_the_price_exactly():
    card = cat.card("1w4")
    state = with_player(new(), tokens=Tokens.parse("uuukky"))
    state = replace(state, market=((card, *state.market[0][1:]), *state.market[1:]))
    with pytest.raises(IllegalAction, match="too much blue"):
        play(state, "buy 1w4 pay uuukk reveal 1w2")
    with pytest.raises(IllegalAction, match="leaves 1 to cover with gold, but 0 gold were paid"):
        play(state, "buy 1w4 pay ukk reveal 1w2")
    with pytest.raises(IllegalAction, match="cannot pay"):
        play(state, "buy 1w4 pay uukkk reveal 1w2")


def test_buy_own_reserved_card_needs_no_reveal():
    card = cat.card("3k1")
    state = with_player(new(), reserved=(card,), tokens=card.cost)
    after = play(state, f"buy 3k1 pay {card.cost}")
    assert after.players[0].reserved == ()
    with pytest.raises(IllegalAction, match="no market card is revealed"):
        play(state, f"buy 3k1 pay {card.cost} reveal 3k2")


def test_buy_another_players_reserved_card_is_refused():
    card = cat.card("3k1")
    state = with_player(new(), index=1, reserved=(card,))
    state = with_player(state, tokens=card.cost)
    with pytest.raises(IllegalAction, match="neither face up in the market nor reserved by Ann"):
        play(state, f"buy 3k1 pay {card.cost}")


def test_blind_reserved_card_is_named_when_bought():
    card = cat.card("3k1")
    state = with_player(new(), reserved=(Hidden(3),), tokens=card.cost)
    after = play(state, f"buy 3k1 pay {card.cost}")
    assert after.players[0].cards == (card,)
    # ...but it cannot be a card everybody can already see on the table.
    shown = cat.card("3k2")
    state = with_player(new(), reserved=(Hidden(3),), tokens=shown.cost)
    state = with_player(state, index=1, cards=(shown,))
    with pytest.raises(IllegalAction, match="already on the table"):
        play(state, f"buy 3k2 pay {shown.cost}")


# ---------------------------------------------------------------- replacing cards
def test_card_taken_from_market_is_replaced_by_a_reveal():
    assert needs_reveal(new(), ReserveCard("1w1")) == 1
    with pytest.raises(IllegalAction, match="name the card revealed"):
        play(new(), "reserve 1w1")


def test_reveal_must_be_an_unseen_card_of_that_level():
    with pytest.raises(IllegalAction, match="level 2; the empty slot is level 1"):
        play(new(), "reserve 1w1 reveal 2w2")
    with pytest.raises(IllegalAction, match="1u1 is already on the table"):
        play(new(), "reserve 1w1 reveal 1u1")


def test_empty_deck_leaves_the_slot_empty():
    state = replace(new(), decks=(0, 26, 16))
    assert needs_reveal(state, ReserveCard("1w1")) is None
    after = play(state, "reserve 1w1")
    assert after.market[0][0] is None
    with pytest.raises(IllegalAction, match="deck is empty"):
        play(state, "reserve 1w1 reveal 1w2")
    with pytest.raises(IllegalAction, match="level 1 deck is empty"):
        play(state, "reserve deck1")


def test_deck_running_out_over_a_game():
    state = replace(new(), decks=(1, 26, 16))
    after = play(state, "reserve 1w1 reveal 1w2")
    assert after.decks[0] == 0
    after = play(after, "reserve 1u1")
    assert after.market[0][1] is None


# ---------------------------------------------------------------- end of turn: tokens
def test_above_10_tokens_returns_down_to_10():
    state = with_player(new(), tokens=Tokens.parse("wwuuggrrkk"))
    with pytest.raises(IllegalAction, match="holds 13 tokens and must return 3"):
        play(state, "take wug")
    after = play(state, "take wug return rkk")
    assert after.players[0].tokens.total() == 10


def test_returned_tokens_may_be_ones_just_taken():
    state = with_player(new(), tokens=Tokens.parse("rrrrkkkkyy"))
    after = play(state, "take wug return wug")
    assert after.players[0].tokens == Tokens.parse("rrrrkkkkyy")
    assert after.supply == state.supply


def test_no_return_at_10_or_fewer():
    state = with_player(new(), tokens=Tokens.parse("rrrrkkk"))
    with pytest.raises(IllegalAction, match="only above 10; Ann holds 10"):
        play(state, "take wug return w")


def test_cannot_return_tokens_not_held():
    state = with_player(new(), tokens=Tokens.parse("rrrrkkkkyy"))
    with pytest.raises(IllegalAction, match="cannot return"):
        play(state, "take wug return uuu")


def test_reserving_gold_can_force_a_return_of_gold():
    state = with_player(new(), tokens=Tokens.parse("wwuuggrrkk"))
    after = play(state, "reserve 1w1 reveal 1w2 return y")
    assert after.players[0].tokens.total() == 10


# ---------------------------------------------------------------- nobles
def _ready_for_noble(state: GameState) -> GameState:
    # n1 needs 4 white + 4 blue; Ann has 4 white and 3 blue bonuses and buys a blue.
    bonuses = cards("1w1", "1w2", "1w3", "1w4", "1u2", "1u3", "1u4")
    state = with_player(state, cards=bonuses)
    return with_player(state, tokens=state.price(cat.card("1u1")))


def test_noble_visits_at_end_of_turn_and_cannot_be_refused():
    state = _ready_for_noble(new())
    text = f"buy 1u1 pay {state.player.tokens} reveal 1u5"
    with pytest.raises(IllegalAction, match="cannot be refused: n1 must visit Ann"):
        play(state, text)
    after = play(state, text + " noble n1")
    assert after.players[0].nobles == (cat.noble("n1"),)
    assert cat.noble("n1") not in after.nobles
    assert after.players[0].points == 3 + sum(c.points for c in after.players[0].cards)


def test_noble_who_does_not_qualify_cannot_visit():
    with pytest.raises(IllegalAction, match="cannot visit Ann"):
        play(new(), "take wug noble n1")
    with pytest.raises(IllegalAction, match="n9 is not on the table"):
        play(new(), "take wug noble n9")


def test_two_nobles_qualifying_player_chooses_one_per_turn():
    # n1: 4 white + 4 blue; n2: 4 white + 4 black.
    bonuses = cards("1w1", "1w2", "1w3", "1w4", "1u1", "1u2", "1u3", "1u4")
    state = with_player(new(), cards=(*bonuses, *cards("1k1", "1k2", "1k3", "1k4")))
    assert {n.id for n in state.qualifying_nobles()} == {"n1", "n2"}
    after = play(state, "take wug noble n2")
    assert after.players[0].nobles == (cat.noble("n2"),)
    # the other one visits at the end of the next turn, without a purchase
    after = play(after, "take wug")  # Bob
    with pytest.raises(IllegalAction, match="n1 must visit Ann"):
        play(after, "take wug")
    assert play(after, "take wug noble n1").players[0].points == 6


# ---------------------------------------------------------------- pass
def test_player_who_cannot_act_passes_and_only_then():
    with pytest.raises(IllegalAction, match="only allowed when no action is possible"):
        play(new(), "pass")
    stuck = replace(
        new(),
        supply=Tokens(),
        market=((None,) * 4, (None,) * 4, (None,) * 4),
        decks=(0, 0, 0),
    )
    assert stuck.legal_actions() == [Pass()]
    after = play(stuck, "pass")
    assert after.current == 1 and after.passes == 1


def test_when_every_player_passes_the_game_ends_as_it_stands():
    stuck = replace(
        new(),
        supply=Tokens(),
        market=((None,) * 4, (None,) * 4, (None,) * 4),
        decks=(0, 0, 0),
    )
    stuck = with_player(stuck, index=1, cards=cards("1w8"))  # Bob has 1 point
    end = play(play(stuck, "pass"), "pass")
    outcome = end.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    assert outcome.winners == ("Bob",)
    assert "No player could take any action" in outcome.reason


# ---------------------------------------------------------------- end of game
def _points(state: GameState, index: int, cards_: tuple[cat.Card, ...]) -> GameState:
    return with_player(state, index=index, cards=cards_)


FIFTEEN = cards("3w1", "3u1", "3g1")  # level-3 cards: enough points
STRONG = tuple(c for c in cat.cards_of_level(3) if c.points >= 4)


def test_reaching_15_triggers_the_final_round_which_is_completed():
    state = new(3)
    state = _points(state, 1, STRONG[:4])  # Bob already at 16+ but the trigger is end-of-turn
    assert state.players[1].points >= 15
    state = play(state, "take wug")  # Ann
    assert not state.final_round
    state = play(state, "take wug")  # Bob ends his turn on 15+
    assert state.final_round and not state.is_over()
    state = play(state, "take wug")  # Cy, the last player, still plays
    assert state.is_over()
    with pytest.raises(IllegalAction, match="game is over"):
        play(state, "take wug")


def test_last_player_in_turn_order_triggering_ends_at_once():
    state = _points(new(2), 1, STRONG[:4])
    state = play(play(state, "take wug"), "take wug")
    assert state.is_over()
    assert state.outcome() is not None


def test_most_points_wins():
    state = _points(_points(new(2), 0, STRONG[:4]), 1, STRONG[4:7])
    state = play(play(state, "take wug"), "take wug")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("Ann",)
    assert outcome.reason.startswith("Ann wins with")


def test_tie_broken_by_fewest_purchased_cards():
    ann = STRONG[:4]  # 17 points on 4 cards
    bob = STRONG[4:8] + cards("1w1")  # 17 points on 5 cards
    state = _points(_points(new(2), 0, ann), 1, bob)
    points = state.players[0].points
    assert points == state.players[1].points
    state = play(play(state, "take wug"), "take wug")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("Ann",)
    assert f"tie on {points} points; Ann wins with fewer development cards (4 against 5)" in (
        outcome.reason
    )


def test_full_tie_shares_the_victory():
    state = _points(_points(new(2), 0, STRONG[:4]), 1, STRONG[4:8])
    assert state.players[0].points == state.players[1].points
    state = play(play(state, "take wug"), "take wug")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("Ann", "Bob") and outcome.shared
    assert "share the victory" in outcome.reason


# ---------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "text",
    [
        "take wug",
        "take rr",
        "take k",
        "reserve 2g3 reveal 2u5",
        "reserve deck2",
        "reserve 1w1 reveal 1w2 return y",
        "buy 2g3 pay uukky reveal 2g4",
        "buy 1w4",
        "buy 3k1 pay wwwrr noble n7",
        "take wug return wwk noble n3",
        "pass",
    ],
)
def test_notation_round_trips(text):
    turn = Turn.parse(text)
    assert str(turn) == text
    assert Turn.parse(str(turn)) == turn
    assert eval(repr(turn), {"Turn": Turn}) == turn


def test_notation_reading_is_lenient_writing_canonical():
    assert str(Turn.parse("  TAKE  GUW  ")) == "take wug"
    assert Turn.parse("buy 2G3 pay 2u1y") == Turn(Buy("2g3", Tokens.parse("uuy")))
    assert Turn.parse("reserve DECK1").action == ReserveDeck(1)
    assert Turn.parse("take rr").action == Take(Tokens.parse("rr"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty turn"),
        ("grab wug", "'grab' is not an action"),
        ("take wxz", "'x' is not a token letter"),
        ("reserve 9w1", "'9w1' is not a card id"),
        ("reserve deck4", "'deck4' is not a deck"),
        ("buy 1w1 pay", "'pay' needs the tokens"),
        ("take wug noble n11", "'n11' is not a noble id"),
        ("take wug return", "'return' needs a value"),
        ("take wug return w return u", "appears twice"),
        ("take wug please", "'please' is not part of a turn"),
    ],
)
def test_unreadable_notation_is_a_notation_error(text, message):
    with pytest.raises(NotationError, match=message):
        Turn.parse(text)


def test_unreadable_and_illegal_are_different_errors():
    assert not issubclass(NotationError, IllegalAction)
    assert not issubclass(IllegalAction, NotationError)


# ---------------------------------------------------------------- enumeration
def test_legal_actions_all_apply():
    state = new(3)
    for action in state.legal_actions():
        level = needs_reveal(state, action)
        reveal = next(iter(sorted(state.unseen(level), key=str))).id if level else None
        mid = state.after_action(action, reveal)
        returned = state.return_options(mid)[0]
        state.apply(Turn(action, reveal, returned))


def test_payments_lists_every_gold_split():
    card = cat.card("1w4")  # 2 blue + 2 black
    state = with_player(new(), tokens=Tokens.parse("uukkyy"))
    got = {str(p) for p in state.payments(card)}
    assert got == {"uukk", "ukky", "uuky", "kkyy", "uuyy", "ukyy"}
