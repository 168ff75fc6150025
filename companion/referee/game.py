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

The hooks come in six small protocols, one per job: :class:`Tolerances`,
:class:`Reads` (a reading against a state), :class:`SetsUp` (a new game's
table), :class:`BuildsTurns` (a proposal or menus to a turn, a turn to the
next state), :class:`Says` (the words) and :class:`Shows` (the screens
before, at and after a game).  :class:`RefereeGame` is all six.

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
# The small protocols below each see a type from one side only (a hook that
# only takes a state, one that only makes one): their variance says which.
S_contra = TypeVar("S_contra", bound=Position, contravariant=True)
S_co = TypeVar("S_co", bound=Position, covariant=True)
T_contra = TypeVar("T_contra", contravariant=True)
C_contra = TypeVar("C_contra", bound="Proposal", contravariant=True)

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


class Tolerances(Protocol):
    """How close a reading must come to a turn's predicted table."""

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


class Reads(Protocol[S_contra, R_contra, C, Q]):
    """Readings of the table against a state: agreement, distance, the turns that explain one."""

    def reading_key(self, reading: R_contra) -> object:
        """What two readings must share to agree (equal keys: the same table)."""
        ...

    def abstained(self, reading: R_contra) -> bool:
        """Whether the reader could not read this frame at all."""
        ...

    def no_quirks(self) -> Q:
        """The misreads known before any table was confirmed: none."""
        ...

    def compare(self, state: S_contra, reading: R_contra, quirks: Q) -> Comparison: ...

    def candidates(self, state: S_contra, reading: R_contra, quirks: Q) -> list[C]:
        """The legal turns that explain ``reading``, best first."""
        ...

    def unexplained(self, state: S_contra, reading: R_contra, best: C | None, quirks: Q) -> str:
        """Why no legal turn explains ``reading``, in English."""
        ...

    def learn(self, state: S_contra, reading: R_contra) -> Q:
        """The misreads of ``reading`` now that the players confirmed ``state``."""
        ...


class SetsUp(Protocol[S_co, R_contra]):
    """A new game's table, read or entered, to its first state."""

    def setup_answers(self, reading: R_contra, players: int) -> tuple[dict[str, object], Hints]:
        """A new game's table as read: the sure answers, and hints for the rest."""
        ...

    def setup_hints(self, reading: R_contra | None) -> Hints:
        """Hints for entering a new game's table by hand."""
        ...

    def setup_step(
        self, names: Sequence[str], answers: Mapping[str, object], hints: Hints
    ) -> Question | S_co:
        """The next set-up question, or the state the answers set up."""
        ...


class BuildsTurns(Protocol[S, T, C_contra]):
    """A proposal or the menus to a turn, and the turn to the next state."""

    def turn_of(self, candidate: C_contra) -> T:
        """The turn a candidate proposes (the best guess for every part)."""
        ...

    def asked_answers(self, candidate: C_contra) -> dict[str, object]:
        """The answers a proposal fixes when CONFIRM leaves parts to ask."""
        ...

    def turn_step(
        self, state: S, answers: Mapping[str, object], candidate: C_contra | None
    ) -> Question | Finished[T, S]:
        """The next question of a turn (finishing ``candidate``, or by hand)."""
        ...

    def proposal_after(self, candidate: C_contra) -> S | None:
        """The state a proposal needing no answers leads to (None: apply it)."""
        ...

    def apply(self, state: S, turn: T) -> S: ...

    def after_turn(self, before: S, after: S) -> str:
        """News worth a beep after a turn (the final round, play again), or ""."""
        ...


class Says(Protocol[S_contra, T_contra, R_contra, C_contra]):
    """What the screen and the voice say, in English (the machine translates)."""

    def describe_turn(self, state: S_contra, turn: T_contra) -> str: ...

    def proposal_note(self, candidate: C_contra) -> str:
        """The line under a proposal: the turn, what differs, what is asked."""
        ...

    def restore_note(self, what: str) -> str:
        """After an undo: how the table differs from the state restored."""
        ...

    def abstain_note(self) -> str:
        """The camera abstained several times in a row."""
        ...

    def unchanged_note(self, state: S_contra, reading: R_contra) -> str:
        """The table reads as before the turn, but the reader was unsure of places
        where a turn leaves its only visible trace (a card's place: a purchase pays
        into the supply or the bag, out of view or not): what to tell the players
        ("" when every such place was read)."""
        ...


class Shows(Protocol[S_contra]):
    """The screens before, at and after a game."""

    def new_game_view(self, message: str, camera: bool) -> ScreenView:
        """Before a new game's table is known (``message``: a problem or a note)."""
        ...

    def setup_view(self, state: S_contra) -> ScreenView:
        """A new game's table, read or entered, for the players to check."""
        ...

    def end_view(self, state: S_contra) -> ScreenView:
        """The standings."""
        ...


class RefereeGame(
    Tolerances,
    Reads[S, R_contra, C, Q],
    SetsUp[S, R_contra],
    BuildsTurns[S, T, C],
    Says[S, T, R_contra, C],
    Shows[S],
    Protocol[S, T, R_contra, C, Q],
):
    """One game's hooks for :class:`~companion.referee.machine.Referee`: the six
    small protocols above, and nothing of its own.

    A game gives them all; code that needs one part (a test of the words, a
    tool that only compares readings) asks for that protocol alone, with its
    two to four type parameters instead of five.  Refusals: :meth:`setup_step` raises
    :class:`~companion.rules.errors.SetupError` and :meth:`turn_step` and
    :meth:`apply` raise :class:`~companion.rules.errors.IllegalAction`, with
    the rules' reason in English; the machine translates it.
    """


__all__ = [
    "BuildsTurns",
    "C",
    "Comparison",
    "Hints",
    "Proposal",
    "Q",
    "R_contra",
    "Reads",
    "RefereeGame",
    "S",
    "Says",
    "SetsUp",
    "Shows",
    "T",
    "Tolerances",
]
