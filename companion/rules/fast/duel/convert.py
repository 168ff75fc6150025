"""Crossing between the readable Duel engine and the fast one.

The fast engine (:mod:`.duel`) speaks card, royal, cell and kind indices and
action codes; records, reviews and players speak notation.  These functions
translate both ways (the equivalence test compares through them), and
:func:`determinise` turns a table position, where the deck order and the
cards reserved blind are unknown, into a fast state with every card placed
by sampling from the unseen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.rules.duel import cards as catalogue
from companion.rules.duel.outcome import Outcome, Termination
from companion.rules.duel.position import Owned, Player
from companion.rules.duel.state import GameState
from companion.rules.duel.tokens import KINDS, DuelTokens
from companion.rules.duel.turns import (
    Action,
    Buy,
    ReserveCard,
    ReserveDeck,
    RoyalPick,
    Take,
    Turn,
)
from companion.rules.fast.deal import deal_unseen
from companion.rules.fast.duel.state import DuelState, Move
from companion.rules.fast.duel.tables import (
    BUY,
    CARD_ID,
    CARD_INDEX,
    CARD_LEVEL,
    LEVEL_FIRST_SLOT,
    LINE_CELLS,
    LINE_INDEX,
    RESERVE_DECK,
    RESERVE_SLOT,
    ROYAL_ID,
    ROYAL_INDEX,
)
from companion.rules.hidden import Hidden


def _kind(k: int) -> str:
    return KINDS[k].letter


def to_action(s: DuelState, move: Move) -> Action:
    """The readable mandatory action of ``move`` played in position ``s``
    (before it: the privileges and replenish of the move do not move the pyramid)."""
    _, _, action, gold, payment, joker, token, steal, _, _ = move
    if action < RESERVE_SLOT:
        return Take(LINE_CELLS[action])
    if gold < 0 and action < BUY:
        gold = s.gold_cells()[0]
    if action < RESERVE_DECK:
        return ReserveCard(CARD_ID[s.pyramid[action - RESERVE_SLOT]], gold)
    if action < BUY:
        return ReserveDeck(action - RESERVE_DECK + 1, gold)
    card = action - BUY
    pay = payment if payment is not None else s.simplest_payment(card)
    return Buy(
        CARD_ID[card],
        DuelTokens(pay),
        KINDS[joker] if joker >= 0 else None,
        token if token >= 0 else None,
        KINDS[steal] if steal >= 0 else None,
    )


def to_turn(before: DuelState, move: Move, revealed: int = -1) -> Turn:
    """The readable turn of ``move`` played from ``before`` (unchanged).

    ``move`` must carry its replenish draw (not ``()``); ``revealed`` is the
    card the fast play returned.
    """
    privileges, draw, _, _, payment, _, _, _, royals, returned = move
    if payment is None and move[2] >= BUY:
        probe = before.copy()
        for cell in privileges:
            probe.use_privilege(cell)
        payment = probe.simplest_payment(move[2] - BUY)
        move = (*move[:4], payment, *move[5:])
    return Turn(
        action=to_action(before, move),
        privileges=tuple(privileges),
        replenish=tuple(KINDS[k] for k in draw) if draw is not None else None,
        reveal=CARD_ID[revealed] if revealed >= 0 else None,
        royals=tuple(RoyalPick(ROYAL_ID[r], KINDS[k] if k >= 0 else None) for r, k in royals),
        returned=DuelTokens(returned) if returned is not None else DuelTokens(),
    )


def from_turn(s: DuelState, turn: Turn) -> Move:
    """The fast move of a readable turn in position ``s`` (the reveal is not carried:
    a fast state draws it from its own deck)."""
    a = turn.action
    gold = joker = token = steal = -1
    payment: tuple[int, ...] | None = None
    if isinstance(a, Take):
        code = LINE_INDEX[tuple(sorted(a.cells))]
    elif isinstance(a, ReserveCard):
        code = RESERVE_SLOT + s.pyramid.index(CARD_INDEX[a.card])
        gold = a.gold
    elif isinstance(a, ReserveDeck):
        code = RESERVE_DECK + a.level - 1
        gold = a.gold
    else:
        code = BUY + CARD_INDEX[a.card]
        payment = a.payment.counts
        joker = a.joker.index if a.joker is not None else -1
        token = a.token if a.token is not None else -1
        steal = a.steal.index if a.steal is not None else -1
    draw = tuple(k.index for k in turn.replenish) if turn.replenish is not None else None
    royals = tuple((ROYAL_INDEX[p.royal], p.steal.index if p.steal is not None else -1)
                   for p in turn.royals)
    returned = turn.returned.counts if turn.returned else None
    return (tuple(turn.privileges), draw, code, gold, payment, joker, token, steal, royals,
            returned)


def to_state(s: DuelState, names: Sequence[str] = ("A", "B")) -> GameState:
    """The readable state of a fast one; blind reserves become :class:`Hidden`."""
    cards = catalogue.cards()
    royals = catalogue.royals()

    def player(p: int) -> Player:
        return Player(
            names[p],
            DuelTokens(s.tokens[p]),
            s.privs[p],
            tuple(Owned(cards[c], KINDS[k] if k >= 0 else None)
                  for c, k in zip(s.cards[p], s.colours[p], strict=True)),
            tuple(Hidden(CARD_LEVEL[c] + 1) if b else cards[c]
                  for c, b in zip(s.reserved[p], s.blind[p], strict=True)),
            tuple(royals[r] for r in s.won[p]),
        )

    players = (player(0), player(1))
    result = None
    if s.winner >= 0:  # the reason is not kept by the fast engine; the winner is
        result = Outcome(Termination.POINTS, names[s.winner], "")
    rows = []
    for level in range(3):
        first = LEVEL_FIRST_SLOT[level]
        width = (5, 4, 3)[level]
        rows.append(tuple(cards[c] if c >= 0 else None for c in s.pyramid[first:first + width]))
    return GameState(
        players=players,
        board=tuple(KINDS[k] if k >= 0 else None for k in s.board),
        bag=DuelTokens(s.bag),
        privileges=s.supply,
        pyramid=tuple(rows),
        decks=(len(s.decks[0]), len(s.decks[1]), len(s.decks[2])),
        royals=tuple(royals[r] for r in s.royals),
        current=s.current,
        turn=s.turn,
        result=result,
    )


def determinise(state: GameState, rng: random.Random,
                known: Mapping[int, Sequence[str]] | None = None) -> DuelState:
    """A fast state for ``state`` with every unknown card placed at random.

    The cards of a level not visible on the table (deck and blind reserves)
    are shuffled; blind reserves take theirs first, the rest form the deck.
    ``known[p]`` names cards the analyst knows are behind player ``p``'s
    blind reserves (e.g. the one they buy next): each is put in a blind slot
    of its level before the rest are sampled.
    """
    s = DuelState.__new__(DuelState)
    s.board = [k.index if k is not None else -1 for k in state.board]
    s._masks()
    s.bag = list(state.bag.counts)
    s.supply = state.privileges
    s.pyramid = [CARD_INDEX[c.id] if c is not None else -1 for row in state.pyramid
                 for c in row]
    s.royals = [ROYAL_INDEX[r.id] for r in state.royals]
    players = state.players
    s.tokens = [list(p.tokens.counts) for p in players]
    s.privs = [p.privileges for p in players]
    s.bonus = [list(p.bonuses) for p in players]
    s.points = [p.points for p in players]
    s.crowns = [p.crowns for p in players]
    s.cpoints = [[p.colour_points(k) for k in KINDS[:5]] for p in players]
    s.cards = [[CARD_INDEX[o.card.id] for o in p.cards] for p in players]
    s.colours = [[o.colour.index if o.colour is not None else -1 for o in p.cards]
                 for p in players]
    s.won = [[ROYAL_INDEX[r.id] for r in p.royals] for p in players]
    s.current, s.turn = state.current, state.turn
    s.winner = -1
    if state.result is not None:
        s.winner = next(i for i, p in enumerate(players) if p.name == state.result.winner)
    s.again, s.due = False, 0
    s.decks, s.reserved, s.blind = deal_unseen(
        [[c.id for c in state.unseen(level)] for level in (1, 2, 3)],
        [pl.reserved for pl in players], known, rng, CARD_INDEX, CARD_LEVEL)
    return s


def spiral_kinds(text: str) -> list[int]:
    """A record's ``Board`` header (letters along the spiral) as kind indices."""
    letters = "".join(k.letter for k in KINDS)
    return [letters.index(ch) for ch in text]


__all__ = ["determinise", "from_turn", "spiral_kinds", "to_action", "to_state",
           "to_turn"]
