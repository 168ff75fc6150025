"""How one Duel turn is resolved: a mutable scratch copy of the table.

:func:`play_turn` (what :meth:`GameState.apply` runs) and the step-by-step
:class:`~companion.rules.duel.planner.TurnPlanner` drive the same
:class:`Table` through the same steps, in the rulebook's order:

1. use privileges (each takes a gem or pearl, never gold);
2. replenish the board from the bag along the spiral (the opponent takes a
   privilege) — compulsory when no mandatory action is possible;
3. the mandatory action: take a line of 1-3 tokens, reserve with a gold, or
   buy a card and resolve its ability;
4. refill the pyramid slot the action emptied (the reveal);
5. royal cards for reaching 3 and 6 crowns, with their abilities;
6. end of turn: return tokens above 10 to the bag, then check victory.

The table is mutable only inside one turn and never escapes: each step
checks its rule before it changes anything it needs for its messages, and
:meth:`Table.freeze` builds the next immutable :class:`GameState`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Generic, TypeVar

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import CELLS, SPIRAL, cell_name, line_problem
from companion.rules.duel.cards import Ability, JewelCard, Royal
from companion.rules.duel.outcome import Outcome, Termination
from companion.rules.duel.position import (
    RESERVE_LIMIT,
    ROYAL_CROWNS,
    TOKEN_LIMIT,
    WIN_COLOUR_POINTS,
    WIN_CROWNS,
    WIN_POINTS,
    Owned,
    Player,
    Position,
    Reserved,
)
from companion.rules.duel.tokens import COLOURS, KINDS, TAKEABLE, DuelTokens, Token
from companion.rules.duel.turns import (
    Action,
    Buy,
    ReserveCard,
    ReserveDeck,
    RoyalPick,
    Take,
    Turn,
)
from companion.rules.errors import IllegalAction
from companion.rules.hidden import Hidden

GOLD = Token.GOLD.index
PEARL = Token.PEARL.index

#: The class of the position a turn starts from, which the next one keeps
#: (:class:`~companion.rules.duel.state.GameState` in play).
S = TypeVar("S", bound=Position)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _describe(counts: list[int]) -> str:
    return DuelTokens(counts).describe()


def royals_earned(before: int, after: int) -> int:
    """Royal cards due when crowns go from ``before`` to ``after`` (marks 3 and 6).

    Counted generally, although with the real cards (at most 3 crowns each)
    one purchase never passes both marks.
    """
    return sum(1 for mark in ROYAL_CROWNS if before < mark <= after)


class Table(Generic[S]):
    """The table during one turn.  Build from a state, step, then :meth:`freeze`."""

    def __init__(self, state: S) -> None:
        self.state = state
        self.me = state.current
        self.them = 1 - state.current
        self.names = (state.players[0].name, state.players[1].name)
        self.board: list[Token | None] = list(state.board)
        self.bag = list(state.bag.counts)
        self.supply = state.privileges
        self.tokens = [list(p.tokens.counts) for p in state.players]
        self.privileges = [p.privileges for p in state.players]
        self.cards = [list(p.cards) for p in state.players]
        self.reserved: list[list[Reserved]] = [list(p.reserved) for p in state.players]
        self.owned_royals = [list(p.royals) for p in state.players]
        self.bonuses = [list(p.bonuses) for p in state.players]
        self.crowns = [p.crowns for p in state.players]
        self.pyramid = [list(row) for row in state.pyramid]
        self.decks = list(state.decks)
        self.royals = list(state.royals)
        # "Play again" from a card and from a royal in one turn give one extra
        # turn, not two (the rulebook says "take another turn"; with the real
        # cards the two never meet: the "again" cards have no crowns).
        self.again = False
        self.acted = False
        self.emptied: tuple[int, int] | None = None
        self.royals_due = 0
        self.bought: JewelCard | None = None

    # ------------------------------------------------------------ helpers
    @property
    def name(self) -> str:
        return self.names[self.me]

    def give_privilege(self, who: int) -> None:
        """"Take 1 privilege": from the supply, else from the opponent, else nothing."""
        if self.supply:
            self.supply -= 1
            self.privileges[who] += 1
        elif self.privileges[1 - who]:
            self.privileges[1 - who] -= 1
            self.privileges[who] += 1

    def held(self, who: int | None = None) -> DuelTokens:
        return DuelTokens(self.tokens[self.me if who is None else who])

    def takeable_cells(self) -> list[int]:
        return [c for c in CELLS if self.board[c] is not None and self.board[c] is not Token.GOLD]

    def gold_cells(self) -> list[int]:
        return [c for c in CELLS if self.board[c] is Token.GOLD]

    def seen(self) -> set[JewelCard]:
        seen = {c for row in self.pyramid for c in row if c is not None}
        for who in (0, 1):
            seen.update(o.card for o in self.cards[who])
            seen.update(c for c in self.reserved[who] if isinstance(c, JewelCard))
        return seen

    def price(self, card: JewelCard) -> list[int]:
        """Cost after the mover's bonuses, as 7 counts (gold 0)."""
        cost, bonus = card.cost.counts, self.bonuses[self.me]
        return [*(max(cost[i] - bonus[i], 0) for i in range(5)), cost[5], 0]

    def affordable(self, card: JewelCard) -> bool:
        """True when the mover could pay for ``card`` (and place it, for a joker)."""
        bonus, held, cost = self.bonuses[self.me], self.tokens[self.me], card.cost.counts
        if card.is_joker and not any(bonus):
            return False
        short = max(cost[5] - held[5], 0)  # pearls: never discounted
        for i in range(5):
            need = cost[i] - bonus[i]
            if need > held[i]:
                short += need - held[i]
        return short <= held[GOLD]

    def any_mandatory(self) -> bool:
        """True when at least one mandatory action is possible right now.

        A card reserved blind counts as affordable when any unseen card of
        its level would be: only its owner knows which card it is, so the
        referee must not force a replenish the owner could avoid.
        """
        if self.takeable_cells():
            return True
        reserved = self.reserved[self.me]
        can_reserve = self.gold_cells() and len(reserved) < RESERVE_LIMIT
        if can_reserve and (any(c for row in self.pyramid for c in row) or any(self.decks)):
            return True
        candidates = [c for row in self.pyramid for c in row if c is not None]
        candidates += [c for c in reserved if isinstance(c, JewelCard)]
        hidden_levels = {c.level for c in reserved if isinstance(c, Hidden)}
        if hidden_levels:
            seen = self.seen()
            candidates += [
                c
                for level in hidden_levels
                for c in catalogue.cards_of_level(level)
                if c not in seen
            ]
        return any(self.affordable(c) for c in candidates)

    # ------------------------------------------------------ optional actions
    def use_privileges(self, cells: tuple[int, ...]) -> None:
        if not cells:
            return
        have = self.privileges[self.me]
        if len(cells) > have:
            raise IllegalAction(
                f"{self.name} holds {_plural(have, 'privilege')} and cannot use {len(cells)}"
            )
        if len(set(cells)) != len(cells):
            raise IllegalAction("Each privilege takes a different token; a cell is named twice")
        for cell in cells:
            kind = self.board[cell]
            if kind is None:
                raise IllegalAction(
                    f"A privilege takes a token from the board; {cell_name(cell)} is empty"
                )
            if kind is Token.GOLD:
                raise IllegalAction(
                    f"A privilege cannot take gold ({cell_name(cell)} holds gold);"
                    " gold comes only with a reserve"
                )
        for cell in cells:
            kind = self.board[cell]
            assert kind is not None
            self.board[cell] = None
            self.tokens[self.me][kind.index] += 1
        self.privileges[self.me] -= len(cells)
        self.supply += len(cells)

    def replenish(self, draw: tuple[Token, ...]) -> None:
        in_bag = sum(self.bag)
        if not in_bag:
            raise IllegalAction("The bag is empty, so the board cannot be replenished")
        drawn = DuelTokens.of(*draw)
        if list(drawn.counts) != self.bag:
            raise IllegalAction(
                f"Replenishing places every token of the bag: it holds {_describe(self.bag)},"
                f" not {drawn.describe()}"
            )
        empty = [c for c in SPIRAL if self.board[c] is None]
        for cell, kind in zip(empty, draw, strict=False):
            self.board[cell] = kind
        self.bag = [0] * 7
        self.give_privilege(self.them)

    # ------------------------------------------------------ mandatory action
    def act(self, action: Action) -> None:
        if self.acted:
            raise IllegalAction("A turn has exactly one mandatory action")
        if isinstance(action, Take):
            self.take(action)
        elif isinstance(action, ReserveCard | ReserveDeck):
            self.reserve(action)
        elif isinstance(action, Buy):
            self.buy(action)
        else:
            raise TypeError(f"not a Duel action: {action!r}")
        self.acted = True

    def take(self, action: Take) -> None:
        cells = action.cells
        if not 1 <= len(cells) <= 3:
            raise IllegalAction(f"Take takes 1 to 3 tokens, not {len(cells)}")
        if len(set(cells)) != len(cells):
            raise IllegalAction("Take names a cell twice")
        for cell in cells:
            kind = self.board[cell]
            if kind is None:
                raise IllegalAction(f"Take needs a token on every cell; {cell_name(cell)} is empty")
            if kind is Token.GOLD:
                raise IllegalAction(
                    f"Take cannot take gold ({cell_name(cell)} holds gold);"
                    " gold comes only with a reserve"
                )
        problem = line_problem(cells)
        if problem:
            raise IllegalAction(
                f"Take needs tokens in one unbroken row, column or diagonal; {problem}"
            )
        taken: list[Token] = []
        for cell in cells:
            kind = self.board[cell]
            assert kind is not None
            taken.append(kind)
            self.board[cell] = None
            self.tokens[self.me][kind.index] += 1
        three_same = len(taken) == 3 and len(set(taken)) == 1
        if three_same or taken.count(Token.PEARL) == 2:
            self.give_privilege(self.them)

    def reserve(self, action: ReserveCard | ReserveDeck) -> None:
        held = len(self.reserved[self.me])
        if held >= RESERVE_LIMIT:
            raise IllegalAction(
                f"A player may hold at most {RESERVE_LIMIT} reserved cards;"
                f" {self.name} holds {held}"
            )
        kind = self.board[action.gold]
        if kind is not Token.GOLD:
            if not self.gold_cells():
                raise IllegalAction("There is no gold on the board, so no card can be reserved")
            what = "empty" if kind is None else f"holds {kind.label}"
            golds = ", ".join(cell_name(c) for c in self.gold_cells())
            raise IllegalAction(
                f"Reserving takes a gold token; {cell_name(action.gold)} is {what} (gold: {golds})"
            )
        if isinstance(action, ReserveCard):
            where = self.find(action.card)
            if where is None:
                raise IllegalAction(f"Card {action.card} is not face up in the pyramid")
            r, s = where
            card = self.pyramid[r][s]
            assert card is not None
            self.pyramid[r][s] = None
            self.emptied = where
            self.reserved[self.me].append(card)
        else:
            level = action.level
            if self.decks[level - 1] == 0:
                raise IllegalAction(f"The level {level} deck is empty; there is no card to reserve")
            self.decks[level - 1] -= 1
            self.reserved[self.me].append(Hidden(level))
        self.board[action.gold] = None
        self.tokens[self.me][GOLD] += 1

    def find(self, card_id: str) -> tuple[int, int] | None:
        for r, row in enumerate(self.pyramid):
            for s, c in enumerate(row):
                if c is not None and c.id == card_id:
                    return r, s
        return None

    def locate(self, card: JewelCard) -> tuple[tuple[int, int] | None, int]:
        """Where the mover can buy ``card`` from: (pyramid slot, -1) or (None, reserve index)."""
        where = self.find(card.id)
        if where is not None:
            return where, -1
        reserved = self.reserved[self.me]
        for i, r in enumerate(reserved):
            if r == card:
                return None, i
        hidden = [i for i, r in enumerate(reserved) if r == Hidden(card.level)]
        if hidden:
            if card in self.seen():
                raise IllegalAction(
                    f"Card {card.id} is already on the table, so it cannot be the card"
                    f" {self.name} reserved blind from the level {card.level} deck"
                )
            return None, hidden[0]
        raise IllegalAction(
            f"Card {card.id} is neither face up in the pyramid nor reserved by {self.name}"
        )

    def check_joker(self, card: JewelCard, joker: Token | None) -> Token | None:
        bonuses = self.bonuses[self.me]
        if not card.is_joker:
            if joker is not None:
                raise IllegalAction(f"Card {card.id} is not a joker; only a joker joins a colour")
            return card.colour
        colours = [c for c in COLOURS if bonuses[c.index]]
        if not colours:
            raise IllegalAction(
                f"A joker card must join one of your cards with a bonus; {self.name} has none,"
                f" so {card.id} cannot be bought"
            )
        names = ", ".join(c.label for c in colours)
        if joker is None:
            raise IllegalAction(f"Name the colour joker {card.id} joins ({names})")
        if joker not in colours:
            raise IllegalAction(
                f"Joker {card.id} can only join a colour {self.name} has a bonus in ({names}),"
                f" not {joker.label}"
            )
        return joker

    def check_payment(self, card: JewelCard, pay: DuelTokens) -> None:
        held = self.tokens[self.me]
        paid = pay.counts
        if any(paid[i] > held[i] for i in range(7)):
            raise IllegalAction(
                f"{self.name} cannot pay {pay.describe()}: they hold {_describe(held)}"
            )
        price = self.price(card)
        over = [KINDS[i].label for i in range(6) if paid[i] > price[i]]
        if over:
            raise IllegalAction(
                f"Buying {card.id} costs {_describe(price)} after bonuses;"
                f" the payment gives too much {', '.join(over)}"
            )
        short = sum(price[i] - paid[i] for i in range(6))
        if short != paid[GOLD]:
            raise IllegalAction(
                f"Buying {card.id} costs {_describe(price)} after bonuses; paying"
                f" {pay.describe()} leaves {short} to cover with gold, but"
                f" {paid[GOLD]} gold {'was' if paid[GOLD] == 1 else 'were'} paid"
            )

    def buy(self, action: Buy) -> None:
        card = catalogue.card(action.card)
        where, reserved_index = self.locate(card)
        colour = self.check_joker(card, action.joker)
        self.check_payment(card, action.payment)
        self.check_choices(card, action)
        # Pay: spent tokens go to the bag.
        for i, n in enumerate(action.payment.counts):
            self.tokens[self.me][i] -= n
            self.bag[i] += n
        if where is not None:
            self.pyramid[where[0]][where[1]] = None
            self.emptied = where
        else:
            del self.reserved[self.me][reserved_index]
        before = self.crowns[self.me]
        self.cards[self.me].append(Owned(card, colour))
        if colour is not None:
            self.bonuses[self.me][colour.index] += card.bonus
        self.crowns[self.me] += card.crowns
        self.bought = card
        self.resolve_card_ability(card, action)
        after = self.crowns[self.me]
        self.royals_due = min(royals_earned(before, after), len(self.royals))

    def token_cells(self, card: JewelCard) -> list[int]:
        """Cells the "token" ability of ``card`` may take from."""
        return [c for c in CELLS if card.colour is not None and self.board[c] is card.colour]

    def steal_kinds(self) -> list[Token]:
        """What a "steal" may take from the opponent: gems and pearls they hold."""
        held = self.tokens[self.them]
        return [k for k in TAKEABLE if held[k.index]]

    def check_choices(self, card: JewelCard, action: Buy) -> None:
        if Ability.TOKEN in card.abilities:
            cells = self.token_cells(card)
            colour = card.colour.label if card.colour else "its"
            if action.token is None and cells:
                options = ", ".join(cell_name(c) for c in cells)
                raise IllegalAction(
                    f"Card {card.id} takes a {colour} token from the board:"
                    f" name its cell ({options})"
                )
            if action.token is not None and action.token not in cells:
                if not cells:
                    raise IllegalAction(
                        f"There is no {colour} token on the board; card {card.id} takes nothing"
                    )
                raise IllegalAction(
                    f"Card {card.id} takes a {colour} token; {cell_name(action.token)} holds none"
                )
        elif action.token is not None:
            raise IllegalAction(f"Card {card.id} has no ability that takes a token from the board")
        if Ability.STEAL in card.abilities:
            self.check_steal(action.steal, f"Card {card.id}")
        elif action.steal is not None:
            raise IllegalAction(f"Card {card.id} has no ability that takes from the opponent")

    def check_steal(self, steal: Token | None, source: str) -> None:
        kinds = self.steal_kinds()
        them = self.names[self.them]
        if steal is None and kinds:
            options = ", ".join(k.label for k in kinds)
            raise IllegalAction(f"{source} takes a gem or pearl from {them}: name one ({options})")
        if steal is not None and steal not in kinds:
            if steal is Token.GOLD:
                raise IllegalAction(f"{source} cannot take gold from {them}")
            if not kinds:
                raise IllegalAction(f"{them} holds no gem or pearl; {source} takes nothing")
            raise IllegalAction(f"{them} holds no {steal.label}")

    def steal(self, steal: Token | None) -> None:
        if steal is not None:
            self.tokens[self.them][steal.index] -= 1
            self.tokens[self.me][steal.index] += 1

    def resolve_card_ability(self, card: JewelCard, action: Buy) -> None:
        if Ability.AGAIN in card.abilities:
            self.again = True
        if Ability.TOKEN in card.abilities and action.token is not None:
            self.board[action.token] = None
            assert card.colour is not None
            self.tokens[self.me][card.colour.index] += 1
        if Ability.PRIVILEGE in card.abilities:
            self.give_privilege(self.me)
        if Ability.STEAL in card.abilities:
            self.steal(action.steal)

    # --------------------------------------------------------- after action
    def refill(self, reveal: str | None) -> None:
        """Put the revealed card in the slot the action emptied (or leave it empty)."""
        if self.emptied is None:
            if reveal is not None:
                raise IllegalAction("No card left the pyramid this turn, so none is revealed")
            return
        r, s = self.emptied
        level = r + 1
        if reveal is None:
            if self.decks[r]:
                raise IllegalAction(
                    f"The level {level} deck still has {_plural(self.decks[r], 'card')}:"
                    " name the card revealed to fill the pyramid"
                )
            return
        if not self.decks[r]:
            raise IllegalAction(f"The level {level} deck is empty; no card can be revealed")
        card = catalogue.card(reveal)
        if card.level != level:
            raise IllegalAction(
                f"Card {card.id} is level {card.level}; the empty pyramid slot is level {level}"
            )
        if card in self.seen():
            raise IllegalAction(f"Card {card.id} is already on the table")
        self.pyramid[r][s] = card
        self.decks[r] -= 1
        self.emptied = None

    def royal_choices(self) -> list[Royal]:
        return list(self.royals)

    def take_royals(self, picks: tuple[RoyalPick, ...]) -> None:
        due = self.royals_due
        crowns = self.crowns[self.me]
        if len(picks) != due:
            if due:
                options = " or ".join(r.id for r in self.royals)
                raise IllegalAction(
                    f"{self.name} reaches {crowns} crowns and takes {_plural(due, 'royal card')}:"
                    f" name {'it' if due == 1 else 'them'} ({options})"
                )
            raise IllegalAction(
                f"A royal card is taken on reaching 3 and 6 crowns; {self.name} has {crowns}"
                " and reached no new mark this turn"
            )
        for pick in picks:
            self.take_royal(pick)

    def take_royal(self, pick: RoyalPick) -> None:
        royal = catalogue.royal(pick.royal)
        if royal not in self.royals:
            raise IllegalAction(f"Royal card {royal.id} has already been taken")
        if royal.ability is Ability.STEAL:
            self.check_steal(pick.steal, f"Royal card {royal.id}")
        elif pick.steal is not None:
            raise IllegalAction(f"Royal card {royal.id} does not take from the opponent")
        self.royals.remove(royal)
        self.owned_royals[self.me].append(royal)
        if royal.ability is Ability.AGAIN:
            self.again = True
        elif royal.ability is Ability.PRIVILEGE:
            self.give_privilege(self.me)
        elif royal.ability is Ability.STEAL:
            self.steal(pick.steal)
        self.royals_due -= 1

    # ---------------------------------------------------------- end of turn
    def tokens_to_return(self) -> int:
        return max(sum(self.tokens[self.me]) - TOKEN_LIMIT, 0)

    def return_tokens(self, returned: DuelTokens) -> None:
        held = sum(self.tokens[self.me])
        back = returned.counts
        if held > TOKEN_LIMIT:
            if sum(back) != held - TOKEN_LIMIT:
                raise IllegalAction(
                    f"{self.name} holds {held} tokens and must return {held - TOKEN_LIMIT}"
                    f" to come down to {TOKEN_LIMIT}; the turn returns {sum(back)}"
                )
            if any(back[i] > self.tokens[self.me][i] for i in range(7)):
                raise IllegalAction(
                    f"{self.name} cannot return {returned.describe()}:"
                    f" they hold {_describe(self.tokens[self.me])}"
                )
        elif returned:
            raise IllegalAction(
                f"Tokens are returned only above {TOKEN_LIMIT}; {self.name} holds {held}"
            )
        for i, n in enumerate(back):
            self.tokens[self.me][i] -= n
            self.bag[i] += n

    def players(self) -> tuple[Player, Player]:
        def build(who: int) -> Player:
            old = self.state.players[who]
            return replace(
                old,
                tokens=DuelTokens(self.tokens[who]),
                privileges=self.privileges[who],
                cards=tuple(self.cards[who]),
                reserved=tuple(self.reserved[who]),
                royals=tuple(self.owned_royals[who]),
            )

        return build(0), build(1)

    def victory(self, player: Player) -> Outcome | None:
        found: list[tuple[Termination, str]] = []
        if player.points >= WIN_POINTS:
            found.append((Termination.POINTS, f"reaches {player.points} prestige points"))
        if player.crowns >= WIN_CROWNS:
            found.append((Termination.CROWNS, f"reaches {player.crowns} crowns"))
        colour, points = player.best_colour()
        if points >= WIN_COLOUR_POINTS:
            found.append(
                (Termination.COLOUR, f"has {points} prestige points on {colour.label} cards")
            )
        if not found:
            return None
        reason = f"{player.name} " + " and ".join(text for _, text in found)
        return Outcome(found[0][0], player.name, reason)

    def freeze(self, end_turn: bool) -> S:
        """The immutable state; with ``end_turn`` the turn passes and victory is checked."""
        players = self.players()
        state = replace(
            self.state,
            players=players,
            board=tuple(self.board),
            bag=DuelTokens(self.bag),
            privileges=self.supply,
            pyramid=tuple(tuple(row) for row in self.pyramid),
            decks=(self.decks[0], self.decks[1], self.decks[2]),
            royals=tuple(self.royals),
        )
        if not end_turn:
            return state
        result = self.victory(players[self.me])
        # The winner stays "current" so the last mover is easy to find.
        current = self.me if result is not None or self.again else self.them
        return replace(state, current=current, turn=self.state.turn + 1, result=result)


def play_turn(state: S, turn: Turn) -> S:
    """Check and play a whole turn (what :meth:`GameState.apply` does)."""
    if state.result is not None:
        raise IllegalAction(f"The game is over: {state.result.reason}")
    table = Table(state)
    table.use_privileges(turn.privileges)
    if turn.replenish is not None:
        table.replenish(turn.replenish)
        forced = False
    else:
        forced = bool(sum(table.bag)) and not table.any_mandatory()
    if forced:
        raise IllegalAction(
            f"No mandatory action is possible for {table.name} (no gem or pearl to take,"
            " no reserve, no affordable card), so the board must be replenished first"
        )
    table.act(turn.action)
    table.refill(turn.reveal)
    table.take_royals(turn.royals)
    table.return_tokens(turn.returned)
    return table.freeze(end_turn=True)
