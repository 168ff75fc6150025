"""The one engine contract both games implement: Splendor and Splendor Duel.

Code above the rules (the log, the reviews, later the referee and the
screen) is written once against these types and never asks which game it
holds.  The contract has two halves, as pgx splits a game into a state value
and the functions of its environment:

* :class:`Position` — the state as a value, and what anyone may ask of it:
  whose turn, the turn and round, the players and what each holds, the
  honours still on the table (nobles or royals), the digest records store
  and the outcome with its reason.  Both games' ``GameState`` classes
  satisfy it structurally (checked by mypy and by ``tests/rules/test_contract``).
* :class:`Game` — the verbs, which need the game's own turn type: set a game
  up from its record headers, read a turn from notation, apply it, say it in
  words, and the table questions whose answer differs by game (the face-up
  cards, what each player bought, the scoreboard).
  :class:`companion.games.GameKind` implements it once per game.
* :class:`Scoreboard` — what a scoreboard shows of a position, as plain
  numbers and letters: computed by each game (``scoreboard`` in
  :mod:`companion.rules.splendor.scoreboard` for Splendor and
  :mod:`companion.rules.duel.scoreboard` for Duel) and drawn by the screen
  without knowing which game it is.  Why a value and not more protocol
  members: the two games hold different things (Duel's crowns, pearls,
  privileges and per-colour points; Splendor's nobles and final round), and
  a screen asking the state for them would have to ask which game it holds.
  The game answers once, in its own terms, and a field a game does not have
  is ``None`` or empty, which the screen reads as "no such column".

Why the turn type lives only in :class:`Game`: a Splendor state cannot apply
a Duel turn, so a protocol ``apply(turn: X)`` common to both would need an
``X`` that is both turns at once.  Keeping ``S`` and ``T`` together in one
:class:`Game` lets a caller be generic over a game and stay fully typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from companion.rules.hidden import Hidden


class CardFace(Protocol):
    """A development card (Splendor) or jewel card (Duel) as a review shows it."""

    @property
    def id(self) -> str: ...

    @property
    def level(self) -> int: ...

    @property
    def points(self) -> int: ...

    @property
    def colour_letter(self) -> str | None:
        """The gem letter of the card's colour, ``None`` for a card without one."""
        ...


class Honour(Protocol):
    """A noble (Splendor) or a royal card (Duel): what comes at the end of a turn."""

    @property
    def id(self) -> str: ...

    @property
    def points(self) -> int: ...

    def describe(self) -> str:
        """Words for a review, in English (the rules' own words)."""
        ...


class Holding(Protocol):
    """What one player has in front of them, as far as every game agrees."""

    @property
    def name(self) -> str: ...

    @property
    def points(self) -> int: ...

    @property
    def cards(self) -> Sequence[object]:
        """The cards bought (what an entry is differs by game: see :meth:`Game.purchases`)."""
        ...

    @property
    def reserved(self) -> Sequence[CardFace | Hidden]:
        """Reserved cards: known faces, or a level only for one reserved blind."""
        ...

    @property
    def honours(self) -> Sequence[Honour]: ...


class Outcome(Protocol):
    """The end of a game: who won and a sentence saying why."""

    @property
    def winners(self) -> tuple[str, ...]: ...

    @property
    def reason(self) -> str: ...

    def summary(self) -> str: ...


class Position(Protocol):
    """A game state between turns: an immutable value (undo keeps the old one)."""

    @property
    def players(self) -> Sequence[Holding]: ...

    @property
    def current(self) -> int:
        """Index in ``players`` of the player to move."""
        ...

    @property
    def player(self) -> Holding:
        """The player to move."""
        ...

    @property
    def turn(self) -> int:
        """Turns played so far."""
        ...

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        ...

    @property
    def honours(self) -> Sequence[Honour]:
        """The nobles or royal cards still available on the table."""
        ...

    def digest(self) -> str:
        """A short hash of everything the rules see (records store it after each turn)."""
        ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        ...


