"""Splendor Duel turns as immutable values with a text notation that round-trips.

``parse_turn(text) == turn`` and ``format_turn(turn) == text`` for canonical
text (``str(turn)`` is ``format_turn(turn)``).  Reading is lenient about case,
spacing and the order of the parts; writing is canonical.  The shape follows
the Splendor notation of :mod:`companion.rules.splendor.actions`: words in
``key value`` pairs, the action first among them.

Notation
--------
A turn is the optional actions, then the one mandatory action, then what the
action and the end of the turn need, separated by spaces::

    privilege c3,a1        use 2 privileges: take the gem/pearl on c3 and on a1
    replenish wukpy        replenish: the tokens drawn from the bag, in the order
                           they are placed along the spiral on the empty cells
    take c3,c4,c5          take 1-3 tokens in one unbroken line (cells any order)
    reserve 2w3 gold e1    take the gold on e1 and reserve pyramid card 2w3
    reserve deck2 gold e1  ... or the top card of the level-2 deck, blind
    buy 2w3 pay wwupy      buy a pyramid or reserved card, naming the tokens paid
                           (omitted when the bonuses pay everything)
      as r                 a joker card joins red (its bonus and points count red)
      token b2             the card's "token" ability takes the token on b2
      steal r              the card's "steal" ability takes a red from the opponent
    reveal 2k1             the card that refilled the pyramid slot (a chance event
                           supplied from outside; absent when the deck is empty)
    royal r2               the royal card taken on reaching 3 or 6 crowns
      steal u              right after a royal: that royal's steal takes a blue
    return wk              the tokens returned to the bag to come down to 10

Canonical order: privilege, replenish, the action and its ``pay as token
steal`` parts, reveal, each royal with its steal, return.  Examples::

    take c3,c4,c5
    privilege b2 replenish kkwpu take a1,b2
    reserve 3x1 gold e1 reveal 3g2
    buy 1j2 pay kkkkp as r reveal 1w4 royal r3 return g

Letters: ``w`` white, ``u`` blue, ``g`` green, ``r`` red, ``k`` black,
``p`` pearl, ``y`` gold (:mod:`companion.rules.duel.tokens`).  Cells: ``a1``…
``e5`` (:mod:`companion.rules.duel.board`).  Card and royal ids:
:mod:`companion.rules.duel.cards`.  A "play again" ability makes the same
player's next turn a separate turn; nothing is written for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.duel import cards
from companion.rules.duel.board import cell_name, parse_cell
from companion.rules.duel.tokens import DuelTokens, Token
from companion.rules.errors import NotationError


def _cells_text(cells: tuple[int, ...]) -> str:
    return ",".join(cell_name(c) for c in cells)


@dataclass(frozen=True, slots=True)
class Take:
    """Take the tokens on 1-3 cells in one unbroken line (cells kept in name order)."""

    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells, key=cell_name)))

    def __str__(self) -> str:
        return f"take {_cells_text(self.cells)}"


@dataclass(frozen=True, slots=True)
class ReserveCard:
    """Take the gold on ``gold`` and reserve a face-up pyramid card."""

    card: str
    gold: int

    def __str__(self) -> str:
        return f"reserve {self.card} gold {cell_name(self.gold)}"


@dataclass(frozen=True, slots=True)
class ReserveDeck:
    """Take the gold on ``gold`` and reserve the top card of a deck, unseen."""

    level: int
    gold: int

    def __str__(self) -> str:
        return f"reserve deck{self.level} gold {cell_name(self.gold)}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy a pyramid or reserved card with ``payment`` and the ability choices.

    ``joker`` is the colour a joker card joins; ``token`` the board cell the
    "token" ability takes from; ``steal`` the kind the "steal" ability takes
    from the opponent.  Each is ``None`` when the card has no such ability or
    it has nothing to take.
    """

    card: str
    payment: DuelTokens = field(default_factory=DuelTokens)
    joker: Token | None = None
    token: int | None = None
    steal: Token | None = None

    def __str__(self) -> str:
        parts = [f"buy {self.card}"]
        if self.payment:
            parts.append(f"pay {self.payment}")
        if self.joker is not None:
            parts.append(f"as {self.joker.letter}")
        if self.token is not None:
            parts.append(f"token {cell_name(self.token)}")
        if self.steal is not None:
            parts.append(f"steal {self.steal.letter}")
        return " ".join(parts)


Action = Take | ReserveCard | ReserveDeck | Buy


@dataclass(frozen=True, slots=True)
class RoyalPick:
    """A royal card taken on reaching 3 or 6 crowns, with its steal choice."""

    royal: str
    steal: Token | None = None

    def __str__(self) -> str:
        text = f"royal {self.royal}"
        return f"{text} steal {self.steal.letter}" if self.steal is not None else text


