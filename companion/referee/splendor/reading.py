"""What the referee needs from one reading of the table, and the table a state predicts.

The referee does not consume :mod:`vision`'s ``Observation`` directly: it
consumes a :class:`TableReading`, the handful of facts the rules can check
(token counts per zone, the cards in the market slots with their candidates,
the nobles still on the table, the reserved cards and the bonuses in front of
each player).  :mod:`companion.referee.splendor.observe` turns an ``Observation`` into
one.  Keeping this narrow value here means the state machine is tested with
readings written by hand, and vision can change its output without touching
the referee.

Every field may be ``None``: the reader abstained on that zone.  Unknown
fields never count against a candidate turn; they only make fewer turns
distinguishable.

:func:`predict` gives the reading a state would produce if the camera were
perfect; :func:`differences` compares a prediction with a reading.  The
candidate ranking (:mod:`companion.referee.splendor.candidates`) is built on these two, as
the Raspberry Turk chess robot scores every legal move's predicted board
against the board it sees.

This module is Splendor's (its market, supply, nobles and ``Turn``), typed
with Splendor's own ``GameState``: it is one of Splendor's hooks
(:class:`~companion.referee.splendor.hooks.SplendorGame`) into the one referee
machine (:mod:`companion.referee.machine`), which knows no game's state class.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.i18n import _
from companion.i18n.reasons import translate_difference
from companion.rules.gems import COLOURS, TOKENS, Tokens
from companion.rules.hidden import Hidden
from companion.rules.splendor.state import GameState

#: A card reading this sure (and this far above the runner-up) is taken as read.
SURE_CONFIDENCE = 0.6
SURE_MARGIN = 0.15
#: How much an abstained market slot whose hint is another card than the expected one
#: counts (a full misread counts 1).  WHY: with the players' areas out of view, a
#: card bought with bonuses alone changes nothing on the table but its slot; when
#: the new card is one the reader will not name, the turn was invisible and had to
#: be entered by hand (tests/data/world-game: 3 of 8 such turns).  Weighed below
#: ``explain.TOLERANCE``, a stray hint alone never raises a problem.
HINT_WEIGHT = 0.3
#: How far an estimated pile's count may be off before it counts as a difference.
PILE_SLACK = 1


@dataclass(frozen=True, slots=True)
class CardRead:
    """One card slot as read: candidate ids best first with confidences in [0, 1].

    ``empty`` is a slot seen empty; no candidates and not empty means the
    reader could not tell (abstained).
    """

    candidates: tuple[tuple[str, float], ...] = ()
    empty: bool = False
    #: the card the reader leaned to when it abstained (not a reading: a slot with
    #: only a hint is not ``known``); see ``HINT_WEIGHT``
    hint: str | None = None

    @classmethod
    def of(cls, card_id: str | None, confidence: float = 1.0) -> CardRead:
        """A sure reading of ``card_id`` (``None``: an empty slot)."""
        if card_id is None:
            return cls(empty=True)
        return cls(((card_id, confidence),))

    @property
    def known(self) -> bool:
        return self.empty or bool(self.candidates)

    @property
    def best(self) -> str | None:
        return self.candidates[0][0] if self.candidates else None

    @property
    def sure(self) -> bool:
        """True when the best candidate can be taken without asking."""
        if self.empty:
            return True
        if not self.candidates:
            return False
        best = self.candidates[0][1]
        second = self.candidates[1][1] if len(self.candidates) > 1 else 0.0
        return best >= SURE_CONFIDENCE and best - second >= SURE_MARGIN

    def ids(self) -> tuple[str, ...]:
        return tuple(c for c, _conf in self.candidates)

    def __str__(self) -> str:
        if self.empty:
            return "empty"
        if not self.candidates:
            return "?"
        best = self.candidates[0][0]
        return best if self.sure else f"{best}?"


UNREAD = CardRead()


@dataclass(frozen=True, slots=True)
class PlayerReading:
    """One player's area: tokens, reserved cards, bonuses (tableau by colour)."""

    tokens: Tokens | None = None
    #: what lies in the reserved slots: card ids, ``deck1``..``deck3`` for a
    #: blind card's back, ``?`` for a card that could not be read
    reserved: tuple[str, ...] | None = None
    bonuses: Tokens | None = None
    #: estimated counts of a player who keeps tokens in piles (``tokens`` is then
    #: None): which colours have a pile is trusted, a count only to within
    #: ``PILE_SLACK``; the rules give the exact count
    token_estimate: Tokens | None = None

    def settled_key(self) -> tuple[object, ...]:
        """What two readings of this area must share to agree: estimated piles
        only by which colours have one (their counts may wobble frame to frame)."""
        piles = tuple(n > 0 for n in self.token_estimate.counts) if self.token_estimate else None
        return (self.tokens, self.reserved, self.bonuses, piles)


