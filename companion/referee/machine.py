"""The turn loop as an event-driven state machine: events in, a view and effects out.

Nothing here touches pygame, a camera or a pin.  The loop that owns those
(``splendor-companion run``, the demo, the tests) feeds :class:`Referee` one
event at a time -- a table reading, motion, a button -- and gets back a list of
*effects* (buzz, lights, "log this confirmed turn", "take a screenshot") that
it carries out, and reads :meth:`Referee.view` to draw the screen.  So every
situation of a game is tested with scripted readings and button presses, in
milliseconds, and the same code runs on the Pi.

Phases::

    SETUP  --table read / entered, CONFIRM-->  WATCH
    WATCH  --settled reading that a legal turn explains-->  PROPOSE
    WATCH  --settled reading that no legal turn explains-->  PROBLEM (buzz)
    WATCH/PROBLEM --NEXT-->  ASK (manual entry)
    PROPOSE --NEXT: next candidate; BACK: cancel; CONFIRM-->  apply (or ASK the
             parts the table did not pin: reveal, return, noble)
    ASK    --CONFIRM: answer; NEXT: next item; BACK: previous question-->
    any    --BACK held-->  undo the last confirmed turn; the table must match again
    last turn confirmed -->  OVER (standings)

Decisions where the issue was silent:

* A reading is acted on once it is *settled*: ``agree`` consecutive readings
  with the same :meth:`TableReading.key` since the last motion (two by
  default: hands gone, nothing still moving).  A settled table identical to
  the one last acted on is ignored, so hands passing over an unchanged table,
  or a proposal cancelled with BACK, do not bring the same proposal back.
* After BACK on a proposal the table stays as it is; NEXT then opens manual
  entry, or the players change the table and the next settled reading is read.
* After an undo the table must match the restored state before any new turn
  is proposed; until it does the screen says what differs.  NEXT still opens
  manual entry (the camera might be the thing that is wrong).
* When the reader abstains (no marker, unreadable frame) ``abstain_limit``
  settled times in a row, the screen suggests entering the turn by hand.
* A candidate whose predicted table is off by at most one token or card
  (:data:`~companion.referee.explain.TOLERANCE`) is still proposed, with the
  difference shown: a miscounted token should not stop a game.
* When the players confirm a table (the set-up, or a turn) that the reader
  saw with some cards misread, those misreads are remembered as *quirks*
  and not held against later turns while they persist unchanged (see
  :func:`~companion.referee.reading.differences`).  Without this, one card
  the reader keeps taking for another would turn every later turn into an
  error.  Token counts are never forgiven this way.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from companion.i18n import _
from companion.i18n.reasons import translate_reason
from companion.i18n.words import join_words
from companion.referee.entry import (
    OTHER,
    Question,
    next_setup_step,
    next_turn_step,
    slot_key,
)
from companion.referee.explain import TOLERANCE, Candidate, candidates, unexplained
from companion.referee.reading import (
    TableReading,
    describe_differences,
    differences,
    distance,
    learn_quirks,
    predict,
)
from companion.rules.actions import Buy, Turn
from companion.rules.catalogue import LEVELS
from companion.rules.errors import IllegalAction, SetupError
from companion.rules.outcome import Outcome
from companion.rules.state import MARKET_WIDTH, WINNING_POINTS, GameState
from companion.screen.view import ButtonHints, Mode, ScreenView

# ---------------------------------------------------------------- events in


class Key(enum.Enum):
    CONFIRM = "confirm"
    NEXT = "next"
    BACK = "back"


@dataclass(frozen=True, slots=True)
class Press:
    """A button pressed and released."""

    key: Key


@dataclass(frozen=True, slots=True)
class Undo:
    """BACK held for 2 s: undo the last confirmed turn."""


@dataclass(frozen=True, slots=True)
class Motion:
    """Something moves over the table (hands): readings start agreeing afresh."""


@dataclass(frozen=True, slots=True)
class TableRead:
    """One still frame's reading; ``source`` is whatever the loop wants logged with it."""

    reading: TableReading
    source: object = None


Event = Press | Undo | Motion | TableRead

# -------------------------------------------------------------- effects out


