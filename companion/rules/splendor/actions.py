"""Actions and turns as small immutable values with a text form that round-trips.

Like python-chess's ``Move.uci()``/``Move.from_uci()``: ``Turn.parse(text)``
reads the notation and ``str(turn)`` writes it back, so
``Turn.parse(str(t)) == t`` and ``str(Turn.parse(s)) == s`` for canonical
``s``.  Reading is lenient about case and spacing; writing is canonical.

Notation (one turn, words separated by spaces)::

    take wug                 take 3 different gems (or 2 or 1 when fewer colours are left)
    take rr                  take 2 gems of one colour
    reserve 2g3              reserve a face-up card (gold comes with it when any is left)
    reserve deck2            reserve the top card of the level-2 deck, blind
    buy 2g3 pay uukky        buy a face-up or own reserved card, naming the tokens paid
    buy 1w4                  ... a card the bonuses pay for entirely
    pass                     only when no action is possible

followed, when the turn needs them, by

    reveal 1r5               the card that filled the market slot (``reveal -`` is never
                             written: an empty deck needs no reveal)
    return wy                the tokens given back to come down to 10
    noble n7                 the noble who visits at the end of the turn

Token letters: ``w`` white, ``u`` blue, ``g`` green, ``r`` red, ``k`` black,
``y`` gold.  Card ids: see :mod:`companion.rules.splendor.catalogue`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.errors import NotationError
from companion.rules.gems import Tokens
from companion.rules.splendor import catalogue


@dataclass(frozen=True, slots=True)
class Take:
    """Take gems from the supply: 3 (or fewer) different ones, or 2 of one colour."""

    gems: Tokens

    @property
    def is_pair(self) -> bool:
        """True for "take 2 gems of the same colour"."""
        return self.gems.total() == 2 and len(self.gems.colours()) == 1

    def __str__(self) -> str:
        return f"take {self.gems}"


@dataclass(frozen=True, slots=True)
class ReserveCard:
    """Reserve a face-up card from the market."""

    card: str

    def __str__(self) -> str:
        return f"reserve {self.card}"


@dataclass(frozen=True, slots=True)
class ReserveDeck:
    """Reserve the top card of a deck without showing it."""

    level: int

    def __str__(self) -> str:
        return f"reserve deck{self.level}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy a face-up or own reserved card, paying ``payment`` (gold included)."""

    card: str
    payment: Tokens = field(default_factory=Tokens)

    def __str__(self) -> str:
        return f"buy {self.card} pay {self.payment}" if self.payment else f"buy {self.card}"


@dataclass(frozen=True, slots=True)
class Pass:
    """No action was possible."""

    def __str__(self) -> str:
        return "pass"


Action = Take | ReserveCard | ReserveDeck | Buy | Pass


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's whole turn: the action plus what the end of the turn needs.

    ``reveal`` is the card that refilled the market slot the action emptied
    (a chance event supplied from outside: camera, player or seeded deck);
    ``returned`` the tokens given back to come down to 10; ``noble`` the
    visiting noble.
    """

    action: Action
    reveal: str | None = None
    returned: Tokens = field(default_factory=Tokens)
    noble: str | None = None

    def __str__(self) -> str:
        parts = [str(self.action)]
        if self.reveal:
            parts.append(f"reveal {self.reveal}")
        if self.returned:
            parts.append(f"return {self.returned}")
        if self.noble:
            parts.append(f"noble {self.noble}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Turn.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read a turn; raises :class:`NotationError` saying what could not be read."""
        return parse_turn(text)


def _card_id(word: str) -> str:
    return catalogue.card(word).id


def _tokens(word: str, what: str) -> Tokens:
    try:
        return Tokens.parse(word)
    except NotationError as exc:
        raise NotationError(f"{what}: {exc}") from None


def parse_action(words: list[str]) -> tuple[Action, list[str]]:
    """Read the action at the front of ``words``; return it and the words left."""
    if not words:
        raise NotationError("empty turn: expected take, reserve, buy or pass")
    verb, rest = words[0].lower(), words[1:]
    if verb == "pass":
        return Pass(), rest
    if verb not in ("take", "reserve", "buy"):
        raise NotationError(f"'{words[0]}' is not an action (take, reserve, buy or pass)")
    if not rest:
        raise NotationError(f"'{verb}' needs what to {verb}")
    obj, rest = rest[0], rest[1:]
    if verb == "take":
        return Take(_tokens(obj, "take")), rest
    if verb == "reserve":
        low = obj.lower()
        if low.startswith("deck"):
            if low[4:] not in ("1", "2", "3"):
                raise NotationError(f"'{obj}' is not a deck (deck1, deck2 or deck3)")
            return ReserveDeck(int(low[4:])), rest
        return ReserveCard(_card_id(obj)), rest
    card_id = _card_id(obj)
    payment = Tokens()
    if rest and rest[0].lower() == "pay":
        if len(rest) < 2:
            raise NotationError("'pay' needs the tokens paid, e.g. 'pay uuky'")
        payment, rest = _tokens(rest[1], "pay"), rest[2:]
    return Buy(card_id, payment), rest


def parse_turn(text: str) -> Turn:
    """Read one turn in the notation above."""
    words = text.split()
    action, rest = parse_action(words)
    reveal: str | None = None
    returned = Tokens()
    noble: str | None = None
    seen: set[str] = set()
    while rest:
        key = rest[0].lower()
        if key not in ("reveal", "return", "noble"):
            raise NotationError(
                f"'{rest[0]}' is not part of a turn (expected reveal, return or noble)"
            )
        if key in seen:
            raise NotationError(f"'{key}' appears twice in one turn")
        seen.add(key)
        if len(rest) < 2:
            raise NotationError(f"'{key}' needs a value")
        value, rest = rest[1], rest[2:]
        if key == "reveal":
            reveal = _card_id(value)
        elif key == "return":
            returned = _tokens(value, "return")
        else:
            noble = catalogue.noble(value).id
    return Turn(action, reveal, returned, noble)
