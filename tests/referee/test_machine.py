"""The turn loop, driven by scripted readings and button presses (no pixels, no pygame)."""

from __future__ import annotations

from dataclasses import replace

from companion.referee import (
    Buzz,
    GameOver,
    GameStarted,
    Phase,
    TableRead,
    TurnConfirmed,
    TurnUndone,
    Undo,
)
from companion.referee.splendor import CardRead, Referee, TableReading, predict
from companion.rules.splendor.actions import Buy, ReserveCard, Take, Turn
from companion.rules.splendor.simulate import play_game
from companion.screen.view import Mode
from tests.referee.referee_helpers import (
    NAMES,
    cards,
    choose,
    new_state,
    press,
    referee_at,
    show,
    tokens,
    with_player,
)


def confirmed(effects: list) -> list[Turn]:
    return [e.turn for e in effects if isinstance(e, TurnConfirmed)]


def test_setup_from_the_camera_then_start() -> None:
    state = new_state()
    ref = Referee(NAMES)
    show(ref, state)
    assert ref.phase is Phase.SETUP and ref.setup_state == state
    assert ref.view().mode is Mode.SETUP
    effects = press(ref, "confirm")
    assert next(e for e in effects if isinstance(e, GameStarted)).state == state
    assert ref.phase is Phase.WATCH and ref.state == state


def test_setup_asks_for_an_unsure_card_among_its_candidates() -> None:
    state = new_state()
    reading = predict(state)
    assert reading.market is not None
    rows = [list(r) for r in reading.market]
    rows[1][2] = CardRead((("2g2", 0.45), ("2g1", 0.4)))
    show(ref := Referee(NAMES), replace(reading, market=tuple(tuple(r) for r in rows)))
    assert ref.phase is Phase.ASK
    question = ref.question()
    assert question is not None and "Level 2" in question.title
    assert question.labels()[0].startswith("2g2") and question.labels()[1].startswith("2g1")
    choose(ref, "2g1")
    assert ref.phase is Phase.SETUP and ref.setup_state == state


def test_one_reading_is_not_enough_and_an_unchanged_table_is_ignored() -> None:
    state = new_state()
    ref = referee_at(state)
    after = state.apply(Turn.parse("take wug"))
    assert ref.handle(TableRead(predict(after))) == []
    assert ref.phase is Phase.WATCH  # hands may still be there: wait for agreement
    ref.handle(TableRead(predict(after)))
    assert ref.phase is Phase.PROPOSE
    press(ref, "back")  # cancelled: the same table does not bring it back
    show(ref, after)
    assert ref.phase is Phase.WATCH


def test_a_seeded_game_is_refereed_turn_by_turn() -> None:
    record, states = play_game(5, 3)
    ref = referee_at(states[0])
    nexts = 0
    for before, turn, after in zip(states, record.turns, states[1:], strict=False):
        show(ref, after)
        assert ref.phase is Phase.PROPOSE, (str(turn), ref.view().text)
        assert ref.state == before
        for _ in range(len(ref.candidates)):
            if ref.candidates[ref.index].turn == turn:
                break
            press(ref, "next")
            nexts += 1
        assert ref.candidates[ref.index].turn == turn
        assert confirmed(press(ref, "confirm")) == [turn]
        assert ref.state == after
    assert ref.phase is Phase.OVER
    assert nexts <= len(record.turns) // 10  # the first guess is nearly always right
    assert ref.view().outcome == states[-1].outcome()


def test_illegal_take_is_explained_with_the_rule_and_a_buzz() -> None:
    state = new_state()
    state = with_player(state, 2, tokens=tokens("rr"))  # 3 red left in the supply
    state = replace(state, current=1)
    ref = referee_at(state)
    bob_took_rr = with_player(state, 1, tokens=tokens("rr"))
    effects = show(ref, bob_took_rr)
    assert ref.phase is Phase.PROBLEM
    assert any(isinstance(e, Buzz) for e in effects)
    reason = ref.view().text
    assert "Bob took 2 red" in reason and "at least 4 red" in reason and "there are 3" in reason
    # The table is put right: nothing to do; then the real turn is proposed.
    show(ref, state)
    assert ref.phase is Phase.WATCH
    show(ref, state.apply(Turn.parse("take wur")))
    assert ref.phase is Phase.PROPOSE
    assert str(ref.candidates[0].turn) == "take wur"


