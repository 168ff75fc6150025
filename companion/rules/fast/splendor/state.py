"""The fast engine: a mutable, integer-coded Splendor state for search.

Why a second engine: analysis plays hundreds of thousands of simulated turns
per game reviewed, and the readable :class:`~companion.rules.splendor.state.GameState`
(immutable values, checked turns, messages for players) spends most of its
time on what a playout does not need.  Here the state is a handful of int
lists changed in place, the catalogue is tables (:mod:`.tables`), and turns
are applied without any check: the caller passes only what
:meth:`FastState.legal_actions`, :meth:`FastState.payments` and
:meth:`FastState.return_options` offered.  Copy with :meth:`FastState.copy`
before trying a turn you want to take back.

The rules are those of the readable engine, step for step (the property
test ``tests/rules/test_fast_equivalence.py`` plays thousands of games
through both).  Unlike the readable engine, a fast state knows every card:
the deck order and the cards behind blind reserves are part of it (dealt by
a seeded deck, or sampled from what is unseen by the analysis), so reveals
come from ``decks`` and a blind reserve is a card with its ``blind`` flag set.
"""

from __future__ import annotations

import random

from companion.rules.fast.splendor.tables import (
    BUY,
    CARD_BONUS,
    CARD_COST,
    CARD_INDEX,
    CARD_LEVEL,
    CARD_POINTS,
    HOLD_CAP,
    NOBLE_CAP,
    NOBLE_INDEX,
    NOBLE_MASK,
    NOBLE_POINTS,
    PASS,
    RESERVE_DECK,
    RESERVE_SLOT,
    TAKES,
    affordable_mask,
    return_options,
    takes_for,
)
from companion.rules.splendor.deck import Deck

WINNING_POINTS = 15
TOKEN_LIMIT = 10
RESERVE_LIMIT = 3
GEMS_BY_PLAYERS = {2: 4, 3: 5, 4: 7}

_HOLD_SHIFT = (0, 3, 6, 9, 12)
_NOBLE_WEIGHT = (1, 5, 25, 125, 625)


