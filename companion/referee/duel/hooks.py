"""Splendor Duel's hooks for the one referee machine, and :class:`DuelReferee`.

The machine is :class:`companion.referee.machine.Referee`, the same as
Splendor's: the same events in (a table read, motion, the three buttons,
BACK held for undo), the same phases, effects and behaviour at the table.
What differs is the game, answered here by :class:`DuelGame` (see
:class:`~companion.referee.game.RefereeGame`): the table is a
:class:`~companion.rules.duel.view.DuelView` (``None``: the reader
abstained), turns come from :mod:`companion.referee.duel.candidates` and the
menus from :mod:`companion.referee.duel.entry`; a proposal stands until
CONFIRM or BACK, and when the camera cannot tell two turns apart (or did not
read the card revealed) its menus ask only that.

The names this module had as a machine of its own stay as aliases of the
one machine's events and effects (:data:`DuelRead`, :data:`DuelStarted`,
:data:`DuelTurnConfirmed`, :data:`DuelTurnUndone`, :data:`DuelOver`): their
fields were always the same.

The screen: :class:`~companion.screen.view.ScreenView` takes any
engine-contract position, so a Duel state goes to it as it is; the screen
draws Duel's scoreboard from it (:mod:`companion.rules.duel.scoreboard`).
The proposal's words come from :func:`companion.rules.duel.describe_turn`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.i18n import _
from companion.referee.duel.candidates import TOLERANCE, Candidate, candidates, unexplained
from companion.referee.duel.compare import (
    Quirks,
    describe,
    differences,
    distance,
    forgive,
    learn_quirks,
)
from companion.referee.duel.entry import card_label, next_setup_step, next_turn_step
from companion.referee.game import Comparison, Hints
from companion.referee.machine import (
    Effect as AnyEffect,
)
from companion.referee.machine import (
    Event as AnyEvent,
)
from companion.referee.machine import (
    GameOver,
    GameStarted,
    Referee,
    TableRead,
    TurnConfirmed,
    TurnUndone,
)
from companion.referee.menu import Finished, Option, Question
from companion.rules.duel.cards import JewelCard
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Turn
from companion.rules.duel.view import DuelView, view_of
from companion.rules.duel.words import describe_turn
from companion.rules.errors import SetupError
from companion.screen.view import ButtonHints, Mode, ScreenView

#: What the Duel reader gives the referee: the table, or None when it abstained.
Reading = DuelView | None

#: The one machine's events and effects under the names Duel's callers know.
DuelRead = TableRead
DuelStarted = GameStarted
DuelTurnConfirmed = TurnConfirmed
DuelTurnUndone = TurnUndone
DuelOver = GameOver
Event = AnyEvent[Reading]
Effect = AnyEffect[GameState, Turn]


def _seen(state: GameState, reading: Reading, quirks: Quirks) -> DuelView:
    """The reading with the confirmed misreads forgiven."""
    assert reading is not None  # the machine never compares an abstention
    return forgive(reading, view_of(state), quirks)


class DuelGame:
    """Splendor Duel's answers to the referee machine (see :class:`RefereeGame`)."""

    tolerance = TOLERANCE
    #: after an undo, a table within the tolerance matches again
    restore_tolerance = TOLERANCE
    watches_proposals = False

    # ------------------------------------------------------------ readings
    def reading_key(self, reading: Reading) -> object:
        return reading

    def abstained(self, reading: Reading) -> bool:
        return reading is None

    def no_quirks(self) -> Quirks:
        return {}

    def compare(self, state: GameState, reading: Reading, quirks: Quirks) -> Comparison:
        seen = _seen(state, reading, quirks)
        now = differences(view_of(state), seen, [p.name for p in state.players])
        return Comparison(distance(now), describe(now))

    def candidates(self, state: GameState, reading: Reading, quirks: Quirks) -> list[Candidate]:
        return candidates(state, _seen(state, reading, quirks))

    def unexplained(
        self, state: GameState, reading: Reading, best: Candidate | None, quirks: Quirks
    ) -> str:
        return unexplained(state, _seen(state, reading, quirks), best)

    def learn(self, state: GameState, reading: Reading) -> Quirks:
        assert reading is not None
        return learn_quirks(view_of(state), reading)

    # -------------------------------------------------------------- set-up
    def setup_answers(self, reading: Reading, players: int) -> tuple[dict[str, object], Hints]:
        assert reading is not None
        fixed: dict[str, object] = {}
        for cell, letter in enumerate(reading.board):
            if letter:
                fixed[f"cell{cell}"] = letter
        for level, row in enumerate(reading.pyramid, start=1):
            for slot, card in enumerate(row, start=1):
                if card:
                    fixed[f"pyramid{level}.{slot}"] = card
        return fixed, {}

    def setup_hints(self, reading: Reading) -> Hints:
        return {}

    def setup_step(
        self, names: Sequence[str], answers: Mapping[str, object], hints: Hints
    ) -> Question | GameState:
        try:
            return next_setup_step(names, answers)
        except SetupError:
            raise
        except ValueError as exc:  # an illegal table (IllegalAction) or an unknown card
            raise SetupError(str(exc)) from exc

    # --------------------------------------------------------------- turns
    def turn_of(self, candidate: Candidate) -> Turn:
        return candidate.turn

    def asked_answers(self, candidate: Candidate) -> dict[str, object]:
        return {"which": candidate.turns[0]} if len(candidate.turns) == 1 else {}

    def turn_step(
        self, state: GameState, answers: Mapping[str, object], candidate: Candidate | None
    ) -> Question | Finished[Turn, GameState]:
        if candidate is None:
            return next_turn_step(state, answers)
        turn = answers.get("which")
        if not isinstance(turn, Turn):
            return Question(
                "which", _("The camera cannot tell these apart: which was it?"),
                tuple(Option(str(t), t) for t in candidate.turns),
            )
        level = candidate.reveal_level(turn)
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

    def proposal_after(self, candidate: Candidate) -> GameState:
        return candidate.afters[0]

    def apply(self, state: GameState, turn: Turn) -> GameState:
        return state.apply(turn)

    def after_turn(self, before: GameState, after: GameState) -> str:
        if after.current == before.current and not after.is_over():
            return _("{name} plays again").format(name=before.player.name)
        return ""

    # ---------------------------------------------------------------- words
    def describe_turn(self, state: GameState, turn: Turn) -> str:
        return describe_turn(state, turn)

    def proposal_note(self, candidate: Candidate) -> str:
        notes = [str(candidate.turn)]
        if candidate.differences:
            notes.append(_("but {what}").format(what=describe(candidate.differences, 1)))
        if candidate.ask:
            asked = {"which": _("which one"), "reveal": _("card revealed")}
            notes.append(_("CONFIRM, then say the {what}").format(
                what=_(" and ").join(asked[a] for a in candidate.ask)))
        return " · ".join(notes)

    def restore_note(self, what: str) -> str:
        return _("Put the table back as it was: {what}").format(what=what)

    def abstain_note(self) -> str:
        return _("The camera cannot read the table: NEXT to enter by hand")

    def unchanged_note(self, state: GameState, reading: DuelView | None) -> str:
        if reading is None:
            return ""
        unsure = [_("level {level} place {slot}").format(level=level, slot=slot)
                  for level, (had, seen) in enumerate(zip(state.pyramid, reading.pyramid,
                                                          strict=True), start=1)
                  for slot, (card, read) in enumerate(zip(had, seen, strict=True), start=1)
                  if card is not None and read is None]
        if not unsure:
            return ""
        return _("The camera cannot see pyramid {places}: if a card was taken there, NEXT"
                 " to enter the turn").format(places=", ".join(unsure))

    # ---------------------------------------------------------------- views
    def new_game_view(self, message: str, camera: bool) -> ScreenView:
        return ScreenView(
            None, Mode.SETUP, _("New game: fill the board and lay out the pyramid"),
            message or (
                _("Waiting for the camera to read the table. CONFIRM: enter it by hand.")
                if camera
                else _("No camera: press CONFIRM to enter the board and pyramid by hand.")
            ),
            hints=ButtonHints(confirm=_("Enter by hand"), back=_("Enter by hand")),
        )

    def setup_view(self, state: GameState) -> ScreenView:
        names = _(" and ").join(p.name for p in state.players)
        return ScreenView.setup(
            state,
            _("{names}. Does the screen match the board and the pyramid?").format(names=names),
            _("Check the board and the pyramid"),
        )

    def end_view(self, state: GameState) -> ScreenView:
        outcome = state.outcome()
        assert outcome is not None
        return ScreenView(
            state, Mode.END, _("Game over"), outcome.summary(),
            hints=ButtonHints(confirm=_("New game"), hold_back=_("Hold 2 s: undo")),
        )


