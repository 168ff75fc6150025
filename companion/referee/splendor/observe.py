"""Vision's :class:`~vision.observation.Observation` as the referee's :class:`TableReading`.

The adapter is where the referee decides how much to trust each zone:

* a token zone counts only when vision says it is ``exact`` (no unknown or
  unseen slot); otherwise the zone is unread, never guessed; the supply is also
  read colour by colour (``TableReading.supply_part``): a colour counts when every
  slot of its printed row reads surely and every chip of that colour elsewhere
  does.  WHY: a supply of 40 slots almost always has one slot under a hand, a
  glint or a dark chip the reader will not name; one unsure slot used to leave
  all six colours unread, and with them the payment and the returns the supply
  pins.  The mat prints each row's colour by name and letter, and players put a
  chip back in its row; an unsure slot is taken to hold its row's colour or
  nothing, so it makes only its own row's count unknown;
* a player who keeps tokens in piles gives estimated counts
  (``token_estimate``): which colours have a pile counts, a count only when far
  off, so the rules pin the exact count among the legal turns;
* a market slot keeps the reader's card and its runner-up as candidates, so
  an unsure card becomes a question among its slot's few candidates;
* the nobles row counts only when every noble slot was read (an unknown slot
  could hide any noble);
* reserved slots give a count (vision reads whether a slot is occupied, not
  which card lies face down in it): ``"?"`` per occupied slot, only when all
  of the player's reserved slots are in the frame;
* a player's area out of the frame (the camera frames the central mat:
  hardware.md) is unread; the rules know what the player holds;
* a tableau column counts when its reading is at least ``TABLEAU_CONFIDENCE``
  sure; a player's bonuses count only when all five columns do;
* everywhere else "sure" is :data:`vision.confidence.SURE` of the answer's
  category, measured on unseen tables (``vision world``): a card below it is a
  question among its candidates, an empty slot below it is unread, a token zone
  with a slot below it is not exact, nobles and reserved slots likewise.

Slot and zone names follow ``vision/layout.py`` (``market.<level>.<slot>``,
``noble.<i>``, ``supply``, ``player<n>.tokens``, ``player<n>.reserved.<i>``).

Splendor's own: Duel's table reading is :mod:`companion.referee.duel.compare`.
"""

from __future__ import annotations

from companion.referee.splendor.reading import (
    SURE_CONFIDENCE,
    CardRead,
    PlayerReading,
    TableReading,
)
from companion.rules.gems import TOKENS, Tokens
from companion.rules.splendor.catalogue import LEVELS
from companion.rules.splendor.state import MARKET_WIDTH
from vision.confidence import is_sure
from vision.observation import Observation, ZoneTokens

#: Below this, a tableau column's count is not trusted.
TABLEAU_CONFIDENCE = 0.9
#: A pile read below this confidence leaves its player's piles unread.
PILE_CONFIDENCE = 0.1
#: A card read below this confidence is not taken as read at all.
CARD_FLOOR = 0.05
#: A card below its sure threshold keeps its candidates but at no more than this
#: confidence, under ``reading.SURE_CONFIDENCE``: the slot becomes a question.
UNSURE_CAP = 0.5 * SURE_CONFIDENCE


def _tokens(counts: dict[str, int]) -> Tokens:
    return Tokens(counts.get(g.letter, 0) for g in TOKENS)


def _card(obs: Observation, slot: str) -> CardRead:
    reading = obs.card_at(slot)
    if reading is None:
        return CardRead()
    if reading.state == "unknown":
        # the decode's best guess, kept as a hint (see reading.HINT_WEIGHT)
        return CardRead(hint=reading.runner_up or None)
    sure = is_sure("market cards", reading.confidence,
                   "empty" if reading.state == "empty" else "card")
    if reading.state == "empty":
        return CardRead(empty=True) if sure else CardRead()
    if reading.card is None or reading.confidence < CARD_FLOOR:
        return CardRead()
    confidence = float(reading.confidence) if sure else min(float(reading.confidence),
                                                             UNSURE_CAP)
    candidates = [(reading.card.id, confidence)]
    if reading.runner_up and reading.runner_up != reading.card.id:
        candidates.append((reading.runner_up, max(0.0, 1.0 - float(reading.confidence))))
    return CardRead(tuple(candidates))