def test_tokens_taken_from_another_player_are_named() -> None:
    state = with_player(new_state(), 0, tokens=tokens("wu"))
    state = replace(state, current=1)
    ref = referee_at(state)
    moved = with_player(with_player(state, 0, tokens=tokens("w")), 1, tokens=tokens("u"))
    show(ref, moved)
    assert ref.phase is Phase.PROBLEM
    assert "Ann's tokens changed" in ref.view().text


def test_above_ten_the_screen_asks_for_the_return() -> None:
    state = with_player(new_state(), 0, tokens=tokens("wwuuggrrk"))  # 9 tokens
    ref = referee_at(state)
    mid = state.after_action(Take(tokens("wuk")))  # 12 on the table
    show(ref, mid)
    assert ref.phase is Phase.PROPOSE
    best = ref.candidates[0]
    assert best.turn.action == Take(tokens("wuk")) and "return" in best.ask
    press(ref, "confirm")
    question = ref.question()
    assert question is not None and "return 2" in question.title
    choose(ref, "Red")
    choose(ref, "Black")
    assert ref.phase is Phase.WATCH
    assert str(ref.history[-1][1]) == "take wuk return rk"


def test_a_return_the_table_shows_is_not_asked() -> None:
    state = with_player(new_state(), 0, tokens=tokens("wwuuggrrk"))
    after = state.apply(Turn.parse("take wuk return gg"))
    ref = referee_at(state)
    show(ref, after)
    assert ref.candidates[0].turn == Turn.parse("take wuk return gg")
    assert ref.candidates[0].ask == ()


def _two_nobles_state():
    """Ann has 4 blue, 3 green and 4 red bonuses; n3 (4u 4g) and n4 (4g 4r) are out."""
    state = new_state()
    bonus_cards = cards("1u2", "1u3", "1u4", "1u5", "1g2", "1g3", "1g4", "1r2", "1r3", "1r4", "1r5")
    return with_player(state, 0, cards=bonus_cards, tokens=tokens("ww"))


def test_two_nobles_the_players_choose() -> None:
    state = _two_nobles_state()
    turn = Turn(Buy("1g1", tokens("ww")), reveal="1g5")
    ref = referee_at(state)
    reading = predict(state.apply(replace(turn, noble="n3")))
    show(ref, replace(reading, nobles=None))  # the nobles row is not read
    best = ref.candidates[0]
    assert best.turn.action == Buy("1g1", tokens("ww")) and best.ask == ("noble",)
    press(ref, "confirm")
    question = ref.question()
    assert question is not None and len(question.options) == 2
    choose(ref, "n4")
    assert ref.history[-1][1] == replace(turn, noble="n4")
    assert [n.id for n in ref.state.players[0].nobles] == ["n4"]


def test_two_nobles_pinned_by_the_tile_taken() -> None:
    state = _two_nobles_state()
    turn = Turn(Buy("1g1", tokens("ww")), reveal="1g5", noble="n4")
    ref = referee_at(state)
    show(ref, state.apply(turn))
    assert ref.candidates[0].turn == turn and ref.candidates[0].ask == ()


def test_undo_restores_and_waits_for_the_table() -> None:
    state = new_state()
    ref = referee_at(state)
    turn = Turn.parse("take wug")
    after = state.apply(turn)
    show(ref, after)
    press(ref, "confirm")
    effects = ref.handle(Undo())
    assert [e.turn for e in effects if isinstance(e, TurnUndone)] == [turn]
    assert ref.state == state and ref.history == []
    show(ref, after)  # the table still shows the undone turn
    assert ref.phase is Phase.WATCH and ref.restore == str(turn)
    assert "Put the table back" in ref.view().text
    show(ref, state)
    assert ref.restore is None
    # ... and play goes on, undo is repeatable
    show(ref, after)
    press(ref, "confirm")
    second = Turn.parse("take urk")
    show(ref, after.apply(second))
    press(ref, "confirm")
    ref.handle(Undo())
    ref.handle(Undo())
    assert ref.state == state
    assert ref.handle(Undo()) == [] and "Nothing to undo" in ref.note