@dataclass(frozen=True, slots=True)
class TableReading:
    """Everything the referee uses from one still frame."""

    supply: Tokens | None = None
    #: ``market[level - 1][slot]``
    market: tuple[tuple[CardRead, ...], ...] | None = None
    #: noble ids seen face up in the nobles row
    nobles: tuple[str, ...] | None = None
    players: tuple[PlayerReading, ...] = ()
    #: False when the frame could not be calibrated (no marker): nothing was read
    calibrated: bool = True
    #: the supply colour by colour (``TOKENS`` order), None where that colour was
    #: not read surely; ``supply.counts`` when the whole supply was (see observe.py)
    supply_part: tuple[int | None, ...] | None = None

    def supply_seen(self) -> tuple[int | None, ...] | None:
        """The supply per colour as far as it was read (None: not at all)."""
        if self.supply is not None:
            return self.supply.counts
        return self.supply_part

    @property
    def abstained(self) -> bool:
        """True when the reading says nothing the rules could check."""
        return not self.calibrated or (
            self.supply_seen() is None
            and self.market is None
            and self.nobles is None
            and all(p == PlayerReading() for p in self.players)
        )

    def key(self) -> tuple[object, ...]:
        """What two readings must share to agree (the settled-table test)."""
        market = (
            tuple(tuple(f"{c}{c.hint or ''}" for c in row) for row in self.market)
            if self.market else None
        )
        return (
            self.calibrated,
            self.supply_seen(),
            market,
            tuple(sorted(self.nobles)) if self.nobles is not None else None,
            tuple(p.settled_key() for p in self.players),
        )

    def player(self, index: int) -> PlayerReading:
        return self.players[index] if index < len(self.players) else PlayerReading()


@dataclass(frozen=True, slots=True)
class Difference:
    """One way a reading differs from a prediction, in words, with its weight."""

    where: str
    expected: str
    seen: str
    weight: float

    def __str__(self) -> str:
        return translate_difference(self.where, self.seen, self.expected)


def predict(state: GameState) -> TableReading:
    """The reading a perfect camera would give of ``state``'s table."""
    market = tuple(tuple(CardRead.of(c.id if c else None) for c in row) for row in state.market)
    players = tuple(
        PlayerReading(
            tokens=p.tokens,
            reserved=tuple(str(c) if isinstance(c, Hidden) else c.id for c in p.reserved),
            bonuses=p.bonuses,
        )
        for p in state.players
    )
    return TableReading(
        supply=state.supply,
        market=market,
        nobles=tuple(n.id for n in state.nobles),
        players=players,
    )


def _token_diff(where: str, expected: Tokens, seen: Tokens | Sequence[int | None]
                ) -> list[Difference]:
    """Colour by colour; a colour ``seen`` as None (not read) is not compared."""
    diff = []
    counts = seen.counts if isinstance(seen, Tokens) else tuple(seen)
    for gem, e, s in zip(TOKENS, expected.counts, counts, strict=True):
        if s is not None and e != s:
            diff.append(Difference(f"{where} {gem.label}", str(e), str(s), float(abs(e - s))))
    return diff


def _estimate_diff(where: str, expected: Tokens, seen: Tokens) -> list[Difference]:
    """Differences with estimated piles: a pile where none should be (or none where
    one should be) counts fully; a count only beyond ``PILE_SLACK``, and half."""
    diff = []
    for gem, e, s in zip(TOKENS, expected.counts, seen.counts, strict=True):
        if (e > 0) != (s > 0):
            diff.append(Difference(f"{where} {gem.label}", str(e), f"about {s}", 1.0))
        elif abs(e - s) > PILE_SLACK:
            diff.append(Difference(f"{where} {gem.label}", str(e), f"about {s}",
                                   0.5 * (abs(e - s) - PILE_SLACK)))
    return diff


def _reserved_diff(where: str, expected: Sequence[str], seen: Sequence[str]) -> list[Difference]:
    if len(expected) != len(seen):
        return [
            Difference(
                f"{where} reserved", f"{len(expected)} cards", f"{len(seen)} cards",
                float(abs(len(expected) - len(seen))),
            )
        ]
    known = Counter(s for s in seen if s != "?")
    wanted = Counter(expected)
    missing = wanted - known
    unread = sum(1 for s in seen if s == "?")
    wrong = max(sum(missing.values()) - unread, 0)
    if not wrong:
        return []
    return [
        Difference(
            f"{where} reserved", " ".join(sorted(wanted)), " ".join(sorted(known)), float(wrong)
        )
    ]


