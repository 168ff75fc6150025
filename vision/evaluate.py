"""Scoring observations against ground truth, per category.

Ground truth is itself an :class:`Observation` (confidence 1 everywhere), made
by :func:`truth_observation` from what the renderer placed, so recorded
scenes keep their truth in the same schema as the reader's output.

Categories: ``cards`` (market slots: right, wrong or abstained), ``nobles``,
``decks``, ``token slots``, ``reserved``, ``tableau`` (counts per column) and
``piles`` (right: the colour, and the count within ``PILE_SLACK``).
Slots covered by a hand in the truth are left out (a hand hides them; the
referee never reads such frames) and counted as ``covered``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from companion.rules import catalogue
from vision.errors import VisionError, read_text
from vision.layout import Layout
from vision.observation import (
    CardReading,
    DeckReading,
    NobleReading,
    Observation,
    PileReading,
    ReservedReading,
    TableauReading,
    TokenSlotReading,
    ZoneTokens,
)

CATEGORIES = ("cards", "nobles", "decks", "token slots", "reserved", "tableau", "piles")
#: A pile's count is an estimate: right when its colour is and its count is within this.
PILE_SLACK = 1
#: Below this confidence a pile reading counts as abstained (the referee's threshold too,
#: in companion.referee.splendor.observe).  A pile's confidence is low mostly when its row ends
#: between two counts; the one-token slack covers that.
PILE_CONFIDENCE = 0.1


def truth_observation(layout: Layout, contents: dict[str, str], covered: frozenset[str],
                      unseen: frozenset[str], size: tuple[int, int]) -> dict[str, Any]:
    """The perfect observation of a rendered frame, as JSON-ready dict, plus ``covered``."""
    cards, decks, nobles, tokens, reserved, tableau, piles = [], [], [], [], [], [], []
    for slot in layout.slots:
        if slot.id in unseen:
            continue
        c = contents.get(slot.id, "")
        if slot.kind == "card":
            cards.append(CardReading(slot.id, "card", catalogue.card(c)) if c
                         else CardReading(slot.id, "empty"))
        elif slot.kind == "deck":
            decks.append(DeckReading(slot.level or 0, bool(c)))
        elif slot.kind == "noble":
            nobles.append(NobleReading(slot.id, "noble", catalogue.noble(c)) if c
                          else NobleReading(slot.id, "empty"))
        elif slot.kind == "token":
            tokens.append(TokenSlotReading(slot.id, slot.zone, "token" if c else "empty",
                                           c or None))
        elif slot.kind == "reserved":
            reserved.append(ReservedReading(slot.id, slot.player or 0, bool(c)))
        elif slot.kind == "tableau":
            tableau.append(TableauReading(slot.player or 0, slot.colour or "",
                                          len(c.split()) if c else 0))
        elif slot.kind == "pile":  # contents: the pile's letter once per token
            piles.append(PileReading(slot.id, slot.zone, c[0] if c else None, len(c)))
    zones = []
    for zone in dict.fromkeys(t.zone for t in tokens):
        n = Counter(t.colour for t in tokens if t.zone == zone and t.colour)
        zones.append(ZoneTokens(zone, {k: n.get(k, 0) for k in "wugrky"}, 0, True))
    obs = Observation(True, size, (), tuple(cards), tuple(decks), tuple(nobles), tuple(tokens),
                      tuple(zones), tuple(reserved), tuple(tableau), tuple(piles),
                      tuple(sorted(unseen)))
    d = obs.to_dict()
    d["covered"] = sorted(covered)
    d.pop("elapsed_ms")
    return d


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    abstained: int = 0
    covered: int = 0
    mistakes: list[str] = field(default_factory=list)
    #: the objects a person could read that the reader left unsure
    abstentions: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.abstained

    def rate(self, what: str) -> float:
        return getattr(self, what) / self.total if self.total else float("nan")


#: One entry of an Observation's JSON (a card, a deck, a token slot...).
Entry = dict[str, Any]


def _key_card(d: dict[str, Any]) -> str:
    return cast(str, d["card"]["id"] if d.get("card") else d["state"])


def compare(observed: dict[str, Any], truth: dict[str, Any],
            tallies: dict[str, Tally], frame: str = "") -> None:
    """Add one frame's results to ``tallies`` (dicts in the Observation JSON schema)."""
    covered = set(truth.get("covered", ()))

    def run(cat: str, t_items: list[Entry], o_items: list[Entry], key_t: Callable[[Entry], Any],
            key_o: Callable[[Entry], Any], slot_of: Callable[[Entry], str],
            unsure: Callable[[Entry], bool],
            same: Callable[[Any, Any], bool] = lambda a, b: a == b) -> None:
        tally = tallies.setdefault(cat, Tally())
        seen = {slot_of(o): o for o in o_items}
        for t in t_items:
            sid = slot_of(t)
            if sid in covered:
                tally.covered += 1
                continue
            o = seen.get(sid)
            if o is None or unsure(o):
                tally.abstained += 1
                tally.abstentions.append(f"{frame} {sid}: unsure of {key_t(t)}")
            elif same(key_o(o), key_t(t)):
                tally.right += 1
            else:
                tally.wrong += 1
                tally.mistakes.append(f"{frame} {sid}: {key_o(o)} for {key_t(t)}")

    run("cards", truth["cards"], observed.get("cards", []), _key_card, _key_card,
        lambda d: d["slot"], lambda d: d["state"] == "unknown")
    run("nobles", truth["nobles"], observed.get("nobles", []),
        lambda d: d["noble"]["id"] if d["noble"] else d["state"],
        lambda d: d["noble"]["id"] if d["noble"] else d["state"],
        lambda d: d["slot"], lambda d: d["state"] == "unknown")
    run("decks", truth["decks"], observed.get("decks", []), lambda d: d["present"],
        lambda d: d["present"], lambda d: f"deck.{d['level']}", lambda d: d["present"] is None)
    run("token slots", truth["token_slots"], observed.get("token_slots", []),
        lambda d: d["colour"] or "empty", lambda d: d["colour"] or "empty",
        lambda d: d["slot"], lambda d: d["state"] == "unknown")
    run("reserved", truth["reserved"], observed.get("reserved", []), lambda d: d["occupied"],
        lambda d: d["occupied"], lambda d: d["slot"], lambda d: d["occupied"] is None)
    run("tableau", truth["tableau"], observed.get("tableau", []), lambda d: d["count"],
        lambda d: d["count"], lambda d: f"player{d['player']}.tableau.{d['colour']}",
        lambda d: d["count"] is None)
    run("piles", truth.get("piles", []), observed.get("piles", []),
        lambda d: (d["colour"], d["count"]), lambda d: (d["colour"], d["count"]),
        lambda d: d["slot"], lambda d: d["confidence"] < PILE_CONFIDENCE,
        lambda o, t: o[0] == t[0] and abs(o[1] - t[1]) <= PILE_SLACK)


