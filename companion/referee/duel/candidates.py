"""Which legal Duel turns explain what the camera sees: candidates, ranked.

The Raspberry Turk pattern, as :mod:`companion.referee.splendor.candidates` does it for
Splendor: for every legal turn, predict the table it leaves
(:func:`~companion.rules.duel.view.view_of`) and score the prediction against
the reading (:mod:`companion.referee.duel.compare`); the turns that explain
it best are proposed, best first.

A Duel turn is composite -- privileges, a replenish, the mandatory action
with its payment and ability choices, the card revealed, royals at 3 and 6
crowns, tokens returned to come down to 10 -- so a flat list of every
combination would be huge.  The turn is built step by step with the rules'
own :class:`~companion.rules.duel.planner.TurnPlanner` (so every candidate
is legal by construction), and each step is pinned or pruned by what the
reading shows:

* privileges and takes only empty cells the camera does not see full;
* a replenish is considered when the board shows tokens where the board
  was empty, and its drawing order is read off the board along the spiral;
  the only positions it cannot read are cells the action then emptied
  again, and every order of the bag's remaining tokens is tried there
  (they lead to the same table: the state is the same);
* the card revealed is the one read in the place the action emptied; an
  unsure place is asked (:attr:`Candidate.reveals`) rather than guessed;
* payments, joker colours, token cells, steals, royals and returns are all
  tried and left to the score, after pruning by the mover's token count
  where it was read.

Turns leading to the same state are one candidate (the simplest turn is
kept).  Turns whose predictions the reading cannot tell apart -- they
differ only where the camera was unsure or cannot see (which deck a card
was reserved from, which card of a colour a blind reserve was) -- are one
candidate with several ``turns``; the referee asks which when it is
confirmed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from companion.referee.duel.compare import (
    Difference,
    blind,
    describe,
    differences,
    distance,
    on_board,
)
from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import SPIRAL
from companion.rules.duel.cards import JewelCard
from companion.rules.duel.planner import TurnPlanner
from companion.rules.duel.state import GameState, Hidden
from companion.rules.duel.tokens import KINDS, DuelTokens, Token
from companion.rules.duel.turns import Action, Buy, ReserveCard, ReserveDeck, RoyalPick, Take, Turn
from companion.rules.duel.view import DuelView, view_of
from companion.rules.errors import IllegalAction, RulesError

#: A candidate whose prediction is off by more than this many things (tokens,
#: cells, cards) does not explain the reading.  One lets a single misread place
#: through, shown beside the proposal, as Splendor's referee does.
TOLERANCE = 1.0
#: At most this many candidates are offered with NEXT.
MAX_CANDIDATES = 8
#: At most this many drawing orders of a replenish are tried for the cells the
#: camera cannot read (the bag's tokens that the action took straight back).
MAX_DRAWS = 48
#: The most cells one action empties (a take of 3; a reserve's gold; a token ability).
MOST_TAKEN = 3
#: At most this many return choices are tried when the mover's tokens are unread.
MAX_RETURNS = 40


@dataclass(frozen=True)
class Candidate:
    """Turns that may explain a reading, all leading to the same predicted table.

    ``turns[0]`` is proposed; when there are several, the camera cannot tell
    them apart and the players are asked which.  ``afters`` are the states
    they lead to (one per turn).  ``reveals[i]`` is the level of the deck a
    card was revealed from when that card was not read: ``turns[i]`` then
    carries a placeholder reveal that the players replace (``None``: read,
    or nothing revealed).
    """

    turns: tuple[Turn, ...]
    afters: tuple[GameState, ...]
    distance: float
    differences: tuple[Difference, ...]
    reveals: tuple[int | None, ...] = ()

    @property
    def turn(self) -> Turn:
        return self.turns[0]

    def reveal_level(self, turn: Turn) -> int | None:
        """The deck level whose revealed card must be asked for ``turn``, if any."""
        for t, level in zip(self.turns, self.reveals, strict=False):
            if t == turn:
                return level
        return None

    @property
    def ask(self) -> tuple[str, ...]:
        """The parts the players must still say: ``"which"`` and/or ``"reveal"``."""
        parts = ["which"] if len(self.turns) > 1 else []
        if any(level is not None for level in self.reveals):
            parts.append("reveal")
        return tuple(parts)


# ------------------------------------------------------------------ steps
def _planner(
    state: GameState, privileges: Sequence[int] = (), draw: Sequence[Token] | None = None
) -> TurnPlanner[GameState] | None:
    """A planner with the optional actions done, or None when they are illegal."""
    planner = TurnPlanner(state)
    try:
        for cell in privileges:
            planner.use_privilege(cell)
        if draw is not None:
            planner.replenish(draw)
    except IllegalAction:
        return None
    return planner


def _seen_empty(seen: DuelView, cell: int) -> bool:
    """Whether the reading allows ``cell`` to be empty now (empty or unsure)."""
    return seen.board[cell] in ("", None)


def _privilege_sets(state: GameState, seen: DuelView) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Cells the mover's privileges may have taken: full before and not seen the same now;
    with whether only a replenish explains them (it filled them again)."""
    held = state.player.privileges
    yield (), False
    if not held:
        return
    cells = [
        c for c, kind in enumerate(state.board)
        if kind is not None and kind is not Token.GOLD and seen.board[c] != kind.letter
    ]
    # A cell a privilege emptied and a replenish filled again may show the same
    # kind as before: any full cell the replenish would reach is possible then.
    for size in range(1, min(held, len(cells)) + 1):
        for chosen in itertools.combinations(cells, size):
            yield chosen, False
    bag = state.bag.total()
    refilled = any(
        kind is None and seen.board[c] not in ("", None) for c, kind in enumerate(state.board)
    )
    if bag and refilled:
        changed = set(cells)
        empty = [c for c in SPIRAL if state.board[c] is None]
        reach = SPIRAL.index(empty[bag - 1]) if len(empty) >= bag else len(SPIRAL)
        extra = [
            c for c in SPIRAL[:reach]
            if c not in changed and state.board[c] not in (None, Token.GOLD)
        ]
        for size in range(1, min(held, len(cells) + len(extra)) + 1):
            for chosen in itertools.combinations(cells + extra, size):
                if not changed.issuperset(chosen):
                    yield chosen, True


