"""What the screen shows, as one immutable value the referee fills in.

The referee never draws: after every event it builds a :class:`ScreenView`
(the game state, the mode, a title and a sentence, an optional menu and what
the three buttons do now) and hands it to :meth:`Screen.draw
<companion.screen.draw.Screen.draw>`.  Like PettingZoo's ``render()``, the
picture is a pure function of this value, so the referee's tests can assert
on views without pygame, and the screen's tests render views without a
referee.

This module imports nothing of pygame on purpose: the referee's state
machine builds views and stays free of pygame.

Written once for both games: ``state`` is any engine-contract
:class:`~companion.rules.contract.Position` (a Splendor or a Splendor Duel
``GameState``), and what the screen draws of it is the game's own
:class:`~companion.rules.contract.Scoreboard`
(:attr:`ScreenView.scoreboard`, computed by the game through
:func:`companion.games.scoreboard_of`).  A proposal takes the turn's
words, so each game's referee says its turns its own way (a Splendor
``Turn`` is still accepted and said in the player's language).

The constructors (:meth:`ScreenView.proposal`, :meth:`ScreenView.choice`,
...) give each situation of the issue its usual title and button hints; use
``dataclasses.replace`` to change any of it.  Text should stay within the
glyphs of pygame's bundled font (Latin letters, digits, ``…``, ``·``, ``—``,
``×``): symbols such as ★ are *drawn* as shapes by the screen, not typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from companion.games import scoreboard_of
from companion.i18n import _
from companion.i18n.reasons import translate_reason
from companion.i18n.words import describe_turn_on, outcome_reason
from companion.rules.contract import Outcome, Position, Scoreboard
from companion.rules.splendor import outcome as splendor_outcome
from companion.rules.splendor.actions import Turn


class Mode(Enum):
    """What the companion is doing; chooses the prompt's colour and the layout."""

    SETUP = "setup"
    """The market and nobles were read: check them on the screen, then start."""
    WAITING = "waiting"
    """Nothing to confirm: watching the table for the next still frame."""
    PROPOSAL = "proposal"
    """A candidate turn: CONFIRM applies it, NEXT shows the next one, BACK cancels."""
    CHOICE = "choice"
    """A menu: manual entry, tokens to return, a noble, an unsure card."""
    ERROR = "error"
    """A change that no legal turn explains, with its reason."""
    END = "end"
    """The game is over: standings with the tie-break explained."""


@dataclass(frozen=True, slots=True)
class ButtonHints:
    """What each of the three buttons does right now; an empty label hides it.

    The screen always names the button (CONFIRM, NEXT, BACK) beside its
    colour, so the hints are readable without telling green from red.
    ``hold_back`` is what holding BACK for 2 s does (undo the last turn).
    """

    confirm: str = ""
    next: str = ""
    back: str = ""
    hold_back: str = ""


