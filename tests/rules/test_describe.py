"""describe_turn: every kind of turn in words, checked against the catalogue and the state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.gems import Gem, Tokens
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.describe import (
    describe_action,
    describe_card,
    describe_tokens,
    describe_turn,
    join_words,
)
from companion.rules.splendor.simulate import play_game
from companion.rules.splendor.state import GameState, Hidden


def _level_cards(level: int, n: int = 4) -> list[str]:
    return [c.id for c in catalogue.cards_of_level(level)[:n]]


def _game(names: tuple[str, ...] = ("Ann", "Bob")) -> GameState:
    return GameState.new(
        list(names),
        [f"n{i}" for i in range(1, len(names) + 2)],
        [_level_cards(1), _level_cards(2), _level_cards(3)],
    )


def _with_mover(state: GameState, **changes: object) -> GameState:
    players = list(state.players)
    players[state.current] = replace(players[state.current], **changes)  # type: ignore[arg-type]
    return replace(state, players=tuple(players))


def test_join_words_reads_as_english():
    assert join_words([]) == ""
    assert join_words(["a"]) == "a"
    assert join_words(["a", "b"]) == "a and b"
    assert join_words(["a", "b", "c"]) == "a, b and c"


def test_tokens_in_words():
    assert describe_tokens(Tokens.parse("wug")) == "1 white, 1 blue and 1 green"
    assert describe_tokens(Tokens.parse("kkky")) == "3 black and 1 gold"
    assert describe_tokens(Tokens()) == "nothing"


def test_take_names_mover_and_gems():
    state = _game()
    assert describe_turn(state, Turn(Take(Tokens.parse("rr")))) == "Ann takes 2 red"
    text = describe_turn(state, Turn(Take(Tokens.parse("wuk"))))
    assert text == "Ann takes 1 white, 1 blue and 1 black"


def test_take_with_return():
    state = _game()
    turn = Turn(Take(Tokens.parse("wug")), returned=Tokens.parse("wy"))
    assert describe_turn(state, turn) == (
        "Ann takes 1 white, 1 blue and 1 green; returns 1 white and 1 gold"
    )


def test_buy_with_payment_reveal_and_noble():
    state = _game()
    card = state.market[1][0]
    assert card is not None
    reveal = next(iter(sorted(state.unseen(2), key=lambda c: c.id)))
    noble = state.nobles[0]
    turn = Turn(Buy(card.id, Tokens.parse("kkky")), reveal=reveal.id, noble=noble.id)
    text = describe_turn(state, turn)
    assert text.startswith(f"Ann buys {describe_card(card)} paying 3 black and 1 gold; ")
    assert f"; {reveal.id} (level 2 {reveal.bonus.label}" in text
    need = " + ".join(f"{n} {g.label}" for g, n in noble.requirement.items() if n)
    assert text.endswith(f"noble {noble.id} ({need}) visits: 3 points")


def test_card_words_from_catalogue():
    card = catalogue.card("3k4")
    assert describe_card(card) == f"the level 3 black card ({card.points} points)"
    zero = next(c for c in catalogue.cards() if c.points == 0)
    assert describe_card(zero) == f"the level 1 {zero.bonus.label} card"


def test_free_buy_and_buy_from_reserve():
    state = _game()
    reserved = catalogue.card("2u1")
    state = _with_mover(state, reserved=(reserved,))
    text = describe_action(state, Buy(reserved.id))
    assert text == (
        f"Ann buys {describe_card(reserved)} from their reserve for free with their bonuses"
    )


def test_buy_card_reserved_blind_is_from_reserve():
    state = _with_mover(_game(), reserved=(Hidden(3),))
    card = sorted(state.unseen(3), key=lambda c: c.id)[0]
    text = describe_action(state, Buy(card.id, Tokens.parse("wwwy")))
    assert "from their reserve paying 3 white and 1 gold" in text


def test_reserve_mentions_gold_only_when_left():
    state = _game()
    card = state.market[0][2]
    assert card is not None
    assert describe_action(state, ReserveCard(card.id)) == (
        f"Ann reserves {describe_card(card)} and takes 1 gold"
    )
    no_gold = replace(state, supply=state.supply - Tokens({Gem.GOLD: 5}))
    assert describe_action(no_gold, ReserveDeck(2)) == (
        "Ann reserves the top card of the level 2 deck, unseen (no gold is left)"
    )


def test_pass_and_unknown_ids_still_get_words():
    state = _game()
    assert describe_turn(state, Turn(Pass())) == "Ann passes: no action is possible"


def test_reaching_fifteen_announces_final_round():
    state = _game()
    rich = [c for c in catalogue.cards() if c.points >= 4][:3]  # 12+ points
    state = _with_mover(state, cards=tuple(rich))
    before = state.player.points
    card = next(c for c in state.market_cards() if c.points + before >= 15)
    text = describe_turn(state, Turn(Buy(card.id, Tokens())))
    assert text.endswith(f"reaches {before + card.points} points: final round")
    already = replace(state, end_triggered=True)
    assert "final round" not in describe_turn(already, Turn(Buy(card.id, Tokens())))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_turn_of_a_seeded_game_is_described(seed):
    record, states = play_game(seed, ("Ann", "Bob", "Cy"), "greedy")
    for state, turn in zip(states, record.turns, strict=False):
        text = describe_turn(state, turn)
        assert text.startswith(state.player.name + " ")
        if isinstance(turn.action, Buy) and turn.action.payment:
            assert f"paying {describe_tokens(turn.action.payment)}" in text
        if turn.reveal:
            assert f"{turn.reveal} (level" in text
        if turn.noble:
            assert f"noble {turn.noble} (" in text
        # Words, not notation: no raw verbs of the notation remain.
        assert " pay " not in text and " reveal " not in text