def format_table(tallies: dict[str, Tally], latency_ms: list[float]) -> str:
    lines = [f"{'category':<12} {'items':>6} {'right':>8} {'wrong':>8} {'abstained':>10} "
             f"{'covered':>8}"]
    for cat in CATEGORIES:
        t = tallies.get(cat)
        if not t or not t.total:
            continue
        lines.append(f"{cat:<12} {t.total:>6} {100 * t.rate('right'):>7.2f}% "
                     f"{100 * t.rate('wrong'):>7.2f}% {100 * t.rate('abstained'):>9.2f}% "
                     f"{t.covered:>8}")
    if latency_ms:
        ms = sorted(latency_ms)
        lines.append(f"latency: median {ms[len(ms) // 2]:.0f} ms, max {ms[-1]:.0f} ms "
                     f"over {len(ms)} frames")
    return "\n".join(lines)


#: The lists every truth file holds (``piles`` and ``covered`` are optional).
TRUTH_LISTS = ("cards", "nobles", "decks", "token_slots", "reserved", "tableau")


def load_truth(path: Path) -> dict[str, Any]:
    """A frame's truth (an Observation's JSON); ``VisionError`` naming the file when it
    is not UTF-8, not JSON, not an object or lacks a list of entries it must hold."""
    text = read_text(path, "truth file")
    try:
        truth = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise VisionError(f"truth file {path} is not JSON ({str(exc)[:80]})") from None
    if not isinstance(truth, dict):
        raise VisionError(f"truth file {path} holds a JSON {type(truth).__name__},"
                          " not an object")
    for key in (*TRUTH_LISTS, "piles", "covered"):
        value = truth.get(key, [])
        if not isinstance(value, list) or not all(
                isinstance(v, str if key == "covered" else dict) for v in value):
            raise VisionError(f"truth file {path}: {key!r} is not a list of entries")
    missing = [k for k in TRUTH_LISTS if k not in truth]
    if missing:
        raise VisionError(f"truth file {path} has no {', '.join(missing)}")
    return truth