@dataclass(frozen=True, slots=True)
class ScreenView:
    """Everything one frame of the screen shows.

    ``state`` is the position the scoreboard shows (``None`` before a game is
    set up).  ``title`` is the prompt's headline and ``text`` its sentence
    (the proposed turn in words, an error's reason...).  ``candidate`` is
    ``(i, n)``, "candidate i of n", counted from 1.  ``menu`` lists the
    choices with ``selected`` highlighted.  ``outcome`` overrides
    ``state.outcome()`` on the end screen (either game's outcome).  ``note`` is a small status line
    (camera, last confirmed turn...).  ``focus`` keeps only the mover's row of the
    table, as a menu does, so that a long ``text`` (a computer turn's steps) gets the room.
    ``spoken``: the title and text are read aloud when they change (a computer turn's
    steps, a hint): what someone must do at the table or asked for, not a status line.
    """

    state: Position | None
    mode: Mode = Mode.WAITING
    title: str = ""
    text: str = ""
    candidate: tuple[int, int] | None = None
    menu: tuple[str, ...] = ()
    selected: int = 0
    hints: ButtonHints = field(default_factory=ButtonHints)
    outcome: Outcome | None = None
    note: str = ""
    focus: bool = False
    spoken: bool = False

    def __post_init__(self) -> None:
        if self.menu and not 0 <= self.selected < len(self.menu):
            raise ValueError(f"selected item {self.selected} is not in a menu of {len(self.menu)}")
        if self.candidate is not None:
            i, n = self.candidate
            if not 1 <= i <= n:
                raise ValueError(f"candidate {i} of {n} is out of range")

    @property
    def scoreboard(self) -> Scoreboard | None:
        """What the scoreboard shows of ``state``, as the game computes it."""
        return None if self.state is None else scoreboard_of(self.state)

    # -------------------------------------------------------------- situations
    @classmethod
    def setup(
        cls, state: Position, text: str = "", title: str = ""
    ) -> ScreenView:
        """The table was read for a new game; the players check it and start."""
        names = ", ".join(p.name for p in state.players)
        board = scoreboard_of(state)
        # Duel's table has privileges on it; its face-up cards are a pyramid.
        check = (
            _("Check the market and nobles")
            if board.privileges is None
            else _("Check the pyramid and royal cards")
        )
        return cls(
            state,
            Mode.SETUP,
            title or check,
            text
            or _("{n} players: {names}. Does the screen match the table?").format(
                n=len(state.players), names=names
            ),
            hints=ButtonHints(
                confirm=_("Start the game"), next=_("Read again"), back=_("Fix by hand")
            ),
        )

    @classmethod
    def waiting(
        cls, state: Position, text: str = "", title: str = "", confirm: str = ""
    ) -> ScreenView:
        """Between turns: the mover plays, the camera waits for hands to leave.
        ``confirm``: what CONFIRM does there, if anything."""
        return cls(
            state,
            Mode.WAITING,
            title or _("Waiting for a still table"),
            text
            or _("{name}, play your turn, then take your hands off the table.").format(
                name=state.player.name
            ),
            hints=ButtonHints(confirm=confirm, next=_("Enter by hand"),
                              hold_back=_("Hold 2 s: undo")),
        )

    @classmethod
    def proposal(
        cls, state: Position, turn: str | Turn, index: int = 1, count: int = 1
    ) -> ScreenView:
        """Candidate ``index`` of ``count`` for the change seen on the table.

        ``turn`` is the turn in words, as the game's referee says it; a
        Splendor :class:`~companion.rules.splendor.actions.Turn` is said here.
        """
        said = turn if isinstance(turn, str) else describe_turn_on(state, turn)
        return cls(
            state,
            Mode.PROPOSAL,
            _("Is this what happened?"),
            said,
            candidate=(index, count),
            hints=ButtonHints(
                confirm=_("Yes, apply"),
                next=_("Next guess") if count > 1 else "",
                back=_("No, cancel"),
                hold_back=_("Hold 2 s: undo"),
            ),
        )

    @classmethod
    def choice(
        cls,
        state: Position | None,
        title: str,
        items: tuple[str, ...] | list[str],
        selected: int = 0,
        text: str = "",
    ) -> ScreenView:
        """A menu: NEXT moves the highlight, CONFIRM picks it, BACK goes back."""
        return cls(
            state,
            Mode.CHOICE,
            title,
            text,
            menu=tuple(items),
            selected=selected,
            hints=ButtonHints(confirm=_("Choose"), next=_("Next item"), back=_("Back")),
        )

    @classmethod
    def error(
        cls, state: Position, reason: str, title: str = ""
    ) -> ScreenView:
        """A change no legal turn explains: put the table right or enter the turn."""
        return cls(
            state,
            Mode.ERROR,
            title or _("That does not fit the rules"),
            reason,
            hints=ButtonHints(
                next=_("Enter by hand"), back=_("Table is fixed"), hold_back=_("Hold 2 s: undo")
            ),
        )

    @classmethod
    def end(cls, state: Position, outcome: Outcome | None = None) -> ScreenView:
        """The standings, with the tie-break explained by ``Outcome.reason``."""
        result = outcome or state.outcome()
        if result is None:
            raise ValueError("the game is not over: there are no standings yet")
        return cls(
            state,
            Mode.END,
            _("Game over"),
            reason_of(result),
            outcome=result,
            hints=ButtonHints(confirm=_("New game"), hold_back=_("Hold 2 s: undo")),
        )


def reason_of(outcome: Outcome) -> str:
    """Why the game ended, in the player's language.

    Splendor's reason is rebuilt from its standings (so it is translated
    whole); Duel's outcome carries one sentence, translated as the rules'
    other sentences are.
    """
    if isinstance(outcome, splendor_outcome.Outcome):
        return outcome_reason(outcome)
    return translate_reason(outcome.reason)
