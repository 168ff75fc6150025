"""The computer seat's mind: the analysis search choosing a turn at a strength level.

A computer player at the physical table chooses among the same candidate
turns as the after-game analysis (:mod:`.search` for Splendor,
:mod:`.duel_search` for Duel).  Levels 1 and 2 play the analysis playouts'
rule of thumb (level 1 with blunders); levels 3 to 5 run the analysis's
determinised search over a shortlist of those candidates, with more
playouts at each level (:data:`LEVELS`).  Why a rule below the search: a
search of one playout per option plays about as well as ``random`` (levels
1 and 2 once were exactly that), so the weak levels must be weak on
purpose and still sensible.  Why a shortlist: with few playouts, sequential
halving over some thirty candidates drops good turns on one noisy playout
each; the shortlist (every purchase, the most useful takes, the reserves of
the cards worth most) spends the same playouts on fewer, likelier turns.
The position it searches is the referee's state,
which holds what any player at that seat may know and nothing more: the
market and pyramid, every player's tokens and cards, the reserves seen face
up; never the decks' order (the table shuffles by hand, so the engine never
had it) nor another player's blind reserve (those are sampled).

Decisions where issue 39 was silent:

* A computer seat never reserves blind from a deck.  Its card would have to
  be shown to the companion and kept hidden from the person moving the
  computer's pieces, which the table cannot do; the hint may still name a
  blind reserve, since a person holds their own cards.
* In Duel the computer replenishes only when it must (the search's
  candidates, :func:`.duel_search.candidates`): a replenish is a draw from
  the bag that nobody can know before it is made.
  When nothing can be done without a replenish, :func:`duel_choice` gives
  None; the referee's computer seat then has the board refilled first and
  calls :func:`duel_choice` again on the position after the draw (the mover
  still to act, the bag empty), so the rest of the turn is chosen from the
  board the draw left, as a person would choose it
  (:class:`companion.referee.duel.computer.DuelPrelude`).  It spends no
  privileges after such a refill: a turn's notation puts them first.
* Only level 5 spends Duel privileges (:func:`_privilege_moves`).  Levels 3
  and 4 weigh the same turns as the analysis's review of a turn, which
  spends none; level 5's playouts did not beat level 4's without them
  (more of them no better), and privileges are the resource both left
  unused.
* The win chances a hint names are the search's means for the options that
  lasted longest in sequential halving (at most three), so they rest on
  the most playouts the search spent.

Everything is seeded by the caller: the same position, level and seed give
the same turn, so games against the computer are repeatable in tests.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from companion.analysis.duel import search as duel_search
from companion.analysis.duel.playout import card_value, take_value
from companion.analysis.duel.playout import target_need as duel_target_need
from companion.analysis.halving import halving
from companion.analysis.splendor import search
from companion.analysis.splendor.playout import greedy_action, target_need
from companion.rules.duel import state as duel
from companion.rules.duel.turns import Turn as DuelTurn
from companion.rules.fast.duel import tables as duel_tables
from companion.rules.fast.duel.convert import to_turn
from companion.rules.fast.duel.state import DuelState, Move, play_move
from companion.rules.fast.splendor import tables as splendor_tables
from companion.rules.fast.splendor.state import FastState
from companion.rules.gems import Tokens
from companion.rules.splendor import state as splendor
from companion.rules.splendor.actions import Turn as SplendorTurn

T = TypeVar("T")


@dataclass(frozen=True)
class Level:
    """A strength: how the seat chooses among its candidate turns.

    Levels 1 and 2 do not search: they play the rule of thumb that the
    search's own playouts use (buy the card worth most, else take the gems
    nearest to a card), level 1 with ``noise``, the chance of playing any
    candidate instead (a beginner's blunders).  Levels 3 to 5 search with
    ``budget`` playouts per Splendor turn (``duel_budget`` per Duel turn: a
    Duel playout costs about 2.5 times a Splendor one).  Level 3's budget
    keeps its usual turn within 2 s and level 5's within 10 s on the Pi 4
    estimate's slow end, and ``seconds`` stops the rare long turn (wall
    seconds on the box running it); ``tests/bench/bench_seat.py`` measures
    both and the win rates that say each level beats the one below.
    ``privileges``: in Duel the level also weighs turns that spend its
    privileges first (:func:`_privilege_moves`).
    """

    number: int
    budget: int
    duel_budget: int
    noise: float
    words: str
    shortlist: bool = True
    seconds: float = 8.0
    privileges: bool = False

    @property
    def searches(self) -> bool:
        """Whether the level searches (else it plays the rule of thumb)."""
        return self.budget > 0


#: Level 5's budgets: the largest that keep the longest turn measured at 1200 / 500
#: (0.85 / 1.39 CPU s, Pi 4 slow end 9.8 / 16.1 s) about 20 % under the 10 s ceiling,
#: time taken as linear in playouts (bench_seat.py --per-level 28,28,40,40,40).  In
#: Duel more playouts stop paying past level 4's 200: 500 won 47 % of 30 games
#: against it, as 250 did 51 % of 55 (bench_seat.py --game duel --levels 4,5).
LEVELS: dict[int, Level] = {
    1: Level(1, 0, 0, 0.4, "beginner: a rule of thumb, with blunders"),
    2: Level(2, 0, 0, 0.0, "casual: the rule of thumb"),
    3: Level(3, 150, 60, 0.0, "club: a quick search (the default)", seconds=1.5),
    4: Level(4, 500, 200, 0.0, "strong: a longer search"),
    5: Level(5, 1000, 250, 0.0, "full search", privileges=True),
}
DEFAULT_LEVEL = 3
#: The longest a search level thinks, wall seconds on the box running it: the issue's
#: 10 s ceiling less 2 s for the screen, speech and the turn's wording (level 3: its
#: 2 s less 0.5 s, ``Level.seconds``).  WHY: budgets in playouts bound the usual turn,
#: not every one; a Duel turn with many options took 1.8 CPU s here (about 21 s on a
#: Pi 4's slow end), a level-3 Duel turn 0.29 s (3.4 s there; bench_seat.py --store).
THINK_SECONDS = max(level.seconds for level in LEVELS.values())
#: The level whose search a hint uses: the default's, so a hint is as quick.
HINT_LEVEL = DEFAULT_LEVEL
#: Playouts that estimate the chance of a turn that had no rival.
LONE_PLAYOUTS = 24
#: The shortlist's takes (the most needed gems first) and reserves (the cards worth
#: most first); chosen, not tuned: the win rates they give are bench_seat.py's.
SHORT_TAKES = 4
SHORT_RESERVES = 2
#: At most this many options are named with their win chances.
NAMED_OPTIONS = 3


@dataclass(frozen=True)
class Option(Generic[T]):
    """A turn the search compared, its win chance for the mover and the playouts behind it
    (None and 0 for a level that does not search: it has no estimate to give)."""

    turn: T
    chance: float | None
    playouts: int


@dataclass(frozen=True)
class Choice(Generic[T]):
    """The search's turn (without the card revealed: that comes from the table),
    ``example`` the same turn with a revealed card the search sampled (to say what
    follows, such as a Duel "play again"), and the best ``options`` (at most three)."""

    turn: T
    example: T
    options: tuple[Option[T], ...]
    playouts: int


# ------------------------------------------------------------------ Splendor
def _deadline(level: Level) -> float:
    """When a search at ``level`` started now must stop (``Level.seconds``)."""
    return time.monotonic() + level.seconds


def splendor_choice(state: splendor.GameState, level: Level, seed: int,
                    blind: bool = False) -> Choice[SplendorTurn]:
    """The turn the seat plays in ``state`` at ``level`` (``blind``: reserving from a
    deck allowed)."""
    sampler = search.Sampler(state)
    pool = search.candidates(state, sampler.base)
    if not blind:
        kept = [t for t in pool
                if not splendor_tables.RESERVE_DECK <= t[0] < splendor_tables.BUY]
        pool = kept or pool
    if not level.searches:
        rng = random.Random(seed)
        turn = _splendor_rule(sampler.base, pool, rng, level.noise)
        readable = _splendor_turn(state, turn)
        return Choice(readable, readable, (Option(readable, None, 0),), 0)
    if level.shortlist:
        pool = _splendor_shortlist(sampler.base, pool)
    ranking, spent = halving(pool, lambda t, s: search._run(sampler, t, s), state.current,
                             level.budget, seed, LONE_PLAYOUTS, _deadline(level))
    options = tuple(Option(_splendor_turn(state, t), mean, n)
                    for t, mean, n in ranking[:NAMED_OPTIONS])
    best = options[0].turn
    return Choice(best, best, options, spent)


def _splendor_rule(base: FastState, pool: list[search.FastTurn], rng: random.Random,
                   noise: float) -> search.FastTurn:
    """The rule of thumb's candidate (the playout player's choice among ``pool``), or
    with chance ``noise`` any candidate."""
    if rng.random() < noise:
        return pool[int(rng.random() * len(pool))]
    by_code = {t[0]: t for t in pool}
    return by_code[greedy_action(base, sorted(by_code), rng, explore=0.0)]


def _splendor_shortlist(base: FastState, pool: list[search.FastTurn]) -> list[search.FastTurn]:
    """The candidates worth a search's playouts: every purchase, the takes that bring
    most needed gems, the reserves of the cards worth most."""
    need = target_need(base)
    buys = [t for t in pool if t[0] >= splendor_tables.BUY]
    takes = [t for t in pool if t[0] < splendor_tables.RESERVE_SLOT]
    reserves = [t for t in pool if splendor_tables.RESERVE_SLOT <= t[0] < splendor_tables.BUY]

    def take_value(t: search.FastTurn) -> tuple[int, int]:
        gems = splendor_tables.TAKES[t[0]]
        return sum(min(g, n) for g, n in zip(gems, need, strict=False)), sum(gems)

    def reserve_value(t: search.FastTurn) -> tuple[int, int]:
        code = t[0]
        if code >= splendor_tables.RESERVE_DECK:
            return -1, code - splendor_tables.RESERVE_DECK
        card = base.market[code - splendor_tables.RESERVE_SLOT]
        return splendor_tables.CARD_POINTS[card], splendor_tables.CARD_LEVEL[card]

    takes.sort(key=take_value, reverse=True)
    reserves.sort(key=reserve_value, reverse=True)
    return buys + takes[:SHORT_TAKES] + reserves[:SHORT_RESERVES]


def _splendor_turn(state: splendor.GameState, fast: search.FastTurn) -> SplendorTurn:
    action = search.readable_action(state, fast)
    returned = Tokens(fast[2]) if fast[2] is not None else Tokens()
    noble = splendor_tables.NOBLE_ID[fast[3]] if fast[3] >= 0 else None
    return SplendorTurn(action, None, returned, noble)


# ---------------------------------------------------------------------- Duel
def duel_choice(state: duel.GameState, level: Level, seed: int,
                blind: bool = False) -> Choice[DuelTurn] | None:
    """The turn the seat plays in ``state`` at ``level``, or None when every turn
    needs a replenish."""
    sampler = duel_search.DuelSampler(state)
    base = sampler.base
    pool = duel_search.candidates(base, None)
    if not blind:
        pool = [m for m in pool
                if not duel_tables.RESERVE_DECK <= m[2] < duel_tables.BUY] or pool
    if not pool:
        return None
    ranking: list[tuple[Move, float | None, int]]
    if level.searches and level.shortlist:
        pool = _duel_shortlist(base, pool)
    if level.searches and level.privileges:
        pool += _privilege_moves(base)
    if not level.searches:
        rng = random.Random(seed)
        ranking = [(_duel_rule(base, pool, rng, level.noise), None, 0)]
        spent = 0
    else:
        searched, spent = halving(pool, lambda m, s: duel_search._run(sampler, m, s),
                                  state.current, level.duel_budget, seed, LONE_PLAYOUTS,
                                  _deadline(level))
        ranking = list(searched)
    options: list[Option[DuelTurn]] = []
    example: DuelTurn | None = None
    for move, mean, n in ranking[:NAMED_OPTIONS]:
        probe = base.copy()
        revealed = play_move(probe, move, random.Random(seed))
        full = to_turn(base, move, revealed)
        example = example or full
        options.append(Option(replace(full, reveal=None), mean, n))
    assert example is not None
    return Choice(options[0].turn, example, tuple(options), spent)


def _duel_shortlist(base: DuelState, pool: list[Move]) -> list[Move]:
    """The candidates worth a search's playouts: every purchase, the lines of tokens
    that bring most needed tokens, the reserves of the cards worth most."""
    need = duel_target_need(base)
    buys = [m for m in pool if m[2] >= duel_tables.BUY]
    takes = [m for m in pool if m[2] < duel_tables.RESERVE_SLOT]
    reserves = [m for m in pool if duel_tables.RESERVE_SLOT <= m[2] < duel_tables.BUY]

    def reserve_value(m: Move) -> int:
        if m[2] >= duel_tables.RESERVE_DECK:
            return -1
        return card_value(base.pyramid[m[2] - duel_tables.RESERVE_SLOT])

    takes.sort(key=lambda m: take_value(base, m[2], need), reverse=True)
    reserves.sort(key=reserve_value, reverse=True)
    return buys + takes[:SHORT_TAKES] + reserves[:SHORT_RESERVES]


def _privilege_moves(base: DuelState) -> list[Move]:
    """Turns that spend privileges first: each purchase they make possible now, and
    the best lines of tokens after privileges spent on the gems nearest to a card.

    Why only these: a privilege is one token of the mover's choice, worth most
    when it completes a price (a purchase this turn) or the nearest card's
    gems.  The playouts never spend privileges (:mod:`.duel.playout`), so a
    privilege kept is worth nothing to the search and one spent on any
    useful token wins its comparison; the plans are therefore chosen by need
    and the search only decides between them and the turns without.
    """
    p = base.current
    if not base.privs[p] or not base.gems:
        return []
    plain = set(base.buys())
    moves: list[Move] = []
    for card in (*base.pyramid, *_known_reserves(base)):
        if card < 0 or duel_tables.BUY + card in plain:
            continue
        plan = _completing(base, card)
        if plan:
            moves += [m for m in duel_search.candidates(base, None, privileges=plan)
                      if m[2] == duel_tables.BUY + card]
    plan = _toward(base, duel_target_need(base))
    if plan:
        after = duel_search.candidates(base, None, privileges=plan)
        probe = base.copy()
        for cell in plan:
            probe.use_privilege(cell)
        need = duel_target_need(probe)
        takes = [m for m in after if m[2] < duel_tables.RESERVE_SLOT]
        takes.sort(key=lambda m: take_value(probe, m[2], need), reverse=True)
        seen = {m[2] for m in moves}
        moves += [m for m in after if m[2] >= duel_tables.BUY and m[2] not in seen]
        moves += takes[:PRIVILEGE_TAKES]
    return moves


#: Lines of tokens weighed after privileges spent toward the nearest card; chosen,
#: not tuned (the level's win rates are bench_seat.py's).
PRIVILEGE_TAKES = 2


def _known_reserves(base: DuelState) -> list[int]:
    """The mover's reserved cards it can see (a blind one is the sampler's guess)."""
    p = base.current
    return [c for c, blind in zip(base.reserved[p], base.blind[p], strict=True) if not blind]


def _cell_for(s: DuelState, kind: int, taken: set[int]) -> int:
    """A board cell holding ``kind`` that breaks the fewest lines of tokens (-1: none)."""
    lines = [duel_tables.LINE_MASK[a] for a in s.takes()]
    cells = [c for c in duel_tables.cells_of(s.gems) if s.board[c] == kind and c not in taken]
    if not cells:
        return -1
    return min(cells, key=lambda c: sum(1 for m in lines if m >> c & 1))


def _completing(base: DuelState, card: int) -> tuple[int, ...]:
    """The cells whose tokens make ``card`` affordable this turn with the mover's
    privileges (empty when they cannot)."""
    p = base.current
    tokens = base.tokens[p]
    price = base.price(card)
    short = [max(0, price[k] - tokens[k]) for k in range(6)]
    missing = sum(short) - tokens[duel_tables.GOLD]
    if missing <= 0 or missing > base.privs[p]:
        return ()
    cells: list[int] = []
    for k in sorted(range(6), key=lambda k: -short[k]):
        while short[k] and len(cells) < missing:
            cell = _cell_for(base, k, set(cells))
            if cell < 0:
                break
            cells.append(cell)
            short[k] -= 1
    if len(cells) < missing:
        return ()
    probe = base.copy()
    for cell in cells:
        probe.use_privilege(cell)
    return tuple(cells) if probe.affordable(card) else ()


def _toward(base: DuelState, need: list[int]) -> tuple[int, ...]:
    """Cells for the mover's privileges: the tokens its nearest card lacks, most
    lacked first, one privilege each (empty when the board holds none of them)."""
    want = list(need)
    cells: list[int] = []
    while len(cells) < base.privs[base.current]:
        for k in sorted(range(6), key=lambda k: -want[k]):
            cell = _cell_for(base, k, set(cells)) if want[k] > 0 else -1
            if cell >= 0:
                cells.append(cell)
                want[k] -= 1
                break
        else:
            break
    return tuple(cells)


def _duel_rule(base: DuelState, pool: list[Move], rng: random.Random, noise: float) -> Move:
    """The rule of thumb's candidate: the purchase worth most, else the line of tokens
    nearest to a card without giving a privilege, else any; with chance ``noise`` any."""
    if rng.random() < noise:
        return pool[int(rng.random() * len(pool))]
    buys = [m for m in pool if m[2] >= duel_tables.BUY]
    if buys:
        return max(buys, key=lambda m: card_value(m[2] - duel_tables.BUY) + rng.random() * 0.5)
    takes = [m for m in pool if m[2] < duel_tables.RESERVE_SLOT]
    if takes:
        need = duel_target_need(base)
        return max(takes, key=lambda m: take_value(base, m[2], need) + rng.random())
    return pool[int(rng.random() * len(pool))]


__all__ = ["DEFAULT_LEVEL", "HINT_LEVEL", "LEVELS", "Choice", "Level", "Option",
           "duel_choice", "halving", "splendor_choice"]