def test_an_unsure_reveal_is_asked_among_its_slot_candidates() -> None:
    state = new_state()
    turn = Turn.parse("reserve 2u1 reveal 2u3")
    reading = predict(state.apply(turn))
    assert reading.market is not None
    rows = [list(r) for r in reading.market]
    rows[1][1] = CardRead((("2u2", 0.5), ("2u3", 0.42), ("2k1", 0.2)))
    reading = replace(reading, market=tuple(tuple(r) for r in rows))
    ref = referee_at(state)
    show(ref, reading)
    best = ref.candidates[0]
    assert best.turn.action == ReserveCard("2u1") and best.ask == ("reveal",)
    press(ref, "confirm")
    question = ref.question()
    assert question is not None
    assert [label.split(" ")[0] for label in question.labels()[:3]] == ["2u2", "2u3", "2k1"]
    choose(ref, "2u3")
    assert ref.history[-1][1] == turn


def test_an_unreadable_reveal_is_entered_by_colour_then_card() -> None:
    state = new_state()
    turn = Turn.parse("reserve 3r1 reveal 3k2")
    reading = predict(state.apply(turn))
    assert reading.market is not None
    rows = [list(r) for r in reading.market]
    rows[2][3] = CardRead()
    ref = referee_at(state)
    show(ref, replace(reading, market=tuple(tuple(r) for r in rows)))
    press(ref, "confirm")
    choose(ref, "Black")
    choose(ref, "3k2")
    assert ref.history[-1][1] == turn


def test_manual_entry_without_a_camera() -> None:
    state = with_player(new_state(), 0, tokens=tokens("wwwuugrk"))
    ref = referee_at(state)
    press(ref, "next")  # WATCH: enter by hand
    assert ref.view().mode is Mode.CHOICE
    choose(ref, "Buy a card")
    choose(ref, "Level 1")
    choose(ref, "1w1")
    question = ref.question()
    if question is not None and question.key == "payment":
        press(ref, "confirm")
    choose(ref, "White")
    choose(ref, "1w2")
    turn = ref.history[-1][1]
    assert turn.action.card == "1w1" and turn.reveal == "1w2"
    # the next player takes gems, all by buttons; BACK goes back one question
    press(ref, "next")
    choose(ref, "Take 2")
    press(ref, "back")
    choose(ref, "Take different")
    choose(ref, "(wug)")
    assert str(ref.history[-1][1]) == "take wug"
    assert ref.state.current == 2


def test_manual_entry_offers_only_legal_choices() -> None:
    state = new_state()
    ref = referee_at(state)
    press(ref, "next")
    kinds = ref.question().labels()
    assert "Buy a card" not in kinds and "Pass (no action possible)" not in kinds


def test_the_reader_keeps_abstaining_and_suggests_the_buttons() -> None:
    ref = referee_at(new_state())
    blank = TableReading(calibrated=False)
    for _ in range(3):
        show(ref, blank)
        show(ref, TableReading(calibrated=False, supply=tokens("w")))  # a different blank
    assert "enter by hand" in ref.view().note


def test_final_round_and_standings() -> None:
    """Ann reaches 15 with her purchase; Bob and Cy finish the round; standings follow."""
    state = new_state()
    state = with_player(state, 0, cards=cards("3w4", "3u4", "3g3"), tokens=tokens("wuurrr"))
    state = with_player(state, 2, cards=cards("3r2", "3r3"))
    assert state.players[0].points == 14
    turn = Turn(Buy("2w1", tokens("wuurrr")), reveal="2k3")  # 1 point: 15
    ref = referee_at(state)
    show(ref, state.apply(turn))
    effects = press(ref, "confirm")
    assert confirmed(effects) == [turn]
    assert any(isinstance(e, Buzz) and e.pattern == "attention" for e in effects)
    assert "Final round" in ref.view().note and ref.state.final_round
    show(ref, ref.state.apply(Turn.parse("take wug")))
    assert not any(isinstance(e, GameOver) for e in press(ref, "confirm"))
    assert ref.phase is Phase.WATCH and ref.state.final_round
    show(ref, ref.state.apply(Turn.parse("take urk")))
    effects = press(ref, "confirm")
    over = [e for e in effects if isinstance(e, GameOver)]
    assert over and ref.phase is Phase.OVER
    outcome = over[0].outcome
    assert outcome.winners == ("Ann",)
    assert [s.name for s in outcome.standings] == ["Ann", "Cy", "Bob"]
    view = ref.view()
    assert view.mode is Mode.END and view.text == outcome.reason
    assert view.outcome == outcome


