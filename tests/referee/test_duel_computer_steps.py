"""The Duel computer's steps: every one on the screen, readable, in English and French.

The longest turn a Duel computer seat can be asked to carry out is built
here: a privilege spent (level 5), a joker bought for free that passes 6
crowns, the royal that steals, and the tokens over 10 given back (nine
steps; the computer never replenishes by choice, and no card with crowns
steals, takes a token or plays again).  It is drawn at the official 800x480 and at
640x480 through the referee's own view (``SDL_VIDEODRIVER=dummy``, set by
``tests/conftest.py``), and
every line must lie on the screen, whole, at a size a player can read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from companion.analysis.seat import Choice, Level
from companion.i18n import set_language
from companion.referee import machine
from companion.referee.computer import ComputerReferee
from companion.referee.duel.computer import DUEL_BRAIN, DuelBrain, card_words, turn_steps
from companion.referee.machine import Key, LogHeader, Phase, Press
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Turn, parse_turn
from companion.rules.duel.view import view_of
from companion.screen import Screen
from companion.screen.painter import layout_problems
from companion.screen.text import ELLIPSIS
from tests.rules.duel.duel_helpers import EMPTY, player, position

#: Smallest text a player reads from a metre away on the 7" screen, in pixels.
READABLE_PX = 20
PYRAMID = (("1w1", "1u1", "1g1", "1r1", "1w2"), ("2w1", "2u2", "2g2", "2u3"),
           ("3j1", "3u1", "3g1"))


def longest() -> tuple[GameState, Turn]:
    """Ann (the computer) has 8 black bonuses, 3 crowns and royal r4, 10 tokens and a
    privilege."""
    ann = player("Ann", "wwwuuugggy", privileges=1, royals=("r4",),
                 cards=("1k1", "1k2", "1k3", "1k4", "1k5", "2k2", "2k3", "2k4", "1w4"))
    state = position(ann=ann, bob=player("Bob", "rr"), pyramid=PYRAMID)
    return state, parse_turn("privilege e5 buy 3j1 as w reveal 3r1 royal r1 steal r"
                             " return yp")


def choice(turn: Turn) -> Choice[Turn]:
    return Choice(replace(turn, reveal=None), turn, (), 0)


class Planned(DuelBrain):
    """The Duel brain with its search replaced by one planned turn."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn

    def choose(self, state: GameState, level: Level, seed: int,
               blind: bool) -> Choice[Turn] | None:
        return choice(self.turn)


