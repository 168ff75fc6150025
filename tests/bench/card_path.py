"""How often a card's read goes back to a module it had left: the card reader's
path through ``vision`` traced call by call.

A pipeline a newcomer can follow enters each module of the card reader once per
card and in order (find, rectify, judge, extract, decode, confidence).  This
script reads every card slot of the recorded scenes in this process, records the
module of every ``vision`` function called (``sys.setprofile``; constructors of
values left out), collapses
consecutive calls in one module, and counts a *return* each time the path
enters a module it had already entered and then left for another module while
reading the same card.  It prints the total for each module and the worst card.

Two figures: over every ``vision`` module (the shared helpers ``pixels``,
``calibrate``, ``sampling`` that several stages call count too), and over the
stages alone (``STAGES``: a return there is a card read again from an earlier
stage, a second pass over other places), with the passes per card.

    PYTHONPATH=. .venv/bin/python tests/bench/card_path.py [--scenes DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from vision import slot_jobs
from vision.calibrate import calibrate, slots_visible
from vision.colours import ColourModel
from vision.layout import load_layout
from vision.read import load_image

#: Modules of the card reader's path (the orchestrator and every stage and helper).
PREFIX = "vision."
#: The stages, in the order a pass visits them (vision/card_reader.py).
STAGES = ("vision.card_find", "vision.face_cut", "vision.card_seen", "vision.card_features",
          "vision.card_decode", "vision.card_confidence")


def trace_read(fn, *args):  # type: ignore[no-untyped-def]
    """The sequence of vision modules entered while ``fn(*args)`` runs."""
    seq: list[str] = []

    def prof(frame, event, arg):  # type: ignore[no-untyped-def]
        # a value's constructor (a dataclass's __init__ runs "in" the module that
        # defines the class) is not a step of the path
        if event == "call" and not frame.f_code.co_name.startswith("__"):
            mod = frame.f_globals.get("__name__", "")
            if mod.startswith(PREFIX) and (not seq or seq[-1] != mod):
                seq.append(mod)

    sys.setprofile(prof)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return seq


def returns(seq: list[str]) -> Counter[str]:
    """Entries into a module already entered earlier in ``seq`` (and left since)."""
    seen: set[str] = set()
    out: Counter[str] = Counter()
    for mod in seq:
        if mod in seen:
            out[mod] += 1
        seen.add(mod)
    return out


def _collapsed(seq: list[str]) -> list[str]:
    """``seq`` with consecutive repeats of a module kept once."""
    return [m for i, m in enumerate(seq) if i == 0 or seq[i - 1] != m]


def _passes(seq: list[str]) -> int:
    """Passes over places in a card's path: times the cut (stage 2) is entered from
    another stage."""
    n, last = 0, ""
    for mod in seq:
        if mod in STAGES:
            n += mod == "vision.face_cut" and last != mod
            last = mod
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default="tests/data/scenes")
    ap.add_argument("--limit", type=int, default=6, help="scenes to read (default 6)")
    a = ap.parse_args(argv)
    colours = ColourModel()
    layout = load_layout(Path(a.scenes) / "layout.json")
    total: Counter[str] = Counter()
    stage_returns = 0
    passes: Counter[int] = Counter()
    cards = 0
    worst: tuple[int, str, list[str]] = (0, "", [])
    per_card: list[int] = []
    for meta in sorted(Path(a.scenes).glob("0*.jpg"))[: a.limit]:
        image = load_image(meta)
        cal = calibrate(image, layout)
        if cal is None:
            continue
        seen = slots_visible(cal, layout.slots, image.shape)
        slots = [s for s, v in zip(layout.slots, seen, strict=True) if v and s.kind == "card"]
        for job in slot_jobs.make_jobs(image, cal, slots):
            slot_jobs.read_job(job, colours)  # warm caches: count the steady path
            seq = trace_read(slot_jobs.read_job, job, colours)
            r = returns(seq)
            total += r
            stage_returns += sum(returns(_collapsed([m for m in seq if m in STAGES])).values())
            passes[_passes(seq)] += 1
            per_card.append(sum(r.values()))
            cards += 1
            if sum(r.values()) > worst[0]:
                worst = (sum(r.values()), f"{meta.stem}:{job.slot.id}", seq)
    per_card.sort()
    median = per_card[len(per_card) // 2] if per_card else 0
    print(f"{cards} cards read; returns to a module already left, per card: "
          f"mean {sum(total.values()) / max(cards, 1):.1f}, median {median} "
          f"(worst {worst[0]}, {worst[1]})")
    print(f"returns to a stage ({', '.join(m.removeprefix(PREFIX) for m in STAGES)}), "
          f"per card: mean {stage_returns / max(cards, 1):.1f}; passes per card: "
          + ", ".join(f"{k}: {v} cards" for k, v in sorted(passes.items())))
    for mod, n in total.most_common():
        print(f"  {mod:28s} {n / max(cards, 1):6.1f} per card")
    print("worst card's path: " + " > ".join(m.removeprefix(PREFIX) for m in worst[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
