"""Building a legal Duel turn step by step, for computer players and the referee.

A turn has up to six choices in a fixed order (privileges, replenish, action
and payment, ability choices, royals, returns).  Listing every combination
at once would multiply them (as csplendor's flat move lists do); instead a
:class:`TurnPlanner` offers the options of one step at a time, applies the
chosen one to a scratch :class:`~companion.rules.duel.table.Table` — the same
code :meth:`GameState.apply` runs, so a planned turn is legal by construction
— and finally yields the :class:`~companion.rules.duel.turns.Turn` value and
the next state.  The planner is mutable on purpose and lives for one turn;
the states it starts from and ends with are immutable.

Reveals are chance events supplied from outside at their step: the tokens a
replenish draws from the bag (:meth:`TurnPlanner.replenish`) and the card
that refills the pyramid (:meth:`TurnPlanner.reveal`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import LINES, cell_name
from companion.rules.duel.cards import Ability, JewelCard
from companion.rules.duel.position import RESERVE_LIMIT, Position
from companion.rules.duel.table import S, Table
from companion.rules.duel.tokens import COLOURS, DuelTokens, Token
from companion.rules.duel.turns import (
    Action,
    Buy,
    ReserveCard,
    ReserveDeck,
    RoyalPick,
    Take,
    Turn,
)
from companion.rules.errors import AmbiguousAction, IllegalAction

_T = TypeVar("_T")

#: One Take per line of the board, built once (they are immutable values),
#: with the bit mask of its cells for a quick "all cells takeable" test.
_TAKES: tuple[tuple[Take, int], ...] = tuple(
    (Take(line), sum(1 << c for c in line)) for line in LINES
)


def payments(price: DuelTokens, held: DuelTokens) -> list[DuelTokens]:
    """Every exact payment of ``price`` from ``held``, least gold first.

    Gold may stand in for any gem or pearl, even one the player holds, so
    each split between a kind and gold is a different payment (the rule
    Splendor shares: :meth:`~companion.rules.gems.TokenCounts.payments_for`).
    """
    return held.payments_for(price)


def return_options(held: DuelTokens, count: int) -> list[DuelTokens]:
    """Every multiset of ``count`` tokens that can be returned from ``held``."""
    return held.returns(count)


class TurnPlanner(Generic[S]):
    """One turn under construction, step by step (see the module docstring).

    Steps, each optional unless said: :meth:`use_privilege` (repeat),
    :meth:`replenish` (compulsory when :meth:`must_replenish`), :meth:`play`
    (required; options from :meth:`actions`, :meth:`payments`,
    :meth:`buy_options`), :meth:`reveal` (when :meth:`reveal_level` is not
    ``None``), :meth:`take_royal` (while :meth:`royals_due`), then
    :meth:`finish` with returned tokens from :meth:`return_options`.
    Every step raises :class:`IllegalAction` exactly as ``apply`` would.
    """

    def __init__(self, state: S) -> None:
        if state.result is not None:
            raise IllegalAction(f"The game is over: {state.result.reason}")
        self.state = state
        self.table: Table[S] = Table(state)
        self._privileges: list[int] = []
        self._draw: tuple[Token, ...] | None = None
        self._action: Action | None = None
        self._reveal: str | None = None
        self._royals: list[RoyalPick] = []

    # ------------------------------------------------------ optional actions
    def privilege_cells(self) -> list[int]:
        """Cells a privilege may take from now (none without a privilege left)."""
        if self._action is not None or self._draw is not None:
            return []
        if not self.table.privileges[self.table.me]:
            return []
        return self.table.takeable_cells()

    def use_privilege(self, cell: int) -> None:
        if self._action is not None or self._draw is not None:
            raise IllegalAction("Privileges are used first, before a replenish or the action")
        self.table.use_privileges((cell,))
        self._privileges.append(cell)

    def bag(self) -> DuelTokens:
        return DuelTokens(self.table.bag)

    def can_replenish(self) -> bool:
        return self._draw is None and self._action is None and sum(self.table.bag) > 0

    def must_replenish(self) -> bool:
        """True when no mandatory action is possible and the bag can refill the board."""
        return self.can_replenish() and not self.table.any_mandatory()

    def replenish(self, draw: Sequence[Token]) -> None:
        """Refill the board with ``draw``: the bag's tokens in the order drawn."""
        if not self.can_replenish():
            raise IllegalAction("The board can be replenished once, before the action")
        self.table.replenish(tuple(draw))
        self._draw = tuple(draw)

    def midway(self) -> S:
        """The position after the optional actions so far, the same player still to act.

        What the mover sees before choosing the mandatory action: after a
        replenish, the board as the bag filled it (the opponent's privilege
        given, the bag empty).  A computer player plans its action from it,
        since nobody can know the bag's draw before it is made.  Not a
        position between turns: its ``turn`` is the turn still being played.
        """
        if self._action is not None:
            raise IllegalAction("The mandatory action is already played")
        return self.table.freeze(end_turn=False)

    # ------------------------------------------------------ mandatory action
    def takes(self) -> list[Take]:
        ok = 0
        for cell, kind in enumerate(self.table.board):
            if kind is not None and kind is not Token.GOLD:
                ok |= 1 << cell
        return [take for take, mask in _TAKES if mask & ok == mask]

    def reserves(self) -> list[ReserveCard | ReserveDeck]:
        t = self.table
        if len(t.reserved[t.me]) >= RESERVE_LIMIT:
            return []
        result: list[ReserveCard | ReserveDeck] = []
        for gold in t.gold_cells():
            result += [ReserveCard(c.id, gold) for row in t.pyramid for c in row if c]
            result += [ReserveDeck(level, gold) for level in (1, 2, 3) if t.decks[level - 1]]
        return result

    def buys(self, hidden: Sequence[JewelCard] = ()) -> list[Buy]:
        """Affordable purchases, each with its least-gold payment and no choices yet.

        ``hidden``: the cards behind the mover's blind reserves when the
        caller knows them (a simulation); the table cannot.
        """
        t = self.table
        candidates = [c for row in t.pyramid for c in row if c is not None]
        candidates += [c for c in t.reserved[t.me] if isinstance(c, JewelCard)]
        candidates += hidden
        result = []
        held = self.table.held()
        for card in candidates:
            if t.affordable(card):
                pay = payments(DuelTokens(t.price(card)), held)[0]
                result.append(Buy(card.id, pay))
        return result

    def actions(self, hidden: Sequence[JewelCard] = ()) -> list[Action]:
        """Every mandatory action possible now (purchases without their choices).

        Empty only when privileges used this turn took the last gems and
        pearls and the bag is empty: start the turn again without them.
        """
        if self._action is not None:
            return []
        return [*self.takes(), *self.reserves(), *self.buys(hidden)]

    def payments(self, card: JewelCard) -> list[DuelTokens]:
        return payments(DuelTokens(self.table.price(card)), self.table.held())

    def buy_options(self, buy: Buy, card: JewelCard) -> list[Buy]:
        """``buy`` completed with every combination of its ability choices."""
        t = self.table
        jokers: list[Token | None] = [None]
        if card.is_joker:
            jokers = [c for c in COLOURS if t.bonuses[t.me][c.index]]
        cells: list[int | None] = [None]
        if Ability.TOKEN in card.abilities:
            cells = [*t.token_cells(card)] or [None]
        steals: list[Token | None] = [None]
        if Ability.STEAL in card.abilities:
            steals = [*t.steal_kinds()] or [None]
        return [
            Buy(buy.card, buy.payment, joker, cell, steal)
            for joker in jokers
            for cell in cells
            for steal in steals
        ]

    def play(self, action: Action) -> None:
        if self.must_replenish():
            raise IllegalAction("No mandatory action is possible: replenish the board first")
        self.table.act(action)
        self._action = action

    def reveal_level(self) -> int | None:
        """The level whose deck must reveal a card into the pyramid now, if any."""
        slot = self.table.emptied
        if slot is None or not self.table.decks[slot[0]]:
            return None
        return slot[0] + 1

    def reveal(self, card_id: str) -> None:
        self.table.refill(card_id)
        self._reveal = card_id

    # --------------------------------------------------------------- royals
    def royals_due(self) -> int:
        return self.table.royals_due

    def royal_options(self) -> list[RoyalPick]:
        return _royal_picks(self.table)

    def take_royal(self, pick: RoyalPick) -> None:
        if not self.table.royals_due:
            self.table.take_royals((pick,))  # raises the "no royal due" message
        self.table.take_royal(pick)
        self._royals.append(pick)

    # ---------------------------------------------------------- end of turn
    def tokens_to_return(self) -> int:
        return self.table.tokens_to_return()

    def return_options(self) -> list[DuelTokens]:
        return return_options(self.table.held(), self.table.tokens_to_return())

    def held(self) -> DuelTokens:
        return self.table.held()

    def finish(self, returned: DuelTokens | None = None) -> tuple[Turn, S]:
        """The turn as a value and the state after it."""
        if self._action is None:
            raise IllegalAction("A turn needs its mandatory action")
        if self.reveal_level() is not None:
            self.table.refill(None)  # raises: the reveal is missing
        if self.table.royals_due:
            self.table.take_royals(())  # raises: a royal must be named
        back = returned if returned is not None else DuelTokens()
        self.table.return_tokens(back)
        turn = Turn(
            action=self._action,
            privileges=tuple(self._privileges),
            replenish=self._draw,
            reveal=self._reveal,
            royals=tuple(self._royals),
            returned=back,
        )
        return turn, self.table.freeze(end_turn=True)