def _draws(
    state: GameState, privileges: Sequence[int], seen: DuelView, strict: bool = True
) -> Iterator[tuple[Token, ...] | None]:
    """No replenish, then the drawing orders the board allows, when it may have happened."""
    planner = _planner(state, privileges)
    if planner is None:
        return
    if not planner.must_replenish():
        yield None
    if not planner.can_replenish():
        return
    bag = planner.bag()
    empty = [c for c in SPIRAL if planner.table.board[c] is None]
    filled = empty[: bag.total()]
    if sum(seen.board[c] == "" for c in filled) > MOST_TAKEN + (0 if strict else 1):
        return  # the action could not have emptied again all it filled: no replenish
    known: list[Token | None] = []
    for cell in filled:
        letter = seen.board[cell]
        known.append(Token.from_letter(letter) if letter else None)
    read = DuelTokens.of(*(k for k in known if k is not None))
    if not bag.covers(read):
        return  # the board shows tokens the bag does not hold: not this replenish
    rest = list((bag - read).kinds())
    holes = [i for i, k in enumerate(known) if k is None]
    for order in itertools.islice(_orders(rest), MAX_DRAWS):
        draw = list(known)
        for i, kind in zip(holes, order, strict=True):
            draw[i] = kind
        yield tuple(k for k in draw if k is not None)


def _orders(kinds: Sequence[Token]) -> Iterator[tuple[Token, ...]]:
    """The distinct orders of a multiset of tokens, in kind order (lazily: a full
    bag has millions)."""
    counts = DuelTokens.of(*kinds).counts
    left = list(counts)
    size = len(kinds)
    order: list[Token] = []

    def walk() -> Iterator[tuple[Token, ...]]:
        if len(order) == size:
            yield tuple(order)
            return
        for kind in KINDS:
            if left[kind.index]:
                left[kind.index] -= 1
                order.append(kind)
                yield from walk()
                order.pop()
                left[kind.index] += 1

    return walk()


def _pyramid_changed(seen: DuelView, where: tuple[int, int] | None, card: str) -> bool:
    """Whether the reading allows ``card`` to have left its pyramid place."""
    if where is None:
        return True  # a reserved card
    r, s = where
    return seen.pyramid[r][s] != card


