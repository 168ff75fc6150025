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

from vision.learned.params import params

SURE_FILE = "sure.toml"
#: The network that says whether a market or noble slot is empty (``vision.slot_net``;
#: named here, not imported: slot_net reads these thresholds' module's neighbours).
SLOTS = "splendor_slots"
#: The card reader's fitted join of network and decode, with its own sure threshold
#: (``python -m vision.training.join``): market cards are judged by the fit that
#: names them.
JOIN_FILE = "card_join.toml"
#: The noble reader's, likewise (``python -m vision.training.join --nobles``).
NOBLE_JOIN_FILE = "noble_join.toml"


def _read(name: str) -> dict[str, Any]:
    return tomllib.loads((resources.files("vision") / name).read_text(encoding="utf-8"))


def _read_if_fitted(name: str) -> dict[str, Any]:
    """A join file, or {} before its first fit (the fitting script reads through it)."""
    try:
        return _read(name)
    except FileNotFoundError:
        return {}


@cache
def _table() -> dict[str, Any]:
    return _read(SURE_FILE)


@cache
def card_join() -> dict[str, Any]:
    """``card_join.toml``: the fitted join (:class:`vision.join_fit.JoinFit`)."""
    return _read(JOIN_FILE)


@cache
def noble_join() -> dict[str, Any]:
    """``noble_join.toml``: the noble reader's fitted join ({} before its first fit)."""
    return _read_if_fitted(NOBLE_JOIN_FILE)


def splendor() -> dict[str, float]:
    """Splendor's threshold per answer category (:data:`vision.confidence.CATEGORIES`
    and "empty market slots"); the market cards' and the nobles' are their joins',
    the empty market and noble slots' the slots network's (``vision.learned``'s
    ``params.toml``: fitted on design tables with many slots emptied)."""
    nobles = noble_join()
    empty = params(SLOTS).empty_sure
    return {**{k: float(v) for k, v in _table()["splendor"].items()},
            "empty market slots": empty, "empty noble slots": empty,
            "market cards": float(card_join()["sure"]),
            **({"nobles": float(nobles["sure"])} if nobles else {})}


def duel() -> dict[str, tuple[float, float]]:
    """Splendor Duel's thresholds per kind of place: (something there, empty)."""
    return {k: (float(v["something"]), float(v["empty"]))
            for k, v in _table()["duel"].items()}
