"""Crossing between the readable engine and the fast one.

The fast engine speaks card and noble indices and action codes; records,
reviews and players speak notation.  These functions translate both ways
(and are what the equivalence test compares through), and
:func:`determinise` turns a table position, where some cards are unknown,
into a fast state where every card is placed by sampling from the unseen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.rules.fast.deal import deal_unseen
from companion.rules.fast.splendor.state import FastState
from companion.rules.fast.splendor.tables import (
    BUY,
    CARD_ID,
    CARD_INDEX,
    CARD_LEVEL,
    NOBLE_ID,
    NOBLE_INDEX,
    PASS,
    RESERVE_DECK,
    RESERVE_SLOT,
    TAKE_TEXT,
    TAKES,
)
from companion.rules.gems import Tokens
from companion.rules.hidden import Hidden
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.state import GameState, Player, player_names

_TAKE_CODE = {t: i for i, t in enumerate(TAKES)}


def action_text(s: FastState, action: int, payment: Sequence[int] | None = None) -> str:
    """The notation of a main action code in position ``s`` (``buy`` names its payment)."""
    if action < RESERVE_SLOT:
        return f"take {TAKE_TEXT[action]}"
    if action < RESERVE_DECK:
        return f"reserve {CARD_ID[s.market[action - RESERVE_SLOT]]}"
    if action < BUY:
        return f"reserve deck{action - RESERVE_DECK + 1}"
    if action < PASS:
        card = action - BUY
        pay = Tokens(payment if payment is not None else s.simplest_payment(card))
        return str(Buy(CARD_ID[card], pay))
    return "pass"


def to_action(s: FastState, action: int, payment: Sequence[int] | None = None) -> Action:
    """The readable action for a code in position ``s``."""
    if action < RESERVE_SLOT:
        return Take(Tokens(TAKES[action]))
    if action < RESERVE_DECK:
        return ReserveCard(CARD_ID[s.market[action - RESERVE_SLOT]])
    if action < BUY:
        return ReserveDeck(action - RESERVE_DECK + 1)
    if action < PASS:
        card = action - BUY
        return Buy(CARD_ID[card], Tokens(payment if payment is not None else
                                         s.simplest_payment(card)))
    return Pass()


def to_turn(before: FastState, action: int, payment: Sequence[int] | None,
            returned: Sequence[int] | None, noble: int, revealed: int) -> Turn:
    """The readable turn for a fast turn played from ``before`` (which is unchanged)."""
    return Turn(
        to_action(before, action, payment),
        CARD_ID[revealed] if revealed >= 0 else None,
        Tokens(returned) if returned is not None else Tokens(),
        NOBLE_ID[noble] if noble >= 0 else None,
    )


def from_turn(s: FastState, turn: Turn) -> tuple[int, tuple[int, ...] | None,
                                                  tuple[int, ...] | None, int]:
    """``(action, payment, returned, noble)`` codes for a readable turn in position ``s``.

    The reveal is not carried: a fast state draws it from its own deck.
    """
    a = turn.action
    payment: tuple[int, ...] | None = None
    if isinstance(a, Take):
        code = _TAKE_CODE[a.gems.counts[:5]]
    elif isinstance(a, ReserveCard):
        code = RESERVE_SLOT + s.market.index(CARD_INDEX[a.card])
    elif isinstance(a, ReserveDeck):
        code = RESERVE_DECK + a.level - 1
    elif isinstance(a, Buy):
        code = BUY + CARD_INDEX[a.card]
        payment = a.payment.counts
    else:
        code = PASS
    returned = turn.returned.counts if turn.returned else None
    noble = NOBLE_INDEX[turn.noble] if turn.noble else -1
    return code, payment, returned, noble


def to_state(s: FastState, names: Sequence[str] | None = None) -> GameState:
    """The readable state of a fast one; blind reserves become :class:`Hidden`."""
    cards = catalogue.cards()
    noble_tiles = catalogue.nobles()
    names = tuple(names) if names is not None else player_names(s.n)
    players = tuple(
        Player(
            names[p],
            Tokens._raw(tuple(s.tokens[p])),  # type: ignore[arg-type]
            tuple(cards[c] for c in s.cards[p]),
            tuple(Hidden(CARD_LEVEL[c] + 1) if blind else cards[c]
                  for c, blind in zip(s.reserved[p], s.blind[p], strict=True)),
            tuple(noble_tiles[j] for j in s.won[p]),
        )
        for p in range(s.n)
    )
    market = tuple(
        tuple(cards[c] if c >= 0 else None for c in s.market[4 * r: 4 * r + 4]) for r in range(3)
    )
    return GameState(
        players=players,
        supply=Tokens._raw(tuple(s.supply)),  # type: ignore[arg-type]
        market=market,
        decks=tuple(len(d) for d in s.decks),
        nobles=tuple(noble_tiles[j] for j in s.nobles),
        current=s.current,
        turn=s.turn,
        end_triggered=s.end,
        passes=s.passes,
    )


def determinise(state: GameState, rng: random.Random,
                known: Mapping[int, Sequence[str]] | None = None) -> FastState:
    """A fast state for ``state`` with every unknown card placed at random.

    The cards of a level not visible on the table (deck and blind reserves)
    are shuffled; blind reserves take theirs first, then the rest form the
    deck in the shuffled order.  ``known[p]`` names cards the analyst knows
    are behind player ``p``'s blind reserves (e.g. the one they buy next);
    each is put in a blind slot of its level before the rest are sampled.
    """
    s = FastState.__new__(FastState)
    n = len(state.players)
    s.n = n
    s.supply = list(state.supply.counts)
    s.tokens = [list(p.tokens.counts) for p in state.players]
    s.bonus = [list(p.bonuses.counts[:5]) for p in state.players]
    s.cards = [[CARD_INDEX[c.id] for c in p.cards] for p in state.players]
    s.won = [[NOBLE_INDEX[x.id] for x in p.nobles] for p in state.players]
    s.points = [p.points for p in state.players]
    s.nkey = [sum(min(b, 4) * 5**c for c, b in enumerate(bonus)) for bonus in s.bonus]
    s.market = [CARD_INDEX[c.id] if c is not None else -1 for row in state.market for c in row]
    s.market_mask = sum(1 << c for c in s.market if c >= 0)
    s.nobles = [NOBLE_INDEX[x.id] for x in state.nobles]
    s.noble_mask = sum(1 << j for j in s.nobles)
    s.current, s.turn, s.passes = state.current, state.turn, state.passes
    s.end = state.end_triggered
    s.decks, s.reserved, s.blind = deal_unseen(
        [[c.id for c in state.unseen(level)] for level in (1, 2, 3)],
        [pl.reserved for pl in state.players], known, rng, CARD_INDEX, CARD_LEVEL)
    return s
