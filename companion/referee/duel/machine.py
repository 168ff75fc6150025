"""The Duel referee: the Splendor referee's state machine, for Splendor Duel.

The same events in (a table read, motion, the three buttons, BACK held for
undo), the same phases (:class:`~companion.referee.machine.Phase`), the same
effects out (buzz, lights, screenshots) and the same behaviour at the table
(see :mod:`companion.referee.machine`): a settled reading that legal turns
explain is proposed, NEXT shows the next guess, CONFIRM applies it (asking
what the camera could not see), BACK cancels; a change no legal turn
explains is shown with the rules' reason; NEXT enters any turn by hand;
BACK held undoes the last confirmed turn.  The button, light and event
types are imported from the Splendor machine, not copied.

What differs is the game: the table is a
:class:`~companion.rules.duel.view.DuelView` (:class:`DuelRead`), turns come
from :mod:`companion.referee.duel.candidates` and the menus from
:mod:`companion.referee.duel.entry`, and the effects that carry a state
carry a Duel :class:`~companion.rules.duel.state.GameState`
(:class:`DuelStarted`, :class:`DuelTurnConfirmed`, :class:`DuelTurnUndone`,
:class:`DuelOver`).

The screen: :class:`~companion.screen.view.ScreenView` takes any
engine-contract position, so a Duel state goes to it as it is; the screen
draws Duel's scoreboard from it (:mod:`companion.rules.duel.scoreboard`).
The proposal's words come from :func:`companion.rules.duel.describe_turn`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from companion.referee.duel.candidates import (
    TOLERANCE,
    Candidate,
    candidates,
    unexplained,
)
from companion.referee.duel.compare import (
    Quirks,
    describe,
    differences,
    distance,
    forgive,
    learn_quirks,
)
from companion.referee.duel.entry import Finished, card_label, next_setup_step, next_turn_step
from companion.referee.entry import Option, Question
from companion.referee.machine import (
    Buzz,
    Key,
    Light,
    Motion,
    Phase,
    Press,
    Screenshot,
    SetLight,
    Undo,
)
from companion.rules.duel.cards import JewelCard
from companion.rules.duel.outcome import Outcome
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Turn
from companion.rules.duel.view import DuelView, view_of
from companion.rules.duel.words import describe_turn
from companion.rules.errors import IllegalAction, SetupError
from companion.screen.view import ButtonHints, Mode, ScreenView

# ---------------------------------------------------------------- events in


@dataclass(frozen=True, slots=True)
class DuelRead:
    """One still frame's reading (``None``: the reader abstained); ``source`` is
    whatever the loop wants logged with it (a thumbnail)."""

    view: DuelView | None
    source: object = None


Event = Press | Undo | Motion | DuelRead

# -------------------------------------------------------------- effects out


@dataclass(frozen=True)
class DuelStarted:
    state: GameState


@dataclass(frozen=True)
class DuelTurnConfirmed:
    """Log this turn: ``after`` is the state it leads to, ``source`` the frame read.

    ``via`` as Splendor's: "first guess", "later guess" or "buttons".
    """

    turn: Turn
    before: GameState
    after: GameState
    source: object = None
    confidence: float | None = None
    via: str = "buttons"


@dataclass(frozen=True)
class DuelTurnUndone:
    turn: Turn
    restored: GameState


@dataclass(frozen=True)
class DuelOver:
    outcome: Outcome
    state: GameState


Effect = Buzz | SetLight | Screenshot | DuelStarted | DuelTurnConfirmed | DuelTurnUndone | DuelOver


@dataclass
class _Asking:
    """A chain of questions in progress: ``purpose`` is "turn", "setup" or "which"."""

    purpose: str
    back_to: Phase
    fixed: dict[str, object] = field(default_factory=dict)
    answers: list[tuple[str, object]] = field(default_factory=list)
    selected: int = 0
    candidate: Candidate | None = None

    def mapping(self) -> dict[str, object]:
        merged = dict(self.fixed)
        merged.update(self.answers)
        return merged


class DuelReferee:
    """The referee of one Duel game.  Feed events with :meth:`handle`; draw :meth:`view`."""

    def __init__(
        self,
        names: Sequence[str],
        *,
        state: GameState | None = None,
        history: Sequence[tuple[GameState, Turn]] = (),
        agree: int = 2,
        abstain_limit: int = 3,
        camera: bool = True,
    ) -> None:
        self.names = tuple(names)
        self.camera = camera
        self.agree = max(agree, 1)
        self.abstain_limit = abstain_limit
        self.state: GameState | None = state
        self.history: list[tuple[GameState, Turn]] = list(history)
        self.phase = Phase.SETUP if state is None else Phase.WATCH
        self.setup_state: GameState | None = None
        self.candidates: list[Candidate] = []
        self.index = 0
        self.asking: _Asking | None = None
        self.problem = ""
        self.note = ""
        self.restore: str | None = None
        self.reading: DuelView | None = None
        self.source: object = None
        self._last: object = None
        self._agreeing = 0
        self._settled: object = None
        self._abstains = 0
        self._via = "buttons"
        #: the reader's persistent misreads the players have confirmed past
        self.quirks: Quirks = {}
        if state is not None and state.is_over():
            self.phase = Phase.OVER

    # ------------------------------------------------------------ dispatch
    def handle(self, event: Event) -> list[Effect]:
        """Apply one event; return what the loop must do about it."""
        if isinstance(event, Motion):
            self._last = None
            self._agreeing = 0
            return []
        if isinstance(event, DuelRead):
            return self._on_read(event)
        if isinstance(event, Undo):
            return self._undo()
        return self._on_press(event.key)

    # -------------------------------------------------------------- readings
    def _on_read(self, event: DuelRead) -> list[Effect]:
        key = event.view
        if key == self._last:
            self._agreeing += 1
        else:
            self._last, self._agreeing = key, 1
        if self._agreeing != self.agree:
            return []  # not settled yet, or already acted on
        if key == self._settled:
            return []
        self._settled = key
        self.reading, self.source = event.view, event.source
        if event.view is None:
            self._abstains += 1
            if self._abstains >= self.abstain_limit and self.phase is Phase.WATCH:
                self.note = "The camera cannot read the table: NEXT to enter the turn by hand"
            return []
        self._abstains = 0
        if self.phase is Phase.SETUP and self.asking is None:
            return self._read_setup(event.view)
        if self.phase not in (Phase.WATCH, Phase.PROBLEM) or self.state is None:
            return []
        return self._explain(self.state, event.view)

    def _explain(self, state: GameState, raw: DuelView) -> list[Effect]:
        names = [p.name for p in state.players]
        seen = forgive(raw, view_of(state), self.quirks)
        now = differences(view_of(state), seen, names)
        off = distance(now)
        if self.restore is not None:
            if off <= TOLERANCE:
                self.restore = None
                self._to_watch()
                self.note = "The table matches again"
                return [SetLight(Light.TURN)]
            self.note = "Put the table back: " + describe(now)
            return [SetLight(Light.ATTENTION)]
        if off == 0:
            self._to_watch()
            return []
        ranked = candidates(state, seen)
        good = [c for c in ranked if c.distance <= TOLERANCE and c.distance < off]
        if good:
            self.candidates, self.index = good[:8], 0
            self.phase = Phase.PROPOSE
            self.asking = None
            return [SetLight(Light.ATTENTION), Screenshot("proposal")]
        if off <= TOLERANCE:
            self._to_watch()
            self.note = "The table differs slightly: " + describe(now)
            return []
        self.problem = unexplained(state, seen, ranked[0] if ranked else None)
        self.phase = Phase.PROBLEM
        self.asking = None
        return [Buzz("error"), SetLight(Light.ERROR), Screenshot("problem")]

    def _to_watch(self) -> None:
        self.phase = Phase.WATCH
        self.candidates, self.index, self.asking = [], 0, None

    # --------------------------------------------------------------- set-up
    def _read_setup(self, seen: DuelView) -> list[Effect]:
        fixed: dict[str, object] = {}
        for cell, letter in enumerate(seen.board):
            if letter:
                fixed[f"cell{cell}"] = letter
        for level, row in enumerate(seen.pyramid, start=1):
            for slot, card in enumerate(row, start=1):
                if card:
                    fixed[f"pyramid{level}.{slot}"] = card
        self.asking = _Asking("setup", Phase.SETUP, fixed=fixed)
        return self._advance_setup()

    def _advance_setup(self) -> list[Effect]:
        asking = self.asking
        assert asking is not None
        try:
            step = next_setup_step(self.names, asking.mapping())
        except (SetupError, IllegalAction, ValueError) as exc:
            self.problem = str(exc)
            self.asking = None
            self.phase = Phase.SETUP
            return [Buzz("error")]
        if isinstance(step, Question):
            self.phase = Phase.ASK
            asking.selected = 0
            return [SetLight(Light.ATTENTION)]
        self.setup_state = step
        self.asking = None
        self.phase = Phase.SETUP
        self.problem = ""
        return [Screenshot("setup")]

    def _start(self) -> list[Effect]:
        assert self.setup_state is not None
        self.state = self.setup_state
        self.history = []
        self._to_watch()
        self.note = ""
        self._learn(self.state)
        return [DuelStarted(self.state), SetLight(Light.TURN)]

    def _learn(self, state: GameState) -> None:
        """Remember the misreads of the table the players just confirmed."""
        if self.reading is not None:
            self.quirks = learn_quirks(view_of(state), self.reading)

    # ------------------------------------------------------------- buttons
    def _on_press(self, key: Key) -> list[Effect]:
        phase = self.phase
        if phase is Phase.ASK:
            return self._on_menu(key)
        if phase is Phase.SETUP:
            if key is Key.CONFIRM and self.setup_state is not None:
                return self._start()
            if key is Key.NEXT:
                self._settled = None  # read the table again
                self.setup_state = None
                return []
            if key is Key.BACK or (key is Key.CONFIRM and self.setup_state is None):
                self.asking = _Asking("setup", Phase.SETUP)
                return self._advance_setup()
            return []
        if phase is Phase.PROPOSE:
            if key is Key.NEXT:
                self.index = (self.index + 1) % len(self.candidates)
                return []
            if key is Key.BACK:
                self._to_watch()
                self.note = "Cancelled: change the table, or NEXT to enter the turn by hand"
                return [SetLight(Light.TURN)]
            return self._confirm_candidate(self.candidates[self.index])
        if phase is Phase.WATCH:
            if key in (Key.NEXT, Key.CONFIRM):
                return self._manual_turn(Phase.WATCH)
            return []
        if phase is Phase.PROBLEM:
            if key is Key.NEXT:
                return self._manual_turn(Phase.PROBLEM)
            if key is Key.BACK:
                self._to_watch()
                self._settled = None
                self.note = "Waiting for the table to be put right"
                return [SetLight(Light.TURN)]
            return []
        if phase is Phase.OVER and key is Key.CONFIRM:
            self.state, self.history, self.setup_state = None, [], None
            self.phase = Phase.SETUP
            self._settled = None
            return [SetLight(Light.OFF)]
        return []

    def _manual_turn(self, back_to: Phase) -> list[Effect]:
        self.asking = _Asking("turn", back_to)
        self._via = "buttons"
        return self._advance()

    def _confirm_candidate(self, cand: Candidate) -> list[Effect]:
        self._via = "first guess" if self.index == 0 else "later guess"
        if not cand.ask:
            return self._apply(cand.turn, cand.afters[0], cand.distance)
        self.asking = _Asking("which", Phase.PROPOSE, candidate=cand)
        if len(cand.turns) == 1:
            self.asking.fixed["which"] = cand.turns[0]
        return self._advance()

    def _advance(self) -> list[Effect]:
        step = self._step()
        if isinstance(step, IllegalAction):
            self.problem = str(step)
            self.phase = Phase.PROBLEM
            self.asking = None
            return [Buzz("error"), SetLight(Light.ERROR)]
        if isinstance(step, Question):
            assert self.asking is not None
            self.phase = Phase.ASK
            self.asking.selected = 0
            return [SetLight(Light.ATTENTION)]
        cand = self.asking.candidate if self.asking else None
        return self._apply(step.turn, step.after, cand.distance if cand else None)

    def _step(self) -> Question | Finished | IllegalAction:
        """The next question of the chain being asked, or the finished turn."""
        asking, state = self.asking, self.state
        assert asking is not None and state is not None
        answers = asking.mapping()
        try:
            if asking.purpose == "turn":
                return next_turn_step(state, answers)
            cand = asking.candidate
            assert cand is not None
            turn = answers.get("which")
            if not isinstance(turn, Turn):
                return Question(
                    "which", "The camera cannot tell these apart: which was it?",
                    tuple(Option(str(t), t) for t in cand.turns),
                )
            level = cand.reveal_level(turn)
            if level is not None:
                unseen = sorted(
                    (c for c in state.unseen(level) if c.id != _bought(turn)),
                    key=lambda c: c.id,
                )
                reveal = answers.get("reveal")
                if reveal not in {c.id for c in unseen}:
                    return _reveal_question(answers, level, unseen)
                turn = replace(turn, reveal=str(reveal))
            return Finished(turn, state.apply(turn))
        except IllegalAction as exc:
            return exc

    def question(self) -> Question | None:
        """The menu being shown, if any."""
        if self.asking is None or self.phase is not Phase.ASK:
            return None
        if self.asking.purpose == "setup":
            step = next_setup_step(self.names, self.asking.mapping())
            return step if isinstance(step, Question) else None
        found = self._step()
        return found if isinstance(found, Question) else None

    def _on_menu(self, key: Key) -> list[Effect]:
        asking = self.asking
        assert asking is not None
        question = self.question()
        if question is None:
            self._to_watch()
            return []
        if key is Key.NEXT:
            asking.selected = (asking.selected + 1) % len(question.options)
            return []
        if key is Key.BACK:
            if asking.answers:
                asking.answers.pop()
                asking.selected = 0
                return []
            self.asking = None
            back = asking.back_to
            self.phase = back if back is not Phase.PROPOSE or self.candidates else Phase.WATCH
            return []
        asking.answers.append((question.key, question.options[asking.selected].value))
        if asking.purpose == "setup":
            return self._advance_setup()
        return self._advance()

    # ------------------------------------------------------- apply and undo
    def _apply(self, turn: Turn, after: GameState, off: float | None) -> list[Effect]:
        before = self.state
        assert before is not None
        self.history.append((before, turn))
        self.state = after
        self._learn(after)
        self._to_watch()
        self.restore = None
        self.problem = ""
        self.note = f"{before.player.name}: {turn}"
        confidence = None if off is None else max(0.0, 1.0 - off)
        effects: list[Effect] = [
            DuelTurnConfirmed(turn, before, after, self.source, confidence, self._via),
            SetLight(Light.TURN),
        ]
        if after.current == before.current and not after.is_over():
            self.note = f"{before.player.name} plays again"
            effects.append(Buzz("attention"))
        outcome = after.outcome()
        if outcome is not None:
            self.phase = Phase.OVER
            effects += [DuelOver(outcome, after), SetLight(Light.OFF), Screenshot("standings")]
        return effects

    def _undo(self) -> list[Effect]:
        if self.phase is Phase.SETUP or (self.phase is Phase.ASK and self.state is None):
            return []
        if not self.history:
            self.note = "Nothing to undo"
            return []
        before, turn = self.history.pop()
        self.state = before
        self._to_watch()
        self.restore = str(turn)
        self._settled = None
        self.note = f"Undone: {turn}. Put the table back as it was before it"
        return [DuelTurnUndone(turn, before), Buzz("attention"), SetLight(Light.ATTENTION)]

    # ---------------------------------------------------------------- view
    def view(self) -> ScreenView:
        """What the screen shows now."""
        state, phase = self.state, self.phase
        if phase is Phase.ASK:
            question = self.question()
            assert question is not None and self.asking is not None
            text = question.text
            if self.asking.purpose == "turn" and state is not None and not text:
                text = f"{state.player.name}'s turn, entered with the buttons."
            return ScreenView.choice(
                state if state is not None else self.setup_state,
                question.title, question.labels(), self.asking.selected, text,
            )
        if phase is Phase.SETUP:
            if self.setup_state is not None:
                names = " and ".join(p.name for p in self.setup_state.players)
                return replace(
                    ScreenView.setup(
                        self.setup_state,
                        f"{names}. Does the screen match the board and the pyramid?",
                        "Check the board and the pyramid",
                    ),
                    note=self.problem,
                )
            return ScreenView(
                None, Mode.SETUP, "New game: fill the board and lay out the pyramid",
                self.problem or self.note or (
                    "Waiting for the camera to read the table. CONFIRM: enter it by hand."
                    if self.camera
                    else "No camera: press CONFIRM to enter the board and pyramid by hand."
                ),
                hints=ButtonHints(confirm="Enter by hand", back="Enter by hand"),
            )
        assert state is not None
        shown = state
        if phase is Phase.OVER:
            outcome = state.outcome()
            assert outcome is not None
            return ScreenView(
                shown, Mode.END, "Game over", outcome.summary(),
                hints=ButtonHints(confirm="New game", hold_back="Hold 2 s: undo"),
            )
        if phase is Phase.PROPOSE:
            cand = self.candidates[self.index]
            count = len(self.candidates)
            notes = [str(cand.turn)]
            if cand.differences:
                notes.append("but " + describe(cand.differences, 1))
            if cand.ask:
                asked = {"which": "which one", "reveal": "card revealed"}
                notes.append("CONFIRM, then say the " + " and ".join(asked[a] for a in cand.ask))
            return ScreenView(
                shown, Mode.PROPOSAL, "Is this what happened?",
                describe_turn(state, cand.turn),
                candidate=(self.index + 1, count),
                hints=ButtonHints(
                    confirm="Yes, apply", next="Next guess" if count > 1 else "",
                    back="No, cancel", hold_back="Hold 2 s: undo",
                ),
                note=" · ".join(notes),
            )
        if phase is Phase.PROBLEM:
            return ScreenView.error(shown, self.problem)
        if self.restore is not None:
            return ScreenView.waiting(
                shown, self.note or "Put the table back as it was",
                title=f"Undone: {self.restore}",
            )
        if not self.camera:
            return replace(
                ScreenView.waiting(
                    shown, f"{state.player.name}, play your turn, then press NEXT to enter it.",
                    title=f"{state.player.name} to play",
                ),
                note=self.note,
            )
        return replace(ScreenView.waiting(shown), note=self.note)


def _bought(turn: Turn) -> str | None:
    action = turn.action
    return getattr(action, "card", None)


def _reveal_question(
    answers: dict[str, object], level: int, cards: Sequence[JewelCard]
) -> Question:
    """The card revealed in the pyramid: its colour, then the card."""

    def group(card: JewelCard) -> str:
        return "joker" if card.is_joker else (card.colour.label if card.colour else "grey")

    groups = sorted({group(c) for c in cards})
    chosen = answers.get("reveal/colour")
    title = f"Which level {level} card was revealed?"
    if chosen not in groups:
        return Question(
            "reveal/colour", title, tuple(Option(g.capitalize(), g) for g in groups),
            "The camera could not read it. First its colour.",
        )
    return Question(
        "reveal", title,
        tuple(Option(card_label(c), c.id) for c in cards if group(c) == chosen),
    )


__all__ = [
    "DuelOver",
    "DuelRead",
    "DuelReferee",
    "DuelStarted",
    "DuelTurnConfirmed",
    "DuelTurnUndone",
    "Effect",
    "Event",
]