def _sure_tokens(obs: Observation, zone: ZoneTokens | None) -> Tokens | None:
    """A token zone's counts, when it is exact: vision says so and every slot's
    answer is sure; else None."""
    if zone is None or not zone.exact:
        return None
    if all(is_sure("token slots", t.confidence,
                   (t.colour or "empty") if t.state == "token" else "empty")
           for t in obs.token_slots if t.zone == zone.zone):
        return _tokens(zone.counts)
    return None


def _supply_part(obs: Observation, zone: ZoneTokens | None) -> tuple[int | None, ...] | None:
    """Per colour (``TOKENS`` order): the supply's count where it is read surely,
    else None; None when no colour is (see the module's docstring)."""
    if zone is None:
        return None
    slots = [t for t in obs.token_slots if t.zone == zone.zone]
    cut = {s.split(".")[1] for s in obs.unseen
           if s.startswith(f"{zone.zone}.") and s.count(".") == 2}
    unsure_rows = set(cut)
    counts: dict[str, int] = {}
    for t in slots:
        row = t.slot.split(".")[1] if t.slot.count(".") == 2 else ""
        answer = (t.colour or "empty") if t.state == "token" else "empty"
        if t.state == "unknown" or not is_sure("token slots", t.confidence, answer):
            unsure_rows.add(row)
            if t.state == "token" and t.colour:
                unsure_rows.add(t.colour)
            continue
        if t.state == "token" and t.colour:
            counts[t.colour] = counts.get(t.colour, 0) + 1
    part = tuple(None if g.letter in unsure_rows or "" in unsure_rows else counts.get(g.letter, 0)
                 for g in TOKENS)
    return part if any(n is not None for n in part) else None


def _pile_estimate(obs: Observation, zone: str) -> Tokens | None:
    """A player's piles as estimated counts, when every pile of the zone was read."""
    piles = [r for r in obs.piles if r.zone == zone]
    if not piles or any(r.count and r.colour is None for r in piles):
        return None
    if any(r.confidence < PILE_CONFIDENCE for r in piles):
        return None
    counts: dict[str, int] = {}
    for r in piles:
        if r.colour and r.count:
            counts[r.colour] = counts.get(r.colour, 0) + r.count
    return _tokens(counts)


def from_observation(obs: Observation, players: int) -> TableReading:
    """The reading the referee uses from one ``Observation`` of a ``players`` table."""
    if not obs.calibrated:
        return TableReading(calibrated=False, players=(PlayerReading(),) * players)
    market = tuple(
        tuple(_card(obs, f"market.{level}.{s}") for s in range(MARKET_WIDTH)) for level in LEVELS
    )
    if all(not c.known for row in market for c in row):
        market = None  # type: ignore[assignment]
    nobles: tuple[str, ...] | None = None
    if obs.nobles and all(n.state != "unknown" and is_sure("nobles", n.confidence)
                          for n in obs.nobles):
        nobles = tuple(n.noble.id for n in obs.nobles if n.state == "noble" and n.noble)
    supply_zone = obs.zone_tokens("supply")
    supply = _sure_tokens(obs, supply_zone)
    part = supply.counts if supply is not None else _supply_part(obs, supply_zone)
    seats = []
    for p in range(1, players + 1):
        zone = obs.zone_tokens(f"player{p}.tokens")
        tokens = _sure_tokens(obs, zone)
        estimate = _pile_estimate(obs, f"player{p}.tokens") if tokens is None else None
        slots = [r for r in obs.reserved if r.player == p]
        reserved: tuple[str, ...] | None = None
        # a count of the slots in view alone would miss the cards out of it
        cut = any(s.startswith(f"player{p}.reserved.") for s in obs.unseen)
        if slots and not cut and all(r.occupied is not None and is_sure("reserved", r.confidence)
                                     for r in slots):
            reserved = ("?",) * sum(1 for r in slots if r.occupied)
        columns = {t.colour: t for t in obs.tableau if t.player == p}
        counted = {colour: t.count for colour, t in columns.items()
                   if t.count is not None and t.confidence >= TABLEAU_CONFIDENCE}
        bonuses: Tokens | None = None
        if len(columns) == 5 and len(counted) == 5:
            bonuses = Tokens(counted[g.letter] for g in TOKENS[:5])
        seats.append(PlayerReading(tokens=tokens, reserved=reserved, bonuses=bonuses,
                                   token_estimate=estimate))
    return TableReading(
        supply=supply, market=market, nobles=nobles, players=tuple(seats), calibrated=True,
        supply_part=part,
    )
