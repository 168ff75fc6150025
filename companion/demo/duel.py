"""A recorded Duel game played through the Duel referee: the operator and the playback.

As the Splendor demo (:mod:`companion.demo.splendor`): a seeded game
(:func:`companion.rules.duel.simulate.play_game`) is the truth; its tables
are shown one after the other (the position after each turn, read by a
reader: the real one on rendered frames, or :func:`unsure_reader`, a perfect
reader that abstains on some places); an :class:`Operator` who knows the
true game presses what a player would: NEXT until the proposal is the turn
played, CONFIRM, answers the menus; when the proposal is missing they enter
the turn by hand.  :class:`Tally` counts how each turn was found and any
confirmation that does not lead to the true table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from companion.demo import computer_moves
from companion.referee.duel.entry import DONE
from companion.referee.duel.hooks import DuelMachine
from companion.referee.duel.loop import DuelLoop
from companion.referee.machine import Phase
from companion.referee.menu import Question
from companion.rules.duel import cards as catalogue
from companion.rules.duel.cards import JewelCard
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Buy, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.duel.view import DuelView, view_of
from companion.rules.errors import RulesError

#: The seeded Duel game of the demo and its players.
DEMO_SEED = 7
DEMO_NAMES = ("Ann", "Bob")


class OperatorError(RuntimeError):
    """The operator found no way to enter the true turn (a bug, not a user error)."""


def _group(card: JewelCard) -> str:
    return "joker" if card.is_joker else (card.colour.label if card.colour else "grey")


def _leads_to(state: GameState, turn: Turn, after: GameState) -> bool:
    try:
        return state.apply(turn) == after
    except RulesError:
        return False


# C901: one flat answer per kind of question the demo's scripted player is asked, in
# the order the referee asks them (a table of small functions would hide that order).
def _turn_value(question: Question, truth: Turn, state: GameState, after: GameState) -> object:  # noqa: C901
    """The answer a player who played ``truth`` gives to ``question``."""
    key = question.key
    action = truth.action
    if key == "which":
        for option in question.options:
            turn = option.value
            if isinstance(turn, Turn) and (
                _leads_to(state, turn, after)
                or _leads_to(state, replace(turn, reveal=truth.reveal), after)
            ):
                return turn
        return None
    if key.startswith("privilege"):
        i = int(key[len("privilege"):]) - 1
        return truth.privileges[i] if i < len(truth.privileges) else DONE
    if key == "replenish":
        return truth.replenish is not None
    if key.startswith("draw") and truth.replenish is not None:
        return truth.replenish[int(key[4:]) - 1]
    if key == "kind":
        return {Take: "take", Buy: "buy", ReserveCard: "reserve", ReserveDeck: "deck"}[
            type(action)
        ]
    if key.startswith("cell") and isinstance(action, Take):
        i = int(key[4:]) - 1
        return action.cells[i] if i < len(action.cells) else DONE
    if key == "gold" and isinstance(action, ReserveCard | ReserveDeck):
        return action.gold
    if key == "deck" and isinstance(action, ReserveDeck):
        return action.level
    if isinstance(action, Buy | ReserveCard):
        where = state.find_in_pyramid(action.card)
        if key == "row" and where is not None:
            return where[0]
        if key == "where":
            if where is not None:
                return "pyramid"
            ids = {c.id for c in state.player.reserved if isinstance(c, JewelCard)}
            return "reserved" if action.card in ids else "blind"
        if key == "card/colour":
            return _group(catalogue.card(action.card))
        if key == "card":
            return action.card
    if isinstance(action, Buy):
        if key == "payment":
            return action.payment
        if key == "choices":
            return action
    if key == "reveal/colour" and truth.reveal:
        return _group(catalogue.card(truth.reveal))
    if key == "reveal":
        return truth.reveal
    if key.startswith("royal"):
        i = int(key[5:]) - 1
        return truth.royals[i] if i < len(truth.royals) else None
    if key.startswith("return"):
        return list(truth.returned.kinds())[int(key[6:]) - 1]
    return None


def _setup_value(question: Question, truth: GameState) -> object:
    key = question.key
    if key.startswith("cell"):
        kind = truth.board[int(key[4:])]
        return kind.letter if kind is not None else None
    if key.startswith("pyramid"):
        level, slot = key[len("pyramid"):].split("/")[0].split(".")
        card = truth.pyramid[int(level) - 1][int(slot) - 1]
        if card is None:
            return None
        return _group(card) if key.endswith("/colour") else card.id
    return None


def _answer(ref: DuelMachine, value: object) -> str:
    """NEXT until the option ``value`` is highlighted, then CONFIRM."""
    question = ref.question()
    assert question is not None and ref.asking is not None
    for i, option in enumerate(question.options):
        if option.value == value:
            return "confirm" if ref.asking.selected == i else "next"
    raise OperatorError(f"no option {value!r} in the menu {question.title!r}")


class Operator:
    """Presses what a player who knows the true game would press."""

    def __init__(self, states: Sequence[GameState], turns: Sequence[Turn]) -> None:
        self.states = list(states)
        self.turns = list(turns)
        self.manual = 0
        self.shown = -1
        #: turns whose first proposal was wrong: what a player who trusts the first
        #: guess would have confirmed (the silent wrong confirmations of a script)
        self.misled = 0
        self._judged = -1
        #: the turn for which CONFIRM already asked for the turns the table does not show
        self._asked = -1

    def next_press(self, ref: DuelMachine) -> str | None:
        """The next button to press now, or None when the table should move on."""
        initial = self.states[0]
        if ref.phase is Phase.SETUP:
            if ref.setup_state is None:
                return "back" if ref.asking is None else None
            return "confirm" if ref.setup_state == initial else "back"
        if ref.phase is Phase.OVER:
            return None
        if ref.phase is Phase.ASK and ref.asking is not None and ref.asking.purpose == "setup":
            question = ref.question()
            assert question is not None
            return _answer(ref, _setup_value(question, initial))
        done = len(ref.history)
        if done >= len(self.turns):
            return None
        truth, after = self.turns[done], self.states[done + 1]
        state = ref.state
        assert state is not None
        if ref.phase is Phase.PROPOSE:
            first = self._judged != done
            self._judged = done
            for i, cand in enumerate(ref.candidates):
                fits = any(
                    _leads_to(state, t, after)
                    or (level is not None
                        and _leads_to(state, replace(t, reveal=truth.reveal), after))
                    for t, level in zip(cand.turns, cand.reveals, strict=True)
                )
                if fits:
                    if first and i != 0:
                        self.misled += 1
                    return "confirm" if i == ref.index else "next"
            if first:
                self.misled += 1
            return "back"  # not among the guesses: cancel, then enter by hand
        if ref.phase is Phase.ASK:
            question = ref.question()
            assert question is not None
            return _answer(ref, _turn_value(question, truth, state, after))
        if ref.phase in (Phase.WATCH, Phase.PROBLEM) and ref.restore is None and self.shown > done:
            if ref.phase is Phase.WATCH and self._asked != done and not computer_moves(ref):
                self._asked = done  # first ask for a turn the table may not show
                return "confirm"
            self.manual += 1
            return "next"
        return None


def presses(loop: DuelLoop, operator: Operator) -> Iterator[str]:
    """Press until the operator has nothing more to press (at most 500 times a turn)."""
    count, done = 0, len(loop.referee.history)
    while count < 500:
        press = operator.next_press(loop.referee)
        if press is None:
            return
        loop.press(press)
        yield press
        count += 1
        if len(loop.referee.history) != done:
            count, done = 0, len(loop.referee.history)
    raise OperatorError("the operator pressed 500 buttons without getting anywhere")


def unsure_reader(
    rate: float = 0.03, seed: int = 0
) -> Callable[[GameState], DuelView]:
    """A perfect reader that is unsure of a share ``rate`` of board cells and pyramid
    places (and never reads bonuses, crowns or players' royals, as the real one).

    It stands in for the camera until a reader is at hand, and keeps the
    referee honest about ``None``: "no evidence", never "empty".
    """
    rng = random.Random(f"unsure-{seed}")

    def read(state: GameState) -> DuelView:
        view = view_of(state)
        board = tuple(None if rng.random() < rate else x for x in view.board)
        pyramid = tuple(
            tuple(None if rng.random() < rate else x for x in row) for row in view.pyramid
        )
        players = tuple(
            replace(p, bonuses=(None,) * 5, crowns=None, royals=None) for p in view.players
        )
        return replace(view, board=board, pyramid=pyramid, players=(players[0], players[1]))

    return read


@dataclass
class Tally:
    """How the demo went: turns, how each was found, wrong confirmations."""

    turns: int = 0
    first: int = 0
    later: int = 0
    manual: int = 0
    #: turns the table did not show, proposed when the operator asked with CONFIRM
    asked: int = 0
    wrong: int = 0
    misled: int = 0
    presses: int = 0
    wrong_turns: list[str] = field(default_factory=list)

    @property
    def first_rate(self) -> float:
        return self.first / self.turns if self.turns else 0.0


def tally(
    loop: DuelLoop, states: Sequence[GameState], presses_made: int, operator: Operator
) -> Tally:
    """Count how each confirmed turn was found, which led off the true game, and how
    many first proposals were wrong (a trusting player's silent wrong confirmations)."""
    result = Tally(turns=len(loop.via), presses=presses_made, misled=operator.misled)
    result.first = loop.via.count("first guess")
    result.later = loop.via.count("later guess")
    result.manual = loop.via.count("buttons")
    result.asked = loop.via.count("on CONFIRM")
    history = loop.referee.history
    for i, (before, turn) in enumerate(history):
        after = history[i + 1][0] if i + 1 < len(history) else loop.referee.state
        if before == states[i] and i + 1 < len(states) and after != states[i + 1]:
            result.wrong += 1
            result.wrong_turns.append(f"{i + 1}. {turn}")
    return result


def play(
    loop: DuelLoop,
    operator: Operator,
    tables: Callable[[int], tuple[DuelView | None, object]],
    count: int,
    progress: Callable[[int, int], None] = lambda i, n: None,
) -> int:
    """Show tables 0..count-1 (the set-up, then after each turn), the operator pressing
    between them; returns how many buttons were pressed."""
    pressed = 0
    for index in range(count):
        progress(index, count)
        operator.shown = index
        view, source = tables(index)
        loop.show(view, source)
        pressed += sum(1 for _ in presses(loop, operator))
        if loop.finished:
            break
    return pressed