Quirks = Mapping[str, tuple[str, str]]


def differences(
    predicted: TableReading,
    reading: TableReading,
    names: Sequence[str] = (),
    quirks: Quirks | None = None,
) -> list[Difference]:
    """How ``reading`` differs from the (certain) ``predicted`` table.

    Zones the reading abstained on count for nothing.  A market card that is
    among an unsure slot's candidates but not its best counts half: the turn
    is possible, only less likely.

    ``quirks`` are the reader's known, persistent misreads: ``where ->
    (seen, expected)`` learnt when the players confirmed a table that the
    reader saw differently (a card it keeps taking for another).  A
    difference that is exactly a known quirk is not counted, so one misread
    card does not spoil every later turn; as soon as the slot reads
    differently or should hold another card, it counts again.
    """
    diff = _differences(predicted, reading, names)
    if quirks:
        diff = [d for d in diff if quirks.get(d.where) != (d.seen, d.expected)]
    return diff


def learn_quirks(diff: Sequence[Difference]) -> dict[str, tuple[str, str]]:
    """The card misreads of a confirmed table, to forgive while they persist.

    Only card identities (market slots) are learnt: token counts are exact
    by construction of the printed slots, so a count that disagrees is a
    real difference the players must see.
    """
    return {d.where: (d.seen, d.expected) for d in diff if d.where.startswith("level ")}


def _differences(
    predicted: TableReading, reading: TableReading, names: Sequence[str]
) -> list[Difference]:
    diff: list[Difference] = []
    seen_supply = reading.supply_seen()
    if seen_supply is not None and predicted.supply is not None:
        diff += _token_diff("the supply:", predicted.supply, seen_supply)
    if reading.market is not None and predicted.market is not None:
        rows = zip(predicted.market, reading.market, strict=False)
        for level, (prow, rrow) in enumerate(rows, start=1):
            for slot, (p, r) in enumerate(zip(prow, rrow, strict=False), start=1):
                if not r.known:
                    if r.hint is not None and r.hint != p.best:
                        diff.append(Difference(f"level {level} slot {slot}", p.best or "empty",
                                               f"{r.hint}??", HINT_WEIGHT))
                    continue
                want = p.best
                where = f"level {level} slot {slot}"
                if r.empty or want is None:
                    if r.empty != (want is None):
                        diff.append(Difference(where, want or "empty", str(r), 1.0))
                elif r.best == want:
                    continue
                elif want in r.ids():
                    diff.append(Difference(where, want, str(r), 0.5))
                else:
                    diff.append(Difference(where, want, str(r), 1.0))
    if reading.nobles is not None and predicted.nobles is not None:
        gone = set(predicted.nobles) - set(reading.nobles)
        extra = set(reading.nobles) - set(predicted.nobles)
        if gone or extra:
            diff.append(
                Difference(
                    "the nobles",
                    " ".join(sorted(predicted.nobles)) or "none",
                    " ".join(sorted(reading.nobles)) or "none",
                    float(max(len(gone), len(extra))),
                )
            )
    for i, expected in enumerate(predicted.players):
        got = reading.player(i)
        name = names[i] if i < len(names) else f"player {i + 1}"
        if got.tokens is not None and expected.tokens is not None:
            diff += _token_diff(f"{name}'s tokens:", expected.tokens, got.tokens)
        elif got.token_estimate is not None and expected.tokens is not None:
            diff += _estimate_diff(f"{name}'s token piles:", expected.tokens,
                                   got.token_estimate)
        if got.reserved is not None and expected.reserved is not None:
            diff += _reserved_diff(name + "'s", expected.reserved, got.reserved)
        if got.bonuses is not None and expected.bonuses is not None:
            for gem in COLOURS:
                e, s = expected.bonuses[gem], got.bonuses[gem]
                if e != s:
                    diff.append(
                        Difference(
                            f"{name}'s {gem.label} cards", str(e), str(s), float(abs(e - s))
                        )
                    )
    return diff


def distance(diff: Sequence[Difference]) -> float:
    return sum(d.weight for d in diff)


def describe_differences(diff: Sequence[Difference], limit: int = 3) -> str:
    """The first few differences in words, for the screen."""
    words = "; ".join(str(d) for d in diff[:limit])
    if len(diff) > limit:
        words += "; " + _("and {n} more").format(n=len(diff) - limit)
    return words
