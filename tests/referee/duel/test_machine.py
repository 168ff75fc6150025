"""The Duel referee machine: propose, NEXT/BACK/CONFIRM, menus, undo, refusals."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from companion.demo.duel import Operator, play, presses, tally, unsure_reader
from companion.referee.duel.hooks import (
    DuelOver,
    DuelRead,
    DuelReferee,
    DuelStarted,
    DuelTurnConfirmed,
    DuelTurnUndone,
)
from companion.referee.duel.loop import DuelLoop
from companion.referee.machine import Key, Motion, Phase, Press, Undo
from companion.rules.duel import GameState, ReserveDeck, Take, Turn, play_game
from companion.rules.duel.view import DuelView, view_of
from companion.screen.view import Mode


@lru_cache(maxsize=4)
def _game(seed: int) -> tuple[list[Turn], list[GameState]]:
    record, states = play_game(seed, ("Ann", "Bob"))
    return list(record.turns), states


def _see(ref: DuelReferee, view: DuelView | None) -> list[object]:
    effects: list[object] = list(ref.handle(Motion()))
    for _ in range(3):
        effects += ref.handle(DuelRead(view))
    return effects


def _started(seed: int = 1) -> tuple[DuelReferee, list[Turn], list[GameState]]:
    turns, states = _game(seed)
    ref = DuelReferee(("Ann", "Bob"))
    _see(ref, view_of(states[0]))
    assert ref.phase is Phase.SETUP and ref.setup_state == states[0]
    effects = ref.handle(Press(Key.CONFIRM))
    assert any(isinstance(e, DuelStarted) for e in effects)
    return ref, turns, states


def test_the_set_up_table_is_read_and_confirmed() -> None:
    ref, _, states = _started()
    assert ref.state == states[0] and ref.phase is Phase.WATCH


def test_a_turn_seen_is_proposed_in_words_and_confirmed() -> None:
    turns, states = _game(1)
    i = next(i for i, t in enumerate(turns) if isinstance(t.action, Take))
    ref = DuelReferee(("Ann", "Bob"), state=states[i])
    _see(ref, view_of(states[i + 1]))
    assert ref.phase is Phase.PROPOSE
    view = ref.view()
    assert view.mode is Mode.PROPOSAL and view.text.startswith(states[i].player.name + " takes")
    effects = ref.handle(Press(Key.CONFIRM))
    confirmed = [e for e in effects if isinstance(e, DuelTurnConfirmed)]
    assert len(confirmed) == 1 and confirmed[0].after == states[i + 1]
    assert confirmed[0].via == "first guess"
    assert ref.state == states[i + 1]


def test_what_the_camera_cannot_tell_is_asked_with_a_menu() -> None:
    turns, states = _game(1)
    i = next(i for i, t in enumerate(turns) if isinstance(t.action, ReserveDeck))
    ref = DuelReferee(("Ann", "Bob"), state=states[i])
    _see(ref, view_of(states[i + 1]))
    ref.handle(Press(Key.CONFIRM))
    question = ref.question()
    assert ref.phase is Phase.ASK and question is not None and question.key == "which"
    assert [o.label.split()[1] for o in question.options] == ["deck1", "deck2", "deck3"]
    while ref.question() is not None:
        assert ref.asking is not None
        option = question.options[ref.asking.selected].value
        if option == turns[i] or (isinstance(option, Turn) and option.action == turns[i].action):
            ref.handle(Press(Key.CONFIRM))
        else:
            ref.handle(Press(Key.NEXT))
    assert ref.state == states[i + 1]


def test_back_cancels_and_the_same_table_is_not_proposed_again() -> None:
    ref, _, states = _started()
    _see(ref, view_of(states[1]))
    ref.handle(Press(Key.BACK))
    assert ref.phase is Phase.WATCH
    _see(ref, view_of(states[1]))
    assert ref.phase is Phase.WATCH
    ref.handle(Press(Key.NEXT))  # the turn by hand instead
    assert ref.phase is Phase.ASK and ref.question() is not None


def test_undo_restores_and_waits_for_the_table() -> None:
    turns, states = _game(1)
    i = next(i for i, t in enumerate(turns) if isinstance(t.action, Take))
    ref = DuelReferee(("Ann", "Bob"), state=states[i])
    _see(ref, view_of(states[i + 1]))
    ref.handle(Press(Key.CONFIRM))
    assert ref.state == states[i + 1]
    effects = ref.handle(Undo())
    assert any(isinstance(e, DuelTurnUndone) for e in effects)
    assert ref.state == states[i] and ref.restore == str(turns[i])
    _see(ref, view_of(states[i + 1]))  # the table still shows the turn
    assert ref.phase is Phase.WATCH and ref.restore is not None
    _see(ref, view_of(states[i]))
    assert ref.restore is None


def test_a_table_no_turn_explains_buzzes_with_a_reason() -> None:
    ref, _, states = _started()
    seen = view_of(states[0])
    board = tuple("" if i in (0, 24) else x for i, x in enumerate(seen.board))
    effects = _see(ref, replace(seen, board=board))
    assert ref.phase is Phase.PROBLEM and ref.problem
    assert any(type(e).__name__ == "Buzz" for e in effects)
    assert ref.view().mode is Mode.ERROR


def test_a_whole_game_is_played_through_the_camera_and_menus() -> None:
    turns, states = _game(3)
    loop = DuelLoop(DuelReferee(("Ann", "Bob")), echo=lambda s: None)
    operator = Operator(states, turns)
    read = unsure_reader(0.1, 3)
    pressed = play(loop, operator, lambda i: (read(states[i]), None), len(states))
    result = tally(loop, states, pressed, operator)
    assert loop.finished and loop.referee.state == states[-1]
    assert result.turns == len(turns) and result.wrong == 0
    assert result.misled <= result.turns - result.first
    assert result.first >= 0.9 * len(turns)
    assert isinstance(loop.outcome, type(states[-1].outcome()))


def test_every_turn_can_be_entered_with_the_buttons_alone() -> None:
    turns, states = _game(2)
    ref = DuelReferee(("Ann", "Bob"), camera=False)
    loop = DuelLoop(ref, echo=lambda s: None)
    operator = Operator(states, turns)
    operator.shown = len(states)  # the players know every turn; nothing is read
    asked: set[str] = set()
    while (press := operator.next_press(ref)) is not None:
        question = ref.question()
        if question is not None:
            asked.add(question.key.rstrip("0123456789.").split("/")[0])
        loop.press(press)
    # every part of a Duel turn was entered through a menu at least once
    assert {"privilege", "replenish", "draw", "kind", "cell", "gold", "deck", "where",
            "row", "card", "choices", "reveal", "royal", "return", "pyramid"} <= asked
    assert ref.phase is Phase.OVER, ref.view().title
    assert ref.state == states[-1]
    assert loop.via.count("buttons") == len(turns)


def test_the_end_shows_the_winner_and_a_new_game_starts_on_confirm() -> None:
    _, states = _game(1)
    ref = DuelReferee(("Ann", "Bob"), state=states[-2], history=[])
    _see(ref, view_of(states[-1]))
    effects = ref.handle(Press(Key.CONFIRM))
    over = [e for e in effects if isinstance(e, DuelOver)]
    assert over and over[0].outcome == states[-1].outcome()
    view = ref.view()
    assert view.mode is Mode.END and over[0].outcome.winner in view.text
    ref.handle(Press(Key.CONFIRM))
    assert ref.phase is Phase.SETUP and ref.state is None


def test_a_misread_the_players_confirmed_is_not_held_against_later_turns() -> None:
    turns, states = _game(1)
    misread = next(c for c in range(25) if states[0].board[c] is not None
                   and all(states[k].board[c] == states[0].board[c] for k in range(6)))
    ref = DuelReferee(("Ann", "Bob"))

    def seen(k: int) -> DuelView:
        view = view_of(states[k])
        return replace(view, board=tuple("" if c == misread else x
                                         for c, x in enumerate(view.board)))

    _see(ref, view_of(states[0]))
    ref.handle(Press(Key.CONFIRM))
    loop = DuelLoop(ref, echo=lambda s: None)
    operator = Operator(states, turns)
    for k in range(1, 6):
        operator.shown = k
        loop.show(seen(k))
        list(presses(loop, operator))
    assert ref.state == states[5]
    assert loop.via == ["first guess"] * 5
    assert any(name.startswith("board") for name in ref.quirks)


def test_a_reserved_card_bought_is_proposed_on_confirm_over_the_central_mat() -> None:
    """Over the central mat a reserved card bought changes nothing the camera sees (the
    card leaves the player's area, the payment goes to the bag): CONFIRM proposes it."""
    from companion.rules.duel import Buy
    from companion.rules.duel.view import PlayerView

    turns, states = _game(3)
    i = 6
    assert isinstance(turns[i].action, Buy) and turns[i].reveal is None
    blank = PlayerView(tokens=(None,) * 7, privileges=None, reserved=None,
                       bonuses=(None,) * 5, crowns=None, royals=None)
    centre = replace(view_of(states[i + 1]), players=(blank, blank))
    ref = DuelReferee(("Ann", "Bob"), state=states[i])
    _see(ref, centre)
    assert ref.phase is Phase.WATCH
    ref.handle(Press(Key.CONFIRM))
    assert ref.phase is Phase.PROPOSE
    while turns[i] not in ref.candidates[ref.index].turns:
        ref.handle(Press(Key.NEXT))
    effects = ref.handle(Press(Key.CONFIRM))
    confirmed = [e for e in effects if isinstance(e, DuelTurnConfirmed)]
    assert [e.via for e in confirmed] == ["on CONFIRM"] and ref.state == states[i + 1]
