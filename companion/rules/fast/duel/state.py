"""The fast Duel engine: a mutable, integer-coded Splendor Duel state for search.

Why a second engine: the analysis of a Duel game plays hundreds of
thousands of simulated turns, and the readable
:class:`~companion.rules.duel.GameState` (immutable values, every turn
checked, messages for players) spends most of its time on what a playout
does not need.  Here the state is int lists changed in place, the catalogue
and the board are tables (:mod:`.duel_tables`), the board keeps bit masks of
its gem and gold cells up to date as tokens move (so the legal takes are a
mask test per line), and nothing is checked: callers pass only what the
question methods offered.

A turn is played in the readable engine's steps: :meth:`DuelState.use_privilege`
(any number), :meth:`DuelState.replenish`, :meth:`DuelState.act` (the
mandatory action with its payment and ability choices; it refills the
pyramid from the deck), :meth:`DuelState.take_royal` while
:attr:`DuelState.due`, then :meth:`DuelState.finish` (returns, victory, next
player).  :func:`play_move` plays a whole :data:`Move` at once.

Unlike the readable engine, a fast state knows every card: the deck order
and the cards behind blind reserves are part of it (dealt by a seeded
:class:`~companion.rules.duel.simulate.DuelDeck`, or sampled from what is
unseen by the analysis), so reveals come from ``decks`` (top last) and a
blind reserve is a card with its ``blind`` flag set.  The replenish order is
chance too: the caller supplies it (``rng`` shuffles the bag in
:func:`play_move`).  ``tests/rules/test_fast_duel_equivalence.py`` plays
thousands of games through both engines.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from companion.rules.duel.position import ALL_TOKENS
from companion.rules.duel.simulate import DuelDeck
from companion.rules.fast.duel.tables import (
    BUY,
    CARD_AGAIN,
    CARD_BONUS,
    CARD_COLOUR,
    CARD_COST,
    CARD_CROWNS,
    CARD_INDEX,
    CARD_JOKER,
    CARD_LEVEL,
    CARD_NEED,
    CARD_POINTS,
    CARD_PRIVILEGE,
    CARD_STEAL,
    CARD_TOKEN,
    GOLD,
    LINE_CELLS,
    LINE_MASK,
    PEARL,
    RESERVE_DECK,
    RESERVE_SLOT,
    ROYAL_AGAIN,
    ROYAL_POINTS,
    ROYAL_PRIVILEGE,
    ROYAL_STEAL,
    SLOT_LEVEL,
    SPIRAL_CELLS,
    cells_of,
)

WIN_POINTS = 20
WIN_CROWNS = 10
WIN_COLOUR_POINTS = 10
TOKEN_LIMIT = 10
RESERVE_LIMIT = 3
ROYAL_MARKS = (3, 6)

_LINES = tuple(enumerate(LINE_MASK))
_KINDS7 = tuple(range(7))

#: A whole turn: (privilege cells, replenish draw or None — ``()`` draws in a
#: random order —, action, gold cell, payment or None, joker colour, token
#: cell, steal kind, ((royal, steal kind), ...), returned tokens or None).
#: -1 stands for "no choice"; a None payment is the simplest one.
Move = tuple[
    tuple[int, ...], tuple[int, ...] | None, int, int, tuple[int, ...] | None, int, int, int,
    tuple[tuple[int, int], ...], tuple[int, ...] | None,
]


class DuelState:
    """One Duel position, changed in place.

    The table: ``board`` (25 cells, token kind or -1), ``gems`` and ``golds``
    (bit masks of the cells holding a gem or pearl, and gold), ``bag`` (7
    counts), ``supply`` (privileges above the board), ``pyramid`` (12 slots,
    card or -1), ``decks`` (three lists, top last), ``royals`` (available).
    Per player ``p``: ``tokens[p]`` (7), ``privs[p]``, ``bonus[p]`` (5),
    ``points[p]``, ``crowns[p]``, ``cpoints[p]`` (points per colour),
    ``cards[p]`` with ``colours[p]`` (the colour each counts as, -1 none),
    ``reserved[p]`` with ``blind[p]``, ``won[p]`` (royals).  ``winner`` is
    the winning seat, -1 while the game goes on.  ``again`` and ``due``
    (royals still to take) live only during a turn.
    """

    __slots__ = (  # noqa: RUF023  (grouped as the docstring describes them)
        "board", "gems", "golds", "bag", "supply", "pyramid", "decks", "royals",
        "tokens", "privs", "bonus", "points", "crowns", "cpoints", "cards", "colours",
        "reserved", "blind", "won", "current", "turn", "winner", "again", "due",
    )

    board: list[int]
    gems: int
    golds: int
    bag: list[int]
    supply: int
    pyramid: list[int]
    decks: list[list[int]]
    royals: list[int]
    tokens: list[list[int]]
    privs: list[int]
    bonus: list[list[int]]
    points: list[int]
    crowns: list[int]
    cpoints: list[list[int]]
    cards: list[list[int]]
    colours: list[list[int]]
    reserved: list[list[int]]
    blind: list[list[bool]]
    won: list[list[int]]
    current: int
    turn: int
    winner: int
    again: bool
    due: int

    # ---------------------------------------------------------------- set-up
    @classmethod
    def deal(cls, spiral: list[int], pyramid: list[int], decks: list[list[int]]) -> DuelState:
        """A new game: the 25 token kinds placed along the spiral, 12 pyramid cards,
        the decks left (top last).  The second player holds a privilege."""
        s = cls.__new__(cls)
        s.board = [-1] * 25
        for cell, kind in zip(SPIRAL_CELLS, spiral, strict=True):
            s.board[cell] = kind
        s._masks()
        s.bag = [0] * 7
        s.supply = 2
        s.pyramid = list(pyramid)
        s.decks = [list(d) for d in decks]
        s.royals = [0, 1, 2, 3]
        s.tokens = [[0] * 7, [0] * 7]
        s.privs = [0, 1]
        s.bonus = [[0] * 5, [0] * 5]
        s.points = [0, 0]
        s.crowns = [0, 0]
        s.cpoints = [[0] * 5, [0] * 5]
        s.cards = [[], []]
        s.colours = [[], []]
        s.reserved = [[], []]
        s.blind = [[], []]
        s.won = [[], []]
        s.current = 0
        s.turn = 0
        s.winner = -1
        s.again = False
        s.due = 0
        return s

    @classmethod
    def seeded(cls, seed: int | str) -> DuelState:
        """The game the readable simulator deals for ``seed`` (same board, pyramid, decks)."""
        return seeded_with_deck(seed)[0]

    def _masks(self) -> None:
        gems = golds = 0
        for cell, kind in enumerate(self.board):
            if kind == GOLD:
                golds |= 1 << cell
            elif kind >= 0:
                gems |= 1 << cell
        self.gems, self.golds = gems, golds

    def copy(self) -> DuelState:
        s = DuelState.__new__(DuelState)
        s.board = self.board[:]
        s.gems = self.gems
        s.golds = self.golds
        s.bag = self.bag[:]
        s.supply = self.supply
        s.pyramid = self.pyramid[:]
        s.decks = [d[:] for d in self.decks]
        s.royals = self.royals[:]
        s.tokens = [self.tokens[0][:], self.tokens[1][:]]
        s.privs = self.privs[:]
        s.bonus = [self.bonus[0][:], self.bonus[1][:]]
        s.points = self.points[:]
        s.crowns = self.crowns[:]
        s.cpoints = [self.cpoints[0][:], self.cpoints[1][:]]
        s.cards = [self.cards[0][:], self.cards[1][:]]
        s.colours = [self.colours[0][:], self.colours[1][:]]
        s.reserved = [self.reserved[0][:], self.reserved[1][:]]
        s.blind = [self.blind[0][:], self.blind[1][:]]
        s.won = [self.won[0][:], self.won[1][:]]
        s.current = self.current
        s.turn = self.turn
        s.winner = self.winner
        s.again = self.again
        s.due = self.due
        return s

    # ------------------------------------------------------------- questions
    def is_over(self) -> bool:
        return self.winner >= 0

    def affordable(self, card: int) -> bool:
        """True when the mover could pay for ``card`` (and place it, for a joker)."""
        p = self.current
        t = self.tokens[p]
        b = self.bonus[p]
        if CARD_JOKER[card] and not (b[0] or b[1] or b[2] or b[3] or b[4]):
            return False
        short = 0
        for k, n in CARD_NEED[card]:
            have = t[k] + b[k] if k < PEARL else t[k]
            if n > have:
                short += n - have
        return short <= t[GOLD]

    def takes(self) -> list[int]:
        """Every take: the lines whose cells all hold a gem or pearl."""
        ok = self.gems
        return [i for i, m in _LINES if ok & m == m]

    def reserves(self) -> list[int]:
        """Reserve codes (each goes with any gold cell): pyramid slots, then decks."""
        if not self.golds or len(self.reserved[self.current]) >= RESERVE_LIMIT:
            return []
        out = [RESERVE_SLOT + i for i, c in enumerate(self.pyramid) if c >= 0]
        d = self.decks
        out += [RESERVE_DECK + lv for lv in (0, 1, 2) if d[lv]]
        return out

    def buys(self) -> list[int]:
        """Buy codes of the affordable pyramid cards and own reserves (blind ones too)."""
        aff = self.affordable
        out = [BUY + c for c in self.pyramid if c >= 0 and aff(c)]
        out += [BUY + c for c in self.reserved[self.current] if aff(c)]
        return out

    def legal_actions(self) -> list[int]:
        """Every mandatory action code now: takes, reserves, buys (gold cells apart)."""
        return self.takes() + self.reserves() + self.buys()

    def gold_cells(self) -> list[int]:
        return cells_of(self.golds)

    def any_mandatory(self) -> bool:
        """The readable engine's test: a take, a reserve or an affordable card.

        A blind reserve counts as affordable when any unseen card of its level
        would be (the readable table cannot know which card it is).
        """
        if self.gems:
            return True
        p = self.current
        reserved = self.reserved[p]
        if self.golds and len(reserved) < RESERVE_LIMIT and (
            max(self.pyramid) >= 0 or any(self.decks)
        ):
            return True
        aff = self.affordable
        if any(c >= 0 and aff(c) for c in self.pyramid):
            return True
        for c, blind in zip(reserved, self.blind[p], strict=True):
            if not blind:
                if aff(c):
                    return True
                continue
            if any(aff(u) for u in self.unseen(CARD_LEVEL[c])):
                return True
        return False

    def unseen(self, level: int) -> list[int]:
        """Cards of a level (0-2) the table cannot see: the deck and blind reserves."""
        out = list(self.decks[level])
        for p in (0, 1):
            out += [c for c, b in zip(self.reserved[p], self.blind[p], strict=True)
                    if b and CARD_LEVEL[c] == level]
        return out

    def must_replenish(self) -> bool:
        """No mandatory action is possible and the bag can refill the board."""
        return any(self.bag) and not self.any_mandatory()

    def price(self, card: int) -> list[int]:
        """What ``card`` costs the mover after bonuses (7 counts, gold 0)."""
        b = self.bonus[self.current]
        cost = CARD_COST[card]
        return [*(cost[c] - b[c] if cost[c] > b[c] else 0 for c in range(5)), cost[5], 0]

    def simplest_payment(self, card: int) -> tuple[int, ...]:
        """Tokens first, gold for the rest (the readable engine's first payment)."""
        price = self.price(card)
        t = self.tokens[self.current]
        paid = [price[k] if price[k] < t[k] else t[k] for k in range(6)]
        return (*paid, sum(price) - sum(paid))

    def payments(self, card: int) -> list[tuple[int, ...]]:
        """Every exact payment, least gold first (as the readable ``payments``)."""
        price = self.price(card)
        t = self.tokens[self.current]
        total = sum(price)
        ranges = [range(min(price[k], t[k]), -1, -1) for k in range(6)]
        out = []
        for paid in itertools.product(*ranges):
            spent = total - sum(paid)
            if spent <= t[GOLD]:
                out.append((*paid, spent))
        out.sort(key=lambda r: r[GOLD])
        return out

    def joker_colours(self) -> list[int]:
        b = self.bonus[self.current]
        return [c for c in range(5) if b[c]]

    def token_cells(self, card: int) -> list[int]:
        """Cells the "token" ability of ``card`` may take from (its colour on the board)."""
        colour = CARD_COLOUR[card]
        if colour < 0:
            return []
        board = self.board
        return [c for c in range(25) if board[c] == colour]

    def steal_kinds(self) -> list[int]:
        """Gems and pearls the opponent holds (what a steal may take)."""
        t = self.tokens[1 - self.current]
        return [k for k in range(6) if t[k]]

    def royal_options(self) -> list[tuple[int, int]]:
        """(royal, steal kind or -1) pairs the mover may take now."""
        out: list[tuple[int, int]] = []
        for r in self.royals:
            kinds = self.steal_kinds() if ROYAL_STEAL[r] else []
            out += [(r, k) for k in kinds] or [(r, -1)]
        return out

    def to_return(self) -> int:
        return max(sum(self.tokens[self.current]) - TOKEN_LIMIT, 0)

    def return_options(self) -> list[tuple[int, ...]]:
        """Every multiset of tokens the mover may return now, as the readable order."""
        count = self.to_return()
        if count <= 0:
            return [(0,) * 7]
        t = self.tokens[self.current]
        out = []
        for combo in itertools.combinations_with_replacement(_KINDS7, count):
            back = [0] * 7
            for k in combo:
                back[k] += 1
            if all(back[k] <= t[k] for k in combo):
                out.append(tuple(back))
        return out

    # ----------------------------------------------------------------- steps
    def give_privilege(self, who: int) -> None:
        """"Take 1 privilege": from the supply, else from the opponent, else nothing."""
        if self.supply:
            self.supply -= 1
            self.privs[who] += 1
        elif self.privs[1 - who]:
            self.privs[1 - who] -= 1
            self.privs[who] += 1

    def use_privilege(self, cell: int) -> None:
        p = self.current
        kind = self.board[cell]
        self.board[cell] = -1
        self.gems &= ~(1 << cell)
        self.tokens[p][kind] += 1
        self.privs[p] -= 1
        self.supply += 1

    def replenish(self, draw: list[int] | tuple[int, ...]) -> None:
        """Place ``draw`` (every bag token, in drawing order) along the spiral."""
        board = self.board
        i = 0
        n = len(draw)
        for cell in SPIRAL_CELLS:
            if i >= n:
                break
            if board[cell] < 0:
                board[cell] = draw[i]
                i += 1
        self._masks()
        self.bag = [0] * 7
        self.give_privilege(1 - self.current)

    def bag_draw(self, rng: random.Random) -> list[int]:
        """The bag's tokens in a random drawing order."""
        draw = [k for k in range(7) for _ in range(self.bag[k])]
        rng.shuffle(draw)
        return draw

    def act(self, action: int, gold: int = -1, payment: tuple[int, ...] | None = None,
            joker: int = -1, token: int = -1, steal: int = -1) -> int:
        """The mandatory action; return the card revealed into the pyramid (-1 if none).

        ``gold``: the cell a reserve takes its gold from (-1: the first);
        ``payment`` (None: the simplest), ``joker``, ``token``, ``steal``:
        a purchase's choices, -1 where the card has none or nothing to take.
        """
        p = self.current
        t = self.tokens[p]
        board = self.board
        if action < RESERVE_SLOT:
            pearls = 0
            first = -2
            same = True
            cells = LINE_CELLS[action]
            for cell in cells:
                kind = board[cell]
                board[cell] = -1
                t[kind] += 1
                if kind == PEARL:
                    pearls += 1
                if first == -2:
                    first = kind
                elif kind != first:
                    same = False
            self.gems &= ~LINE_MASK[action]
            if (same and len(cells) == 3) or pearls == 2:
                self.give_privilege(1 - p)
            return -1
        if action < BUY:
            if gold < 0:
                gold = (self.golds & -self.golds).bit_length() - 1
            board[gold] = -1
            self.golds &= ~(1 << gold)
            t[GOLD] += 1
            if action < RESERVE_DECK:
                slot = action - RESERVE_SLOT
                self.reserved[p].append(self.pyramid[slot])
                self.blind[p].append(False)
                return self._refill(slot)
            self.reserved[p].append(self.decks[action - RESERVE_DECK].pop())
            self.blind[p].append(True)
            return -1
        card = action - BUY
        pay = payment if payment is not None else self.simplest_payment(card)
        bag = self.bag
        for k in range(7):
            n = pay[k]
            if n:
                t[k] -= n
                bag[k] += n
        revealed = -1
        pyramid = self.pyramid
        if card in pyramid:
            revealed = self._refill(pyramid.index(card))
        else:
            self._unreserve(p, card)
        colour = joker if CARD_JOKER[card] else CARD_COLOUR[card]
        self.cards[p].append(card)
        self.colours[p].append(colour)
        points = CARD_POINTS[card]
        if colour >= 0:
            self.bonus[p][colour] += CARD_BONUS[card]
            self.cpoints[p][colour] += points
        self.points[p] += points
        before = self.crowns[p]
        after = before + CARD_CROWNS[card]
        self.crowns[p] = after
        if CARD_AGAIN[card]:
            self.again = True
        if CARD_TOKEN[card] and token >= 0:
            board[token] = -1
            self.gems &= ~(1 << token)
            t[CARD_COLOUR[card]] += 1
        if CARD_PRIVILEGE[card]:
            self.give_privilege(p)
        if CARD_STEAL[card] and steal >= 0:
            self.tokens[1 - p][steal] -= 1
            t[steal] += 1
        if after > before:
            earned = (before < 3 <= after) + (before < 6 <= after)
            self.due = min(earned, len(self.royals))
        return revealed

    def _refill(self, slot: int) -> int:
        deck = self.decks[SLOT_LEVEL[slot]]
        new = deck.pop() if deck else -1
        self.pyramid[slot] = new
        return new

    def _unreserve(self, p: int, card: int) -> None:
        """Take a bought card out of the reserve, keeping the readable engine's order.

        The readable engine cannot tell two blind reserves of one level
        apart, so buying one removes the first blind card of that level; the
        card that was there moves into the bought one's place.
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

    def take_royal(self, royal: int, steal: int = -1) -> None:
        p = self.current
        self.royals.remove(royal)
        self.won[p].append(royal)
        self.points[p] += ROYAL_POINTS[royal]
        if ROYAL_AGAIN[royal]:
            self.again = True
        elif ROYAL_PRIVILEGE[royal]:
            self.give_privilege(p)
        elif ROYAL_STEAL[royal] and steal >= 0:
            self.tokens[1 - p][steal] -= 1
            self.tokens[p][steal] += 1
        self.due -= 1

    def finish(self, returned: tuple[int, ...] | list[int] | None = None) -> None:
        """End the turn: return tokens, check victory, pass to the next player."""
        p = self.current
        if returned is not None:
            t = self.tokens[p]
            bag = self.bag
            for k in range(7):
                n = returned[k]
                if n:
                    t[k] -= n
                    bag[k] += n
        if (self.points[p] >= WIN_POINTS or self.crowns[p] >= WIN_CROWNS
                or max(self.cpoints[p]) >= WIN_COLOUR_POINTS):
            self.winner = p
        elif not self.again:
            self.current = 1 - p
        self.again = False
        self.due = 0
        self.turn += 1


def seeded_with_deck(seed: int | str) -> tuple[DuelState, random.Random]:
    """The readable simulator's game ``seed`` and the deck's generator after dealing
    (the readable simulation goes on drawing the bag with it)."""
    deck = DuelDeck(seed)
    spiral = [t.index for t in deck.draw_bag(ALL_TOKENS)]
    pyramid = []
    for level, width in zip((1, 2, 3), (5, 4, 3), strict=True):
        for _ in range(width):
            card = deck.draw(level)
            assert card is not None
            pyramid.append(CARD_INDEX[card.id])
    decks = [[CARD_INDEX[c.id] for c in deck.cards[level]] for level in (1, 2, 3)]
    return DuelState.deal(spiral, pyramid, decks), deck.rng


def play_move(s: DuelState, move: Move, rng: random.Random | None = None) -> int:
    """Play a whole :data:`Move` in place; return the card revealed (-1 if none)."""
    privileges, draw, action, gold, payment, joker, token, steal, royals, returned = move
    for cell in privileges:
        s.use_privilege(cell)
    if draw is not None:
        if not draw:
            assert rng is not None
            draw = tuple(s.bag_draw(rng))
        s.replenish(draw)
    revealed = s.act(action, gold, payment, joker, token, steal)
    for royal, take in royals:
        s.take_royal(royal, take)
    s.finish(returned)
    return revealed


def random_turn(s: DuelState, rng: random.Random) -> int:
    """Play one turn as the readable simulator's ``random`` policy builds it.

    Privileges 30 % each, a voluntary replenish 15 %, a purchase half the
    time one is possible, else a random kind of action and one of it; the
    simplest payment 80 % of the time; random ability choices, royals and
    returns.  Returns the action code.
    """
    r = rng.random
    p = s.current
    used: list[tuple[int, int]] = []
    while s.privs[p] and s.gems and r() < 0.3:
        cells = cells_of(s.gems)
        cell = cells[int(r() * len(cells))]
        used.append((cell, s.board[cell]))
        s.use_privilege(cell)
    if any(s.bag) and (not s.any_mandatory() or r() < 0.15):
        s.replenish(s.bag_draw(rng))
    reserves = s.reserves()
    buys = s.buys()
    if not (s.gems or reserves or buys):
        reserves, buys = _without_privileges(s, rng, used)
    action = _random_action(s, r, reserves, buys)
    s.act(action, *_random_choices(s, r, action))
    while s.due:
        options_royal = s.royal_options()
        s.take_royal(*options_royal[int(r() * len(options_royal))])
    returned = None
    if sum(s.tokens[p]) > TOKEN_LIMIT:
        backs = s.return_options()
        returned = backs[int(r() * len(backs))]
    s.finish(returned)
    return action


def _without_privileges(s: DuelState, rng: random.Random, used: list[tuple[int, int]]
                        ) -> tuple[list[int], list[int]]:
    """The privileges took the last gems and pearls: the turn goes without them
    (``used`` back on the board).  The reserves and buys possible then."""
    p = s.current
    for cell, kind in used:
        s.board[cell] = kind
        s.gems |= 1 << cell
        s.tokens[p][kind] -= 1
        s.privs[p] += 1
        s.supply -= 1
    # Or no action is possible though the table cannot tell (a blind
    # reserve no longer affordable while another unseen card would be):
    # the readable policy retries until it replenishes.
    reserves = s.reserves()
    buys = s.buys()
    if not (s.gems or reserves or buys) and any(s.bag):
        s.replenish(s.bag_draw(rng))
        reserves = s.reserves()
        buys = s.buys()
    return reserves, buys


def _random_action(s: DuelState, r: Callable[[], float], reserves: list[int], buys: list[int]
                   ) -> int:
    """A purchase half the time one is possible, else a random kind of action and
    one of it."""
    if buys and r() < 0.5:
        return buys[int(r() * len(buys))]
    kinds = (s.gems != 0) + (len(reserves) > 0) + (len(buys) > 0)
    pick = int(r() * kinds)
    if s.gems:
        if pick == 0:
            takes = s.takes()
            action = takes[int(r() * len(takes))]
        pick -= 1
    if pick >= 0 and reserves:
        if pick == 0:
            action = reserves[int(r() * len(reserves))]
        pick -= 1
    if pick >= 0:
        action = buys[int(r() * len(buys))]
    return action


def _random_choices(s: DuelState, r: Callable[[], float], action: int
                    ) -> tuple[int, tuple[int, ...] | None, int, int, int]:
    """(gold, payment, joker, token, steal) for ``action``: the simplest payment
    80 % of the time, random ability choices; -1 (None) where none applies."""
    gold = joker = token = steal = -1
    payment = None
    if action >= BUY:
        card = action - BUY
        if r() >= 0.8:
            options = s.payments(card)
            payment = options[int(r() * len(options))]
        if CARD_JOKER[card]:
            colours = s.joker_colours()
            joker = colours[int(r() * len(colours))]
        if CARD_TOKEN[card]:
            cells = s.token_cells(card)
            if cells:
                token = cells[int(r() * len(cells))]
        if CARD_STEAL[card]:
            kinds_held = s.steal_kinds()
            if kinds_held:
                steal = kinds_held[int(r() * len(kinds_held))]
    elif action >= RESERVE_SLOT:
        golds = cells_of(s.golds)
        gold = golds[int(r() * len(golds))]
    return gold, payment, joker, token, steal

__all__ = ["DuelState", "Move", "play_move", "random_turn", "seeded_with_deck"]
