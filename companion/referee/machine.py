"""The turn loop as an event-driven state machine: events in, a view and effects out.

One machine for both games: :class:`Referee` is written against the hooks of
:class:`~companion.referee.game.RefereeGame` and names no game's state class;
Splendor's hooks live in :mod:`companion.referee.splendor` and Splendor
Duel's in :mod:`companion.referee.duel` (``SplendorReferee``, ``DuelReferee``).

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
    WATCH  --CONFIRM-->  PROPOSE the turns the table would not show, if any;
             else ASK (manual entry)
    PROPOSE --NEXT: next candidate; BACK: cancel; CONFIRM-->  apply (or ASK the
             parts the table did not pin: reveal, return, noble)
    ASK    --CONFIRM: answer; NEXT: next item; BACK: previous question-->
    any    --BACK held-->  undo the last confirmed turn; the table must match again
    last turn confirmed -->  OVER (standings)

Decisions where the issue was silent:

* A reading is acted on once it is *settled*: ``agree`` consecutive readings
  with the same key (:meth:`RefereeGame.reading_key`) since the last motion (two by
  default: hands gone, nothing still moving).  A settled table identical to
  the one last acted on is ignored, so hands passing over an unchanged table,
  or a proposal cancelled with BACK, do not bring the same proposal back.
* After BACK on a proposal the table stays as it is; NEXT then opens manual
  entry, or the players change the table and the next settled reading is read.
* After an undo the table must match the restored state before any new turn
  is proposed; until it does the screen says what differs.  NEXT still opens
  manual entry (the camera might be the thing that is wrong).
* When the reader abstains (no marker, a frame from another table)
  ``abstain_limit`` reads in a row, the screen suggests entering the turn by
  hand, once for the whole spell.  Reads, not settled reads: a covered mat
  gives the same marker-less reading for a minute, and identical readings
  settle only once.
* A frame the camera cannot use at all (black, tiny, huge: :class:`Blind`)
  is said at once, once per reason, and the game stays as it is: the turns
  can be entered with the buttons meanwhile.  When the picture comes back
  (the first reading that is not an abstention) the screen says so and the
  table is watched as before: a turn played in the dark is then proposed.
* CONFIRM on a table that shows no change proposes the legal turns that leave
  it so (``via`` "on CONFIRM"): with the camera over
  the central mat, a reserved card bought leaves the mat as it was (in Duel the
  payment goes to the bag; in Splendor when bonuses pay it all), and the turns
  entered by hand in unseen Duel games were such purchases
  (``tests/bench/duel_unseen_game.py``).  NEXT still opens manual entry at once.
* A candidate whose predicted table is off by at most one token or card
  (the game's ``tolerance``) is still proposed, with the
  difference shown: a miscounted token should not stop a game.
* When the players confirm a table (the set-up, or a turn) that the reader
  saw with some cards misread, those misreads are remembered as *quirks*
  and not held against later turns while they persist unchanged (see
  the game's :meth:`RefereeGame.learn`).  Without this, one card
  the reader keeps taking for another would turn every later turn into an
  error.  Token counts are never forgiven this way.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from companion.i18n import _
from companion.i18n.reasons import translate_reason
from companion.referee.game import C, Hints, Q, R, RefereeGame, S, T
from companion.referee.menu import OTHER, Finished, Question
from companion.rules.contract import Outcome
from companion.rules.errors import IllegalAction, SetupError
from companion.screen.view import ScreenView

O_co = TypeVar("O_co", bound=Outcome, covariant=True)

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


@dataclass(frozen=True)
class TableRead(Generic[R]):
    """One still frame's reading; ``source`` is whatever the loop wants logged with it."""

    reading: R
    source: object = None


