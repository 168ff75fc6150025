"""The learned reader's fitted values: one :class:`Params` per network in ``params.toml``.

Written only by ``python -m vision.training.fit`` (chesscog's ``cfg`` and
``find_best_configs``): it fits each value on the design calibration frames and
scores it on the check frames, and writes both into the file's comments.  No
value here is edited by hand.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources

PARAMS_FILE = "params.toml"


@dataclass(frozen=True)
class Params:
    """What is fitted per network.

    ``temperature``: the logits are divided by it before the softmax (fitted by
    least log-loss on design calibration crops).  ``sure``: the probability at and
    above which an answer the network gives is taken as sure (the lowest at which
    the design calibration answers were wrong at most once in 1000).
    ``empty_sure``: the same, of its "empty" answers alone, for a network that
    says whether a slot is empty (the answer a referee acts on when a card or
    noble is taken).  ``hidden_sure``: likewise of its "hidden" answers (a slot it
    is that sure a hand or glare hides is not read at all)."""

    temperature: float = 1.0
    sure: float = 1.01
    empty_sure: float = 1.01
    hidden_sure: float = 1.01


@cache
def all_params() -> dict[str, Params]:
    """Every network's params from the packaged ``params.toml`` (defaults when absent)."""
    try:
        text = (resources.files("vision.learned") / PARAMS_FILE).read_text(encoding="utf-8")
    except OSError:
        return {}
    names = {f.name for f in fields(Params)}
    return {k: Params(**{n: float(v[n]) for n in names if n in v})
            for k, v in tomllib.loads(text).items() if isinstance(v, dict)}


def params(name: str) -> Params:
    """The params of network ``name``."""
    return all_params().get(name, Params())
