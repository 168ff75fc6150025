"""Splendor's hooks for the one referee machine, and :class:`SplendorReferee`.

:class:`SplendorGame` answers what :class:`~companion.referee.machine.Referee`
asks of a game (:class:`~companion.referee.game.RefereeGame`) with Splendor's
reader (:mod:`.reading`), its ranked explanations (:mod:`.candidates`) and its
menus (:mod:`.entry`).  This package is, with :mod:`companion.referee.duel`,
the only part of the referee that names its game's state class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.i18n import _
from companion.i18n.words import describe_turn_on, join_words
from companion.referee.game import Comparison, Hints
from companion.referee.machine import Referee
from companion.referee.menu import Finished, Question
from companion.referee.splendor.candidates import TOLERANCE, Candidate, candidates, unexplained
from companion.referee.splendor.entry import next_setup_step, next_turn_step, slot_key
from companion.referee.splendor.reading import (
    TableReading,
    describe_differences,
    differences,
    distance,
    learn_quirks,
    predict,
)
from companion.rules.splendor.actions import Buy, Turn
from companion.rules.splendor.catalogue import LEVELS
from companion.rules.splendor.state import MARKET_WIDTH, WINNING_POINTS, GameState
from companion.screen.view import ButtonHints, Mode, ScreenView

#: Splendor's confirmed misreads: market place -> (read, confirmed) card ids.
Quirks = dict[str, tuple[str, str]]


def _names(state: GameState) -> list[str]:
    return [p.name for p in state.players]


class SplendorGame:
    """Splendor's answers to the referee machine (see :class:`RefereeGame`)."""

    tolerance = TOLERANCE
    #: after an undo, the table must match the restored state exactly
    restore_tolerance = 0.0
    watches_proposals = True

    # ------------------------------------------------------------ readings
    def reading_key(self, reading: TableReading) -> object:
        return reading.key()

    def abstained(self, reading: TableReading) -> bool:
        return reading.abstained

    def no_quirks(self) -> Quirks:
        return {}

    def compare(self, state: GameState, reading: TableReading, quirks: Quirks) -> Comparison:
        now = differences(predict(state), reading, _names(state), quirks)
        return Comparison(distance(now), describe_differences(now))

    def candidates(
        self, state: GameState, reading: TableReading, quirks: Quirks
    ) -> list[Candidate]:
        return candidates(state, reading, quirks)

    def unexplained(
        self, state: GameState, reading: TableReading, best: Candidate | None, quirks: Quirks
    ) -> str:
        return unexplained(state, reading, best, quirks)

    def learn(self, state: GameState, reading: TableReading) -> Quirks:
        return learn_quirks(differences(predict(state), reading, _names(state)))

    # -------------------------------------------------------------- set-up
    def setup_answers(
        self, reading: TableReading, players: int
    ) -> tuple[dict[str, object], Hints]:
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
        if len(nobles) == players + 1:
            for i, n in enumerate(nobles):
                fixed[f"noble{i + 1}"] = n
        return fixed, hints

    def setup_hints(self, reading: TableReading | None) -> Hints:
        hints: dict[str, tuple[str, ...]] = {}
        if reading is not None and reading.market is not None:
            for r, row in enumerate(reading.market):
                for s, read in enumerate(row):
                    if read.candidates:
                        hints[slot_key(r, s)] = read.ids()[:4]
        return hints

    def setup_step(
        self, names: Sequence[str], answers: Mapping[str, object], hints: Hints
    ) -> Question | GameState:
        step = next_setup_step(len(names), answers, hints)
        if isinstance(step, Question):
            return step
        return GameState.new(names, step.nobles, step.market)

    # --------------------------------------------------------------- turns
    def turn_of(self, candidate: Candidate) -> Turn:
        return candidate.turn

    def asked_answers(self, candidate: Candidate) -> dict[str, object]:
        turn = candidate.turn
        fixed: dict[str, object] = {"action": turn.action}
        if isinstance(turn.action, Buy):
            fixed["payment"] = turn.action.payment
        if "reveal" not in candidate.ask and turn.reveal is not None:
            fixed["reveal"] = turn.reveal
        if "return" not in candidate.ask:
            fixed["returned"] = turn.returned
        if "noble" not in candidate.ask and turn.noble is not None:
            fixed["noble"] = turn.noble
        return fixed

    def turn_step(
        self, state: GameState, answers: Mapping[str, object], candidate: Candidate | None
    ) -> Question | Finished[Turn, GameState]:
        hints = candidate.reveals if candidate is not None else ()
        step = next_turn_step(state, answers, hints)
        return step if isinstance(step, Question) else Finished(step)

    def proposal_after(self, candidate: Candidate) -> GameState | None:
        return None  # the machine applies it (a refusal then names the mover)

    def apply(self, state: GameState, turn: Turn) -> GameState:
        return state.apply(turn)

    def after_turn(self, before: GameState, after: GameState) -> str:
        if not (after.end_triggered and not before.end_triggered):
            return ""
        mover = after.players[before.current]
        return _(
            "Final round! {name} reached {points} points ({needed} needed):"
            " play until {last} has played"
        ).format(
            name=mover.name, points=mover.points, needed=WINNING_POINTS,
            last=after.players[-1].name,
        )

    # ---------------------------------------------------------------- words
    def describe_turn(self, state: GameState, turn: Turn) -> str:
        return describe_turn_on(state, turn)

    def proposal_note(self, candidate: Candidate) -> str:
        notes = [str(candidate.turn)]
        if candidate.differences:
            notes.append(
                _("but {what}").format(what=describe_differences(candidate.differences, 1))
            )
        if candidate.ask:
            asked = [_ask_word(a) for a in candidate.ask]
            notes.append(_("CONFIRM, then say the {what}").format(what=join_words(asked)))
        return " · ".join(notes)

    def restore_note(self, what: str) -> str:
        return _("Put the table back as it was: {what}").format(what=what)

    def abstain_note(self) -> str:
        return _("The camera cannot read the table: NEXT to enter by hand")

    def unchanged_note(self, state: GameState, reading: TableReading) -> str:
        if reading.market is None:
            return ""
        unsure = [f"{level}.{slot + 1}"
                  for level, (row, seen) in enumerate(zip(state.market, reading.market,
                                                          strict=False), start=1)
                  for slot, (card, read) in enumerate(zip(row, seen, strict=False))
                  if card is not None and not read.candidates and not read.empty]
        if not unsure:
            return ""
        return _("The camera cannot see market {places}: if a card was taken there, "
                 "NEXT to enter the turn").format(places=", ".join(unsure))

    # ---------------------------------------------------------------- views
    def new_game_view(self, message: str, camera: bool) -> ScreenView:
        return ScreenView(
            None,
            Mode.SETUP,
            _("New game: lay out the nobles and the market"),
            message
            or (
                _("Waiting for the camera to read the table. CONFIRM: enter it by hand.")
                if camera
                else _(
                    "No camera: press CONFIRM to enter the market and nobles with the"
                    " buttons."
                )
            ),
            hints=ButtonHints(confirm=_("Enter by hand"), back=_("Enter by hand")),
        )

    def setup_view(self, state: GameState) -> ScreenView:
        return ScreenView.setup(state)

    def end_view(self, state: GameState) -> ScreenView:
        return ScreenView.end(state)


def _ask_word(part: str) -> str:
    """The name of a part of a turn still to be said ("reveal", "return", "noble")."""
    return {"reveal": _("reveal"), "return": _("return"), "noble": _("noble")}.get(part, part)


#: The one Splendor hooks object (it holds no state).
SPLENDOR = SplendorGame()


#: The machine refereeing Splendor, as a loop or an operator holds it.
SplendorMachine = Referee[GameState, Turn, TableReading, Candidate, Quirks]


class SplendorReferee(SplendorMachine):
    """The referee of one Splendor game: the machine with Splendor's hooks."""

    def hooks(self) -> SplendorGame:
        return SPLENDOR