@dataclass(frozen=True, slots=True)
class Goal:
    """Progress towards one victory condition that ends the game at once.

    ``name`` is ``"points"``, ``"crowns"`` or ``"colour"`` (points on the
    cards of one colour; ``colour`` is then the gem letter of the player's
    best colour).  ``have`` may exceed ``need`` at the end of the game.
    """

    name: str
    have: int
    need: int
    colour: str | None = None

    @property
    def met(self) -> bool:
        return self.have >= self.need


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's line on the scoreboard.

    ``tokens`` counts each kind of :attr:`Scoreboard.token_letters`;
    ``bonuses`` and ``colour_points`` count per colour of
    :attr:`Scoreboard.colour_letters` (the card discount, and the prestige
    points on the cards of that colour; ``colour_points`` is empty for a
    game where they do not matter).  ``crowns`` and ``privileges`` are
    ``None`` in a game without them.  ``honours`` counts the nobles or royal
    cards won.  ``goals`` are the victory conditions that end the game at
    once (Duel's three); empty when reaching the winning score only starts
    the end (Splendor's final round).
    """

    name: str
    points: int
    tokens: tuple[int, ...]
    bonuses: tuple[int, ...]
    reserved: int
    honours: int
    colour_points: tuple[int, ...] = ()
    crowns: int | None = None
    privileges: int | None = None
    goals: tuple[Goal, ...] = ()


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """What a scoreboard shows of one position, computed by the game.

    ``table_tokens`` counts the tokens within reach on the table, per kind of
    ``token_letters`` (Splendor's supply, Duel's board; Duel's bag is not
    within reach).  ``privileges`` are the scrolls left on the table (``None``
    in a game without them).  ``face_up[level - 1]`` are the ids of that level's face-up
    cards from left to right (``None`` for an empty place),
    ``decks`` the cards left face down per level from level 1, and
    ``honours`` the ids of the nobles or royal cards still on the table.
    ``final_round`` says that the last round is being played (Splendor, once
    someone reached ``winning_points``).
    """

    seats: tuple[Seat, ...]
    current: int
    round: int
    turn: int
    winning_points: int
    token_letters: str
    colour_letters: str
    table_tokens: tuple[int, ...]
    face_up: tuple[tuple[str | None, ...], ...]
    decks: tuple[int, ...]
    honours: tuple[str, ...]
    final_round: bool = False
    privileges: int | None = None

    @property
    def mover(self) -> Seat:
        return self.seats[self.current]

    @property
    def has_goals(self) -> bool:
        """Whether the game ends at once on a victory condition (rows show progress)."""
        return any(seat.goals for seat in self.seats)


S = TypeVar("S", bound=Position)
T = TypeVar("T")


class Game(Protocol[S, T]):
    """One game's rules as functions over its state ``S`` and turn ``T``.

    Every verb raises :class:`~companion.rules.errors.RulesError` (a subclass)
    when the rules refuse: a turn that cannot be read, an illegal turn, a
    set-up that is not one.  Nothing else is expected of them, so callers
    catch only that.
    """

    @property
    def name(self) -> str:
        """The record's ``Game`` header and the log's ``game type``."""
        ...

    @property
    def winning_points(self) -> int:
        """The score that ends (Duel) or starts ending (Splendor) the game."""
        ...

    @property
    def honours_name(self) -> str:
        """What :attr:`Position.honours` are called: "Nobles" or "Royal cards"."""
        ...

    def initial_state(self, headers: Mapping[str, str]) -> S:
        """The game set up from its record headers."""
        ...

    def parse_turn(self, text: str) -> T:
        """One turn read from its notation."""
        ...

    def apply(self, state: S, turn: T) -> S:
        """The state after ``turn`` (``state`` is unchanged)."""
        ...

    def describe_turn(self, state: S, turn: T) -> str:
        """``turn`` in words, as played from ``state``."""
        ...

    def face_up_ids(self, state: S) -> frozenset[str]:
        """Ids of the cards face up on the table (Splendor's market, Duel's pyramid)."""
        ...

    def purchases(self, state: S, player: int) -> Sequence[tuple[CardFace, str | None]]:
        """Each card ``players[player]`` bought, oldest first, with the letter of
        the colour it counts as (a Duel joker: the colour it joined; ``None``
        for a card with no colour)."""
        ...

    def scoreboard(self, state: S) -> Scoreboard:
        """What the companion's screen shows of ``state`` (see :class:`Scoreboard`)."""
        ...
