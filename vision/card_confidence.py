"""Stage 5 of reading a card: the decode's evidence as a probability of being right.

A logistic model of "the named card is right" on the decode's evidence (its
lead over the runner-up, its colour fit, its weakest piece of evidence, how
well the deciding numerals fit, the glare on the face, and the contradictions
between what every printing shares: the cost circles alone against the bonus
gem (``cost_lead``), each cost numeral against the other values
(``digit_lead``), the points numeral against the other values).  WHY: the former
confidence was the margin through an exponential, and wrong answers carried a
median of 0.85 (issue 12), so the referee could not tell them from right ones.

Fitted on the DESIGN faces only (``face_sets("design")``: the older printing
and the newer printing's even-numbered faces), clean and degraded (3-6 px/mm,
blur, cast, glare, occluders, misplacement):

    .venv/bin/python -m tests.bench.bench_cards --split design --variants 20 --fit

which prints ``CONFIDENCE_WEIGHTS`` to paste below, and the reliability table
(its ridge, ``RIDGE`` there, was chosen on other design faces).
"""

from __future__ import annotations

import math

from vision.card_decode import COLOUR_MARGIN, Decoded

#: Logistic weights on :func:`features` (bias first), from the command above.
CONFIDENCE_WEIGHTS = (1.0200, 1.5002, -0.8265, -0.3889, 3.2777, -0.6091, 2.2393, 0.1399, 3.7263,
                      0.5043, 4.9840)


def features(margin: float, distance: float, weakest: float, numeral_fit: float,
             glare: float, numeral_lead: float, bonus_lead: float,
             points_lead: float, cost_lead: float = 0.0, digit_lead: float = 0.0
             ) -> list[float]:
    """The evidence the model weighs (each bounded, so no one term runs away)."""
    return [1.0, min(margin, 1.5) / COLOUR_MARGIN, 10 * distance, 5 * weakest, numeral_fit,
            min(glare, 0.2) * 10, 10 * max(-0.3, min(0.3, numeral_lead)),
            5 * max(-0.5, min(0.5, bonus_lead)), 5 * max(-0.5, min(0.5, points_lead)),
            2 * max(-0.5, min(1.0, cost_lead)), 5 * max(-0.3, min(0.3, digit_lead))]


def probability(dec: Decoded, glare: float) -> float:
    """How likely ``dec.best`` is the card on the face (0..1)."""
    x = features(dec.margin, dec.distance, dec.weakest, dec.numeral_fit, glare,
                 dec.numeral_lead, dec.bonus_lead, dec.points_lead, dec.cost_lead,
                 dec.digit_lead)
    z = sum(w * v for w, v in zip(CONFIDENCE_WEIGHTS, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))
