"""Score the Duel reader on rendered Duel tables it has never seen.

Each frame is a seeded random Duel position (:func:`vision.synth.duel.duel_frame`)
photographed in the world, read by :func:`vision.duel.read.read_duel_places` and
compared place by place with what was drawn.  A place is *readable* unless the
world says a person could not read it (hand, glare, shadow) or it is not wholly in
the frame; the issue's bars are on readable places.  On places a person could not
read, abstaining is right and any answer other than the truth is wrong.

Kinds reported: board cells, pyramid cards, royals, privileges (the three above the
board and each player's three), and beside them decks, reserved cards and the
players' token places.  Frames of the central mat (``framing="centre"``, the
settled camera: hardware.md) score the central mat's places only; what the players
hold is the referee's to derive from the turns.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from vision.calibration_report import choose_threshold
from vision.confidence import NEVER, SURE_WRONG_GOAL
from vision.duel.confidence import KINDS as SURE_KINDS
from vision.duel.confidence import SURE
from vision.duel.confidence import kind_of as sure_kind_of
from vision.duel.read import read_duel_places
from vision.synth.duel import duel_frame

KINDS = ("board cells", "pyramid cards", "royals", "privileges", "player tokens", "decks",
         "reserved")
#: The issue's bars per kind: (least right share, most wrong share) on readable places.
BARS = {"board cells": (0.995, 0.002), "pyramid cards": (0.98, 0.003), "royals": (1.0, 0.0),
        "privileges": (1.0, 0.0)}
PRESENCE = ("deck", "privilege", "reserved")


@dataclass(frozen=True)
class Outcome:
    kind: str
    place: str
    truth: str
    answer: str | None
    hidden: str | None
    why: str = ""
    confidence: float = 0.0
    #: whether the answer is at or above its kind's threshold (vision.duel.confidence)
    sure: bool = False

    @property
    def verdict(self) -> str:
        if self.answer is None:
            return "abstained"
        return "right" if self.answer == self.truth else "wrong"


@dataclass(frozen=True)
class FrameResult:
    seed: int
    difficulty: str
    split: str
    tags: tuple[str, ...]
    outcomes: tuple[Outcome, ...]


def kind_of(place: str) -> str | None:
    """The category a place is scored in: a kind the referee's thresholds judge
    (:func:`vision.duel.confidence.kind_of`), or the players' tokens and reserved
    cards, scored but out of the settled camera's view."""
    kind = sure_kind_of(place)
    if kind is not None:
        return kind
    if ".tokens." in place:
        return "player tokens"
    if ".reserved." in place:
        return "reserved"
    return None


def evaluate_frame(difficulty: str, seed: int, split: str, framing: str = "centre",
                   lens: str = "wide") -> FrameResult:
    frame = duel_frame(difficulty, seed, split, framing, lens)
    reading = read_duel_places(frame.image)
    out = []
    for place, r in reading.places.items():
        kind = kind_of(place)
        if kind is None or place in frame.unseen:
            continue
        if framing == "centre" and place.startswith("player"):
            continue  # the edge of a player's mat in view: not what this camera reads
        truth = frame.contents.get(place, "")
        if any(place.startswith(p) or f".{p}." in place for p in PRESENCE):
            truth = "present" if truth else ""
        out.append(Outcome(kind, place, truth, r.value, frame.hidden.get(place), r.why,
                           r.confidence, r.sure))
    return FrameResult(seed, difficulty, split, frame.tags, tuple(out))


def _share(n: int, total: int) -> str:
    return f"{n / total:.1%}" if total else "-"


def report(results: Sequence[FrameResult], header: Sequence[str] = ()) -> str:
    """A Markdown report: per kind, readable places right / wrong / abstained, the
    bars, and what happened on the places a person could not read; then the same per
    difficulty when the frames have more than one (the bars must hold at each)."""
    lines = [*header, "", *_table(results), "", *sure_lines(results)]
    levels = list(dict.fromkeys(r.difficulty for r in results))
    if len(levels) > 1:
        for level in levels:
            mine = [r for r in results if r.difficulty == level]
            lines += ["", f"## {level} ({len(mine)} frames)", "", *_table(mine)]
    return "\n".join(lines) + "\n"


