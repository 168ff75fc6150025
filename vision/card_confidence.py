"""Stage 6 of reading a card: the decode's evidence as a probability of being right.

A logistic model of "the named card is right" on the decode's evidence (its
lead over the runner-up, its colour fit, its weakest piece of evidence, how
well the deciding numerals fit, the glare on the face, and the contradictions
between what every printing shares: the cost circles alone against the bonus
gem (``cost_lead``), each cost numeral against the other values
(``digit_lead``), the points numeral against the other values).  WHY: the former
confidence was the margin through an exponential, and wrong answers carried a
median of 0.85 (issue 12), so the referee could not tell them from right ones.

Its weights are data: fitted on the DESIGN faces only (the older printing and
the newer printing's even-numbered faces), clean and degraded (3-6 px/mm, blur,
cast, glare, occluders, misplacement), scored on the check faces, and written with
the reliability tables into ``card_confidence.toml`` beside this module by
``python -m vision.training.confidence`` (``make train``); nothing here is pasted.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.rules.catalogue import Card
from vision.card_decode import COLOUR_MARGIN, Decoded
from vision.card_seen import Seen

#: The fitted model's file, package data beside this module.
CONFIDENCE_FILE = "card_confidence.toml"


def features(margin: float, distance: float, weakest: float, numeral_fit: float,
             glare: float, numeral_lead: float, bonus_lead: float,
             points_lead: float, cost_lead: float = 0.0, digit_lead: float = 0.0
             ) -> list[float]:
    """The evidence the model weighs (each bounded, so no one term runs away)."""
    return [1.0, min(margin, 1.5) / COLOUR_MARGIN, 10 * distance, 5 * weakest, numeral_fit,
            min(glare, 0.2) * 10, 10 * max(-0.3, min(0.3, numeral_lead)),
            5 * max(-0.5, min(0.5, bonus_lead)), 5 * max(-0.5, min(0.5, points_lead)),
            2 * max(-0.5, min(1.0, cost_lead)), 5 * max(-0.3, min(0.3, digit_lead))]


@cache
def weights() -> tuple[float, ...]:
    """The logistic weights on :func:`features` (bias first), from ``card_confidence.toml``."""
    return parse((resources.files("vision") / CONFIDENCE_FILE).read_text(encoding="utf-8"))


def parse(text: str) -> tuple[float, ...]:
    """The weights a ``card_confidence.toml`` holds; ValueError when they do not fit
    :func:`features` (a file from another version of the model)."""
    w = tuple(float(v) for v in tomllib.loads(text)["weights"])
    if len(w) != len(features(0, 0, 0, 0, 0, 0, 0, 0)):
        raise ValueError(f"{CONFIDENCE_FILE} holds {len(w)} weights, not one per feature: "
                         "run python -m vision.training.confidence")
    return w


def probability_of(w: Sequence[float], evidence: Sequence[float]) -> float:
    """How likely the leading card is right, under weights ``w``, given the decode's
    ``evidence`` (:attr:`FaceReading.evidence`'s order)."""
    z = sum(a * v for a, v in zip(w, features(*evidence), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def probability(dec: Decoded, glare: float) -> float:
    """How likely ``dec.best`` is the card on the face (0..1)."""
    return probability_of(weights(), (dec.margin, dec.distance, dec.weakest,
                                      dec.numeral_fit, glare, dec.numeral_lead,
                                      dec.bonus_lead, dec.points_lead, dec.cost_lead,
                                      dec.digit_lead))


@dataclass(frozen=True)
class FaceReading:
    """One rectified face read through stages 3-6."""

    #: the card named, or None (abstained)
    card: Card | None
    #: calibrated probability that the leading card is right (0 when not seen)
    confidence: float
    #: 1 - the leading card's colour fit (1.0 when not seen)
    distance: float
    #: the runner-up's id (the leading card's when abstained)
    other: str | None
    #: the weakest piece of evidence for the leading card (0..1)
    weakest: float
    #: the decode, None when the face was not seen
    decoded: Decoded | None = None
    #: why the face was not seen ("" when it was)
    unseen: str = ""
    #: share of the face clipped to white
    glare: float = 0.0
    #: the decode's lead through an exponential (see ``margin_confidence``)
    margin_confidence: float = 0.0

    @property
    def evidence(self) -> tuple[float, ...]:
        d = self.decoded
        if d is None:
            return (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return (d.margin, d.distance, d.weakest, d.numeral_fit, self.glare, d.numeral_lead,
                d.bonus_lead, d.points_lead, d.cost_lead, d.digit_lead)


def margin_confidence(dec: Decoded) -> float:
    """The decode's lead through an exponential: the measure the choice between
    places (``card_places.GOOD_CONFIDENCE``) was tuned on."""
    return float(1 - math.exp(-max(0.0, dec.margin) / 0.25))


def state_all(decoded: Sequence[Decoded | None], seen: Sequence[Seen]) -> list[FaceReading]:
    """The reading of every face of a pass: ``state`` of each decoded face, ``unseen``
    of each face stage 3 did not see."""
    return [unseen(s.unseen, s.glare) if d is None else state(d, s.glare)
            for d, s in zip(decoded, seen, strict=True)]


def state(dec: Decoded, glare: float) -> FaceReading:
    """A decoded face as a reading: named or not, with its calibrated confidence."""
    p = probability(dec, glare)
    other = dec.runner_up.id if dec.card is not None else dec.best.id
    return FaceReading(dec.card, p, dec.distance, other, dec.weakest, dec, glare=glare,
                       margin_confidence=margin_confidence(dec))


def unseen(why: str, glare: float) -> FaceReading:
    """The reading of a face not seen where it is read (stage 3 said so)."""
    return FaceReading(None, 0.0, 1.0, None, 0.0, unseen=why, glare=glare)