@pytest.fixture(params=["en", "fr"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    set_language(request.param)
    yield request.param
    set_language("en")


def _words(text: str) -> list[str]:
    return re.sub(r"^\d+\. ", "", text).split()


@pytest.mark.parametrize("size", [(800, 480), (640, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("camera", [True, False], ids=["camera", "buttons"])
def test_the_longest_duel_computer_turn_fits_the_screen(language: str, camera: bool,
                                                         size: tuple[int, int],
                                                         tmp_path: Path) -> None:
    state, turn = longest()
    state.apply(turn)  # a legal turn
    steps = turn_steps(state, choice(turn))
    assert len(steps) == 9
    ref = ComputerReferee(("Ann", "Bob"), brain=Planned(turn), seats={"Ann": 3}, state=state,
                          camera=camera)
    view = ref.view()
    assert view.focus  # a long list keeps only the mover's row of the table
    screen = Screen(size)
    screen.draw(view)
    screen.save(tmp_path / f"longest-{language}.png")
    assert layout_problems(screen.drawn, size) == []
    bounds = pygame.Rect((0, 0), size)
    texts = [d for d in screen.drawn if d.kind == "text"]
    for d in texts:
        assert bounds.contains(d.rect), (d.label, d.rect)
        assert ELLIPSIS not in d.label, d.label  # nothing was cut to fit
    shown = " ".join(d.label for d in texts).split()
    for step in [*steps, *([] if camera else ["Then press CONFIRM."])]:
        words = _words(step) if language == "en" or "CONFIRM" not in step else ["VALIDER."]
        assert " ".join(words) in " ".join(shown), step  # every word, in order
    step_lines = [d for d in texts if re.match(r"\d\. ", d.label)]
    assert len(step_lines) == 9
    assert min(d.size for d in step_lines) >= READABLE_PX


def test_a_short_turn_keeps_the_whole_table() -> None:
    state = position(ann=player("Ann"), bob=player("Bob"))
    take = parse_turn("take e5")
    state.apply(take)
    ref = ComputerReferee(("Ann", "Bob"), brain=Planned(take), seats={"Ann": 3}, state=state)
    view = ref.view()
    assert not view.focus and view.text.count("\n") < 3


def test_duel_card_words_name_the_card_without_its_cost() -> None:
    assert card_words("2w4") == "the white card 2w4 (2 points, 1 crown)"
    assert card_words("3j1") == "the joker card 3j1 (3 crowns)"
    assert card_words("1w2") == "the white card 1w2"


def test_the_duel_steps_are_in_french() -> None:
    state, turn = longest()
    set_language("fr")
    try:
        steps = turn_steps(state, choice(turn))
        assert card_words("2w4") == "la carte diamant 2w4 (2 points de Prestige, 1 couronne)"
    finally:
        set_language("en")
    text = "\n".join(steps)
    assert "la carte joker 3j1 (3 couronnes), prise dans la pyramide, niveau 3, place 1" in text
    assert "la carte Royale r1 (2 points de Prestige)" in text
    assert "jeton rubis à Bob" in text
    for english in ("Move", "Take", "card", "crown", "from", "the ", "Return", "bag", "Pay",
                    "costing", "level"):
        assert english not in text, (english, text)


def test_privileges_name_who_takes_them_and_from_whom() -> None:
    # three of a kind in a line: the opponent takes a privilege
    rows = "...../...../...../...../rrr.."
    state = position(rows, ann=player("Ann"), bob=player("Bob"))
    take = parse_turn("take a1,b1,c1")
    assert turn_steps(state, choice(take))[-1] == "Bob takes 1 privilege"
    # a privilege card with none left in the supply: taken from the opponent
    ann = player("Ann", "wwwwkkp")
    state = position(ann=ann, bob=player("Bob", privileges=3),
                     pyramid=(PYRAMID[0], ("2w3", *PYRAMID[1][1:]), PYRAMID[2]))
    buy = parse_turn("buy 2w3 pay wwwwkkp reveal 2k4")
    state.apply(buy)
    steps = turn_steps(state, choice(buy))
    assert "Ann takes 1 privilege from Bob" in steps


def test_a_forced_refill_is_asked_first_and_next_still_enters_by_hand() -> None:
    # nothing on the board, nothing affordable: only a refill from the bag can go on
    state = position(EMPTY, ann=player("Ann"), bob=player("Bob"))
    ref = ComputerReferee(("Ann", "Bob"), brain=DUEL_BRAIN, seats={"Ann": 3}, state=state,
                          camera=False)
    assert ref.plan() is None  # nobody knows the draw: nothing is planned before it
    view = ref.view()
    assert view.title == "Ann (computer, level 3) must first:"
    assert "1. Refill the board from the bag (Bob takes 1 privilege)" in view.text
    assert view.text.endswith("Then press CONFIRM to enter it.")
    assert view.hints.back == "" and view.hints.next == "Enter by hand"
    # BACK asks no hint for the computer's seat; NEXT enters its whole turn by hand
    assert not any(isinstance(e, LogHeader) for e in ref.handle(Press(Key.BACK)))
    ref.handle(Press(Key.NEXT))
    assert ref.phase is Phase.ASK
    question = ref.question()
    assert question is not None and question.key == "replenish"


def privilege_buy() -> tuple[GameState, Turn]:
    """Ann spends her privilege on the pearl her 2w3 lacks; the card gives one back."""
    ann = player("Ann", "wwwwkk", privileges=1)
    state = position(ann=ann, bob=player("Bob"),
                     pyramid=(PYRAMID[0], ("2w3", *PYRAMID[1][1:]), PYRAMID[2]))
    return state, parse_turn("privilege e5 buy 2w3 pay wwwwkkp reveal 2k4")


def test_privileges_spent_are_said_first_and_the_one_gained_after() -> None:
    state, turn = privilege_buy()
    state.apply(turn)  # a legal turn
    steps = turn_steps(state, choice(turn))
    assert steps[:3] == [
        "Ann uses 1 privilege: put it back above the board",
        "For the privileges, take the pearl on e5 from the board to Ann",
        "Move the white card 2w3 (2 points) from pyramid level 2, place 1 to Ann's cards",
    ]
    # the privilege spent went back above the board: the card's own is a gain
    assert steps[-1] == "Ann takes 1 privilege"
    set_language("fr")
    try:
        french = turn_steps(state, choice(turn))
    finally:
        set_language("en")
    assert french[:2] == [
        "Ann utilise 1 Privilège : remettez-le au-dessus du plateau",
        "Pour les Privilèges, prenez le jeton perle en e5 sur le plateau pour Ann",
    ]


def test_a_computer_turn_with_privileges_is_confirmed_by_the_table_alone() -> None:
    state, turn = privilege_buy()
    ref = ComputerReferee(("Ann", "Bob"), brain=Planned(turn), seats={"Ann": 5}, state=state)
    after = state.apply(turn)
    effects = list(ref.handle(machine.Motion()))
    for _ in range(2):
        effects += ref.handle(machine.TableRead(view_of(after)))
    assert [e.turn for e in effects if isinstance(e, machine.TurnConfirmed)] == [turn]
    assert ref.state == after
