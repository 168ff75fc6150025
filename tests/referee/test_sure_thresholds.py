"""The referee takes an answer as sure only at or above its category's threshold
(``vision.confidence.SURE``, measured on unseen tables); below it, it asks or leaves
the zone unread."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.referee.splendor.observe import from_observation
from companion.referee.splendor.reading import SURE_CONFIDENCE
from companion.rules.splendor import catalogue
from tests.referee.referee_helpers import new_state
from tests.referee.test_observe import _observation
from vision.confidence import SURE
from vision.observation import (
    CardReading,
    NobleReading,
    Observation,
    ReservedReading,
    TokenSlotReading,
)

BELOW = 1e-3
#: A card is also held to the referee's own SURE_CONFIDENCE (reading.py).
CARD_SURE = max(SURE["market cards"], SURE_CONFIDENCE)


def _sure_observation() -> Observation:
    """A perfect observation whose every answer is exactly at its threshold."""
    obs = _observation(new_state())
    cards = tuple(replace(c, confidence=CARD_SURE) for c in obs.cards)
    nobles = tuple(replace(n, confidence=SURE["nobles"]) for n in obs.nobles)
    reserved = tuple(replace(r, confidence=SURE["reserved"]) for r in obs.reserved)
    slots = tuple(TokenSlotReading(f"supply.{g}.0", "supply", "token", g,
                                   SURE["token chips"]) for g in "wugrk")
    slots += (TokenSlotReading("player1.tokens.0", "player1.tokens", "empty", None,
                               SURE["empty token slots"]),)
    return replace(obs, cards=cards, nobles=nobles, reserved=reserved, token_slots=slots)


def test_answers_at_their_threshold_are_taken() -> None:
    reading = from_observation(_sure_observation(), 3)
    assert reading.market is not None and all(c.sure for row in reading.market for c in row)
    assert reading.nobles is not None and reading.supply is not None
    assert reading.players[0].tokens is not None and reading.players[0].reserved == ()


def test_a_card_below_its_threshold_becomes_a_question() -> None:
    obs = _sure_observation()
    card = catalogue.card("2u3")
    cards = list(obs.cards)
    cards[6] = CardReading("market.2.2", "card", card, SURE["market cards"] - BELOW,
                           runner_up="2g1")
    cards[7] = CardReading("market.2.3", "empty", None, SURE["empty market slots"] - BELOW)
    reading = from_observation(replace(obs, cards=tuple(cards)), 3)
    assert reading.market is not None
    unsure = reading.market[1][2]
    assert not unsure.sure and unsure.ids() == ("2u3", "2g1")
    assert not reading.market[1][3].known  # an unsure "empty" is unread, not empty
    assert reading.market[1][1].sure


@pytest.mark.parametrize("slot", [
    TokenSlotReading("supply.w.1", "supply", "token", "w", SURE["token chips"] - BELOW),
    TokenSlotReading("supply.w.1", "supply", "empty", None, SURE["empty token slots"] - BELOW),
])
def test_a_token_slot_below_its_threshold_leaves_the_zone_unread(slot) -> None:
    obs = _sure_observation()
    reading = from_observation(replace(obs, token_slots=(*obs.token_slots, slot)), 3)
    assert reading.supply is None
    assert reading.players[0].tokens is not None  # other zones are untouched


def test_nobles_and_reserved_below_their_threshold_are_unread() -> None:
    obs = _sure_observation()
    nobles = list(obs.nobles)
    nobles[0] = replace(nobles[0], confidence=SURE["nobles"] - BELOW)
    reserved = list(obs.reserved)
    reserved[3] = replace(reserved[3], confidence=SURE["reserved"] - BELOW)
    assert isinstance(nobles[0], NobleReading) and isinstance(reserved[3], ReservedReading)
    reading = from_observation(replace(obs, nobles=tuple(nobles), reserved=tuple(reserved)), 3)
    assert reading.nobles is None
    assert reading.players[1].reserved is None and reading.players[0].reserved == ()