def _table(results: Sequence[FrameResult]) -> list[str]:
    lines = ["| kind | readable | right | wrong | abstained | bar | hidden "
             "| wrong on hidden |", "|---|---|---|---|---|---|---|---|"]
    for kind in KINDS:
        items = [o for r in results for o in r.outcomes if o.kind == kind]
        readable = [o for o in items if o.hidden is None]
        hidden = [o for o in items if o.hidden is not None]
        n = len(readable)
        right = sum(o.verdict == "right" for o in readable)
        wrong = sum(o.verdict == "wrong" for o in readable)
        abst = sum(o.verdict == "abstained" for o in readable)
        bar = "-"
        if kind in BARS and n:
            lo, hi = BARS[kind]
            ok = right / n >= lo and wrong / n <= hi
            bar = f"{'holds' if ok else 'MISSED'} (>= {lo:.1%} / <= {hi:.1%})"
        hid_wrong = sum(o.answer is not None and o.answer != o.truth for o in hidden)
        lines.append(f"| {kind} | {n} | {_share(right, n)} | {_share(wrong, n)} | "
                     f"{_share(abst, n)} | {bar} | {len(hidden)} | {hid_wrong} |")
    return lines


def _answered(results: Sequence[FrameResult], kind: str) -> list[Outcome]:
    """Every answer of ``kind``, readable places and hidden ones alike."""
    return [o for r in results for o in r.outcomes if o.kind == kind and o.answer is not None]


def _pairs(results: Sequence[FrameResult], kind: str, answer: str
           ) -> list[tuple[float, bool]]:
    """(confidence, right) of every answer of ``kind`` of this sort ("" empty, else
    something there), readable places and hidden ones alike."""
    return [(o.confidence, o.answer == o.truth) for o in _answered(results, kind)
            if (o.answer == "") == (answer == "")]


def chosen_thresholds(results: Sequence[FrameResult], goal: float = SURE_WRONG_GOAL
                      ) -> dict[str, tuple[float, float]]:
    """Per kind, (something there, empty): the lowest confidence at or above which these
    frames' answers of that sort (readable and hidden places alike) hold at most
    ``floor(goal * n)`` wrong of ``n`` (:func:`vision.calibration_report.choose_threshold`;
    NEVER when none is, or no answer was given)."""
    out = {}
    for kind in SURE_KINDS:
        pair = [choose_threshold(p, goal) if (p := _pairs(results, kind, a)) else NEVER
                for a in ("x", "")]
        out[kind] = (pair[0], pair[1])
    return out


def _cut(threshold: float) -> str:
    """A threshold cut (not rounded) to three places: the answer it was chosen at stays
    sure when the printed value is pasted into vision/duel/confidence.py."""
    return f"{math.floor(threshold * 1000) / 1000:.3f}"


def sure_lines(results: Sequence[FrameResult]) -> list[str]:
    """How the sure thresholds hold: per kind and sort of answer, the answers taken as
    sure (what the referee sees), how many of them wrong, the share of readable places
    answered right and sure, and the threshold these frames would choose (choose on the
    design split only)."""
    chosen = chosen_thresholds(results)
    lines = ["Sure answers (the view the referee gets; thresholds from "
             "vision/duel/confidence.py; readable and hidden places alike):", "",
             "| kind (answer) | threshold | answers | sure | sure wrong (goal <= 0.1 %) "
             "| readable answered right and sure | these frames choose |",
             "|---|---|---|---|---|---|---|"]
    for kind in SURE_KINDS:
        readable = [o for r in results for o in r.outcomes if o.kind == kind
                    and o.hidden is None]
        for i, answer in enumerate(("something", "empty")):
            empty = answer == "empty"
            given = [o for o in _answered(results, kind) if (o.answer == "") == empty]
            sure = [o for o in given if o.sure]
            wrong = sum(o.answer != o.truth for o in sure)
            mine = [o for o in readable if (o.truth == "") == empty]
            covered = sum(o.sure and o.answer == o.truth for o in mine)
            lines.append(f"| {kind} ({answer}) | {SURE[kind][i]:.3f} | {len(given)} | "
                         f"{len(sure)} | {100 * wrong / max(len(sure), 1):.2f} % ({wrong}) | "
                         f"{_share(covered, len(mine))} | {_cut(chosen[kind][i])} |")
    return lines


def mistakes(results: Sequence[FrameResult]) -> list[str]:
    """Every readable place answered wrongly, and every abstention, one line each."""
    out = []
    for r in results:
        for o in r.outcomes:
            if o.hidden is None and o.verdict != "right":
                out.append(f"- {r.difficulty} seed {r.seed} {o.place}: {o.verdict} "
                           f"({o.answer!r} for {o.truth!r}{'; ' + o.why if o.why else ''})")
    return out
