"""A computer seat at the physical table, and a hint on demand, for both games.

:class:`ComputerReferee` is the one referee machine
(:class:`~companion.referee.machine.Referee`) with two things added:

* **Computer seats.**  When a computer seat is to move, the search chooses
  its turn (:mod:`companion.analysis.seat`, at the seat's level) and the
  screen and speech say step by step what to move on the table.  A person
  carries it out; the camera's settled reading goes through the same
  candidates as any turn, and when one of them is the computer's turn it is
  confirmed at once (no button).  A table that shows anything else is a
  problem that says what differs (buzz, as for a broken rule); putting it
  right is read again.  Without a camera (or with one), CONFIRM says "done":
  the turn is entered as planned and only the card revealed is asked.  NEXT
  still enters any turn by hand, so the players stay in charge.
* **A prelude.**  A part of a turn that must be on the table before the rest
  can be planned (:class:`Prelude`; Duel's forced refill from the bag, whose
  draw nobody can know in advance).  The screen says it first; once the
  table shows it (or CONFIRM enters it with the game's menus, keeping what
  the camera read) the search plans the rest from the position it left,
  the *midway*, and the steps are said as usual.  The turn confirmed is the
  whole one.  A table showing the prelude and the rest at once is confirmed
  too, when the plan on one of the midways it allows is what it shows.
* **A hint.**  A short press of BACK while the companion waits for a
  person's turn (a press that meant nothing there) shows and speaks the
  search's best turn for the player to move and the win chance of at most
  three options.  The turn numbers a hint was asked for go to the log as the
  record's ``Hints`` header (:class:`~companion.referee.machine.LogHeader`).

What is game-specific (choosing, the steps in words, which candidate is the
computer's turn) is a :class:`Brain`: :mod:`companion.referee.splendor.computer`
and :mod:`companion.referee.duel.computer`.

Decisions where issue 39 was silent:

* The seat spec is ``--computer NAME[:LEVEL]`` (a name of ``--names`` or a
  seat number), repeated for several seats; the level defaults to 3.  The
  record keeps them as ``[Computer "Bob:3"]`` and the hints as ``[Hints "4
  9"]``: headers, so replay, export and older readers keep them untouched.
* The search runs when the view or a reading first needs the plan, in the
  loop's thread: the screen shows the plan when the search is done.  A plan
  depends on the position and the seat's level only (the seed is taken
  from the state's digest), so after an undo or a resume the computer says
  the same thing again.
* A hint's search is level 3's, and the hint stays on the screen until the
  turn is played; asking again for the same turn is not counted twice.
* A prelude seen is no confirmed turn: it is not logged (the turn it starts
  is, whole), and BACK held first forgets it, so a misread refill is read
  or entered again; held again, it undoes the last turn as usual.  A table
  put back as it was before the prelude forgets it too.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from companion.analysis.seat import DEFAULT_LEVEL, HINT_LEVEL, LEVELS, Choice, Level
from companion.i18n import _
from companion.record.seats import (
    COMPUTER_HEADER,
    HINTS_HEADER,
    hints_from_headers,
    seats_from_headers,
    seats_header,
)
from companion.referee.game import C, C_contra, Q, R, R_contra, RefereeGame, S, T
from companion.referee.machine import (
    Asking,
    Buzz,
    Effect,
    Key,
    Light,
    LogHeader,
    Phase,
    Referee,
    Screenshot,
    SetLight,
)
from companion.referee.menu import Question
from companion.rules.contract import Position
from companion.rules.errors import IllegalAction
from companion.screen.view import ButtonHints, Mode, ScreenView

Q_contra = TypeVar("Q_contra", contravariant=True)

#: The purpose of the menus that enter a computer turn's prelude (see :class:`Asking`).
PRELUDE = "prelude"
#: At most this many midways are searched when a prelude and the rest of a computer turn
#: appear at once (each costs a search): the orders of the 3 tokens an action may take
#: straight back off the refilled board.
MIDWAYS_TRIED = 6
#: A computer turn of more lines than this shows only the mover's row of the table: under
#: two rows the 800×480 prompt fits 4 lines of 60 characters at 31 px but 5 at 24 px, and
#: steps often take two lines (Screen.draw of a Duel position, 2-5 such lines).
ROOMY_STEPS = 3


class SeatError(ValueError):
    """A ``--computer`` spec that names no seat or no level; one line for the player."""


def parse_seats(specs: Sequence[str], names: Sequence[str]) -> dict[str, int]:
    """``["Bob:3", "1"]`` -> ``{"Bob": 3, "Ann": 3}``: computer seats by name and level.

    A spec is a player's name (or seat number from 1) with an optional
    ``:LEVEL`` (1-5, default 3).  At least one seat must stay a person's:
    somebody has to move the pieces.
    """
    seats: dict[str, int] = {}
    for spec in specs:
        who, _sep, level_text = spec.strip().rpartition(":") if ":" in spec else (spec, "", "")
        who = who.strip()
        if who.isdigit() and who not in names:
            index = int(who) - 1
            if not 0 <= index < len(names):
                raise SeatError(f"--computer {spec}: there is no seat {who} "
                                f"({len(names)} players)")
            who = names[index]
        if who not in names:
            raise SeatError(f"--computer {spec}: {who!r} is not a player "
                            f"(players: {', '.join(names)})")
        level = DEFAULT_LEVEL
        if level_text.strip():
            try:
                level = int(level_text)
            except ValueError:
                level = 0
            if level not in LEVELS:
                raise SeatError(f"--computer {spec}: the level is 1 to 5")
        if who in seats:
            raise SeatError(f"--computer {spec}: {who} is given twice")
        seats[who] = level
    if seats and len(seats) >= len(names):
        raise SeatError("--computer: at least one player must be a person (to move the pieces)")
    return seats


class Prelude(Protocol[S, T, R_contra, C_contra, Q_contra]):
    """A part of a computer turn that the table must show before the rest is planned.

    Duel's forced refill from the bag: nobody can know what the bag gives
    before the draw, so the computer asks for the refill first and plans its
    action on the board the draw left.  The position in between (the
    *midway*) is a state with the same player still to act.
    """

    def steps(self, state: S) -> list[str]:
        """What to do first in ``state``, one step a line ([]: the turn is planned at once)."""
        ...

    def answers(self, state: S, reading: R_contra, quirks: Q_contra) -> dict[str, object]:
        """What ``reading`` shows of the prelude, as the answers of its menus."""
        ...

    def step(self, state: S, answers: Mapping[str, object]) -> Question | S:
        """The next question of the prelude entered with the buttons, or the midway.
        Raises :class:`IllegalAction` when it cannot be done."""
        ...

    def midways(self, state: S, candidate: C_contra) -> list[S]:
        """The midways the candidate's turns pass through (the prelude and the rest at once)."""
        ...

    def join(self, state: S, midway: S, turn: T) -> T:
        """The whole turn from ``state``: the prelude that led to ``midway``, then
        ``turn``, planned from ``midway``."""
        ...

    def undone_note(self) -> str:
        """What the screen says when BACK held forgets the prelude seen (to read it again)."""
        ...