@dataclass(frozen=True, slots=True)
class Turn:
    """One whole Duel turn.

    ``privileges``: the cells whose tokens the used privileges took (name order).
    ``replenish``: ``None`` when the board is not replenished, else the
    tokens drawn from the bag in placing order (a chance event from outside).
    ``reveal``: the card that refilled the pyramid slot the action emptied.
    ``royals``: the royals taken this turn; ``returned``: tokens given back.
    """

    action: Action
    privileges: tuple[int, ...] = ()
    replenish: tuple[Token, ...] | None = None
    reveal: str | None = None
    royals: tuple[RoyalPick, ...] = ()
    returned: DuelTokens = field(default_factory=DuelTokens)

    def __post_init__(self) -> None:
        object.__setattr__(self, "privileges", tuple(sorted(self.privileges, key=cell_name)))

    def __str__(self) -> str:
        return format_turn(self)

    def __repr__(self) -> str:
        return f"parse_turn({format_turn(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Turn:
        return parse_turn(text)


def format_turn(turn: Turn) -> str:
    """The canonical text of a turn (see the module docstring)."""
    parts: list[str] = []
    if turn.privileges:
        parts.append(f"privilege {_cells_text(turn.privileges)}")
    if turn.replenish is not None:
        parts.append(f"replenish {''.join(t.letter for t in turn.replenish) or '-'}")
    parts.append(str(turn.action))
    if turn.reveal is not None:
        parts.append(f"reveal {turn.reveal}")
    parts.extend(str(pick) for pick in turn.royals)
    if turn.returned:
        parts.append(f"return {turn.returned}")
    return " ".join(parts)


_KEYS = (
    "privilege", "replenish", "take", "reserve", "buy", "pay", "as", "token",
    "steal", "gold", "reveal", "royal", "return",
)  # fmt: skip
_ACTION_PARTS = {"pay", "as", "token", "gold"}


def _cells(text: str) -> tuple[int, ...]:
    return tuple(parse_cell(part) for part in text.split(",") if part.strip())


def _tokens(text: str, what: str) -> DuelTokens:
    try:
        return DuelTokens.parse(text)
    except NotationError as exc:
        raise NotationError(f"{what}: {exc}") from None


def _kind(text: str, what: str) -> Token:
    if len(text) != 1:
        raise NotationError(f"'{what}' needs one token letter, not '{text}'")
    return Token.from_letter(text)


def parse_turn(text: str) -> Turn:
    """Read one Duel turn; raises :class:`NotationError` saying what could not be read."""
    words = text.split()
    if not words:
        raise NotationError("empty turn: expected take, reserve or buy")
    if len(words) % 2:
        raise NotationError(f"'{words[-1]}' needs a value after it")
    pairs = [(words[i].lower(), words[i + 1]) for i in range(0, len(words), 2)]
    values: dict[str, str] = {}
    royals: list[RoyalPick] = []
    verb: str | None = None
    for key, value in pairs:
        if key not in _KEYS:
            raise NotationError(
                f"'{key}' is not part of a Duel turn (expected one of {', '.join(_KEYS)})"
            )
        if key == "royal":
            royals.append(RoyalPick(cards.royal(value).id))
            continue
        if key == "steal" and royals:
            if royals[-1].steal is not None:
                raise NotationError(f"royal {royals[-1].royal} names two steals")
            royals[-1] = RoyalPick(royals[-1].royal, _kind(value, "steal"))
            continue
        if key in values:
            raise NotationError(f"'{key}' appears twice in one turn")
        if key in ("take", "reserve", "buy"):
            if verb is not None:
                raise NotationError(f"one turn has one mandatory action: '{verb}' and '{key}'")
            verb = key
        values[key] = value
    if verb is None:
        raise NotationError("a turn needs its mandatory action: take, reserve or buy")
    stray = [k for k in _ACTION_PARTS | {"steal"} if k in values]
    allowed = {"take": set(), "reserve": {"gold"}, "buy": {"pay", "as", "token", "steal"}}[verb]
    wrong = [k for k in stray if k not in allowed]
    if wrong:
        raise NotationError(f"'{wrong[0]}' does not go with '{verb}'")
    action: Action
    if verb == "take":
        action = Take(_cells(values["take"]))
    elif verb == "reserve":
        if "gold" not in values:
            raise NotationError("'reserve' needs the gold taken: 'gold <cell>'")
        gold = parse_cell(values["gold"])
        what = values["reserve"].lower()
        if what.startswith("deck"):
            if what[4:] not in ("1", "2", "3"):
                raise NotationError(f"'{values['reserve']}' is not a deck (deck1, deck2, deck3)")
            action = ReserveDeck(int(what[4:]), gold)
        else:
            action = ReserveCard(cards.card(what).id, gold)
    else:
        action = Buy(
            cards.card(values["buy"]).id,
            _tokens(values["pay"], "pay") if "pay" in values else DuelTokens(),
            _kind(values["as"], "as") if "as" in values else None,
            parse_cell(values["token"]) if "token" in values else None,
            _kind(values["steal"], "steal") if "steal" in values else None,
        )
    replenish: tuple[Token, ...] | None = None
    if "replenish" in values:
        draw = values["replenish"]
        replenish = () if draw == "-" else tuple(Token.from_letter(ch) for ch in draw)
    return Turn(
        action=action,
        privileges=_cells(values["privilege"]) if "privilege" in values else (),
        replenish=replenish,
        reveal=cards.card(values["reveal"]).id if "reveal" in values else None,
        royals=tuple(royals),
        returned=_tokens(values["return"], "return") if "return" in values else DuelTokens(),
    )
