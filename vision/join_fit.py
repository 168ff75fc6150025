"""A fitted join of a network's guess and a printed-feature decode (cards and nobles).

:mod:`vision.card_net` and :mod:`vision.noble_net` each put a pair (the decode's
answer, the network's guess) in one of their cases and read from a TOML file
beside this module what the fit made of that case: an intercept and a slope on
the network's logit, a slope on the decode's logit where both name the same
thing, whether the decode's answer is the one named, and the sure threshold.
The files are written by ``python -m vision.training.join`` (``--nobles`` for the
nobles' file), never by hand; a case a file does not know is a coin toss.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: How close to 0 or 1 a probability is taken before its logit: the network's softmax
#: and the decode's confidences (which reach exactly 0 and 1) stay finite.
NET_EPS = 1e-4
DECODE_EPS = 1e-3
#: The threshold no probability reaches: nothing of that kind is sure, or named alone.
NEVER = 1.01


def logit(p: float, eps: float) -> float:
    p = min(max(p, eps), 1 - eps)
    return math.log(p / (1 - p))


@dataclass(frozen=True)
class JoinFit:
    """The fitted join: per case an intercept and a slope on the network's logit, a
    slope on the decode's logit where both agree, and the cases in which the decode's
    answer is named."""

    intercept: Mapping[str, float]
    net_slope: Mapping[str, float]
    decode_slope: float
    decode_wins: frozenset[str]
    sure: float
    #: cases the design tables showed too rarely to fit: answered unknown (with a hint)
    rare: frozenset[str] = frozenset()
    #: the network's least probability at which it names a card alone (cards only,
    #: :func:`vision.card_net.alone`); NEVER: never
    alone: float = NEVER
    #: a slope on the decode's logit in the cases where the decode's answer is named
    #: (``decode_wins``): there it is the decode's confidence that speaks for the card
    named_decode_slope: float = 0.0

    def probability(self, case: str, p_net: float, p_decode: float) -> float:
        """The fitted chance that the answer named in ``case`` is right."""
        z = self.intercept[case] + self.net_slope[case] * logit(p_net, NET_EPS)
        if case == "agree":
            z += self.decode_slope * logit(p_decode, DECODE_EPS)
        elif case in self.decode_wins:
            z += self.named_decode_slope * logit(p_decode, DECODE_EPS)
        return 1 / (1 + math.exp(-z))


def from_table(t: Mapping[str, Any], cases: Sequence[str]) -> JoinFit:
    """The fit a join file holds (``t``, its parsed TOML) for ``cases``; an empty table
    (no file yet: the first fit) names nothing surely."""
    if not t:
        return JoinFit({c: 0.0 for c in cases}, {c: 0.0 for c in cases}, 0.0, frozenset(),
                       NEVER)
    # a case the file does not know (written before it existed) is a coin toss
    return JoinFit({c: float(t["intercept"].get(c, 0.0)) for c in cases},
                   {c: float(t["net_slope"].get(c, 0.0)) for c in cases},
                   float(t["decode_slope"]), frozenset(t["decode_wins"]), float(t["sure"]),
                   frozenset(t.get("rare", ())), float(t.get("alone", NEVER)),
                   float(t.get("named_decode_slope", 0.0)))