def _actions(
    state: GameState, planner: TurnPlanner[GameState], seen: DuelView, strict: bool = True
) -> Iterator[Action]:
    """Mandatory actions the reading allows (purchases with their cheapest payment).

    Every cell full now that the camera sees empty must be emptied by the action.
    """
    must = _must_empty(planner, seen) if strict else frozenset()

    def empty(cell: int) -> bool:
        return not strict or _seen_empty(seen, cell)

    for take in planner.takes():
        if must.issubset(take.cells) and all(empty(c) for c in take.cells):
            yield take
    for reserve in planner.reserves():
        if not must.issubset((reserve.gold,)) or not empty(reserve.gold):
            continue
        if isinstance(reserve, ReserveCard) and not _pyramid_changed(
            seen, state.find_in_pyramid(reserve.card), reserve.card
        ):
            continue
        yield reserve
    hidden = _blind_cards(state)
    for buy in planner.buys(hidden):
        if _pyramid_changed(seen, state.find_in_pyramid(buy.card), buy.card):
            yield buy


def _must_empty(planner: TurnPlanner[GameState], seen: DuelView) -> frozenset[int]:
    """Cells full on the planner's board that the camera sees empty."""
    return frozenset(
        c for c, kind in enumerate(planner.table.board) if kind is not None and seen.board[c] == ""
    )


def _blind_cards(state: GameState) -> list[JewelCard]:
    """The cards that may be behind the mover's blind reserves (any unseen card of their level)."""
    levels = sorted({c.level for c in state.player.reserved if isinstance(c, Hidden)})
    return [c for level in levels for c in sorted(state.unseen(level), key=lambda c: c.id)]


def _fits_tokens(expected: DuelTokens, seen: Sequence[int | None]) -> bool:
    return all(n is None or n == have for n, have in zip(seen, expected.counts, strict=True))


def _buys(
    state: GameState, planner: TurnPlanner[GameState], buy: Buy, seen: DuelView,
    strict: bool = True,
) -> Iterator[Buy]:
    """A purchase with every payment and ability choice the reading allows."""
    card = catalogue.card(buy.card)
    me, them = state.current, 1 - state.current
    mine, theirs = seen.players[me], seen.players[them]
    held = planner.held()
    options = planner.buy_options(buy, card)
    payments = planner.payments(card)
    must = _must_empty(planner, seen) if strict else frozenset()
    for option in options:
        if not must.issubset((option.token,)):
            continue
        if strict and option.token is not None and not _seen_empty(seen, option.token):
            continue
        if option.steal is not None and theirs.tokens[option.steal.index] is not None:
            before = planner.table.tokens[them][option.steal.index]
            if theirs.tokens[option.steal.index] not in (before - 1, before - 2):
                continue
        gained = DuelTokens.of(
            *(k for k in (option.steal,) if k is not None),
            *(k for k in (card.colour,) if option.token is not None and k is not None),
        )
        fitting = [
            p for p in payments
            if _fits_tokens(held + gained - p, mine.tokens)
        ]
        # A royal's steal or a return can still move the mover's tokens: keep
        # the cheapest payment too, so the score (not this filter) decides.
        for pay in fitting or payments[:1]:
            yield Buy(option.card, pay, option.joker, option.token, option.steal)


def _reveal(
    state: GameState, planner: TurnPlanner[GameState], seen: DuelView
) -> tuple[str | None, bool]:
    """(the card revealed, whether it must be asked) for a planner after its action."""
    level = planner.reveal_level()
    if level is None:
        return None, False
    slot = planner.table.emptied
    assert slot is not None
    r, s = slot
    read = seen.pyramid[r][s]
    unseen = {c.id for c in planner.table.state.unseen(level)} - {
        c.id for c in planner.table.seen()
    }
    if read and read in unseen:
        return read, False
    return min(unseen), True


@dataclass(frozen=True)
class _Steps:
    """A turn's steps up to its reveal, replayed on a fresh planner when needed
    (a planner is mutable and single-use; replaying is cheap)."""

    state: GameState
    privileges: tuple[int, ...]
    draw: tuple[Token, ...] | None
    action: Action
    reveal: str | None

    def planner(self, picks: tuple[RoyalPick, ...] = ()) -> TurnPlanner[GameState] | None:
        planner = _planner(self.state, self.privileges, self.draw)
        if planner is None:
            return None
        try:
            planner.play(self.action)
            if self.reveal is not None:
                planner.reveal(self.reveal)
            for pick in picks:
                planner.take_royal(pick)
        except IllegalAction:
            return None
        return planner