class Brain(Protocol[S, T, R_contra, C, Q]):
    """What a computer seat needs of one game (Splendor's, Duel's)."""

    @property
    def game(self) -> RefereeGame[S, T, R_contra, C, Q]:
        """The game's referee hooks."""
        ...

    @property
    def prelude(self) -> Prelude[S, T, R_contra, C, Q] | None:
        """The part of a turn planned only once the table shows it (None: the game has none)."""
        ...

    def choose(self, state: S, level: Level, seed: int, blind: bool) -> Choice[T] | None:
        """The search's turn for the player to move at ``level`` (None: none can be planned)."""
        ...

    def steps(self, state: S, choice: Choice[T]) -> list[str]:
        """What to move on the table for ``choice``, one step a line, in the player's language."""
        ...

    def matches(self, plan: T, candidate: C) -> T | None:
        """The candidate's turn that is ``plan`` (its reveal apart), or None."""
        ...

    def finish_answers(self, plan: T, candidate: C, turn: T) -> dict[str, object]:
        """The answers that finish ``candidate`` as ``turn``; only the reveal is left to ask."""
        ...

    def by_buttons(self, state: S, plan: T) -> tuple[dict[str, object], C | None]:
        """The answers (and the candidate, if the game needs one) to enter ``plan``
        with the buttons: only the card revealed is asked."""
        ...

    def differences(self, state: S, plan: T, reading: R_contra, quirks: Q) -> str:
        """How the table read differs from ``plan`` carried out, in words ("" unknown)."""
        ...

    def unplanned(self, state: S) -> str:
        """Why :meth:`choose` found no turn in ``state`` and what the players do instead."""
        ...


