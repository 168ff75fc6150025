"""Whole games against the computer seat, through the referee machine (no pixels).

The table is simulated: a seeded deck gives the cards revealed, the person
(Ann) plays the ``greedy`` policy on it and the referee reads the table as it
is (``predict``); the computer's turns are carried out on the table as the
screen says.  Tests assert what the players meet: the steps shown, the turn
confirmed without a button, a wrong table named, CONFIRM without a camera, a
hint, undo and resume.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.analysis.seat import LEVELS
from companion.referee.computer import (
    ComputerReferee,
    SeatError,
    hints_from_headers,
    parse_seats,
    seats_from_headers,
    seats_header,
)
from companion.referee.machine import (
    Key,
    LogHeader,
    Motion,
    Phase,
    Press,
    TableRead,
    TurnConfirmed,
    Undo,
)
from companion.referee.splendor.computer import SPLENDOR_BRAIN
from companion.referee.splendor.reading import predict
from companion.rules.splendor.actions import Buy, ReserveCard, Take, Turn
from companion.rules.splendor.deck import Deck
from companion.rules.splendor.players import POLICIES, choose_turn
from companion.rules.splendor.state import GameState, needs_reveal
from companion.screen.view import Mode

NAMES = ("Ann", "Bob")


def _referee(state: GameState | None = None, camera: bool = True,
             level: int = 1, **kw: object) -> ComputerReferee:  # type: ignore[type-arg]
    return ComputerReferee(NAMES, brain=SPLENDOR_BRAIN, seats={"Bob": level}, state=state,
                           camera=camera, **kw)  # type: ignore[arg-type]


def _see(ref: ComputerReferee, state: GameState) -> list:  # type: ignore[type-arg]
    effects = list(ref.handle(Motion()))
    for _ in range(2):
        effects += ref.handle(TableRead(predict(state)))
    return effects


def _with_reveal(state: GameState, turn: Turn, deck: Deck) -> Turn:
    level = needs_reveal(state, turn.action)
    if level is None:
        return turn
    card = deck.draw(level)
    return replace(turn, reveal=card.id if card else None)


def test_seat_specs_and_headers() -> None:
    assert parse_seats(["Bob:5", "1"], ("Ann", "Bob", "Cy")) == {"Bob": 5, "Ann": 3}
    for bad in (["Zed"], ["Bob:9"], ["4"], ["Ann", "Bob"], ["Bob", "Bob:2"]):
        with pytest.raises(SeatError):
            parse_seats(bad, ("Ann", "Bob"))
    header = seats_header({"Bob": 5, "Ann": 3})
    assert seats_from_headers({"Computer": header}) == {"Bob": 5, "Ann": 3}
    assert hints_from_headers({"Hints": "3 9"}) == [3, 9]


def _play_with_camera(seed: int, level: int = 1) -> tuple[ComputerReferee, int]:  # type: ignore[type-arg]
    deck = Deck(seed)
    state = deck.deal(NAMES)
    ref = _referee(state, level=level)
    rng = random.Random(seed)
    computer_turns = 0
    while not state.is_over():
        assert ref.phase is Phase.WATCH, ref.problem
        if state.player.name == "Bob":
            view = ref.view()
            assert view.title.startswith("Bob (computer, level")
            assert "1. " in view.text
            plan = ref.plan()
            assert plan is not None
            turn = _with_reveal(state, plan.turn, deck)
            computer_turns += 1
        else:
            def reveal(level: int) -> str | None:
                card = deck.draw(level)
                return card.id if card else None
            turn = choose_turn(state, POLICIES["greedy"], rng, reveal, [])
        after = state.apply(turn)
        effects = _see(ref, after)
        if state.player.name == "Bob":
            # the computer's turn is confirmed as soon as the table shows it
            assert [e.turn for e in effects if isinstance(e, TurnConfirmed)] == [turn]
        else:
            assert ref.phase is Phase.PROPOSE
            ref.handle(Press(Key.CONFIRM))
        assert ref.state == after
        state = after
    assert ref.phase is Phase.OVER
    return ref, computer_turns


def test_a_whole_game_against_the_computer_with_the_camera() -> None:
    ref, turns = _play_with_camera(3)
    assert turns > 10 and len(ref.think_times) >= turns


def _to_computer(seed: int, **kw: object) -> tuple[ComputerReferee, GameState, Deck]:  # type: ignore[type-arg]
    """A referee after Ann's first turn (take 3 gems): Bob, the computer, to move."""
    deck = Deck(seed)
    state = deck.deal(NAMES)
    ref = _referee(state, **kw)  # type: ignore[arg-type]
    take = next(a for a in state.legal_actions() if isinstance(a, Take))
    after = state.apply(Turn(take))
    if ref.camera:
        _see(ref, after)
        ref.handle(Press(Key.CONFIRM))
    else:
        ref.history.append((state, Turn(take)))
        ref.state = after
    assert ref.state == after and ref.computer_to_move() is not None
    return ref, after, deck


def test_a_computer_turn_carried_out_wrongly_is_named_then_put_right() -> None:
    ref, state, deck = _to_computer(4)
    plan = ref.plan()
    assert plan is not None
    other = next(a for a in state.legal_actions()
                 if isinstance(a, Take) and a != plan.turn.action)
    wrong = _with_reveal(state, Turn(other), deck)
    effects = _see(ref, state.apply(wrong))
    assert ref.phase is Phase.PROBLEM and not any(isinstance(e, TurnConfirmed) for e in effects)
    view = ref.view()
    assert view.mode is Mode.ERROR and "not Bob's turn" in view.text
    assert str(plan.turn) in view.text  # what was expected, in notation too
    right = _with_reveal(state, plan.turn, Deck(99))
    effects = _see(ref, state.apply(right))
    assert [e.turn for e in effects if isinstance(e, TurnConfirmed)] == [right]


