"""Stage 7 of reading a card: the learned reader's opinion joined to the decode's.

The decode (stages 3-6) reads what every printing shares and abstains often
(14 % of readable market cards on unseen tables, issue 38); the learned reader
(:mod:`vision.learned`, trained on rendered crops of the design faces and ours)
names nearly every card it sees.  Joined:

* a face the decode judged not seen (glare, a hand, a deep shadow over a
  reading region) stays unknown: nothing named where nothing can be read;
* both name the same card: the chance both are wrong at once,
  ``1 - (1 - p_net)(1 - p_decode)``;
* the decode abstained leading with the network's card (or with none): the
  network's calibrated probability.  Leading with another card it is unsure:
  the decode reads the cost numerals at 4 px/mm, the network sees them at
  0.9 px/mm, and its mistakes on a printing it never saw are numerals (1k3,
  whose blue 2 it took for the 1 of 1k4);
* they name different cards of one colour (they differ in numerals only): the
  decode's answer as it stands, numerals being what it reads and the network
  barely sees;
* they name cards of different colours: the decode's card at no more than the
  chance the network is wrong about it, ``min(p_decode, 1 - p_net)``: such a
  disagreement is never sure.

Which of these is sure is the market-card threshold of :mod:`vision.confidence`,
chosen on the design frames like every other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np

from companion.rules import catalogue
from vision.card_places import NAMED_MIN_CONFIDENCE, UNKNOWN_CONFIDENCE
from vision.card_seen import Seen
from vision.learned.recognizer import Guess, recognizer
from vision.observation import CardReading


@lru_cache(maxsize=4)
def level_ids(level: int) -> tuple[str, ...]:
    """The ids a market slot of ``level`` can hold."""
    return tuple(c.id for c in catalogue.cards_of_level(level))


def guess(faces: Sequence[np.ndarray], seen: Sequence[Seen], level: int) -> Guess | None:
    """The network's guess over the faces that were seen (None: none was)."""
    shown = [f for f, s in zip(faces, seen, strict=True) if not s.unseen]
    return recognizer("splendor_cards").guess(shown, level_ids(level)) if shown else None


def same_colour(a: str, b: str) -> bool:
    """Whether two cards of a level share their bonus colour: then they differ in their
    numerals (points, costs), which the decode reads at 4 px/mm and the network sees
    at 0.9 (the drawn 1r2 and 1r5 differ by one cost, 2 against 1)."""
    return catalogue.card(a).bonus == catalogue.card(b).bonus


def join(answer: CardReading, net: Guess | None) -> CardReading:
    """``answer`` (the decode's) joined with the network's guess ``net``."""
    if net is None or answer.state == "empty":
        return answer
    if answer.state == "card" and answer.card is not None:
        if answer.card.id == net.best:
            p = 1 - (1 - net.p) * (1 - answer.confidence)
            return replace(answer, confidence=p)
        if same_colour(answer.card.id, net.best):
            return answer  # numerals: the decode reads them, the network barely sees them
        p = min(answer.confidence, 1 - net.p)
        if p >= NAMED_MIN_CONFIDENCE:
            return replace(answer, confidence=p, runner_up=net.best)
        return CardReading(answer.slot, "unknown", None, min(p, UNKNOWN_CONFIDENCE),
                           answer.distance, net.best)
    led = answer.runner_up  # the card the decode led with when it abstained
    if net.p >= NAMED_MIN_CONFIDENCE and led in (None, net.best):
        return CardReading(answer.slot, "card", catalogue.card(net.best), net.p,
                           answer.distance, net.second)
    return replace(answer, runner_up=net.best, confidence=min(net.p, UNKNOWN_CONFIDENCE))