def _finishes(
    steps: _Steps, picks: tuple[RoyalPick, ...], seen: DuelView
) -> Iterator[tuple[Turn, GameState]]:
    """Every way to end the turn after its reveal: royals, then the tokens returned."""
    planner = steps.planner(picks)
    if planner is None:
        return
    if planner.royals_due():
        for pick in planner.royal_options():
            if seen.royals is not None and pick.royal in seen.royals:
                continue  # still on the table
            yield from _finishes(steps, (*picks, pick), seen)
        return
    held = planner.held()
    options = planner.return_options()
    mine = seen.players[steps.state.current].tokens
    if options != [DuelTokens()]:
        fitting = [o for o in options if _fits_tokens(held - o, mine)]
        options = (fitting or options)[:MAX_RETURNS]
    for i, back in enumerate(options):
        if i:
            planner = steps.planner(picks)
            if planner is None:
                return
        try:
            yield planner.finish(back)
        except IllegalAction:
            continue


def _turns(
    state: GameState, seen: DuelView, strict: bool = True
) -> Iterator[tuple[Turn, GameState, bool, int | None]]:
    """Every legal turn the reading allows: (turn, state after, reveal unread, its level).

    ``strict``: trust every empty cell read (the action emptied exactly those);
    otherwise one of them may be a token misread as gone.
    """
    for privileges, refilled in _privilege_sets(state, seen):
        for draw in _draws(state, privileges, seen, strict):
            if refilled and draw is None:
                continue
            planner = _planner(state, privileges, draw)
            if planner is None:
                continue
            for action in _actions(state, planner, seen, strict):
                actions: Iterator[Action] = (
                    _buys(state, planner, action, seen, strict) if isinstance(action, Buy)
                    else iter((action,))
                )
                for full in actions:
                    yield from _after_action(state, privileges, draw, full, seen)


def _after_action(
    state: GameState, privileges: tuple[int, ...], draw: tuple[Token, ...] | None,
    action: Action, seen: DuelView,
) -> Iterator[tuple[Turn, GameState, bool, int | None]]:
    planner = _planner(state, privileges, draw)
    if planner is None:
        return
    try:
        planner.play(action)
    except IllegalAction:
        return
    level = planner.reveal_level()
    reveal, unread = _reveal(state, planner, seen)
    steps = _Steps(state, privileges, draw, action, reveal)
    for turn, after in _finishes(steps, (), seen):
        yield turn, after, unread, level if unread else None


def _simplicity(turn: Turn) -> tuple[int, ...]:
    """Among equal scores prefer the plainer turn: no optional actions, less gold,
    fewer tokens returned."""
    action = turn.action
    gold = action.payment[Token.GOLD] if isinstance(action, Buy) else 0
    return (
        len(turn.privileges), turn.replenish is not None, gold, turn.returned.total(),
        isinstance(action, ReserveDeck),
    )


def candidates(state: GameState, seen: DuelView) -> list[Candidate]:
    """Every legal turn of the player to move that the reading allows, best first.

    The turns are searched trusting every empty cell read; when none explains
    the reading exactly they are searched again without that trust, so one
    token misread as gone cannot hide the turn played (it is then one
    difference of the true turn, preferred by
    :func:`~companion.referee.duel.compare.on_board` among equals).  Turns the
    reading cannot tell apart are grouped into one candidate.
    """
    seen = _plausible(state, seen)
    by_state: dict[str, tuple[Turn, GameState, bool, int | None]] = {}
    _collect(state, seen, by_state)
    exact = any(not differences(view_of(f[1]), seen)
                for f in by_state.values())
    if not exact:
        _collect(state, seen, by_state, strict=False)
    return _group(state, seen, by_state)


def _plausible(state: GameState, seen: DuelView) -> DuelView:
    """``seen`` with each pyramid place that shows an impossible card made unsure: a
    card of another level, or one already elsewhere on the table.  No turn can put it
    there, so it is a misread; as no evidence, the turn that emptied the place is
    still proposed, and the card revealed there is asked."""
    elsewhere = {c.id for c in state.seen_cards()}
    rows = []
    for r, row in enumerate(seen.pyramid):
        places = []
        for slot, read in enumerate(row):
            before = state.pyramid[r][slot]
            if read and (before is None or read != before.id) and (
                read in elsewhere or not _of_level(read, r + 1)
            ):
                read = None
            places.append(read)
        rows.append(tuple(places))
    return replace(seen, pyramid=tuple(rows))