def test_without_a_camera_confirm_enters_the_plan_and_asks_only_the_reveal() -> None:
    for seed in range(5, 40):
        ref, state, _ = _to_computer(seed, camera=False, level=1)
        plan = ref.plan()
        assert plan is not None
        if isinstance(plan.turn.action, Buy | ReserveCard) and needs_reveal(state,
                                                                            plan.turn.action):
            break
        effects = ref.handle(Press(Key.CONFIRM))
        assert [e.turn for e in effects if isinstance(e, TurnConfirmed)] == [plan.turn]
    else:
        pytest.skip("no seed made the computer buy or reserve on its first turn")
    assert "Then press CONFIRM." in ref.view().text
    ref.handle(Press(Key.CONFIRM))
    assert ref.phase is Phase.ASK
    question = ref.question()
    assert question is not None and question.key.startswith("reveal")
    effects: list = []  # type: ignore[type-arg]
    while ref.phase is Phase.ASK:  # the first card of each menu
        question = ref.question()
        assert question is not None and question.key.startswith("reveal")
        effects += ref.handle(Press(Key.CONFIRM))
    done = [e.turn for e in effects if isinstance(e, TurnConfirmed)]
    assert len(done) == 1 and done[0].action == plan.turn.action and done[0].reveal


def test_undo_over_a_computer_turn_brings_its_plan_back() -> None:
    ref, state, deck = _to_computer(6)
    plan = ref.plan()
    assert plan is not None
    played = _with_reveal(state, plan.turn, deck)
    _see(ref, state.apply(played))
    assert ref.state == state.apply(played) and ref.computer_to_move() is None
    ref.handle(Undo())
    assert ref.state == state and ref.restore is not None
    _see(ref, state)  # the table is put back
    assert ref.phase is Phase.WATCH and ref.restore is None
    again = ref.plan()
    assert again is not None and again.turn == plan.turn  # the same position, the same plan
    assert ref.view().title.startswith("Bob (computer")


def test_a_hint_is_shown_logged_once_and_gone_after_the_turn() -> None:
    deck = Deck(7)
    state = deck.deal(NAMES)
    ref = _referee(state, hinted=[])
    assert ref.view().hints.back == "Hint"
    effects = ref.handle(Press(Key.BACK))
    assert LogHeader("Hints", "1") in effects
    view = ref.view()
    assert view.title == "Hint for Ann" and view.text.startswith("Best: Ann ")
    assert 1 <= view.text.count("%") <= 3
    assert not any(isinstance(e, LogHeader) for e in ref.handle(Press(Key.BACK)))
    take = next(a for a in state.legal_actions() if isinstance(a, Take))
    _see(ref, state.apply(Turn(take)))
    ref.handle(Press(Key.CONFIRM))
    assert ref.view().title.startswith("Bob (computer")  # the hint is gone with its turn
    assert ref.hinted == [1]


def test_levels_are_a_noisy_rule_the_rule_then_searches_that_grow() -> None:
    assert not LEVELS[1].searches and not LEVELS[2].searches
    assert LEVELS[1].noise > LEVELS[2].noise == 0
    for attr in ("budget", "duel_budget"):
        budgets = [getattr(LEVELS[n], attr) for n in range(3, 6)]
        assert 0 < budgets[0] < budgets[1] < budgets[2]


def test_a_whole_duel_game_against_the_computer_with_the_camera() -> None:
    from companion.referee.duel.computer import DUEL_BRAIN
    from companion.rules.duel.simulate import POLICIES as DUEL_POLICIES
    from companion.rules.duel.simulate import DuelDeck
    from companion.rules.duel.simulate import choose_turn as duel_turn
    from companion.rules.duel.view import view_of

    deck = DuelDeck(2)
    state = deck.deal(NAMES)
    ref = ComputerReferee(NAMES, brain=DUEL_BRAIN, seats={"Bob": 2}, state=state)
    rng = random.Random(2)
    hidden: list = [[], []]  # type: ignore[type-arg]
    computer_turns = 0
    while not state.is_over():
        assert ref.phase is Phase.WATCH, ref.problem
        plan = ref.plan()
        if plan is not None:
            assert ref.view().title.startswith("Bob (computer, level 2)")
            turn = plan.turn
            if plan.example.reveal is not None:
                level = int(plan.example.reveal[0])
                card = deck.draw(level)
                turn = replace(turn, reveal=card.id if card else None)
            after = state.apply(turn)
            computer_turns += 1
        else:
            turn, after = duel_turn(state, DUEL_POLICIES["greedy"], rng, deck,
                                    hidden[state.current])
        effects = list(ref.handle(Motion()))
        for _ in range(3):
            effects += ref.handle(TableRead(view_of(after)))
        if plan is None:
            assert ref.phase is Phase.PROPOSE, ref.problem
            effects += ref.handle(Press(Key.CONFIRM))
        if plan is None:  # a person's turn: the table's reading of it (a replenish's
            state = ref.state  # hidden order may read otherwise) is the game from now on
            assert state is not None and view_of(state) == view_of(after)
            continue
        assert ref.phase is Phase.ASK or [e.turn for e in effects
                                          if isinstance(e, TurnConfirmed)] == [turn]
        while ref.phase is Phase.ASK:  # which turn / which card: the one played
            question = ref.question()
            assert question is not None
            values = [o.value for o in question.options]
            target = turn if question.key == "which" else turn.reveal
            while ref.asking is not None and values[ref.asking.selected] != target:
                ref.handle(Press(Key.NEXT))
            ref.handle(Press(Key.CONFIRM))
        assert ref.state == after, (str(turn), ref.problem)
        state = after
    assert ref.phase is Phase.OVER and computer_turns > 5
