"""Stage 7 of reading a card: the learned reader's opinion joined to the decode's.

The decode (stages 3-6) reads what every printing shares and abstains often
(14 % of readable market cards on unseen tables, issue 38); the learned reader
(:mod:`vision.learned`, trained on rendered crops of the design faces and ours)
names nearly every card it sees.  How far to trust each is not written here but
fitted (:mod:`vision.training.join`) and read from ``card_join.toml``:

* the network names a card alone, without the decode, when its probability is at
  least the fitted ``alone`` gate and no other card of the level shares the card's
  colour pattern (bonus, cost colours, points or none): the decode then reads what
  the network read, and its numerals, the one thing it reads better (the network
  sees them at 0.9 px/mm), tell nothing.  WHY: the decode is most of a read's time,
  and on the design tables it changed none of these answers.  The tables the gate
  is fitted on hold empty market slots too, which the network, knowing no "empty",
  may name as a card;
* a face the decode judged not seen (glare, a hand, a deep shadow over a
  reading region) stays unknown: nothing named where nothing can be read;
* otherwise the pair falls in one of :data:`CASES` (both name one card; the
  decode abstained leading with the network's card or with none; it abstained
  leading with the other card of the network's pair (1r2 and 1r5 share their
  colours and differ in numerals only), with another card of the same colour, or
  of another colour; they name the two cards of a pair; two of one colour; of
  two colours);
* the card named is the network's, except in the disagreements the fit found
  the decode (its answer, or the card it led with) right more often
  (``decode_wins``);
* its confidence is a logistic fit of "the named card is right" on the case,
  the network's probability and, when both agree, the decode's confidence;
* a case the design tables showed too rarely to fit (``rare``: two cards of
  different colours, say) names nothing: the network's card is only a hint.

WHY a fit and not a rule: the rule this replaces ("both agree: 1 - (1-p)(1-d)")
treated two readers of one face as independent and left a quarter of the hard
light's right cards unsure.  The fit is made on tables whose faces the network
never saw (its calibration twin, :mod:`vision.training.twin`), as at a player's
table, so it does not learn to trust the network on faces it was trained on; and
on the same tables read by the shipped network, faces it knows (a box of the
printing it learned), so it does not learn to overrule a network that is right.
Which answers are sure is the market-card threshold fitted with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

import numpy as np

from companion.rules import catalogue
from vision import sure
from vision.card_places import NAMED_MIN_CONFIDENCE, UNKNOWN_CONFIDENCE
from vision.card_seen import Seen
from vision.cardface import pattern
from vision.join_fit import JoinFit, from_table
from vision.learned.recognizer import Guess, recognizer
from vision.observation import CardReading

#: The ways the decode's answer and the network's guess can stand (see the docstring);
#: "alone": the network named the card without the decode.
CASES = ("alone", "agree", "abstained", "abstained on its pair", "abstained on numerals",
         "abstained elsewhere", "same pattern", "same colour", "other colour")


@lru_cache(maxsize=4)
def level_ids(level: int) -> tuple[str, ...]:
    """The ids a market slot of ``level`` can hold."""
    return tuple(c.id for c in catalogue.cards_of_level(level))


def guess(faces: Sequence[np.ndarray], seen: Sequence[Seen], level: int) -> Guess | None:
    """The network's guess on the surest of the faces that were seen (None: none was; see
    :meth:`~vision.learned.recognizer.Recognizer.surest`)."""
    shown = [f for f, s in zip(faces, seen, strict=True) if not s.unseen]
    return recognizer("splendor_cards").surest(shown, level_ids(level)) if shown else None


@cache
def paired(card_id: str) -> bool:
    """Whether another card of ``card_id``'s level shows its colour pattern (1r2 and 1r5:
    a red bonus, costs in the same colours, no points): only numerals tell them apart."""
    card = catalogue.card(card_id)
    return any(c.id != card_id and pattern(c) == pattern(card)
               for c in catalogue.cards_of_level(card.level))


def same_pattern(a: str, b: str) -> bool:
    """Whether two cards of a level show one colour pattern (a pair told apart by its
    numerals only, which the network sees at 0.9 px/mm)."""
    card = catalogue.card(a)
    return paired(a) and pattern(card) == pattern(catalogue.card(b))


def same_colour(a: str, b: str) -> bool:
    """Whether two cards of a level share their bonus colour: then they differ in their
    numerals (points, costs), which the decode reads at 4 px/mm and the network sees
    at 0.9 (the drawn 1r2 and 1r5 differ by one cost, 2 against 1)."""
    return catalogue.card(a).bonus == catalogue.card(b).bonus


def case_of(answer: CardReading, net: Guess) -> str:
    """Which of :data:`CASES` the decode's ``answer`` and the network's guess make."""
    if answer.state != "card" or answer.card is None:
        led = answer.runner_up
        if led in (None, net.best):
            return "abstained"
        if same_pattern(led, net.best):
            return "abstained on its pair"
        return "abstained on numerals" if same_colour(led, net.best) else "abstained elsewhere"
    if answer.card.id == net.best:
        return "agree"
    if same_pattern(answer.card.id, net.best):
        return "same pattern"
    return "same colour" if same_colour(answer.card.id, net.best) else "other colour"


def decode_card(answer: CardReading) -> str | None:
    """The card the decode stands for: the one it named, or led with when it abstained."""
    return answer.card.id if answer.card is not None else answer.runner_up


def names_alone(fit: JoinFit, net: Guess) -> bool:
    """Whether ``net`` names its card without the decode (``fit.alone``: the gate)."""
    return net.p >= fit.alone and not paired(net.best)


@cache
def fitted() -> JoinFit:
    """``card_join.toml`` beside this module (package data: a Pi has it)."""
    return from_table(sure.card_join(), CASES)


def alone(slot: str, net: Guess | None) -> CardReading | None:
    """The network's answer for ``slot`` when it names the card without the decode (see
    :func:`names_alone`), else None: the decode reads the face."""
    fit = fitted()
    if net is None or not names_alone(fit, net) or "alone" in fit.rare:
        return None
    p = fit.probability("alone", net.p, 1.0)
    if p < NAMED_MIN_CONFIDENCE:
        return None
    return CardReading(slot, "card", catalogue.card(net.best), p, None, net.second)


def join(answer: CardReading, net: Guess | None) -> CardReading:
    """``answer`` (the decode's) joined with the network's guess ``net``."""
    if net is None or answer.state == "empty":
        return answer
    fit = fitted()
    case = case_of(answer, net)
    decoded = decode_card(answer)
    decode_named = case in fit.decode_wins and decoded is not None
    named = catalogue.card(decoded if decode_named and decoded is not None else net.best)
    other = net.best if decode_named else (
        decoded if decoded is not None and decoded != net.best else net.second)
    p = fit.probability(case, net.p, answer.confidence)
    if p >= NAMED_MIN_CONFIDENCE and case not in fit.rare:
        return CardReading(answer.slot, "card", named, p, answer.distance, other)
    return CardReading(answer.slot, "unknown", None, min(p, UNKNOWN_CONFIDENCE),
                       answer.distance, named.id)