def _royal_picks(table: Table[S]) -> list[RoyalPick]:
    """Each available royal, with each token its steal could take (if it steals)."""
    picks: list[RoyalPick] = []
    for royal in table.royals:
        steals = table.steal_kinds() if royal.ability is Ability.STEAL else []
        picks += [RoyalPick(royal.id, k) for k in steals] or [RoyalPick(royal.id)]
    return picks


def _one(options: Sequence[_T], what: str, show: Callable[[_T], str]) -> _T:
    if len(options) == 1:
        return options[0]
    shown = ", ".join(show(o) for o in options[:6]) + (", …" if len(options) > 6 else "")
    raise AmbiguousAction(f"{what} has {len(options)} possibilities ({shown}): name one")


def complete_turn(state: Position, turn: Turn) -> Turn:
    """Fill in the choices a turn left out when the rules allow only one.

    For typed or spoken entry: ``buy 1w2`` may omit its payment, joker
    colour, token cell, steal, royal or returned tokens when exactly one
    choice is legal.  When several are, :class:`AmbiguousAction` lists them;
    a turn that is illegal anyway raises :class:`IllegalAction` as ``apply``
    would.  Reveals can never be guessed and are left as given.
    """
    table = Table(state)
    table.use_privileges(turn.privileges)
    if turn.replenish is not None:
        table.replenish(turn.replenish)
    action = turn.action
    if isinstance(action, Buy):
        card = catalogue.card(action.card)
        table.locate(card)
        payment, joker, cell, steal = action.payment, action.joker, action.token, action.steal
        price = DuelTokens(table.price(card))
        if not payment and price:
            ways = payments(price, table.held())
            if not ways:
                raise IllegalAction(
                    f"Buying {card.id} costs {price.describe()} after bonuses;"
                    f" {table.name} holds {table.held().describe()}"
                )
            payment = _one(ways, f"Paying {card.id}", str)
        if card.is_joker and joker is None:
            colours = [c for c in COLOURS if table.bonuses[table.me][c.index]]
            if colours:
                joker = _one(colours, f"The colour joker {card.id} joins", lambda c: c.letter)
        if Ability.TOKEN in card.abilities and cell is None and table.token_cells(card):
            cell = _one(table.token_cells(card), f"The token {card.id} takes", cell_name)
        if Ability.STEAL in card.abilities and steal is None and table.steal_kinds():
            steal = _one(table.steal_kinds(), f"The token {card.id} steals", lambda k: k.letter)
        action = Buy(action.card, payment, joker, cell, steal)
    table.act(action)
    table.refill(turn.reveal)
    royals = turn.royals
    if table.royals_due and not royals:
        if table.royals_due > 1:
            raise AmbiguousAction("Name the royal cards taken")
        royals = (_one(_royal_picks(table), "The royal card taken", str),)
    table.take_royals(royals)
    returned = turn.returned
    if table.tokens_to_return() and not returned:
        backs = return_options(table.held(), table.tokens_to_return())
        returned = _one(backs, "The tokens returned", str)
    return Turn(action, turn.privileges, turn.replenish, turn.reveal, royals, returned)