class FastState:
    """One position, changed in place by :meth:`play`.

    Per player ``p``: ``tokens[p]`` (6 counts, gold last), ``bonus[p]`` (5),
    ``points[p]``, ``cards[p]`` (card indices in purchase order),
    ``reserved[p]`` with ``blind[p]`` beside it, ``won[p]`` (noble indices),
    ``nkey[p]`` (capped bonuses coded for :data:`~.tables.NOBLE_MASK`).
    The table: ``supply`` (6), ``market`` (12 slots, level 1 first, ``-1``
    empty), ``decks`` (three lists of card indices, top last),
    ``market_mask`` (bit set of market cards), ``nobles`` (on the table).
    """

    __slots__ = (  # noqa: RUF023  (grouped as the docstring describes them)
        "n", "supply", "tokens", "bonus", "points", "cards", "reserved", "blind", "won",
        "nkey", "market", "market_mask", "decks", "nobles", "noble_mask", "current", "turn",
        "end", "passes",
    )

    n: int
    supply: list[int]
    tokens: list[list[int]]
    bonus: list[list[int]]
    points: list[int]
    cards: list[list[int]]
    reserved: list[list[int]]
    blind: list[list[bool]]
    won: list[list[int]]
    nkey: list[int]
    market: list[int]
    market_mask: int
    decks: list[list[int]]
    nobles: list[int]
    noble_mask: int
    current: int
    turn: int
    end: bool
    passes: int

    # ---------------------------------------------------------------- set-up
    @classmethod
    def deal(cls, players: int, market: list[int], decks: list[list[int]],
             nobles: list[int]) -> FastState:
        """A new game: ``market`` 12 card indices, ``decks`` what is left (top last)."""
        s = cls.__new__(cls)
        n = players
        gems = GEMS_BY_PLAYERS[n]
        s.n = n
        s.supply = [gems] * 5 + [5]
        s.tokens = [[0] * 6 for _ in range(n)]
        s.bonus = [[0] * 5 for _ in range(n)]
        s.points = [0] * n
        s.cards = [[] for _ in range(n)]
        s.reserved = [[] for _ in range(n)]
        s.blind = [[] for _ in range(n)]
        s.won = [[] for _ in range(n)]
        s.nkey = [0] * n
        s.market = list(market)
        s.market_mask = _mask(market)
        s.decks = [list(d) for d in decks]
        s.nobles = list(nobles)
        s.noble_mask = _mask(nobles)
        s.current = 0
        s.turn = 0
        s.end = False
        s.passes = 0
        return s

    @classmethod
    def seeded(cls, players: int, seed: int | str) -> FastState:
        """A new game dealt by :class:`~companion.rules.splendor.deck.Deck` ``seed``: the same
        market, nobles and deck order as the readable simulator's game ``seed``."""
        deck = Deck(seed)
        nobles = [NOBLE_INDEX[n.id] for n in deck.nobles[: players + 1]]
        market = []
        for level in (1, 2, 3):
            for _ in range(4):
                card = deck.draw(level)
                assert card is not None
                market.append(CARD_INDEX[card.id])
        decks = [[CARD_INDEX[c.id] for c in deck.cards[level]] for level in (1, 2, 3)]
        return cls.deal(players, market, decks, nobles)

    def copy(self) -> FastState:
        s = FastState.__new__(FastState)
        s.n = self.n
        s.supply = self.supply[:]
        s.tokens = [t[:] for t in self.tokens]
        s.bonus = [b[:] for b in self.bonus]
        s.points = self.points[:]
        s.cards = [c[:] for c in self.cards]
        s.reserved = [r[:] for r in self.reserved]
        s.blind = [b[:] for b in self.blind]
        s.won = [w[:] for w in self.won]
        s.nkey = self.nkey[:]
        s.market = self.market[:]
        s.market_mask = self.market_mask
        s.decks = [d[:] for d in self.decks]
        s.nobles = self.nobles[:]
        s.noble_mask = self.noble_mask
        s.current = self.current
        s.turn = self.turn
        s.end = self.end
        s.passes = self.passes
        return s

    # ------------------------------------------------------------- questions
    def is_over(self) -> bool:
        return self.passes >= self.n or (self.end and self.current == 0)

    def winners(self) -> list[int]:
        """Seats of the winners of a finished game (most points, then fewest cards)."""
        top = max(self.points)
        tied = [p for p in range(self.n) if self.points[p] == top]
        fewest = min(len(self.cards[p]) for p in tied)
        return [p for p in tied if len(self.cards[p]) == fewest]

    def affordable(self) -> int:
        """Bit set of the cards the player to move could pay for."""
        t = self.tokens[self.current]
        b = self.bonus[self.current]
        key = t[5] << 15
        for c in range(5):
            h = t[c] + b[c]
            key |= (h if h < HOLD_CAP else HOLD_CAP) << _HOLD_SHIFT[c]
        return affordable_mask(key)

    def legal_actions(self) -> list[int]:
        """Every legal main action code: takes, reserves, then buys; ``[PASS]`` when none.

        Buys include the mover's blind reserves (the fast state knows them).
        """
        p = self.current
        s = self.supply
        actions = list(takes_for((s[0], s[1], s[2], s[3], s[4])))
        reserved = self.reserved[p]
        if len(reserved) < RESERVE_LIMIT:
            actions += [RESERVE_SLOT + i for i, c in enumerate(self.market) if c >= 0]
            d = self.decks
            actions += [RESERVE_DECK + lv for lv in (0, 1, 2) if d[lv]]
        ok = self.affordable()
        m = ok & self.market_mask
        if m:
            actions += [BUY + c for c in self.market if c >= 0 and (m >> c) & 1]
        for c in reserved:
            if (ok >> c) & 1:
                actions.append(BUY + c)
        return actions or [PASS]

    def price(self, card: int) -> list[int]:
        """What ``card`` costs the mover after bonuses (5 counts)."""
        b = self.bonus[self.current]
        cost = CARD_COST[card]
        return [cost[c] - b[c] if cost[c] > b[c] else 0 for c in range(5)]

    def simplest_payment(self, card: int) -> tuple[int, ...]:
        """Gems first, gold for the rest (the readable engine's first payment)."""
        price = self.price(card)
        t = self.tokens[self.current]
        gems = [price[c] if price[c] < t[c] else t[c] for c in range(5)]
        return (*gems, sum(price) - sum(gems))

    def payments(self, card: int) -> list[tuple[int, ...]]:
        """Every exact payment, fewest gold first (as the readable ``payments``)."""
        price = self.price(card)
        t = self.tokens[self.current]
        total = sum(price)
        result: list[tuple[int, ...]] = [()]
        for c in range(5):
            top = price[c] if price[c] < t[c] else t[c]
            result = [(*r, k) for r in result for k in range(top, -1, -1)]
        out = [(*r, total - sum(r)) for r in result if total - sum(r) <= t[5]]
        out.sort(key=lambda r: r[5])
        return out

    def return_options(self, action: int) -> tuple[tuple[int, ...], ...]:
        """The token returns open after ``action`` (``((0,)*6,)`` when none is due)."""
        t = self.tokens[self.current]
        held = sum(t)
        after = list(t)
        if action < RESERVE_SLOT:
            take = TAKES[action]
            for c in range(5):
                after[c] += take[c]
            held += sum(take)
        elif action < BUY and self.supply[5]:
            after[5] += 1
            held += 1
        if held <= TOKEN_LIMIT:
            return ((0, 0, 0, 0, 0, 0),)
        return return_options(tuple(after), held - TOKEN_LIMIT)

    # ----------------------------------------------------------------- turns
    def play(self, action: int, payment: tuple[int, ...] | None = None,
             returned: tuple[int, ...] | None = None, noble: int = -1) -> int:
        """Play a whole turn in place; return the card revealed (``-1`` if none).

        ``payment`` defaults to :meth:`simplest_payment`; ``returned`` to
        nothing; ``noble`` must be one of :meth:`qualifying` after the action
        when any qualifies (``-1``: the first of them).  Nothing is checked.
        """
        p = self.current
        t = self.tokens[p]
        supply = self.supply
        revealed = -1
        if action < RESERVE_SLOT:
            take = TAKES[action]
            for c in range(5):
                if take[c]:
                    t[c] += take[c]
                    supply[c] -= take[c]
            self.passes = 0
        elif action < RESERVE_DECK:
            slot = action - RESERVE_SLOT
            card = self.market[slot]
            self.reserved[p].append(card)
            self.blind[p].append(False)
            if supply[5]:
                supply[5] -= 1
                t[5] += 1
            revealed = self._refill(slot, card)
            self.passes = 0
        elif action < BUY:
            card = self.decks[action - RESERVE_DECK].pop()
            self.reserved[p].append(card)
            self.blind[p].append(True)
            if supply[5]:
                supply[5] -= 1
                t[5] += 1
            self.passes = 0
        elif action < PASS:
            card = action - BUY
            pay = payment if payment is not None else self.simplest_payment(card)
            for c in range(6):
                if pay[c]:
                    t[c] -= pay[c]
                    supply[c] += pay[c]
            colour = CARD_BONUS[card]
            b = self.bonus[p]
            b[colour] += 1
            if b[colour] <= NOBLE_CAP:
                self.nkey[p] += _NOBLE_WEIGHT[colour]
            self.points[p] += CARD_POINTS[card]
            self.cards[p].append(card)
            if (self.market_mask >> card) & 1:
                revealed = self._refill(self.market.index(card), card)
            else:
                self._unreserve(p, card)
            self.passes = 0
        else:
            self.passes += 1
        if returned is not None:
            for c in range(6):
                if returned[c]:
                    t[c] -= returned[c]
                    supply[c] += returned[c]
        if self.noble_mask:
            q = NOBLE_MASK[self.nkey[p]] & self.noble_mask
            if q:
                if noble < 0:
                    noble = self._first_noble(q)
                self.nobles.remove(noble)
                self.noble_mask &= ~(1 << noble)
                self.won[p].append(noble)
                self.points[p] += NOBLE_POINTS[noble]
        if self.points[p] >= WINNING_POINTS:
            self.end = True
        self.current = (p + 1) % self.n
        self.turn += 1
        return revealed

    def qualifying(self, action: int = PASS) -> list[int]:
        """Nobles on the table the mover's bonuses meet once ``action`` is played."""
        if not self.noble_mask:
            return []
        key = self.nkey[self.current]
        if BUY <= action < PASS:
            colour = CARD_BONUS[action - BUY]
            if self.bonus[self.current][colour] < NOBLE_CAP:
                key += _NOBLE_WEIGHT[colour]
        q = NOBLE_MASK[key] & self.noble_mask
        return [j for j in self.nobles if (q >> j) & 1] if q else []

    def _first_noble(self, q: int) -> int:
        for j in self.nobles:
            if (q >> j) & 1:
                return j
        raise AssertionError("no qualifying noble")

    def _refill(self, slot: int, card: int) -> int:
        self.market_mask &= ~(1 << card)
        deck = self.decks[CARD_LEVEL[card]]
        if deck:
            new = deck.pop()
            self.market[slot] = new
            self.market_mask |= 1 << new
            return new
        self.market[slot] = -1
        return -1

    def _unreserve(self, p: int, card: int) -> None:
        """Take a bought card out of the reserve, keeping the readable engine's order.

        The readable engine cannot tell two blind reserves of one level apart,
        so buying one removes the first blind card of that level; the card that
        was there moves into the bought one's place.
        """
        reserved, blind = self.reserved[p], self.blind[p]
        j = reserved.index(card)
        if blind[j]:
            level = CARD_LEVEL[card]
            for i in range(j):
                if blind[i] and CARD_LEVEL[reserved[i]] == level:
                    reserved[j] = reserved[i]
                    j = i
                    break
        del reserved[j]
        del blind[j]


def _mask(items: list[int]) -> int:
    m = 0
    for i in items:
        if i >= 0:
            m |= 1 << i
    return m


def random_turn(s: FastState, rng: random.Random) -> int:
    """Play one turn as the readable ``random`` policy chooses it; return the action.

    A purchase half the time when one is possible, else any action uniformly;
    the simplest payment 80 % of the time; a random return and noble.
    """
    actions = s.legal_actions()
    r = rng.random
    buys = [a for a in actions if a >= BUY] if actions[-1] >= BUY else ()
    if buys and r() < 0.5:  # noqa: SIM108  (two draws, as the readable policy makes)
        action = buys[int(r() * len(buys))]
    else:
        action = actions[int(r() * len(actions))]
    payment = None
    if BUY <= action < PASS and r() >= 0.8:
        options = s.payments(action - BUY)
        payment = options[int(r() * len(options))]
    returned = None
    if action < BUY:
        options_back = s.return_options(action)
        if len(options_back) > 1 or any(options_back[0]):
            returned = options_back[int(r() * len(options_back))]
    noble = -1
    if s.noble_mask:
        q = s.qualifying(action)
        if len(q) > 1:
            noble = q[int(r() * len(q))]
    s.play(action, payment, returned, noble)
    return action
