"""The Splendor game state: an immutable value, one turn at a time.

``state.apply(turn)`` checks the turn against the rules and returns the next
state, or raises :class:`IllegalAction` whose message names the broken rule
with its numbers.  Undo is keeping the previous value.

Rules follow the printed rulebooks; where editions differ the 2024 edition
stands (e.g. "take 3 different" may take 2 or 1 only when fewer than 3
colours are left in the supply).

The engine never owns the deck order: a card that appears in the market is a
*reveal* carried by the turn (from the camera, a player, or a seeded
:class:`~companion.rules.splendor.deck.Deck`).  A card reserved blind is a
:class:`Hidden` placeholder until its owner buys it and the card is named.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from companion.rules import contract
from companion.rules.errors import IllegalAction, SetupError
from companion.rules.gems import COLOURS, Gem, Tokens
from companion.rules.hidden import Hidden as Hidden  # re-exported: callers import it from here
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.catalogue import LEVELS, Card, Noble
from companion.rules.splendor.outcome import Outcome, decide

#: Points that trigger the final round.
WINNING_POINTS = 15
#: Most tokens a player may hold at the end of a turn.
TOKEN_LIMIT = 10
#: Most cards a player may hold reserved.
RESERVE_LIMIT = 3
#: Face-up cards per level.
MARKET_WIDTH = 4
#: Gems of each colour in the supply at the start, by number of players.
GEMS_BY_PLAYERS = {2: 4, 3: 5, 4: 7}
GOLD = 5
DECK_SIZES = {level: len(catalogue.cards_of_level(level)) for level in LEVELS}


Reserved = Card | Hidden


@dataclass(frozen=True)
class Player:
    """What one player has in front of them."""

    name: str
    tokens: Tokens = field(default_factory=Tokens)
    cards: tuple[Card, ...] = ()
    reserved: tuple[Reserved, ...] = ()
    nobles: tuple[Noble, ...] = ()

    @cached_property
    def bonuses(self) -> Tokens:
        """The permanent discount: one gem per purchased card of that colour."""
        return Tokens.of(*(c.bonus for c in self.cards))

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards) + sum(n.points for n in self.nobles)

    @property
    def honours(self) -> tuple[Noble, ...]:
        """The nobles, by the name the engine contract gives them (:mod:`.contract`)."""
        return self.nobles


def _ordinal_name(index: int) -> str:
    return f"Player {index + 1}"


@dataclass(frozen=True)
class GameState:
    """A Splendor position between turns.

    ``market[level - 1][slot]`` is a face-up card or ``None`` for a slot left
    empty by an exhausted deck; ``decks[level - 1]`` counts the cards still in
    that deck.  ``turn`` counts the turns played; ``current`` is the player to
    move.  ``end_triggered`` is set once a player ends a turn on 15 points;
    ``passes`` counts consecutive passes.
    """

    players: tuple[Player, ...]
    supply: Tokens
    market: tuple[tuple[Card | None, ...], ...]
    decks: tuple[int, ...]
    nobles: tuple[Noble, ...]
    current: int = 0
    turn: int = 0
    end_triggered: bool = False
    passes: int = 0

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(
        cls,
        names: Sequence[str],
        nobles: Sequence[str],
        market: Sequence[Sequence[str]],
    ) -> GameState:
        """Set up a game as the rulebook does, from what lies on the table.

        ``nobles`` are the ids of the revealed nobles (players + 1) and
        ``market`` the ids of the 4 face-up cards of level 1, 2 and 3.
        """
        n = len(names)
        if n not in GEMS_BY_PLAYERS:
            raise SetupError(f"Splendor is for 2 to 4 players, not {n}")
        if len(set(names)) != n or any(not name.strip() for name in names):
            raise SetupError("every player needs a different, non-empty name")
        if len(nobles) != n + 1:
            raise SetupError(f"{n} players reveal {n + 1} nobles, not {len(nobles)}")
        noble_tiles = tuple(catalogue.noble(i) for i in nobles)
        if len(set(noble_tiles)) != len(noble_tiles):
            raise SetupError("the same noble is revealed twice")
        if len(market) != 3:
            raise SetupError(f"the market has 3 rows (levels 1-3), not {len(market)}")
        rows: list[tuple[Card | None, ...]] = []
        for level, ids in zip(LEVELS, market, strict=True):
            row = tuple(catalogue.card(i) for i in ids)
            if len(row) != MARKET_WIDTH:
                raise SetupError(f"level {level} shows {MARKET_WIDTH} cards, not {len(row)}")
            wrong = [c.id for c in row if c.level != level]
            if wrong:
                raise SetupError(f"{', '.join(wrong)} is not a level {level} card")
            rows.append(row)
        shown = [c for row in rows for c in row if c]
        if len(set(shown)) != len(shown):
            raise SetupError("the same card is shown twice in the market")
        gems = GEMS_BY_PLAYERS[n]
        return cls(
            players=tuple(Player(name.strip()) for name in names),
            supply=Tokens((gems,) * 5 + (GOLD,)),
            market=tuple(rows),
            decks=tuple(DECK_SIZES[level] - MARKET_WIDTH for level in LEVELS),
            nobles=noble_tiles,
        )

    # -------------------------------------------------------------- questions
    @property
    def player(self) -> Player:
        """The player to move."""
        return self.players[self.current]

    def is_over(self) -> bool:
        if self.passes >= len(self.players):
            return True
        return self.end_triggered and self.current == 0

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None`` (as python-chess)."""
        if not self.is_over():
            return None
        return decide(
            [(p.name, p.points, len(p.cards)) for p in self.players],
            stalemate=self.passes >= len(self.players),
        )

    @property
    def final_round(self) -> bool:
        """True once someone has reached 15: the round is being completed."""
        return self.end_triggered

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        return self.turn // len(self.players) + 1

    @property
    def honours(self) -> tuple[Noble, ...]:
        """The nobles still on the table, by the engine contract's name (:mod:`.contract`)."""
        return self.nobles

    def market_cards(self) -> Iterator[Card]:
        for row in self.market:
            yield from (c for c in row if c)

    def unseen(self, level: int) -> frozenset[Card]:
        """Cards of ``level`` not visible on the table: in the deck or reserved blind."""
        seen: set[Card] = set(self.market_cards())
        for p in self.players:
            seen.update(p.cards)
            seen.update(c for c in p.reserved if isinstance(c, Card))
        return frozenset(c for c in catalogue.cards_of_level(level) if c not in seen)

    def find_in_market(self, card_id: str) -> tuple[int, int] | None:
        """(row, slot) of a face-up card, or ``None``."""
        for r, row in enumerate(self.market):
            for s, c in enumerate(row):
                if c is not None and c.id == card_id:
                    return r, s
        return None

    def digest(self) -> str:
        """A short hash of everything the rules see: records store it after each turn."""
        return hashlib.sha256(self.to_text().encode()).hexdigest()[:16]

    def to_text(self) -> str:
        """A canonical, human-readable dump of the state (used for hashing and tests)."""
        lines = [
            f"turn {self.turn} current {self.current} end {int(self.end_triggered)}"
            f" passes {self.passes}",
            f"supply {self.supply}",
            f"nobles {' '.join(n.id for n in self.nobles) or '-'}",
        ]
        for level, row, deck in zip(LEVELS, self.market, self.decks, strict=True):
            cards = " ".join(c.id if c else "-" for c in row)
            lines.append(f"market{level} {cards} deck {deck}")
        for p in self.players:
            lines.append(
                f"player {p.name}: tokens {p.tokens}"
                f" cards {' '.join(c.id for c in p.cards) or '-'}"
                f" reserved {' '.join(str(c) for c in p.reserved) or '-'}"
                f" nobles {' '.join(n.id for n in p.nobles) or '-'}"
            )
        return "\n".join(lines)

    # ------------------------------------------------------------- main rules
    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` may be played now.

        Reveals, returns and nobles are checked by :meth:`apply`.
        """
        self._after_action(action, reveal=None, check_reveal=False)

    def _after_action(
        self, action: Action, reveal: str | None, check_reveal: bool = True
    ) -> GameState:
        if self.is_over():
            raise IllegalAction("The game is over; no more turns can be played")
        if isinstance(action, Take):
            return self._take(action)
        if isinstance(action, ReserveCard):
            return self._reserve_card(action, reveal, check_reveal)
        if isinstance(action, ReserveDeck):
            return self._reserve_deck(action)
        if isinstance(action, Buy):
            return self._buy(action, reveal, check_reveal)
        if isinstance(action, Pass):
            self._check_pass()
            return self
        raise TypeError(f"not an action: {action!r}")

    def _take(self, action: Take) -> GameState:
        gems, supply = action.gems, self.supply
        if gems[Gem.GOLD]:
            raise IllegalAction("Gold can never be taken with a take action; reserve a card")
        counts = {g: n for g, n in gems.items() if n}
        if not counts:
            raise IllegalAction("Take needs at least one gem")
        if action.is_pair:
            (gem,) = counts
            have = supply[gem]
            if have < 4:
                raise IllegalAction(
                    f"Take 2 needs at least 4 {gem.label} in the supply; there are {have}"
                )
        else:
            if any(n > 1 for n in counts.values()) or len(counts) > 3:
                raise IllegalAction(
                    f"Take either up to 3 gems of different colours or 2 of one colour,"
                    f" not {gems.describe()}"
                )
            missing = [g.label for g in counts if supply[g] == 0]
            if missing:
                raise IllegalAction(f"There is no {' or '.join(missing)} left in the supply")
            available = sum(1 for g in COLOURS if supply[g] > 0)
            if len(counts) < min(3, available):
                raise IllegalAction(
                    f"Take 3 different gems: only when fewer than 3 colours are left may"
                    f" fewer be taken; {available} colours are left and you took {len(counts)}"
                )
        return self._with_player(
            replace(self.player, tokens=self.player.tokens + gems), supply=supply - gems
        )

    def _check_reserve_room(self) -> None:
        held = len(self.player.reserved)
        if held >= RESERVE_LIMIT:
            raise IllegalAction(
                f"You may hold at most {RESERVE_LIMIT} reserved cards; you hold {held}"
            )

    def _gold_for_reserve(self) -> Tokens:
        return Tokens.of(Gem.GOLD) if self.supply[Gem.GOLD] else Tokens()

    def _reserve_card(
        self, action: ReserveCard, reveal: str | None, check_reveal: bool
    ) -> GameState:
        self._check_reserve_room()
        where = self.find_in_market(action.card)
        if where is None:
            raise IllegalAction(f"Card {action.card} is not face up in the market")
        card = self.market[where[0]][where[1]]
        assert card is not None
        gold = self._gold_for_reserve()
        p = self.player
        state = self._with_player(
            replace(p, tokens=p.tokens + gold, reserved=(*p.reserved, card)),
            supply=self.supply - gold,
        )
        return state._refill(where, reveal, check_reveal)

    def _reserve_deck(self, action: ReserveDeck) -> GameState:
        self._check_reserve_room()
        level = action.level
        if self.decks[level - 1] == 0:
            raise IllegalAction(f"The level {level} deck is empty; there is no card to reserve")
        gold = self._gold_for_reserve()
        p = self.player
        decks = list(self.decks)
        decks[level - 1] -= 1
        state = self._with_player(
            replace(p, tokens=p.tokens + gold, reserved=(*p.reserved, Hidden(level))),
            supply=self.supply - gold,
        )
        return replace(state, decks=tuple(decks))

    def price(self, card: Card, player: Player | None = None) -> Tokens:
        """What ``card`` costs ``player`` (default: the one to move) after bonuses."""
        b = (player or self.player).bonuses.counts
        c = card.cost.counts
        return Tokens._raw(
            (max(c[0] - b[0], 0), max(c[1] - b[1], 0), max(c[2] - b[2], 0),
             max(c[3] - b[3], 0), max(c[4] - b[4], 0), 0)
        )

    def _locate_purchase(self, card_id: str) -> tuple[Card, tuple[int, int] | None, int]:
        """The card, its market place (or None) and its reserved index (or -1)."""
        card = catalogue.card(card_id)
        where = self.find_in_market(card_id)
        if where is not None:
            return card, where, -1
        p = self.player
        for i, r in enumerate(p.reserved):
            if r == card:
                return card, None, i
        hidden = [i for i, r in enumerate(p.reserved) if r == Hidden(card.level)]
        if hidden:
            if card not in self.unseen(card.level):
                raise IllegalAction(
                    f"Card {card_id} is already on the table, so it cannot be the card"
                    f" you reserved blind from the level {card.level} deck"
                )
            return card, None, hidden[0]
        raise IllegalAction(
            f"Card {card_id} is neither face up in the market nor reserved by {p.name}"
        )

    def _buy(self, action: Buy, reveal: str | None, check_reveal: bool) -> GameState:
        card, where, reserved_index = self._locate_purchase(action.card)
        p = self.player
        pay = action.payment
        if not p.tokens.covers(pay):
            raise IllegalAction(
                f"{p.name} cannot pay {pay.describe()}: they hold {p.tokens.describe()}"
            )
        price = self.price(card)
        over = [g.label for g in COLOURS if pay[g] > price[g]]
        if over:
            raise IllegalAction(
                f"Buying {card.id} costs {price.describe()} after bonuses;"
                f" the payment gives too much {', '.join(over)}"
            )
        short = sum(price[g] - pay[g] for g in COLOURS)
        if short != pay[Gem.GOLD]:
            raise IllegalAction(
                f"Buying {card.id} costs {price.describe()} after bonuses; paying"
                f" {pay.describe()} leaves {short} to cover with gold, but"
                f" {pay[Gem.GOLD]} gold {'was' if pay[Gem.GOLD] == 1 else 'were'} paid"
            )
        reserved = p.reserved
        if reserved_index >= 0:
            reserved = reserved[:reserved_index] + reserved[reserved_index + 1 :]
        state = self._with_player(
            replace(p, tokens=p.tokens - pay, cards=(*p.cards, card), reserved=reserved),
            supply=self.supply + pay,
        )
        if where is None:
            if reveal is not None:
                raise IllegalAction(
                    f"Card {card.id} came from {p.name}'s reserve; no market card is revealed"
                )
            return state
        return state._refill(where, reveal, check_reveal)

    def _refill(
        self, where: tuple[int, int], reveal: str | None, check_reveal: bool
    ) -> GameState:
        """Put the revealed card in the emptied market slot (or leave it empty)."""
        r, s = where
        level = r + 1
        new_card: Card | None = None
        if reveal is None:
            if check_reveal and self.decks[r] > 0:
                raise IllegalAction(
                    f"The level {level} deck still has {self.decks[r]} cards: name the card"
                    " revealed to fill the market"
                )
        else:
            if self.decks[r] == 0:
                raise IllegalAction(f"The level {level} deck is empty; no card can be revealed")
            new_card = catalogue.card(reveal)
            if new_card.level != level:
                raise IllegalAction(
                    f"Card {new_card.id} is level {new_card.level}; the empty slot is level {level}"
                )
            if new_card not in self.unseen(level):
                raise IllegalAction(f"Card {new_card.id} is already on the table")
        row = list(self.market[r])
        row[s] = new_card
        market = list(self.market)
        market[r] = tuple(row)
        decks = list(self.decks)
        if new_card is not None:
            decks[r] -= 1
        return replace(self, market=tuple(market), decks=tuple(decks))

    def _with_player(self, player: Player, supply: Tokens) -> GameState:
        players = list(self.players)
        players[self.current] = player
        return replace(self, players=tuple(players), supply=supply)

    def _check_pass(self) -> None:
        for action in self.legal_actions():
            if not isinstance(action, Pass):
                raise IllegalAction(
                    f"Passing is only allowed when no action is possible; {action} is possible"
                )

    # ---------------------------------------------------------- end of turn
    def qualifying_nobles(self, player: Player | None = None) -> tuple[Noble, ...]:
        """Nobles on the table whose requirement the player's bonuses meet."""
        bonuses = (player or self.player).bonuses
        return tuple(n for n in self.nobles if bonuses.covers(n.requirement))

    def apply(self, turn: Turn) -> GameState:
        """Play a whole turn and return the next state (this one is unchanged)."""
        mid = self._after_action(turn.action, turn.reveal)
        return mid._end_turn(turn)

    def _end_turn(self, turn: Turn) -> GameState:
        p = self.player
        held = p.tokens.total()
        back = turn.returned
        if held > TOKEN_LIMIT:
            if back.total() != held - TOKEN_LIMIT:
                raise IllegalAction(
                    f"{p.name} holds {held} tokens and must return {held - TOKEN_LIMIT}"
                    f" to come down to {TOKEN_LIMIT}; the turn returns {back.total()}"
                )
            if not p.tokens.covers(back):
                raise IllegalAction(
                    f"{p.name} cannot return {back.describe()}: they hold {p.tokens.describe()}"
                )
        elif back:
            raise IllegalAction(
                f"Tokens are returned only above {TOKEN_LIMIT}; {p.name} holds {held}"
            )
        state = self._with_player(replace(p, tokens=p.tokens - back), supply=self.supply + back)
        p = state.player
        candidates = state.qualifying_nobles()
        if turn.noble is None:
            if candidates:
                names = " or ".join(n.id for n in candidates)
                raise IllegalAction(
                    f"A noble visit cannot be refused: {names} must visit {p.name}"
                )
        else:
            tile = catalogue.noble(turn.noble)
            if tile not in state.nobles:
                raise IllegalAction(f"Noble {tile.id} is not on the table")
            if tile not in candidates:
                raise IllegalAction(
                    f"{tile.describe().capitalize()} cannot visit {p.name}, whose bonuses"
                    f" are {p.bonuses.describe()}"
                )
            state = replace(
                state._with_player(replace(p, nobles=(*p.nobles, tile)), supply=state.supply),
                nobles=tuple(n for n in state.nobles if n != tile),
            )
            p = state.player
        passes = self.passes + 1 if isinstance(turn.action, Pass) else 0
        return replace(
            state,
            current=(self.current + 1) % len(self.players),
            turn=self.turn + 1,
            end_triggered=self.end_triggered or p.points >= WINNING_POINTS,
            passes=passes,
        )

    # ------------------------------------------------------------ enumeration
    def legal_actions(self) -> list[Action]:
        """Every legal main action, step one of a turn; ``[Pass()]`` when none.

        A purchase is listed once with its simplest payment (gems before gold);
        :meth:`payments` lists the alternatives.  Reserving from the market
        and buying need a reveal when the deck is not empty: see :meth:`apply`.
        """
        if self.is_over():
            return []
        actions: list[Action] = [*self._takes()]
        if len(self.player.reserved) < RESERVE_LIMIT:
            actions += [ReserveCard(c.id) for c in self.market_cards()]
            actions += [ReserveDeck(level) for level in LEVELS if self.decks[level - 1] > 0]
        for card in self._buyable_cards():
            payment = self.simplest_payment(card)
            if payment is not None:
                actions.append(Buy(card.id, payment))
        return actions or [Pass()]

    def _takes(self) -> Iterator[Take]:
        available = [g for g in COLOURS if self.supply[g] > 0]
        size = min(3, len(available))
        if size:
            for combo in itertools.combinations(available, size):
                yield Take(Tokens.of(*combo))
        for g in COLOURS:
            if self.supply[g] >= 4:
                yield Take(Tokens.of(g, g))

    def _buyable_cards(self) -> Iterator[Card]:
        yield from self.market_cards()
        yield from (c for c in self.player.reserved if isinstance(c, Card))

    def simplest_payment(self, card: Card) -> Tokens | None:
        """The payment spending the fewest gold, or ``None`` if unaffordable."""
        price = self.price(card).counts
        held = self.player.tokens.counts
        gems = [min(need, have) for need, have in zip(price[:5], held[:5], strict=True)]
        gold = sum(price) - sum(gems)
        return Tokens((*gems, gold)) if gold <= held[5] else None

    def payments(self, card: Card | str) -> list[Tokens]:
        """Every exact payment the player to move can make for ``card``.

        Gold may stand in for any gem, even one the player holds, so each
        split between gems and gold is a different payment.  The first is the
        one that spends the fewest gold.
        """
        if isinstance(card, str):
            card = catalogue.card(card)
        return self.player.tokens.payments_for(self.price(card))

    def tokens_to_return(self, after: GameState) -> int:
        """How many tokens the mover must give back in ``after`` (its mid-turn state)."""
        return max(after.player.tokens.total() - TOKEN_LIMIT, 0)

    def return_options(self, after: GameState) -> list[Tokens]:
        """Every multiset of tokens the mover could return in ``after``."""
        return after.player.tokens.returns(self.tokens_to_return(after))

    def after_action(self, action: Action, reveal: str | None = None) -> GameState:
        """The mid-turn state once ``action`` (and its reveal) is played.

        The next steps of the turn are chosen from it: :meth:`return_options`,
        then the nobles of :meth:`qualifying_nobles` once tokens are returned.
        """
        return self._after_action(action, reveal)

    def after_return(self, returned: Tokens) -> GameState:
        """This mid-turn state once the mover has put ``returned`` back: the step
        between :meth:`return_options` and :meth:`qualifying_nobles`."""
        return replace(self, players=tuple(
            replace(p, tokens=p.tokens - returned) if i == self.current else p
            for i, p in enumerate(self.players)))


def needs_reveal(state: GameState, action: Action) -> int | None:
    """The level whose deck must reveal a card after ``action``, if any."""
    card_id = action.card if isinstance(action, ReserveCard | Buy) else None
    if card_id is None:
        return None
    where = state.find_in_market(card_id)
    if where is None or state.decks[where[0]] == 0:
        return None
    return where[0] + 1


def player_names(count: int) -> tuple[str, ...]:
    """Default names: Player 1, Player 2, ..."""
    return tuple(_ordinal_name(i) for i in range(count))


#: The state implements the engine contract (:mod:`companion.rules.contract`):
#: checked by mypy here, where a missing or mistyped member would show.
_CONTRACT: type[contract.Position] = GameState