#: The one Duel hooks object (it holds no state).
DUEL = DuelGame()


#: The machine refereeing Duel, as a loop or an operator holds it.
DuelMachine = Referee[GameState, Turn, Reading, Candidate, Quirks]


class DuelReferee(DuelMachine):
    """The referee of one Duel game: the machine with Duel's hooks."""

    def hooks(self) -> DuelGame:
        return DUEL


def _bought(turn: Turn) -> str | None:
    action = turn.action
    return getattr(action, "card", None)


def _reveal_question(
    answers: Mapping[str, object], level: int, cards: Sequence[JewelCard]
) -> Question:
    """The card revealed in the pyramid: its colour, then the card."""

    def group(card: JewelCard) -> str:
        return "joker" if card.is_joker else (card.colour.label if card.colour else "grey")

    groups = sorted({group(c) for c in cards})
    chosen = answers.get("reveal/colour")
    title = _("Which level {level} card was revealed?").format(level=level)
    if chosen not in groups:
        return Question(
            "reveal/colour", title, tuple(Option(g.capitalize(), g) for g in groups),
            _("The camera could not read it. First its colour."),
        )
    return Question(
        "reveal", title,
        tuple(Option(card_label(c), c.id) for c in cards if group(c) == chosen),
    )


__all__ = [
    "DUEL",
    "DuelGame",
    "DuelMachine",
    "DuelOver",
    "DuelRead",
    "DuelReferee",
    "DuelStarted",
    "DuelTurnConfirmed",
    "DuelTurnUndone",
    "Effect",
    "Event",
    "Reading",
]