@dataclass(frozen=True)
class Midway(Generic[S]):
    """A computer turn's prelude as the table showed it (or the players entered it):
    from the position of digest ``digest`` to ``after``, the computer still to act."""

    digest: str
    after: S


@dataclass(frozen=True)
class Thought(Generic[T]):
    """A plan or a hint for one position: the search's choice and its think time."""

    digest: str
    choice: Choice[T] | None
    seconds: float


def think(brain: Brain[S, T, R, C, Q], state: S, level: Level, blind: bool) -> Thought[T]:
    """The brain's choice in ``state``, seeded by the state's digest (the same position
    gives the same turn: after an undo, a resume, or in a simulation of the same game)."""
    digest = state.digest()
    head = digest[:12]
    seed = int(head, 16) if all(c in "0123456789abcdef" for c in head) \
        else sum(map(ord, digest))
    start = time.perf_counter()
    choice = brain.choose(state, level, seed, blind)
    return Thought(digest, choice, time.perf_counter() - start)


class ComputerReferee(Referee[S, T, R, C, Q]):
    """The referee with computer seats and hints (see the module doc).

    ``seats`` maps a player's name to its level; ``hinted`` are the turn
    numbers a hint was already asked for (a resumed game's ``Hints``).
    """

    def __init__(
        self,
        names: Sequence[str],
        *,
        brain: Brain[S, T, R, C, Q],
        seats: Mapping[str, int] | None = None,
        hinted: Sequence[int] = (),
        **kwargs: Any,
    ) -> None:
        self.brain = brain
        self.seats = dict(seats or {})
        self.hinted: list[int] = list(hinted)
        #: seconds each computer turn's search took, in order (the demo prints them)
        self.think_times: list[float] = []
        self._plan: Thought[T] | None = None
        self._hint: Thought[T] | None = None
        #: the computer turn's prelude seen on the table (Duel's refill), until the turn
        self._midway: Midway[S] | None = None
        super().__init__(names, **kwargs)

    def hooks(self) -> RefereeGame[S, T, R, C, Q]:
        return self.brain.game

    # ------------------------------------------------------------- thinking
    def computer_to_move(self) -> int | None:
        """The level of the computer seat to move now, or None (a person's turn, no game)."""
        state = self.state
        if state is None or state.is_over() or self.phase is Phase.SETUP:
            return None
        return self.seats.get(state.player.name)

    def midway(self) -> S | None:
        """The position after the computer's prelude, when the table showed it for this
        position (the computer still to act), else None."""
        mid, state = self._midway, self.state
        if mid is None or state is None or mid.digest != state.digest():
            return None
        return mid.after

    def prelude_steps(self) -> list[str]:
        """What the computer to move needs on the table before it can plan ([]: nothing)."""
        prelude, state = self.brain.prelude, self.state
        if prelude is None or state is None or self.computer_to_move() is None \
                or self.midway() is not None:
            return []
        return prelude.steps(state)

    def plan(self) -> Choice[T] | None:
        """The computer's turn in the current position (searched once per position);
        None while its prelude is still to be done, or when none can be planned.
        After a prelude the turn is planned on the midway and joined to the prelude."""
        planned = self._planned()
        state, prelude = self.state, self.brain.prelude
        if planned is None or state is None:
            return None
        base, choice = planned
        if choice is None or base is state or prelude is None:
            return choice

        def join(turn: T) -> T:
            return prelude.join(state, base, turn)

        return replace(choice, turn=join(choice.turn), example=join(choice.example),
                       options=tuple(replace(o, turn=join(o.turn)) for o in choice.options))

    def _planned(self) -> tuple[S, Choice[T] | None] | None:
        """The position the computer plans from (the state, or the midway after its
        prelude) and its choice there; None when it is not its turn or the prelude waits."""
        level = self.computer_to_move()
        state = self.state
        if level is None or state is None or self.prelude_steps():
            return None
        mid = self.midway()
        base = mid if mid is not None else state
        digest = base.digest()
        if self._plan is None or self._plan.digest != digest:
            plan_level = LEVELS[level]
            if mid is not None:  # a turn's privileges come before its refill, as the
                plan_level = replace(plan_level, privileges=False)  # notation has it
            self._plan = self._think(base, plan_level, blind=False)
            self.think_times.append(self._plan.seconds)
        return base, self._plan.choice

    def _think(self, state: S, level: Level, blind: bool) -> Thought[T]:
        return think(self.brain, state, level, blind)

    # ------------------------------------------------------------ readings
    def _evaluate(self, reading: R) -> list[Effect[S, T]]:
        state = self.state
        if state is None or self.restore is not None or self.computer_to_move() is None:
            return super()._evaluate(reading)
        if self.prelude_steps():
            return self._read_prelude(state, reading)
        mid = self.midway()
        if mid is not None:
            if self.game.compare(mid, reading, self.quirks).off == 0:
                self._to_watch()  # refilled, nothing more yet: the plan stays on screen
                return []
            if self.game.compare(state, reading, self.quirks).off == 0:
                self._midway = None  # the prelude was put back: ask for it again
                return super()._evaluate(reading)
        return self._evaluate_plan(state, reading)

    def _evaluate_plan(self, state: S, reading: R) -> list[Effect[S, T]]:
        """A settled table on the computer's turn: its planned turn confirmed when the
        table shows it, else a problem saying what differs."""
        plan = self.plan()
        game = self.game
        if plan is None:
            return super()._evaluate(reading)
        now = game.compare(state, reading, self.quirks)
        if now.off == 0:
            return super()._evaluate(reading)
        for cand in game.candidates(state, reading, self.quirks):
            if cand.distance > game.tolerance or cand.distance >= now.off:
                continue
            turn = self.brain.matches(plan.turn, cand)
            if turn is not None:
                return self._carry_out_plan(cand, turn)
        what = self.brain.differences(state, plan.turn, reading, self.quirks)
        if not what:  # in words, against the table as the computer planned from it
            mid = self.midway()
            what = now.what if mid is None else game.compare(mid, reading, self.quirks).what
        return self._differs(state, what)

    def _differs(self, state: S, what: str) -> list[Effect[S, T]]:
        self.problem = _(
            "That is not {name}'s turn. {what}. Put the table right, or NEXT to enter"
            " what was played"
        ).format(name=state.player.name, what=what)
        self.phase = Phase.PROBLEM
        self.asking = None
        return [Buzz("error"), SetLight(Light.ERROR), Screenshot("computer-differs")]

    def _read_prelude(self, state: S, reading: R) -> list[Effect[S, T]]:
        """A settled table while the computer's prelude is awaited: the prelude alone
        (the computer then plans), the prelude and the planned turn at once, a prelude
        the camera could not read whole (CONFIRM enters it), or something else."""
        prelude, game = self.brain.prelude, self.game
        assert prelude is not None
        now = game.compare(state, reading, self.quirks)
        if now.off == 0:
            return super()._evaluate(reading)
        answers = prelude.answers(state, reading, self.quirks)
        try:
            step = prelude.step(state, answers)
        except IllegalAction:
            step = None
        if step is not None and not isinstance(step, Question) \
                and game.compare(step, reading, self.quirks).off == 0:
            return self._prelude_done(state, step)
        done, first = self._prelude_and_turn(state, reading, now.off)
        if done is not None:
            return done
        if answers and isinstance(step, Question):  # a prelude, not all of it read
            self._to_watch()
            self.note = _("The camera cannot read all of it: CONFIRM to enter what is missing")
            return [SetLight(Light.ATTENTION)]
        if first is not None:  # the prelude done, then another turn: name the plan there
            self._midway = Midway(state.digest(), first)
            return self._evaluate_plan(state, reading)
        return self._differs(state, _("Expected: {steps}; but {what}").format(
            steps=prelude.steps(state)[0], what=now.what))

    def _prelude_and_turn(self, state: S, reading: R,
                          off: float) -> tuple[list[Effect[S, T]] | None, S | None]:
        """The prelude and the rest of the turn played at once: the computer's plan on
        each midway a candidate passes through, confirmed when the table shows it.
        Without a match: None and the first midway tried (None: no candidate
        passes through a prelude)."""
        prelude, game = self.brain.prelude, self.game
        assert prelude is not None
        tried: list[S] = []
        for cand in game.candidates(state, reading, self.quirks):
            if cand.distance > game.tolerance or cand.distance >= off:
                continue
            for mid in prelude.midways(state, cand)[:MIDWAYS_TRIED - len(tried)]:
                tried.append(mid)
                self._midway = Midway(state.digest(), mid)
                plan = self.plan()
                turn = self.brain.matches(plan.turn, cand) if plan is not None else None
                if turn is not None:
                    return self._carry_out_plan(cand, turn), mid
        self._midway = None
        return None, tried[0] if tried else None

    def _prelude_done(self, state: S, mid: S) -> list[Effect[S, T]]:
        """The prelude is on the table: the computer plans the rest from the midway."""
        self._midway = Midway(state.digest(), mid)
        self._to_watch()
        self.note = _("Done: {name} plans the rest of the turn on the table as it is now")\
            .format(name=state.player.name)
        return [Buzz("attention"), SetLight(Light.TURN), Screenshot("computer-prelude")]

    def _carry_out_plan(self, cand: C, turn: T) -> list[Effect[S, T]]:
        """The table shows the computer's turn: confirm it, asking only what it did not pin."""
        self._via = "computer"
        self.candidates, self.index = [cand], 0
        if not cand.ask:
            return self._apply(turn, None, cand.distance)
        assert self.plan() is not None
        self.asking = Asking(
            "turn", Phase.WATCH, fixed=self.brain.finish_answers(turn, cand, turn),
            candidate=cand,
        )
        return self._advance_turn()

    # -------------------------------------------------------------- buttons
    def _on_press(self, key: Key) -> list[Effect[S, T]]:
        state = self.state
        if state is not None and self.phase in (Phase.WATCH, Phase.PROBLEM) \
                and self.restore is None:
            if key is Key.CONFIRM and self.prelude_steps():
                return self._enter_prelude(state)
            plan = self.plan()
            if plan is not None and key is Key.CONFIRM:
                return self._enter_plan(state, plan.turn)
            if plan is None and key is Key.BACK and self.phase is Phase.WATCH \
                    and self.computer_to_move() is None:
                return self._ask_hint(state)
        return super()._on_press(key)

    def _enter_plan(self, state: S, plan: T) -> list[Effect[S, T]]:
        """CONFIRM on the computer's turn: the players say it is done as shown."""
        answers, cand = self.brain.by_buttons(state, plan)
        self._via = "computer"
        self.asking = Asking("turn", self.phase, fixed=answers, candidate=cand)
        return self._advance_turn()

    def _enter_prelude(self, state: S) -> list[Effect[S, T]]:
        """CONFIRM while the prelude is awaited: it is done; what the camera read of it
        is kept and the menus ask the rest (without a camera, all of it)."""
        prelude = self.brain.prelude
        assert prelude is not None
        reading = self.reading
        read = reading is not None and self.camera and not self.game.abstained(reading)
        fixed = prelude.answers(state, reading, self.quirks) if read and reading is not None \
            else {}
        self.asking = Asking(PRELUDE, self.phase, fixed=fixed)
        return self._advance_prelude()

    def _prelude_step(self, asking: Asking[C]) -> Question | S:
        prelude, state = self.brain.prelude, self.state
        assert prelude is not None and state is not None
        return prelude.step(state, asking.mapping())

    def _advance_prelude(self) -> list[Effect[S, T]]:
        asking, state = self.asking, self.state
        assert asking is not None and state is not None
        try:
            step = self._prelude_step(asking)
        except IllegalAction as exc:
            return self._refuse_step(exc)
        if isinstance(step, Question):
            return self._ask_next(asking)
        return self._prelude_done(state, step)

    def _advance_turn(self) -> list[Effect[S, T]]:
        if self.asking is not None and self.asking.purpose == PRELUDE:
            return self._advance_prelude()
        return super()._advance_turn()

    def question(self) -> Question | None:
        asking = self.asking
        if asking is not None and asking.purpose == PRELUDE and self.phase is Phase.ASK:
            step = self._prelude_step(asking)
            return step if isinstance(step, Question) else None
        return super().question()

    def _undo(self) -> list[Effect[S, T]]:
        """BACK held: a prelude seen or entered for this position is forgotten first (it is
        no confirmed turn: the table is read again, or CONFIRM enters it again); else the
        last turn is undone, and with it any prelude."""
        if self.midway() is not None and self.restore is None \
                and self.phase in (Phase.WATCH, Phase.PROBLEM):
            self._midway = None
            self._to_watch()
            self._settled_key = None  # the table is read afresh
            prelude = self.brain.prelude
            assert prelude is not None
            self.note = prelude.undone_note()
            return [Buzz("attention"), SetLight(Light.ATTENTION)]
        self._midway = None
        return super()._undo()

    def _ask_hint(self, state: S) -> list[Effect[S, T]]:
        digest = state.digest()
        if self._hint is None or self._hint.digest != digest:
            self._hint = self._think(state, LEVELS[HINT_LEVEL], blind=True)
        number = len(self.history) + 1
        effects: list[Effect[S, T]] = [Screenshot("hint")]
        if number not in self.hinted:
            self.hinted.append(number)
            effects.insert(0, LogHeader(HINTS_HEADER, " ".join(map(str, self.hinted))))
        return effects

    # ---------------------------------------------------------------- view
    def view(self) -> ScreenView:
        view = super().view()
        state = self.state
        if state is None or self.phase is not Phase.WATCH or self.restore is not None:
            return view
        plan = self.plan()
        name = state.player.name
        level = self.computer_to_move()
        first = self.prelude_steps()
        if first and level is not None:
            return self._prelude_view(state, level, first, view)
        if plan is None and level is not None:  # the players play this one for it
            then = (_("Then take your hands off the table.") if self.camera
                    else _("Then press NEXT to enter it."))
            return ScreenView(
                state, Mode.WAITING,
                _("{name} (computer, level {level}) cannot plan this turn").format(
                    name=name, level=level),
                self.brain.unplanned(state) + " " + then,
                hints=ButtonHints(next=_("Enter by hand"), hold_back=_("Hold 2 s: undo")),
                note=view.note, spoken=True,
            )
        base, choice = self._planned() or (state, None)
        if plan is not None and choice is not None:
            # the steps are said on the table as it is (the midway after a prelude)
            # with a camera the table itself says it is done
            last = None if self.camera else _("Then press CONFIRM.")
            return _steps_view(base, _("{name} (computer, level {level}) plays:").format(
                name=name, level=level), self.brain.steps(base, choice), last,
                _("Done as shown"), view.note)
        hint = self._hint
        if hint is not None and hint.digest == state.digest() and hint.choice is not None:
            return ScreenView(
                state, Mode.WAITING, _("Hint for {name}").format(name=name),
                self._hint_text(state, hint.choice),
                hints=ButtonHints(next=_("Enter by hand"), hold_back=_("Hold 2 s: undo")),
                note=view.note, spoken=True,
            )
        if self.seats and view.mode is Mode.WAITING:
            # the help line names the hint gesture while a person is to play
            return ScreenView(state, view.mode, view.title, view.text, view.candidate,
                              view.menu, view.selected,
                              ButtonHints(view.hints.confirm, view.hints.next, _("Hint"),
                                          view.hints.hold_back),
                              view.outcome, view.note)
        return view

    def _prelude_view(self, state: S, level: int, steps: list[str],
                      view: ScreenView) -> ScreenView:
        """The computer's turn, part one: what must be on the table before it plans."""
        name = state.player.name
        last = _("Then take your hands off the table: {name} plans the rest.").format(
            name=name) if self.camera else _("Then press CONFIRM to enter it.")
        return _steps_view(state, _("{name} (computer, level {level}) must first:").format(
            name=name, level=level), steps, last, _("Done"), view.note)

    def _hint_text(self, state: S, choice: Choice[T]) -> str:
        best = self.game.describe_turn(state, choice.turn)
        chances = [
            _("{turn}: {chance} %").format(turn=o.turn, chance=round(100 * o.chance))
            for o in choice.options if o.chance is not None
        ]
        return _("Best: {turn}").format(turn=best) + "\n" + _("Win chances: {list}").format(
            list="; ".join(chances)
        )


def _steps_view(state: Position, title: str, steps: list[str], last: str | None,
                confirm: str, note: str) -> ScreenView:
    """The numbered steps a person carries out for the computer (said aloud too), with
    ``last`` (what ends them) after them."""
    lines = [f"{i}. {step}" for i, step in enumerate(steps, start=1)]
    if last:
        lines.append(last)
    return ScreenView(state, Mode.WAITING, title, "\n".join(lines),
                      hints=ButtonHints(confirm=confirm, next=_("Enter by hand"),
                                        hold_back=_("Hold 2 s: undo")),
                      note=note, focus=len(lines) > ROOMY_STEPS, spoken=True)


__all__ = [
    "COMPUTER_HEADER",
    "HINTS_HEADER",
    "Brain",
    "ComputerReferee",
    "SeatError",
    "hints_from_headers",
    "parse_seats",
    "seats_from_headers",
    "seats_header",
    "think",
]
