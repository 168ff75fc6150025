"""A Duel computer seat that must refill the board first: the refill, then its plan.

The position is a real one (built with the rules' own helpers): the board
is empty, every token is in the bag, so no mandatory action is possible and
the rules force a replenish before it.  Nobody can know the bag's draw
before it is made, so the computer's turn is said in two parts: the refill
first, then, once the table shows the refilled board (or the players enter
it), the turn the search plans on that board.  The bag is drawn by a seeded
:class:`DuelDeck`, as hands draw it at the table; the referee reads the
table as it is (``view_of``), or with cells it is unsure of.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from companion.games import setup_headers
from companion.i18n import set_language
from companion.record import GameLog
from companion.referee.computer import ComputerReferee
from companion.referee.duel.computer import DUEL_BRAIN, refill_steps
from companion.referee.duel.loop import DuelLoop
from companion.referee.machine import (
    Effect,
    Key,
    Motion,
    Phase,
    Press,
    Screenshot,
    TableRead,
    TurnConfirmed,
    Undo,
)
from companion.rules.duel.board import SPIRAL, cell_name
from companion.rules.duel.planner import TurnPlanner
from companion.rules.duel.simulate import POLICIES, DuelDeck, choose_turn
from companion.rules.duel.state import GameState
from companion.rules.duel.tokens import Token
from companion.rules.duel.turns import Take, Turn, parse_turn
from companion.rules.duel.view import DuelView, view_of
from companion.screen import Screen
from companion.screen.painter import layout_problems
from tests.rules.duel.duel_helpers import EMPTY, player, position

NAMES = ("Ann", "Bob")
#: level 2 plays the rule of thumb: the same choice, in milliseconds
LEVEL = 2

Referee = ComputerReferee  # type: ignore[type-arg]


def forced() -> GameState:
    """Ann (the computer) to move with an empty board: only a refill can go on."""
    state = position(EMPTY, ann=player("Ann"), bob=player("Bob"))
    assert TurnPlanner(state).must_replenish()
    return state


def refilled(state: GameState, seed: int) -> tuple[tuple[Token, ...], GameState]:
    """The bag drawn by hand (a seeded shuffle) and the board it leaves, Ann still to act."""
    planner = TurnPlanner(state)
    draw = DuelDeck(seed).draw_bag(planner.bag())
    planner.replenish(draw)
    return draw, planner.midway()


def referee(state: GameState, camera: bool = True) -> Referee:
    return ComputerReferee(NAMES, brain=DUEL_BRAIN, seats={"Ann": LEVEL}, state=state,
                           camera=camera)


def see(ref: Referee, view: DuelView) -> list[Effect]:  # type: ignore[type-arg]
    effects = list(ref.handle(Motion()))
    for _ in range(2):
        effects += ref.handle(TableRead(view))
    return effects


def confirmed(effects: list[Effect]) -> list[Turn]:  # type: ignore[type-arg]
    return [e.turn for e in effects if isinstance(e, TurnConfirmed)]


def test_the_refill_is_said_first_then_the_plan_on_the_refilled_board() -> None:
    state = forced()
    ref = referee(state)
    assert ref.plan() is None and ref.think_times == []  # nothing planned before the draw
    view = ref.view()
    assert view.title == "Ann (computer, level 2) must first:"
    lines = view.text.split("\n")
    assert lines[0] == "1. Refill the board from the bag (Bob takes 1 privilege)"
    assert lines[-1] == "Then take your hands off the table: Ann plans the rest."
    assert view.hints.confirm == "Done" and view.hints.next == "Enter by hand"

    draw, mid = refilled(state, 5)
    effects = see(ref, view_of(mid))
    assert Screenshot("computer-prelude") in effects and not confirmed(effects)
    assert ref.phase is Phase.WATCH and ref.midway() == mid
    plan = ref.plan()
    assert plan is not None and plan.turn.replenish == draw
    assert isinstance(plan.turn.action, Take)
    view = ref.view()
    assert view.title == "Ann (computer, level 2) plays:"
    assert view.state == mid  # the screen shows the board as refilled
    assert all(f"on {cell_name(c)}" in view.text for c in plan.turn.action.cells)
    assert "Refill" not in view.text  # the refill is done: only the rest is said

    after = state.apply(plan.turn)
    effects = see(ref, view_of(after))
    assert confirmed(effects) == [plan.turn]  # the table alone confirms it, no button
    assert ref.state == after and after.players[1].privileges == 1


def test_the_plan_follows_the_draw_it_was_never_told_in_advance() -> None:
    state = forced()
    plans = []
    for seed in (5, 6):
        ref = referee(state)
        draw, mid = refilled(state, seed)
        see(ref, view_of(mid))
        plan = ref.plan()
        assert plan is not None and plan.turn.replenish == draw
        plans.append(plan.turn)
    assert plans[0].replenish != plans[1].replenish


def _planned_after_refill(seed: int) -> tuple[GameState, Referee, GameState, Turn]:
    """A forced position, its referee shown the board refilled (``seed``), and the plan."""
    state = forced()
    ref = referee(state)
    _, mid = refilled(state, seed)
    see(ref, view_of(mid))
    plan = ref.plan()
    assert plan is not None
    return state, ref, mid, plan


def test_a_wrong_move_after_the_refill_is_named_then_put_right() -> None:
    state, ref, mid, plan = _planned_after_refill(5)
    other = next(t for t in TurnPlanner(mid).takes() if t != plan.turn.action)
    wrong = state.apply(replace(plan.turn, action=other))
    effects = see(ref, view_of(wrong))
    assert ref.phase is Phase.PROBLEM and not confirmed(effects)
    text = ref.view().text
    assert "not Ann's turn" in text and str(plan.turn) in text
    effects = see(ref, view_of(state.apply(plan.turn)))
    assert confirmed(effects) == [plan.turn]


def test_a_table_that_is_no_refill_says_the_refill_comes_first() -> None:
    # one gold on the board, and Ann holds 3 reserved cards she cannot pay for
    state = position("y..../...../...../...../.....",
                     ann=player("Ann", reserve=("1w2", "1k2", "1k3")), bob=player("Bob"))
    assert TurnPlanner(state).must_replenish()
    ref = referee(state)
    see(ref, replace(view_of(state), board=("",) * 25))  # the gold gone, no refill
    assert ref.phase is Phase.PROBLEM
    assert "Expected: Refill the board from the bag" in ref.view().text


def test_undo_forgets_the_refill_read_then_the_whole_computer_turn() -> None:
    state = forced()
    ref = referee(state)
    _, mid = refilled(state, 5)
    see(ref, view_of(mid))
    assert ref.midway() == mid
    ref.handle(Undo())  # the refill as read is forgotten, no turn undone
    assert ref.midway() is None and ref.state == state and ref.history == []
    assert ref.view().title == "Ann (computer, level 2) must first:"
    see(ref, view_of(mid))  # read again
    plan = ref.plan()
    assert plan is not None and ref.midway() == mid
    after = state.apply(plan.turn)
    see(ref, view_of(after))
    assert ref.state == after and len(ref.history) == 1

    ref.handle(Undo())  # the computer's turn, refill and all
    assert ref.state == state and ref.restore is not None and ref.midway() is None
    see(ref, view_of(state))  # the tokens are back in the bag
    assert ref.restore is None and ref.view().title == "Ann (computer, level 2) must first:"
    draw, mid2 = refilled(state, 6)  # the bag gives another draw this time
    see(ref, view_of(mid2))
    again = ref.plan()
    assert again is not None and again.turn.replenish == draw
    assert confirmed(see(ref, view_of(state.apply(again.turn)))) == [again.turn]


def _answer(ref: Referee, value: object) -> list[Effect]:  # type: ignore[type-arg]
    question = ref.question()
    assert question is not None and ref.asking is not None
    values = [o.value for o in question.options]
    while values[ref.asking.selected] != value:
        ref.handle(Press(Key.NEXT))
    return ref.handle(Press(Key.CONFIRM))


def test_without_a_camera_confirm_enters_the_drawn_tokens_then_the_plan() -> None:
    state = forced()
    ref = referee(state, camera=False)
    assert ref.view().text.endswith("Then press CONFIRM to enter it.")
    draw, mid = refilled(state, 5)
    ref.handle(Press(Key.CONFIRM))
    asked = 0
    while ref.phase is Phase.ASK:
        question = ref.question()
        assert question is not None and question.key.startswith("draw")
        index = int(question.key[len("draw"):]) - 1
        assert question.title == f"Which token went on {cell_name(SPIRAL[index])}?"
        _answer(ref, draw[index])
        asked += 1
    assert asked >= 20  # the last tokens of the bag leave no choice
    assert ref.midway() == mid
    plan = ref.plan()
    assert plan is not None and plan.turn.replenish == draw
    assert ref.view().text.endswith("Then press CONFIRM.")
    effects = ref.handle(Press(Key.CONFIRM))  # done as shown
    assert confirmed(effects) == [plan.turn] and ref.state == state.apply(plan.turn)


def test_cells_the_camera_cannot_read_are_asked_the_rest_kept() -> None:
    state = forced()
    ref = referee(state)
    draw, mid = refilled(state, 5)
    seen = view_of(mid)
    # two cells with different tokens unread: which went where is asked
    first = SPIRAL[0]
    second = next(c for c in SPIRAL if mid.board[c] != mid.board[first])
    board = list(seen.board)
    board[first] = board[second] = None
    see(ref, replace(seen, board=tuple(board)))
    assert ref.phase is Phase.WATCH and ref.midway() is None
    assert "CONFIRM to enter what is missing" in ref.view().note
    ref.handle(Press(Key.CONFIRM))
    question = ref.question()
    assert question is not None and question.key == "draw1"
    _answer(ref, draw[0])
    assert ref.phase is Phase.WATCH and ref.midway() == mid  # the other cell followed


def test_the_refill_and_the_computer_turn_seen_at_once_are_confirmed() -> None:
    state, _planner, _mid, plan = _planned_after_refill(7)
    ref = referee(state)  # hands did both before leaving the table
    effects = see(ref, view_of(state.apply(plan.turn)))
    assert confirmed(effects) == [plan.turn]


def played(seed: int = 1) -> tuple[GameState, list[Turn], GameState]:
    """A dealt game played by the greedy policy until a player must refill the board:
    the deal, the turns, and that position (seed 1: Ann, at turn 18)."""
    deck = DuelDeck(seed)
    dealt = state = deck.deal(NAMES)
    rng, hidden, turns = random.Random(seed), [[], []], []  # type: ignore[var-annotated]
    while not TurnPlanner(state).must_replenish():
        turn, state = choose_turn(state, POLICIES["greedy"], rng, deck, hidden[state.current])
        turns.append(turn)
    assert state.player.name == "Ann"
    return dealt, turns, state


def test_the_log_holds_the_replenish_and_the_turn(tmp_path: Path) -> None:
    dealt, turns, state = played()
    log = GameLog.open(tmp_path / "g.db")
    game_id = log.start_game("Splendor Duel", list(NAMES), setup_headers(dealt))
    before = dealt
    for turn in turns:
        before = before.apply(turn)
        log.append_turn(game_id, str(turn), before.digest())
    ref = referee(state)
    loop = DuelLoop(ref, log=log, game_id=game_id, echo=lambda s: None)
    assert ref.view().title == "Ann (computer, level 2) must first:"
    draw, mid = refilled(state, 9)
    loop.show(view_of(mid))
    plan = ref.plan()
    assert plan is not None and plan.turn.replenish == draw
    loop.show(view_of(state.apply(plan.turn)))
    assert ref.state == state.apply(plan.turn)
    notations = [r.notation for r in log.turns(game_id)]
    assert notations[-1] == str(plan.turn) and len(notations) == len(turns) + 1
    assert str(plan.turn).startswith("replenish ") and parse_turn(notations[-1]) == plan.turn
    record = log.record(game_id)  # the record replays, the replenish and the turn in it
    assert record.turns[-1] == plan.turn
    log.close()


def test_who_takes_the_privilege_follows_the_rulebook() -> None:
    ann, bob = player("Ann", privileges=1), player("Bob", privileges=2)
    state = position(EMPTY, ann=ann, bob=bob)  # none left above the board
    assert refill_steps(state)[0] == \
        "Refill the board from the bag (Bob takes 1 privilege from Ann)"
    state = position(EMPTY, ann=player("Ann"), bob=player("Bob", privileges=3))
    assert refill_steps(state)[0] == "Refill the board from the bag"  # Bob has all 3


@pytest.fixture
def french() -> object:
    set_language("fr")
    yield None
    set_language("en")


def test_the_refill_is_said_in_french_and_fits_the_screen(french: object,
                                                          tmp_path: Path) -> None:
    state = forced()
    ref = referee(state, camera=False)
    view = ref.view()
    text = view.title + "\n" + view.text
    assert "Remplissez le plateau avec le sac (Bob prend 1 Privilège)" in text
    for english in ("Refill", "board", "bag", "Then", "takes", "Draw", "first"):
        assert english not in text, (english, text)
    size = (800, 480)
    screen = Screen(size)
    screen.draw(view)
    screen.save(tmp_path / "refill-fr.png")
    assert layout_problems(screen.drawn, size) == []
    bounds = pygame.Rect((0, 0), size)
    assert all(bounds.contains(d.rect) for d in screen.drawn if d.kind == "text")


def test_after_a_refill_level_5_plans_without_privileges() -> None:
    """A turn's notation spends privileges before its refill, so a plan made after the
    refill may not spend any; before it, level 5 weighs them."""
    asked: list[bool] = []

    class Recording(type(DUEL_BRAIN)):  # type: ignore[misc]
        def choose(self, state, level, seed, blind):  # type: ignore[no-untyped-def]
            asked.append(level.privileges)
            return super().choose(state, replace(level, budget=0, duel_budget=0), seed,
                                  blind)

    state = position(EMPTY, ann=player("Ann", privileges=1), bob=player("Bob"))
    ref = ComputerReferee(NAMES, brain=Recording(), seats={"Ann": 5}, state=state)
    _, mid = refilled(state, 5)
    see(ref, view_of(mid))
    assert ref.plan() is not None and asked == [False]
    plain = ComputerReferee(NAMES, brain=Recording(), seats={"Ann": 5}, state=mid)
    assert plain.plan() is not None and asked == [False, True]
