"""Which legal turns explain what the camera sees: candidates, ranked.

The Raspberry Turk pattern: for every legal turn, predict the table it
leaves (:func:`~companion.referee.splendor.reading.predict`) and score that prediction
against the reading; the best-scoring turns are proposed, best first.

A flat list of every turn (main action x payment x returns x noble x reveal)
would be huge, so candidates are built step by step as the rules enumerate
them, each step pinned by what the table shows:

* the payment of a purchase is pinned by the mover's token delta (a purchase
  never gains tokens, so ``paid = before - after``), or, when the mover's
  area is not read (the camera sees only the central mat), by the supply's
  (``paid = supply after - supply before``);
* the returned tokens are pinned by the mover's tokens after the turn
  (``returned = after_action - seen``) or else by the supply; while the mover
  still holds more than 10 the return is left for the players to say (the
  screen asks);
* the reveal is the card read in the slot the action emptied, from the same
  frame; an unsure read leaves the choice among that slot's candidates;
* the noble is the one missing from the nobles row; when that is unread and
  several qualify, the screen asks.

What a step cannot pin is recorded in :attr:`Candidate.ask`, so the state
machine asks exactly those questions when the candidate is confirmed.

A change no candidate explains is put into words by :func:`unexplained`: the
deltas are read as the single turn they most look like (whatever the rules
say) and that turn is given to the rules, whose :class:`IllegalAction`
message says what is wrong ("Take 2 needs at least 4 red in the supply;
there are 3").

This module is Splendor's (its market, supply, nobles and ``Turn``), typed
with Splendor's own ``GameState``: it is one of Splendor's hooks
(:class:`~companion.referee.splendor.hooks.SplendorGame`) into the one referee
machine (:mod:`companion.referee.machine`), which knows no game's state class.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from companion.referee.splendor.reading import (
    CardRead,
    Difference,
    Quirks,
    TableReading,
    describe_differences,
    differences,
    distance,
    predict,
)
from companion.rules.errors import IllegalAction
from companion.rules.gems import Gem, Tokens
from companion.rules.hidden import Hidden
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.state import TOKEN_LIMIT, GameState, needs_reveal

#: A candidate whose predicted table differs from the reading by more than
#: this (in tokens/cards) does not explain it.  One lets a single miscounted
#: token through, shown beside the proposal, rather than stopping the game.
TOLERANCE = 1.0
#: At most this many candidates are offered with NEXT.
MAX_CANDIDATES = 8


@dataclass(frozen=True)
class Candidate:
    """A turn that may explain a reading, with what is left to ask.

    ``turn`` is complete with the best guesses for every part; ``ask`` names
    the parts the table did not pin (``"reveal"``, ``"return"``, ``"noble"``)
    and ``reveals`` the slot's candidates when the reveal is unsure.
    """

    turn: Turn
    distance: float
    differences: tuple[Difference, ...]
    ask: tuple[str, ...] = ()
    reveals: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        return self.distance == 0


def _slot_read(reading: TableReading, where: tuple[int, int]) -> CardRead:
    if reading.market is None:
        return CardRead()
    r, s = where
    try:
        return reading.market[r][s]
    except IndexError:
        return CardRead()


def _reveal_options(
    state: GameState, action: Action, reading: TableReading
) -> tuple[str | None, tuple[str, ...], bool]:
    """(best reveal, the slot's legal candidates, whether it must be asked)."""
    level = needs_reveal(state, action)
    if level is None:
        return None, (), False
    assert isinstance(action, ReserveCard | Buy)
    where = state.find_in_market(action.card)
    assert where is not None
    read = _slot_read(reading, where)
    unseen = {c.id for c in state.unseen(level)}
    legal = tuple(c for c in read.ids() if c in unseen)
    if legal and read.sure and legal[0] == read.best:
        return legal[0], legal, False
    if legal:
        return legal[0], legal, True
    if read.hint in unseen:
        # unread, but the reader leaned to a card that may be there: guessed, asked
        return read.hint, (read.hint,), True
    # Unread, empty or showing an impossible card: any unseen card may be there.
    return min(unseen), (), True


def _agrees(supply: Tokens, seen_supply: Sequence[int | None]) -> bool:
    """Whether ``supply`` shows the count of every colour that was read."""
    return all(n is None or n == have
               for n, have in zip(seen_supply, supply.counts, strict=True))


def _fits(state: GameState, pay: Tokens, seen_tokens: Tokens | None,
          seen_supply: Sequence[int | None] | None) -> bool | None:
    """Whether a payment agrees with the table: the mover's tokens when read, else the
    supply's colours that were read (a purchase's payment goes back to it); None
    when neither was read."""
    if seen_tokens is not None:
        return state.player.tokens - pay == seen_tokens
    if seen_supply is not None:
        return _agrees(state.supply + pay, seen_supply)
    return None


def _main_actions(
    state: GameState, seen_tokens: Tokens | None,
    seen_supply: Sequence[int | None] | None = None,
) -> Iterator[Action]:
    """Legal main actions, purchases with the payments the token delta allows."""
    mover = state.player
    for action in state.legal_actions():
        if not isinstance(action, Buy):
            yield action
            continue
        payments = state.payments(action.card)
        fitting = [p for p in payments if _fits(state, p, seen_tokens, seen_supply)]
        for pay in fitting or payments[:1]:
            yield Buy(action.card, pay)
    # Cards reserved blind: any unseen card of that level the player could pay for.
    levels = {c.level for c in mover.reserved if isinstance(c, Hidden)}
    for level in sorted(levels):
        for card in sorted(state.unseen(level), key=lambda c: c.id):
            payments = state.payments(card)
            if seen_tokens is not None or seen_supply is not None:
                payments = [p for p in payments if _fits(state, p, seen_tokens, seen_supply)]
            for pay in payments[:1]:
                yield Buy(card.id, pay)


def _with_tokens(state: GameState, tokens: Tokens, supply: Tokens) -> GameState:
    players = list(state.players)
    players[state.current] = replace(state.player, tokens=tokens)
    return replace(state, players=tuple(players), supply=supply)


def _returns(
    state: GameState, mid: GameState, seen: Tokens | None,
    seen_supply: Sequence[int | None] | None = None,
) -> tuple[Tokens | None, list[Tokens]]:
    """(the pinned return or None to ask, the options).

    The mover's tokens pin the return when read; otherwise the supply does
    (what came back to it since the action), when only one option agrees with
    every colour of it that was read."""
    options = state.return_options(mid)
    if options == [Tokens()]:
        return Tokens(), options
    held = mid.player.tokens
    if seen is not None:
        if seen.total() <= TOKEN_LIMIT and held.covers(seen):
            back = held - seen
            if back in options:
                return back, options
    elif seen_supply is not None:
        agreeing = [o for o in options if _agrees(mid.supply + o, seen_supply)]
        if len(agreeing) == 1:
            return agreeing[0], options
    return None, options


def _candidate(
    state: GameState,
    action: Action,
    reading: TableReading,
    names: Sequence[str],
    quirks: Quirks | None = None,
) -> Candidate | None:
    mover = reading.player(state.current)
    reveal, reveals, ask_reveal = _reveal_options(state, action, reading)
    try:
        mid = state.after_action(action, reveal)
    except IllegalAction:
        return None
    ask: list[str] = ["reveal"] if ask_reveal else []
    back, _ = _returns(state, mid, mover.tokens, reading.supply_seen())
    compare_state: GameState | None = None
    if back is None:
        # Still above 10 on the table (or unreadable): judge the action on the
        # mid-turn table and ask for the return.
        ask.append("return")
        compare_state = mid
        back = Tokens()
    after_return = _with_tokens(mid, mid.player.tokens - back, mid.supply + back)
    qualifying = after_return.qualifying_nobles()
    noble: str | None = None
    if len(qualifying) == 1:
        noble = qualifying[0].id
    elif qualifying:
        gone = (
            [n.id for n in qualifying if n.id not in reading.nobles]
            if reading.nobles is not None
            else []
        )
        if len(gone) == 1:
            noble = gone[0]
        else:
            noble = qualifying[0].id
            ask.append("noble")
    turn = Turn(action, reveal, back, noble)
    if compare_state is None:
        try:
            compare_state = state.apply(turn)
        except IllegalAction:
            return None
    diff = differences(predict(compare_state), reading, names, quirks)
    return Candidate(turn, distance(diff), tuple(diff), tuple(ask), reveals if ask_reveal else ())


def candidates(
    state: GameState, reading: TableReading, quirks: Quirks | None = None
) -> list[Candidate]:
    """Every legal turn of the player to move, best explanation of ``reading`` first."""
    names = [p.name for p in state.players]
    seen_tokens = reading.player(state.current).tokens
    found: list[Candidate] = []
    for action in _main_actions(state, seen_tokens, reading.supply_seen()):
        cand = _candidate(state, action, reading, names, quirks)
        if cand is not None:
            found.append(cand)
    found.sort(key=lambda c: (c.distance, len(c.ask), _simplicity(c.turn)))
    return found


def _simplicity(turn: Turn) -> tuple[int, int, int, int]:
    """Among equal scores prefer the plainer reading.

    Anything before a reserve: a purchase made with bonuses alone leaves the
    central mat as reserving that card does, but for one gold chip, so when the
    gold row is not read surely (a lamp's glint on a chip) the two tie, and a
    player who can have a card for nothing buys it (reserves are rare in recorded
    games; tests/data/world-game/README.md has the unseen game that showed it).  Gems
    before gold; and a take-and-return is read as returning other colours than the
    ones just taken (taking a gem to give it straight back is legal but rare, and
    gives the same table).
    """
    action = turn.action
    reserve = int(isinstance(action, ReserveCard | ReserveDeck))
    gold = action.payment[Gem.GOLD] if isinstance(action, Buy) else 0
    overlap = 0
    if isinstance(action, Take):
        pairs = zip(action.gems.counts, turn.returned.counts, strict=True)
        overlap = sum(min(a, b) for a, b in pairs)
    return reserve, gold, overlap, turn.returned.total()


def explaining(
    state: GameState, reading: TableReading, quirks: Quirks | None = None
) -> list[Candidate]:
    """The candidates close enough to propose, best first (at most MAX_CANDIDATES)."""
    found = candidates(state, reading, quirks)
    return [c for c in found if c.distance <= TOLERANCE][:MAX_CANDIDATES]


# ----------------------------------------------------------- unexplained change
def _delta_turn(
    state: GameState, reading: TableReading, quirks: Quirks | None = None
) -> Turn | None:
    """The turn the deltas most look like, legal or not (None if nothing moved)."""
    before = state.player
    seen = reading.player(state.current)
    gone: list[tuple[int, int]] = []
    if reading.market is not None:
        for r, row in enumerate(state.market):
            for s, card in enumerate(row):
                read = _slot_read(reading, (r, s))
                if card is None or not read.known or read.best == card.id:
                    continue
                if quirks and quirks.get(f"level {r + 1} slot {s + 1}") == (str(read), card.id):
                    continue  # a card the reader always takes for another
                gone.append((r, s))
    tokens = seen.tokens
    reserved_more = seen.reserved is not None and len(seen.reserved) > len(before.reserved)
    gained = tokens - _clip(tokens, before.tokens) if tokens is not None else Tokens()
    lost = before.tokens - _clip(before.tokens, tokens) if tokens is not None else Tokens()
    if reserved_more:
        if gone:
            r, s = gone[0]
            card = state.market[r][s]
            assert card is not None
            return Turn(ReserveCard(card.id))
        level = 1
        if seen.reserved:
            last = seen.reserved[-1]
            if last.startswith("deck") and last[4:] in ("1", "2", "3"):
                level = int(last[4:])
        return Turn(ReserveDeck(level))
    if gone and (lost or not gained):
        r, s = gone[0]
        card = state.market[r][s]
        assert card is not None
        return Turn(Buy(card.id, lost))
    if gained and not lost:
        return Turn(Take(gained))
    if lost and not gained:
        bought = _new_bonus(state, reading)
        if bought is not None:
            return Turn(Buy(bought, lost))
    return None


def _new_bonus(state: GameState, reading: TableReading) -> str | None:
    """A reserved card of the mover whose bonus appeared in the tableau."""
    seen = reading.player(state.current).bonuses
    if seen is None:
        return None
    before = state.player.bonuses
    for card in state.player.reserved:
        if not isinstance(card, Hidden) and seen[card.bonus] > before[card.bonus]:
            return card.id
    return None


def _clip(a: Tokens, b: Tokens) -> Tokens:
    return Tokens(min(x, y) for x, y in zip(a.counts, b.counts, strict=True))


def _conservation(state: GameState, reading: TableReading) -> str | None:
    """Tokens that appeared or vanished from the table as a whole."""
    if reading.supply is None or any(
        reading.player(i).tokens is None for i in range(len(state.players))
    ):
        return None
    seen = reading.supply
    for i in range(len(state.players)):
        tokens = reading.player(i).tokens
        assert tokens is not None
        seen = seen + tokens
    expected = state.supply
    for p in state.players:
        expected = expected + p.tokens
    if seen == expected:
        return None
    missing = expected - _clip(expected, seen)
    extra = seen - _clip(seen, expected)
    parts = []
    if missing:
        parts.append(f"{missing.describe()} missing from the table")
    if extra:
        parts.append(f"{extra.describe()} too many on the table")
    return "Tokens do not add up: " + " and ".join(parts)


def _others_moved(state: GameState, reading: TableReading) -> str | None:
    for i, p in enumerate(state.players):
        if i == state.current:
            continue
        seen = reading.player(i).tokens
        if seen is not None and seen != p.tokens:
            return (
                f"{p.name}'s tokens changed ({p.tokens.describe()} became"
                f" {seen.describe()}) but it is {state.player.name}'s turn"
            )
    return None


def unexplained(
    state: GameState,
    reading: TableReading,
    best: Candidate | None,
    quirks: Quirks | None = None,
) -> str:
    """Why no legal turn explains ``reading``, in words for the screen."""
    name = state.player.name
    moved = _others_moved(state, reading)
    if moved:
        return moved
    guess = _delta_turn(state, reading, quirks)
    if guess is not None:
        action = guess.action
        what = {
            Take: lambda a: f"took {a.gems.describe()}",
            Buy: lambda a: f"bought {a.card}" + (f" paying {a.payment.describe()}"),
            ReserveCard: lambda a: f"reserved {a.card}",
            ReserveDeck: lambda a: f"reserved from the level {a.level} deck",
            Pass: lambda a: "passed",
        }[type(action)](action)  # type: ignore[no-untyped-call]
        try:
            state.check_action(action)
        except IllegalAction as exc:
            return f"{name} {what}, but: {exc}"
    reason = _conservation(state, reading)
    if reason:
        return reason
    if best is not None:
        return (
            f"No legal turn of {name} matches the table. Closest: {best.turn} —"
            f" {describe_differences(best.differences)}"
        )
    return f"No legal turn of {name} matches the table"