class Light(enum.Enum):
    TURN = "turn"
    ATTENTION = "attention"
    ERROR = "error"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class Buzz:
    """Sound the buzzer: ``error`` for a rule broken, ``attention`` for news."""

    pattern: str = "error"


@dataclass(frozen=True, slots=True)
class SetLight:
    light: Light


@dataclass(frozen=True, slots=True)
class GameStarted:
    state: GameState


@dataclass(frozen=True)
class TurnConfirmed:
    """Log this turn: ``after`` is the state it leads to, ``source`` the frame read."""

    turn: Turn
    before: GameState
    after: GameState
    source: object = None
    confidence: float | None = None
    #: how it was found: the camera's "first guess", a "later guess" (NEXT), or "buttons"
    via: str = "buttons"


@dataclass(frozen=True)
class TurnUndone:
    turn: Turn
    restored: GameState


@dataclass(frozen=True)
class GameOver:
    outcome: Outcome
    state: GameState


@dataclass(frozen=True, slots=True)
class Screenshot:
    """A moment worth a screenshot (the demo saves them; ``label`` names the file)."""

    label: str


Effect = Buzz | SetLight | GameStarted | TurnConfirmed | TurnUndone | GameOver | Screenshot


class Phase(enum.Enum):
    SETUP = "setup"
    WATCH = "watch"
    PROPOSE = "propose"
    ASK = "ask"
    PROBLEM = "problem"
    OVER = "over"


@dataclass
class _Asking:
    """A chain of questions in progress (see :mod:`companion.referee.entry`)."""

    purpose: str  # "turn" or "setup"
    back_to: Phase
    fixed: dict[str, object] = field(default_factory=dict)
    answers: list[tuple[str, object]] = field(default_factory=list)
    reveal_hints: tuple[str, ...] = ()
    setup_hints: dict[str, tuple[str, ...]] = field(default_factory=dict)
    selected: int = 0
    from_camera: bool = False

    def mapping(self) -> dict[str, object]:
        merged = dict(self.fixed)
        merged.update(self.answers)
        return merged