def _of_level(card_id: str, level: int) -> bool:
    try:
        return catalogue.card(card_id).level == level
    except RulesError:
        return False


def _collect(
    state: GameState, seen: DuelView,
    by_state: dict[str, tuple[Turn, GameState, bool, int | None]],
    strict: bool = True,
) -> None:
    """Add the turns the reading allows, the simplest turn kept for each state."""
    for turn, after, unread, level in _turns(state, seen, strict):
        key = after.digest()
        old = by_state.get(key)
        if old is None or _simplicity(turn) < _simplicity(old[0]):
            by_state[key] = (turn, after, unread, level)


def _group(
    state: GameState, seen: DuelView,
    by_state: dict[str, tuple[Turn, GameState, bool, int | None]],
) -> list[Candidate]:
    names = [p.name for p in state.players]
    groups: dict[DuelView, list[tuple[Turn, GameState, bool, int | None]]] = {}
    for found in sorted(by_state.values(), key=lambda f: (_simplicity(f[0]), str(f[0]))):
        predicted = view_of(found[1])
        groups.setdefault(blind(predicted, seen), []).append(found)
    result = []
    for members in groups.values():
        predicted = view_of(members[0][1])
        diffs = tuple(differences(predicted, seen, names))
        result.append(
            Candidate(
                turns=tuple(m[0] for m in members),
                afters=tuple(m[1] for m in members),
                distance=distance(diffs),
                differences=diffs,
                reveals=tuple(m[3] for m in members),
            )
        )
    result.sort(
        key=lambda c: (
            c.distance, -on_board(c.differences), len(c.turns), _simplicity(c.turn), str(c.turn)
        )
    )
    return result


def explaining(state: GameState, seen: DuelView) -> list[Candidate]:
    """The candidates close enough to propose, best first (at most MAX_CANDIDATES)."""
    return [c for c in candidates(state, seen) if c.distance <= TOLERANCE][:MAX_CANDIDATES]


# ----------------------------------------------------------- unexplained change
def _guess(state: GameState, seen: DuelView) -> Turn | None:
    """The mandatory action the change most looks like, legal or not (None: nothing moved)."""
    emptied = tuple(
        c for c, kind in enumerate(state.board) if kind is not None and seen.board[c] == ""
    )
    gone = [
        card.id
        for r, row in enumerate(state.pyramid)
        for s, card in enumerate(row)
        if card is not None and seen.pyramid[r][s] not in (None, card.id)
    ]
    mine = seen.players[state.current]
    golds = [c for c in emptied if state.board[c] is Token.GOLD]
    reserved = mine.reserved is not None and mine.reserved > len(state.player.reserved)
    action: Action | None = None
    if reserved and golds:
        action = ReserveCard(gone[0], golds[0]) if gone else ReserveDeck(1, golds[0])
    elif gone:
        lost = DuelTokens(
            max(0, have - (n if n is not None else have))
            for have, n in zip(state.player.tokens.counts, mine.tokens, strict=True)
        )
        action = Buy(gone[0], lost)
    elif emptied:
        action = Take(emptied)
    return Turn(action) if action is not None else None


def _what(action: Action) -> str:
    if isinstance(action, Take):
        return "took the tokens on " + ", ".join(str(action).split()[1:])
    if isinstance(action, Buy):
        paid = f" paying {action.payment.describe()}" if action.payment else ""
        return f"bought {action.card}{paid}"
    if isinstance(action, ReserveCard):
        return f"reserved {action.card}"
    return "reserved from a deck"


def unexplained(state: GameState, seen: DuelView, best: Candidate | None) -> str:
    """Why no legal turn explains the reading, in the rules' words for the screen."""
    name = state.player.name
    other = state.players[1 - state.current]
    theirs = seen.players[1 - state.current]
    if any(n is not None and n > have for n, have in zip(
        theirs.tokens, other.tokens.counts, strict=True
    )):
        return f"{other.name} has more tokens than before, but it is {name}'s turn"
    guess = _guess(state, seen)
    if guess is not None:
        try:
            state.apply(guess)
        except IllegalAction as exc:
            return f"{name} {_what(guess.action)}, but: {exc}"
    if best is not None:
        return (
            f"No legal turn of {name} matches the table. Closest: {best.turn} —"
            f" {describe(best.differences)}"
        )
    return f"No legal turn of {name} matches the table"
