"""The sure thresholds of both readers, read from ``sure.toml`` beside this module.

A threshold is a decision data makes (issue 38): ``python -m vision.training.sure``
chooses each on the design split's rendered tables (the lowest confidence above
which no more than one answer in a thousand was wrong) and scores it on the
check split, and writes both into ``sure.toml``; nothing there is edited by
hand.  This module only reads it, so a Pi needs neither the art nor the script.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

SURE_FILE = "sure.toml"


@cache
def _table() -> dict[str, Any]:
    text = (resources.files("vision") / SURE_FILE).read_text(encoding="utf-8")
    return tomllib.loads(text)


def splendor() -> dict[str, float]:
    """Splendor's threshold per answer category (:data:`vision.confidence.CATEGORIES`)."""
    return {k: float(v) for k, v in _table()["splendor"].items()}


def duel() -> dict[str, tuple[float, float]]:
    """Splendor Duel's thresholds per kind of place: (something there, empty)."""
    return {k: (float(v["something"]), float(v["empty"]))
            for k, v in _table()["duel"].items()}