class Referee:
    """The referee of one game.  Feed events with :meth:`handle`; draw :meth:`view`."""

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
        self.reading: TableReading | None = None
        self.source: object = None
        self._last_key: object = None
        self._agreeing = 0
        self._settled_key: object = None
        self._abstains = 0
        #: the reader's persistent card misreads the players have confirmed past
        self.quirks: dict[str, tuple[str, str]] = {}
        self._via = "buttons"
        if state is not None and state.is_over():
            self.phase = Phase.OVER

    # ------------------------------------------------------------ dispatch
    def handle(self, event: Event) -> list[Effect]:
        """Apply one event; return what the loop must do about it."""
        if isinstance(event, Motion):
            self._last_key = None
            self._agreeing = 0
            return []
        if isinstance(event, TableRead):
            return self._on_read(event)
        if isinstance(event, Undo):
            return self._undo()
        return self._on_press(event.key)

    # ------------------------------------------------------------ readings
    def _settle(self, event: TableRead) -> bool:
        key = event.reading.key()
        if key == self._last_key:
            self._agreeing += 1
        else:
            self._last_key, self._agreeing = key, 1
        if self._agreeing < self.agree or key == self._settled_key:
            return False
        self._settled_key = key
        self.reading, self.source = event.reading, event.source
        return True

    def _on_read(self, event: TableRead) -> list[Effect]:
        if not self._settle(event):
            return []
        reading = event.reading
        if reading.abstained:
            self._abstains += 1
            if self._abstains >= self.abstain_limit and self.phase in (Phase.SETUP, Phase.WATCH):
                self.note = _("The camera cannot read the table: NEXT to enter by hand")
                return [SetLight(Light.ATTENTION)]
            return []
        self._abstains = 0
        if self.phase is Phase.SETUP:
            return self._read_setup(reading)
        if self.phase in (Phase.WATCH, Phase.PROPOSE, Phase.PROBLEM) or (
            self.phase is Phase.ASK
            and self.asking is not None
            and self.asking.purpose == "turn"
            and self.asking.from_camera
        ):
            return self._evaluate(reading)
        return []

    def _evaluate(self, reading: TableReading) -> list[Effect]:
        state = self.state
        assert state is not None
        names = [p.name for p in state.players]
        now = differences(predict(state), reading, names, self.quirks)
        off = distance(now)
        if self.restore is not None:
            if off == 0:
                self.restore = None
                self.note = _("The table matches again")
                self._to_watch()
                return [SetLight(Light.TURN)]
            self.phase = Phase.WATCH
            self.note = _("Put the table back as it was: {what}").format(
                what=describe_differences(now)
            )
            return [SetLight(Light.ATTENTION)]
        if off == 0:
            self._to_watch()
            return []
        ranked = candidates(state, reading, self.quirks)
        good = [c for c in ranked if c.distance <= TOLERANCE and c.distance < off]
        if good:
            self.candidates, self.index = good[:8], 0
            self.phase = Phase.PROPOSE
            self.asking = None
            return [SetLight(Light.ATTENTION), Screenshot("proposal")]
        if off <= TOLERANCE:
            self._to_watch()
            self.note = _("The table differs slightly: {what}").format(
                what=describe_differences(now)
            )
            return []
        self.problem = translate_reason(
            unexplained(state, reading, ranked[0] if ranked else None, self.quirks)
        )
        self.phase = Phase.PROBLEM
        self.asking = None
        return [Buzz("error"), SetLight(Light.ERROR), Screenshot("problem")]

    def _to_watch(self) -> None:
        self.phase = Phase.WATCH
        self.candidates, self.index, self.asking = [], 0, None

    # --------------------------------------------------------------- setup
    def _read_setup(self, reading: TableReading) -> list[Effect]:
        fixed: dict[str, object] = {}
        hints: dict[str, tuple[str, ...]] = {}
        market = reading.market or ()
        for r in range(len(LEVELS)):
            for s in range(MARKET_WIDTH):
                read = market[r][s] if r < len(market) and s < len(market[r]) else None
                if read is None:
                    continue
                if read.sure and read.best:
                    fixed[slot_key(r, s)] = read.best
                elif read.candidates:
                    hints[slot_key(r, s)] = read.ids()[:4]
        nobles = reading.nobles or ()
        if len(nobles) == len(self.names) + 1:
            for i, n in enumerate(nobles):
                fixed[f"noble{i + 1}"] = n
        self.asking = _Asking("setup", Phase.SETUP, fixed=fixed, setup_hints=hints)
        return self._advance_setup()

    def _advance_setup(self) -> list[Effect]:
        asking = self.asking
        assert asking is not None
        step = next_setup_step(len(self.names), asking.mapping(), asking.setup_hints)
        if isinstance(step, Question):
            self.phase = Phase.ASK
            asking.selected = 0
            return [SetLight(Light.ATTENTION)]
        try:
            self.setup_state = GameState.new(self.names, step.nobles, step.market)
        except SetupError as exc:
            self.problem = str(exc)
            self.asking = None
            self.phase = Phase.SETUP
            return [Buzz("error")]
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
        return [GameStarted(self.state), SetLight(Light.TURN)]

    # ------------------------------------------------------------- buttons
    def _on_press(self, key: Key) -> list[Effect]:
        phase = self.phase
        if phase is Phase.ASK:
            return self._on_menu(key)
        if phase is Phase.SETUP:
            if key is Key.CONFIRM and self.setup_state is not None:
                return self._start()
            if key is Key.NEXT:
                self._settled_key = None  # read the table again
                self.setup_state = None
                return []
            if key is Key.BACK or (key is Key.CONFIRM and self.setup_state is None):
                return self._manual_setup()
            return []
        if phase is Phase.PROPOSE:
            if key is Key.NEXT:
                self.index = (self.index + 1) % len(self.candidates)
                return []
            if key is Key.BACK:
                self._to_watch()
                self.note = _("Cancelled: change the table, or NEXT to enter the turn by hand")
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
                self._settled_key = None  # the next settled table is read afresh
                self.note = _("Waiting for the table to be put right")
                return [SetLight(Light.TURN)]
            return []
        if phase is Phase.OVER and key is Key.CONFIRM:
            self.state, self.history, self.setup_state = None, [], None
            self.phase = Phase.SETUP
            self._settled_key = None
            return [SetLight(Light.OFF)]
        return []

    def _manual_setup(self) -> list[Effect]:
        hints: dict[str, tuple[str, ...]] = {}
        if self.reading is not None and self.reading.market is not None:
            for r, row in enumerate(self.reading.market):
                for s, read in enumerate(row):
                    if read.candidates:
                        hints[slot_key(r, s)] = read.ids()[:4]
        self.asking = _Asking("setup", Phase.SETUP, setup_hints=hints)
        return self._advance_setup()

    def _manual_turn(self, back_to: Phase) -> list[Effect]:
        self.asking = _Asking("turn", back_to)
        self._via = "buttons"
        return self._advance_turn()

    def _confirm_candidate(self, cand: Candidate) -> list[Effect]:
        self._via = "first guess" if self.index == 0 else "later guess"
        if not cand.ask:
            return self._apply(cand.turn, cand.distance)
        turn = cand.turn
        fixed: dict[str, object] = {"action": turn.action}
        if isinstance(turn.action, Buy):
            fixed["payment"] = turn.action.payment
        if "reveal" not in cand.ask and turn.reveal is not None:
            fixed["reveal"] = turn.reveal
        if "return" not in cand.ask:
            fixed["returned"] = turn.returned
        if "noble" not in cand.ask and turn.noble is not None:
            fixed["noble"] = turn.noble
        self.asking = _Asking(
            "turn", Phase.PROPOSE, fixed=fixed, reveal_hints=cand.reveals, from_camera=True
        )
        return self._advance_turn()

    def _advance_turn(self) -> list[Effect]:
        asking, state = self.asking, self.state
        assert asking is not None and state is not None
        try:
            step = next_turn_step(state, asking.mapping(), asking.reveal_hints)
        except IllegalAction as exc:
            self.problem = translate_reason(str(exc))
            self.phase = Phase.PROBLEM
            self.asking = None
            return [Buzz("error"), SetLight(Light.ERROR)]
        if isinstance(step, Question):
            self.phase = Phase.ASK
            asking.selected = 0
            return [SetLight(Light.ATTENTION)]
        return self._apply(step, None)

    def question(self) -> Question | None:
        """The menu being shown, if any."""
        asking = self.asking
        if asking is None or self.phase is not Phase.ASK:
            return None
        if asking.purpose == "setup":
            step = next_setup_step(len(self.names), asking.mapping(), asking.setup_hints)
            return step if isinstance(step, Question) else None
        assert self.state is not None
        turn_step = next_turn_step(self.state, asking.mapping(), asking.reveal_hints)
        return turn_step if isinstance(turn_step, Question) else None

    def _on_menu(self, key: Key) -> list[Effect]:
        asking = self.asking
        assert asking is not None
        question = self.question()
        if question is None:  # cannot happen: ASK always has a question
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
        value = question.options[asking.selected].value
        asking.answers.append((question.key, value))
        if value == OTHER:
            asking.selected = 0
            return []
        if asking.purpose == "setup":
            return self._advance_setup()
        return self._advance_turn()

    # ------------------------------------------------------- apply and undo
    def _apply(self, turn: Turn, off: float | None) -> list[Effect]:
        before = self.state
        assert before is not None
        try:
            after = before.apply(turn)
        except IllegalAction as exc:
            self.problem = f"{before.player.name}: {translate_reason(str(exc))}"
            self.phase = Phase.PROBLEM
            self.asking = None
            return [Buzz("error"), SetLight(Light.ERROR), Screenshot("problem")]
        self.history.append((before, turn))
        self.state = after
        self._learn(after)
        self._to_watch()
        self.restore = None
        self.note = f"{before.player.name}: {turn}"
        confidence = None if off is None else max(0.0, 1.0 - off)
        effects: list[Effect] = [
            TurnConfirmed(turn, before, after, self.source, confidence, self._via),
            SetLight(Light.TURN),
        ]
        if after.end_triggered and not before.end_triggered:
            mover = after.players[before.current]
            self.note = _(
                "Final round! {name} reached {points} points ({needed} needed):"
                " play until {last} has played"
            ).format(
                name=mover.name, points=mover.points, needed=WINNING_POINTS,
                last=after.players[-1].name,
            )
            effects.append(Buzz("attention"))
        outcome = after.outcome()
        if outcome is not None:
            self.phase = Phase.OVER
            effects += [GameOver(outcome, after), SetLight(Light.OFF), Screenshot("standings")]
        return effects

    def _learn(self, state: GameState) -> None:
        """Remember the card misreads of the table the players just confirmed."""
        if self.reading is None or self.reading.abstained:
            return
        names = [p.name for p in state.players]
        self.quirks = learn_quirks(differences(predict(state), self.reading, names))

    def _undo(self) -> list[Effect]:
        if self.phase is Phase.SETUP or (self.phase is Phase.ASK and self.state is None):
            return []
        if not self.history:
            self.note = _("Nothing to undo")
            return []
        before, turn = self.history.pop()
        self.state = before
        self._to_watch()
        self.restore = str(turn)
        self._settled_key = None
        self.note = _("Undone: {turn}. Put the table back as it was before it").format(turn=turn)
        return [TurnUndone(turn, before), Buzz("attention"), SetLight(Light.ATTENTION)]

    # ---------------------------------------------------------------- view
    def view(self) -> ScreenView:
        """What the screen shows now."""
        state = self.state
        phase = self.phase
        if phase is Phase.ASK:
            question = self.question()
            assert question is not None and self.asking is not None
            shown = state if state is not None else self.setup_state
            text = question.text
            if self.asking.purpose == "turn" and state is not None:
                text = text or _("{name}'s turn, entered with the buttons.").format(
                    name=state.player.name
                )
            return ScreenView.choice(
                shown, question.title, question.labels(), self.asking.selected, text
            )
        if phase is Phase.SETUP:
            if self.setup_state is not None:
                view = ScreenView.setup(self.setup_state)
                return _with_note(view, self.problem)
            return ScreenView(
                None,
                Mode.SETUP,
                _("New game: lay out the nobles and the market"),
                self.problem
                or self.note
                or (
                    _("Waiting for the camera to read the table. CONFIRM: enter it by hand.")
                    if self.camera
                    else _(
                        "No camera: press CONFIRM to enter the market and nobles with the"
                        " buttons."
                    )
                ),
                hints=ButtonHints(confirm=_("Enter by hand"), back=_("Enter by hand")),
            )
        assert state is not None
        if phase is Phase.OVER:
            return ScreenView.end(state)
        if phase is Phase.PROPOSE:
            cand = self.candidates[self.index]
            view = ScreenView.proposal(state, cand.turn, self.index + 1, len(self.candidates))
            notes = [str(cand.turn)]
            if cand.differences:
                notes.append(_("but {what}").format(what=describe_differences(cand.differences, 1)))
            if cand.ask:
                asked = [_ask_word(a) for a in cand.ask]
                notes.append(_("CONFIRM, then say the {what}").format(what=join_words(asked)))
            return _with_note(view, " · ".join(notes))
        if phase is Phase.PROBLEM:
            return ScreenView.error(state, self.problem)
        if self.restore is not None:
            return _with_note(
                ScreenView.waiting(
                    state,
                    self.note or _("Put the table back as it was"),
                    title=_("Undone: {turn}").format(turn=self.restore),
                ),
                "",
            )
        if not self.camera:
            return _with_note(
                ScreenView.waiting(
                    state,
                    _("{name}, play your turn, then press NEXT to enter it.").format(
                        name=state.player.name
                    ),
                    title=_("{name} to play").format(name=state.player.name),
                ),
                self.note,
            )
        return _with_note(ScreenView.waiting(state), self.note)


def _ask_word(part: str) -> str:
    """The name of a part of a turn still to be said ("reveal", "return", "noble")."""
    return {"reveal": _("reveal"), "return": _("return"), "noble": _("noble")}.get(part, part)


def _with_note(view: ScreenView, note: str) -> ScreenView:
    return replace(view, note=note)