def test_a_card_the_reader_keeps_misreading_is_forgiven_once_confirmed() -> None:
    state = new_state()
    misread = predict(state)
    assert misread.market is not None
    rows = [list(r) for r in misread.market]
    rows[2][2] = CardRead.of("3w3")  # 3g1 is always read as 3w3
    misread = replace(misread, market=tuple(tuple(r) for r in rows))
    ref = Referee(NAMES)
    show(ref, misread)
    assert ref.phase is Phase.SETUP and ref.setup_state != state
    press(ref, "back")  # the players fix the market by hand...
    while ref.phase is Phase.ASK:
        question = ref.question()
        key = question.key
        if key == "market3.3":
            choose(ref, "Another card")
        elif key == "market3.3/colour":
            choose(ref, "Green")
        elif key == "market3.3/card":
            choose(ref, "3g1")
        else:
            press(ref, "confirm")  # the other slots offer what was read first
    assert ref.setup_state == state
    press(ref, "confirm")
    # ... and the same misread no longer stands between them and the next turns
    turn = Turn.parse("take wug")
    after = predict(state.apply(turn))
    show(ref, replace(after, market=misread.market))
    assert ref.phase is Phase.PROPOSE and ref.candidates[0].turn == turn
    assert ref.candidates[0].distance == 0


def test_an_underpaid_purchase_is_explained() -> None:
    state = with_player(new_state(), 0, tokens=tokens("ww"))
    ref = referee_at(state)
    reading = predict(state)
    assert reading.market is not None
    rows = [list(r) for r in reading.market]
    rows[0][3] = CardRead.of("1r2")  # 1r1 (3 white) is gone, 1r2 revealed
    players = list(reading.players)
    players[0] = replace(players[0], tokens=tokens(""), bonuses=tokens("r"))
    supply = reading.supply + tokens("ww")
    show(ref, replace(reading, market=tuple(tuple(r) for r in rows), players=tuple(players),
                      supply=supply))
    assert ref.phase is Phase.PROBLEM
    reason = ref.view().text
    assert reason.startswith("Ann bought 1r1 paying 2 white") and "costs 3 white" in reason


def test_every_screen_of_a_game_draws_without_overlap() -> None:
    """The views the referee builds fit the 800x480 screen in every phase."""
    from companion.screen.draw import Screen
    from companion.screen.painter import layout_problems

    screen = Screen((800, 480))
    state = with_player(new_state(("Annabelle-Marguerite", "Bob", "Cy")), 0,
                        tokens=tokens("wwuuggrrk"))
    ref = Referee([p.name for p in state.players])
    seen = set()

    def check() -> None:
        screen.draw(ref.view())
        assert layout_problems(screen.drawn, (800, 480)) == [], ref.phase
        seen.add(ref.phase)

    check()  # waiting for the camera
    show(ref, new_state(("Annabelle-Marguerite", "Bob", "Cy")))
    check()
    ref = referee_at(state)
    check()
    show(ref, state.after_action(Take(tokens("wuk"))))  # 12 tokens: a return is asked
    check()
    press(ref, "confirm")
    check()
    press(ref, "back", "back")
    bob_took_rr = with_player(state, 1, tokens=tokens("kk"))
    show(ref, bob_took_rr)
    check()
    assert {Phase.SETUP, Phase.WATCH, Phase.PROPOSE, Phase.ASK, Phase.PROBLEM} <= seen


def test_an_unchanged_table_with_an_unread_market_card_is_pointed_out() -> None:
    """The table reads as before, but a market card was not read: a free purchase
    (paid with bonuses) leaves no other trace on the central mat, so the screen says
    which place it cannot see and that NEXT enters the turn; a full reading clears it."""
    state = new_state()
    ref = referee_at(state)
    full = predict(state)
    assert full.market is not None
    rows = [list(row) for row in full.market]
    rows[1][2] = CardRead()  # level 2, third slot: not read
    show(ref, replace(full, market=tuple(tuple(r) for r in rows)))
    assert ref.phase is Phase.WATCH
    assert "market 2.3" in ref.note and "NEXT" in ref.note
    show(ref, full)
    assert ref.note == ""
