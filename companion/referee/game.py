"""What the referee's state machine asks of a game: the hooks one game plugs in.

:class:`~companion.referee.machine.Referee` is written once, against
:class:`RefereeGame`: it settles readings, proposes, asks, applies, undoes
and builds the screen's view without naming either game's state class.
Each game implements the hooks in its own package --
:mod:`companion.referee.splendor` and :mod:`companion.referee.duel` -- which
are the only referee modules that name their game's state (as
:mod:`companion.games`, the registry, is the one place that names the
engines).  ``tests/test_seams.py`` checks that.

The type parameters keep a caller fully typed: ``S`` the state (a contract
:class:`~companion.rules.contract.Position`), ``T`` the turn, ``R`` what the
camera read of the table, ``C`` a ranked candidate turn (:class:`Proposal`)
and ``Q`` the reader's misreads the players confirmed past ("quirks").

Why hooks and not more of the engine contract: what a reading is, how it is
compared with a state, and which menus build a turn are the referee's
business, not the rules'; the two games' readers see different tables (a
market of 12 cards and token piles; a board of 25 cells and a pyramid).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from companion.referee.menu import Finished, Question
from companion.rules.contract import Position
from companion.screen.view import ScreenView

S = TypeVar("S", bound=Position)
T = TypeVar("T")
R = TypeVar("R")
R_contra = TypeVar("R_contra", contravariant=True)
Q = TypeVar("Q")
C = TypeVar("C", bound="Proposal")

#: Setup hints: for a place of the table, the ids the camera thought likely.
Hints = Mapping[str, tuple[str, ...]]


class Proposal(Protocol):
    """A legal turn that may explain a reading, ranked by :attr:`distance`
    (the turn itself: :meth:`RefereeGame.turn_of`)."""

    @property
    def distance(self) -> float:
        """How far the table it predicts is from the reading (tokens or cards)."""
        ...

    @property
    def ask(self) -> tuple[str, ...]:
        """The parts the players must still say after CONFIRM (empty: none)."""
        ...


@dataclass(frozen=True, slots=True)
class Comparison:
    """A reading against the table a state implies: ``off`` tokens or cards
    apart (after forgiving the confirmed misreads), ``what`` differs in words."""

    off: float
    what: str


class RefereeGame(Protocol[S, T, R_contra, C, Q]):
    """One game's hooks for :class:`~companion.referee.machine.Referee`.

    Refusals: :meth:`setup_step` raises
    :class:`~companion.rules.errors.SetupError` and :meth:`turn_step` and
    :meth:`apply` raise :class:`~companion.rules.errors.IllegalAction`, with
    the rules' reason in English; the machine translates it.
    """

    @property
    def tolerance(self) -> float:
        """A candidate this far from the reading is still proposed."""
        ...

    @property
    def restore_tolerance(self) -> float:
        """After an undo, the table "matches again" within this distance."""
        ...

    @property
    def watches_proposals(self) -> bool:
        """Whether a proposal is one step of entering a turn.

        True (Splendor): the table is read again while a proposal or the
        menus finishing it are shown, those menus say the turn is "entered
        with the buttons", and the turn they build is logged without a
        confidence.  False (Duel): the proposal stands until CONFIRM or
        BACK, and its menus only finish it (its confidence is kept).
        """
        ...

    # ------------------------------------------------------------ readings
    def reading_key(self, reading: R_contra) -> object:
        """What two readings must share to agree (equal keys: the same table)."""
        ...

    def abstained(self, reading: R_contra) -> bool:
        """Whether the reader could not read this frame at all."""
        ...

    def no_quirks(self) -> Q:
        """The misreads known before any table was confirmed: none."""
        ...

    def compare(self, state: S, reading: R_contra, quirks: Q) -> Comparison: ...

    def candidates(self, state: S, reading: R_contra, quirks: Q) -> list[C]:
        """The legal turns that explain ``reading``, best first."""
        ...

    def unexplained(self, state: S, reading: R_contra, best: C | None, quirks: Q) -> str:
        """Why no legal turn explains ``reading``, in English."""
        ...

    def learn(self, state: S, reading: R_contra) -> Q:
        """The misreads of ``reading`` now that the players confirmed ``state``."""
        ...

    # -------------------------------------------------------------- set-up
    def setup_answers(self, reading: R_contra, players: int) -> tuple[dict[str, object], Hints]:
        """A new game's table as read: the sure answers, and hints for the rest."""
        ...

    def setup_hints(self, reading: R_contra | None) -> Hints:
        """Hints for entering a new game's table by hand."""
        ...

    def setup_step(
        self, names: Sequence[str], answers: Mapping[str, object], hints: Hints
    ) -> Question | S:
        """The next set-up question, or the state the answers set up."""
        ...

    # --------------------------------------------------------------- turns
    def turn_of(self, candidate: C) -> T:
        """The turn a candidate proposes (the best guess for every part)."""
        ...

    def asked_answers(self, candidate: C) -> dict[str, object]:
        """The answers a proposal fixes when CONFIRM leaves parts to ask."""
        ...

    def turn_step(
        self, state: S, answers: Mapping[str, object], candidate: C | None
    ) -> Question | Finished[T, S]:
        """The next question of a turn (finishing ``candidate``, or by hand)."""
        ...

    def proposal_after(self, candidate: C) -> S | None:
        """The state a proposal needing no answers leads to (None: apply it)."""
        ...

    def apply(self, state: S, turn: T) -> S: ...

    def after_turn(self, before: S, after: S) -> str:
        """News worth a beep after a turn (the final round, play again), or ""."""
        ...

    # ---------------------------------------------------------------- words
    def describe_turn(self, state: S, turn: T) -> str: ...

    def proposal_note(self, candidate: C) -> str:
        """The line under a proposal: the turn, what differs, what is asked."""
        ...

    def restore_note(self, what: str) -> str:
        """After an undo: how the table differs from the state restored."""
        ...

    def abstain_note(self) -> str:
        """The camera abstained several times in a row."""
        ...

    def unchanged_note(self, state: S, reading: R_contra) -> str:
        """The table reads as before the turn, but the reader was unsure of places
        where a turn leaves its only visible trace (a card's place: a purchase pays
        into the supply or the bag, out of view or not): what to tell the players
        ("" when every such place was read)."""
        ...

    # ---------------------------------------------------------------- views
    def new_game_view(self, message: str, camera: bool) -> ScreenView:
        """Before a new game's table is known (``message``: a problem or a note)."""
        ...

    def setup_view(self, state: S) -> ScreenView:
        """A new game's table, read or entered, for the players to check."""
        ...

    def end_view(self, state: S) -> ScreenView:
        """The standings."""
        ...


__all__ = ["C", "Comparison", "Hints", "Proposal", "Q", "R_contra", "RefereeGame", "S", "T"]