@dataclass(frozen=True, slots=True)
class Blind:
    """The camera gave a frame nothing can be read from (black, tiny, huge);
    ``reason`` is the reader's one line (the lights are out, the lens covered)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Notice:
    """A word for the players from the loop, no event of the game (the chips'
    colours could not be learned from the set-up frame): shown as the note."""

    text: str


Event = Press | Undo | Motion | Blind | Notice | TableRead[R]

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


@dataclass(frozen=True)
class GameStarted(Generic[S]):
    state: S


@dataclass(frozen=True)
class TurnConfirmed(Generic[S, T]):
    """Log this turn: ``after`` is the state it leads to, ``source`` the frame read."""

    turn: T
    before: S
    after: S
    source: object = None
    confidence: float | None = None
    #: how it was found: the camera's "first guess", a "later guess" (NEXT), "on CONFIRM"
    #: (a turn the table does not show, proposed when asked), or "buttons"
    via: str = "buttons"


@dataclass(frozen=True)
class TurnUndone(Generic[S, T]):
    turn: T
    restored: S


@dataclass(frozen=True)
class GameOver(Generic[S, O_co]):
    outcome: O_co
    state: S


@dataclass(frozen=True, slots=True)
class Screenshot:
    """A moment worth a screenshot (the demo saves them; ``label`` names the file)."""

    label: str


@dataclass(frozen=True, slots=True)
class LogHeader:
    """Set a header of the game's record in the log (``Hints``: the turns a hint was
    asked for), so the record keeps what happened around the turns, not only them."""

    name: str
    value: str


Effect = (
    Buzz
    | SetLight
    | GameStarted[S]
    | TurnConfirmed[S, T]
    | TurnUndone[S, T]
    | GameOver[S, Outcome]
    | Screenshot
    | LogHeader
)


class Phase(enum.Enum):
    SETUP = "setup"
    WATCH = "watch"
    PROPOSE = "propose"
    ASK = "ask"
    PROBLEM = "problem"
    OVER = "over"


@dataclass
class Asking(Generic[C]):
    """A chain of questions in progress (see the games' ``entry`` modules).

    ``purpose`` is "turn" or "setup"; ``candidate`` is the proposal the chain
    finishes (None: a turn entered by hand, or the set-up).
    """

    purpose: str
    back_to: Phase
    fixed: dict[str, object] = field(default_factory=dict)
    answers: list[tuple[str, object]] = field(default_factory=list)
    setup_hints: Hints = field(default_factory=dict)
    selected: int = 0
    candidate: C | None = None

    def mapping(self) -> dict[str, object]:
        merged = dict(self.fixed)
        merged.update(self.answers)
        return merged


class Referee(Generic[S, T, R, C, Q]):
    """The referee of one game.  Feed events with :meth:`handle`; draw :meth:`view`.

    Each game's referee is this class with its hooks (:meth:`hooks`):
    ``SplendorReferee`` and ``DuelReferee``; they add nothing else.
    """

    def __init__(
        self,
        names: Sequence[str],
        *,
        state: S | None = None,
        history: Sequence[tuple[S, T]] = (),
        agree: int = 2,
        abstain_limit: int = 3,
        camera: bool = True,
    ) -> None:
        self.game = self.hooks()
        self.names = tuple(names)
        self.camera = camera
        self.agree = max(agree, 1)
        self.abstain_limit = abstain_limit
        self._unchanged_hint = ""
        self.state: S | None = state
        self.history: list[tuple[S, T]] = list(history)
        self.phase = Phase.SETUP if state is None else Phase.WATCH
        self.setup_state: S | None = None
        self.candidates: list[C] = []
        self.index = 0
        self.asking: Asking[C] | None = None
        self.problem = ""
        self.note = ""
        self.restore: str | None = None
        self.reading: R | None = None
        self.source: object = None
        self._last_key: object = None
        self._agreeing = 0
        self._settled_key: object = None
        self._abstains = 0
        #: the note saying why the camera cannot read the table ("": it can)
        self._blind_note = ""
        #: the reader's persistent misreads the players have confirmed past
        self.quirks: Q = self.game.no_quirks()
        self._via = "buttons"
        #: the candidates on screen were asked for with CONFIRM (the table shows no turn)
        self._unseen = False
        if state is not None and state.is_over():
            self.phase = Phase.OVER

    def hooks(self) -> RefereeGame[S, T, R, C, Q]:
        """The game's hooks (:class:`~companion.referee.game.RefereeGame`)."""
        raise NotImplementedError("a game's referee says which game it referees")

    # ------------------------------------------------------------ dispatch
    def handle(self, event: Event[R]) -> list[Effect[S, T]]:
        """Apply one event; return what the loop must do about it."""
        if isinstance(event, Motion):
            self._last_key = None
            self._agreeing = 0
            return []
        if isinstance(event, TableRead):
            return self._on_read(event)
        if isinstance(event, Blind):
            return self._on_blind(event.reason)
        if isinstance(event, Notice):
            self.note = event.text
            return []
        if isinstance(event, Undo):
            return self._undo()
        return self._on_press(event.key)

    # ------------------------------------------------------------ readings
    def _settle(self, event: TableRead[R]) -> bool:
        key = self.game.reading_key(event.reading)
        if key == self._last_key:
            self._agreeing += 1
        else:
            self._last_key, self._agreeing = key, 1
        if self._agreeing < self.agree or key == self._settled_key:
            return False
        self._settled_key = key
        self.reading, self.source = event.reading, event.source
        return True

    def _on_read(self, event: TableRead[R]) -> list[Effect[S, T]]:
        reading = event.reading
        if self.game.abstained(reading):
            # nothing to settle on: the table last read stays the one acted on
            self.reading, self.source = reading, event.source
            self._abstains += 1
            if self._abstains < self.abstain_limit:
                return []
            return self._say_blind(self.game.abstain_note())
        self._abstains = 0
        effects = self._see_again()
        if not self._settle(event):
            return effects
        if self.phase is Phase.SETUP:
            return effects + self._read_setup(reading)
        watched = (Phase.WATCH, Phase.PROBLEM)
        if self.phase in watched or (self.game.watches_proposals and self._proposing()):
            return effects + self._evaluate(reading)
        return effects

    def _on_blind(self, reason: str) -> list[Effect[S, T]]:
        """A frame nothing can be read from: say why once; the game stays as it is."""
        self._last_key, self._agreeing = None, 0  # readings agree afresh after it
        self.reading, self.source = None, None  # nothing of this table is known
        return self._say_blind(
            _("The camera cannot read the table ({reason}): the game goes on; NEXT to enter"
              " a turn by hand").format(reason=translate_reason(reason)))

    def _say_blind(self, note: str) -> list[Effect[S, T]]:
        """Show ``note`` once for a spell of unreadable frames (the screen shows
        it and speech says it when it changes: not once per frame)."""
        if note == self._blind_note:
            return []
        self._blind_note = note
        if self.phase not in (Phase.SETUP, Phase.WATCH):
            return []  # a proposal or a menu on screen: the players are busy with it
        self.note = note
        return [Buzz("attention"), SetLight(Light.ATTENTION)]

    def _see_again(self) -> list[Effect[S, T]]:
        """The first reading after a spell of unreadable frames: the note goes."""
        if not self._blind_note:
            return []
        shown, self._blind_note = self.note == self._blind_note, ""
        if not shown:
            return []
        self.note = _("The camera sees the table again")
        return [SetLight(Light.TURN if self.phase is Phase.WATCH else Light.OFF)]

    def _proposing(self) -> bool:
        """A proposal is on screen, or the menus that finish it."""
        asking = self.asking
        return self.phase is Phase.PROPOSE or (
            self.phase is Phase.ASK
            and asking is not None
            and asking.purpose == "turn"
            and asking.candidate is not None
        )

    def _evaluate(self, reading: R) -> list[Effect[S, T]]:
        state, game = self.state, self.game
        assert state is not None
        now = game.compare(state, reading, self.quirks)
        off = now.off
        if self.restore is not None:
            if off <= game.restore_tolerance:
                self.restore = None
                self.note = _("The table matches again")
                self._to_watch()
                return [SetLight(Light.TURN)]
            self.phase = Phase.WATCH
            self.note = game.restore_note(now.what)
            return [SetLight(Light.ATTENTION)]
        if off == 0:
            self._to_watch()
            # a turn whose only trace is a place the reader was unsure of: say so
            hint = game.unchanged_note(state, reading)
            if hint or self.note == self._unchanged_hint:
                self.note = hint
            self._unchanged_hint = hint
            return []
        ranked = game.candidates(state, reading, self.quirks)
        good = [c for c in ranked if c.distance <= game.tolerance and c.distance < off]
        if good:
            self.candidates, self.index = good[:8], 0
            self.phase = Phase.PROPOSE
            self.asking = None
            self._unseen = False
            return [SetLight(Light.ATTENTION), Screenshot("proposal")]
        if off <= game.tolerance:
            self._to_watch()
            self.note = _("The table differs slightly: {what}").format(what=now.what)
            return []
        self.problem = translate_reason(
            game.unexplained(state, reading, ranked[0] if ranked else None, self.quirks)
        )
        self.phase = Phase.PROBLEM
        self.asking = None
        return [Buzz("error"), SetLight(Light.ERROR), Screenshot("problem")]

    def _to_watch(self) -> None:
        self.phase = Phase.WATCH
        self.candidates, self.index, self.asking = [], 0, None
        self._unseen = False

    # --------------------------------------------------------------- setup
    def _read_setup(self, reading: R) -> list[Effect[S, T]]:
        fixed, hints = self.game.setup_answers(reading, len(self.names))
        self.asking = Asking("setup", Phase.SETUP, fixed=fixed, setup_hints=hints)
        return self._advance_setup()

    def _setup_step(self, asking: Asking[C]) -> Question | S:
        return self.game.setup_step(self.names, asking.mapping(), asking.setup_hints)

    def _advance_setup(self) -> list[Effect[S, T]]:
        asking = self.asking
        assert asking is not None
        try:
            step = self._setup_step(asking)
        except SetupError as exc:
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

    def _start(self) -> list[Effect[S, T]]:
        assert self.setup_state is not None
        self.state = self.setup_state
        self.history = []
        self._to_watch()
        self.note = ""
        self._learn(self.state)
        return [GameStarted(self.state), SetLight(Light.TURN)]

    # ------------------------------------------------------------- buttons
    def _on_press(self, key: Key) -> list[Effect[S, T]]:
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
            if key is Key.CONFIRM and self._propose_unseen():
                return [SetLight(Light.ATTENTION), Screenshot("proposal")]
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

    def _manual_setup(self) -> list[Effect[S, T]]:
        hints = self.game.setup_hints(self.reading)
        self.asking = Asking("setup", Phase.SETUP, setup_hints=hints)
        return self._advance_setup()

    def _propose_unseen(self) -> bool:
        """On a table that shows no change, propose the turns that leave it so (see the
        module's docstring); False when it changed, none does, or no table was read."""
        state, reading, game = self.state, self.reading, self.game
        if state is None or reading is None or self.restore is not None or game.abstained(
                reading):
            return False
        if game.compare(state, reading, self.quirks).off > 0:
            return False  # the table changed: its proposals were shown (or it buzzed)
        unseen = [c for c in game.candidates(state, reading, self.quirks) if c.distance <= 0]
        if not unseen:
            return False
        self.candidates, self.index = unseen[:8], 0
        self.phase = Phase.PROPOSE
        self.asking = None
        self._unseen = True
        return True

    def _manual_turn(self, back_to: Phase) -> list[Effect[S, T]]:
        self.asking = Asking("turn", back_to)
        self._via = "buttons"
        return self._advance_turn()

    def _confirm_candidate(self, cand: C) -> list[Effect[S, T]]:
        self._via = ("on CONFIRM" if self._unseen
                     else "first guess" if self.index == 0 else "later guess")
        if not cand.ask:
            return self._apply(
                self.game.turn_of(cand), self.game.proposal_after(cand), cand.distance
            )
        self.asking = Asking(
            "turn", Phase.PROPOSE, fixed=self.game.asked_answers(cand), candidate=cand
        )
        return self._advance_turn()

    def _turn_step(self, asking: Asking[C]) -> Question | Finished[T, S]:
        assert self.state is not None
        return self.game.turn_step(self.state, asking.mapping(), asking.candidate)

    def _refuse_step(self, exc: IllegalAction) -> list[Effect[S, T]]:
        """The answers so far make no legal turn: say why, ask nothing more."""
        self.problem = translate_reason(str(exc))
        self.phase = Phase.PROBLEM
        self.asking = None
        return [Buzz("error"), SetLight(Light.ERROR)]

    def _ask_next(self, asking: Asking[C]) -> list[Effect[S, T]]:
        """One more question to ask, from its first choice."""
        self.phase = Phase.ASK
        asking.selected = 0
        return [SetLight(Light.ATTENTION)]

    def _advance_turn(self) -> list[Effect[S, T]]:
        asking = self.asking
        assert asking is not None
        try:
            step = self._turn_step(asking)
        except IllegalAction as exc:
            return self._refuse_step(exc)
        if isinstance(step, Question):
            return self._ask_next(asking)
        cand = asking.candidate
        scored = cand is not None and not self.game.watches_proposals
        return self._apply(step.turn, step.after, cand.distance if scored and cand else None)

    def question(self) -> Question | None:
        """The menu being shown, if any."""
        asking = self.asking
        if asking is None or self.phase is not Phase.ASK:
            return None
        step = self._setup_step(asking) if asking.purpose == "setup" else self._turn_step(asking)
        return step if isinstance(step, Question) else None

    def _on_menu(self, key: Key) -> list[Effect[S, T]]:
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
    def _apply(self, turn: T, after: S | None, off: float | None) -> list[Effect[S, T]]:
        before = self.state
        assert before is not None
        if after is None:
            try:
                after = self.game.apply(before, turn)
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
        self.problem = ""
        self.note = f"{before.player.name}: {turn}"
        confidence = None if off is None else max(0.0, 1.0 - off)
        effects: list[Effect[S, T]] = [
            TurnConfirmed(turn, before, after, self.source, confidence, self._via),
            SetLight(Light.TURN),
        ]
        news = self.game.after_turn(before, after)
        if news:
            self.note = news
            effects.append(Buzz("attention"))
        outcome = after.outcome()
        if outcome is not None:
            self.phase = Phase.OVER
            effects += [GameOver(outcome, after), SetLight(Light.OFF), Screenshot("standings")]
        return effects

    def _learn(self, state: S) -> None:
        """Remember the misreads of the table the players just confirmed."""
        if self.reading is None or self.game.abstained(self.reading):
            return
        self.quirks = self.game.learn(state, self.reading)

    def _undo(self) -> list[Effect[S, T]]:
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
        state, phase, game = self.state, self.phase, self.game
        if phase is Phase.ASK:
            question = self.question()
            asking = self.asking
            assert question is not None and asking is not None
            shown = state if state is not None else self.setup_state
            text = question.text
            by_hand = asking.candidate is None or game.watches_proposals
            if asking.purpose == "turn" and state is not None and by_hand:
                text = text or _("{name}'s turn, entered with the buttons.").format(
                    name=state.player.name
                )
            return ScreenView.choice(
                shown, question.title, question.labels(), asking.selected, text
            )
        if phase is Phase.SETUP:
            if self.setup_state is not None:
                return _with_note(game.setup_view(self.setup_state),
                                  self.problem or self.note)
            return game.new_game_view(self.problem or self.note, self.camera)
        assert state is not None
        if phase is Phase.OVER:
            return game.end_view(state)
        if phase is Phase.PROPOSE:
            cand = self.candidates[self.index]
            view = ScreenView.proposal(
                state,
                game.describe_turn(state, game.turn_of(cand)),
                self.index + 1,
                len(self.candidates),
            )
            return _with_note(view, game.proposal_note(cand))
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
        # CONFIRM proposes a turn the camera cannot see (see the module's docstring)
        return _with_note(ScreenView.waiting(state, confirm=_("Turn not seen")), self.note)


def _with_note(view: ScreenView, note: str) -> ScreenView:
    return replace(view, note=note)
