"""Duel card naming: the scores and margins behind MIN_SCORE / MIN_MARGIN (vision/duel/cards.py).

Renders Duel tables (seeds 200-208, easy/medium/hard), cuts every readable pyramid
and royal card at the reader's poses and names it against the design bank with no
margin rule, then prints the lowest margins and scores of right answers and every
wrong answer.  Decide constants on ``--split design`` only; ``check`` is a report.

    .venv/bin/python tests/bench/duel_cards.py --split design
    .venv/bin/python tests/bench/duel_cards.py --split design --royals --framing centre \
        --frames 60
    .venv/bin/python tests/bench/duel_cards.py --split design --washed
    .venv/bin/python tests/bench/duel_cards.py --split design --empty
    .venv/bin/python tests/bench/duel_cards.py --split design --detail \
        --seeds 9000,9100,9300,9500
    .venv/bin/python tests/bench/duel_cards.py --split design --royal-empty \
        --seeds 9000,9100,9200,9300,9400,9500,9600,9700,9800,9900

``--washed``: every card found on medium and hard frames of the central framing (seeds
5000-5015 and 7000-7011, both lenses) with more than 12 % of it washed out, hidden or
not, and what the naming made of it: the evidence behind GLARE_MAX.  ``--empty``: per
kind of card place (empty or holding a card; readable, under a hand or glare) of frames
of the central framing (seeds 5000-5011, every difficulty, both lenses), the range of
what :func:`~vision.duel.cards.plain_place` and :func:`~vision.duel.cards.outline_depth`
measure: the evidence behind PLAIN_CHROMA_MAX, PLAIN_GRAD_MAX and OUTLINE_DEPTH.
``--detail``: every pyramid card found present on medium and hard frames of the central
framing (12 from each of ``--seeds``, both lenses) whose whole picture scores below
MIN_SCORE, with what its detail names, that name's score and lead, and whether it is
right: the evidence behind CARD_DETAIL_MIN_SCORE and CARD_DETAIL_MIN_MARGIN.
``--royal-empty``: per kind of royal place of the central framing (12 frames from each
of ``--seeds``, every difficulty, both lenses; royal or empty, readable or under a hand
or glare, and how :func:`~vision.duel.cards.find_card` found it), the range of
:func:`~vision.duel.cards.plain_share` and of the outline's second-least side
(:func:`~vision.duel.cards.outline_sides`), and every place those would call empty
that ``find_card`` did not: the evidence behind ROYAL_PLAIN_EMPTY.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from vision.calibrate import calibrate
from vision.duel import cards as C
from vision.duel.bank import default_bank
from vision.synth.duel import duel_frame
from vision.synth.duel_faces import DUEL_CARD_MM

#: The script's other measures: flag -> (what it prints, how it is run).  WHY a table:
#: one place that declares a measure's flag and runs it.
MODES: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {
    "royal-empty": ("what tells an empty royal place not plain as a whole",
                    lambda a: royal_empty(a.split, a.seeds)),
    "detail": ("low-scoring pyramid cards: what their detail names",
               lambda a: detail_names(a.split, a.seeds)),
    "empty": ("what tells an empty card place under a shadow from a card",
              lambda a: empty_places(a.split)),
    "washed": ("cards washed out over 12 %%: named right, wrong or unsure",
               lambda a: washed_cards(a.split)),
    "royals": ("royal places only, the empty ones a card was found on too",
               lambda a: royal_scores(a.frames, a.split, a.framing)),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("design", "check"), default="design")
    ap.add_argument("--frames", type=int, default=9)
    ap.add_argument("--framing", choices=("centre", "table"), default="table",
                    help="the camera's framing (the reader's is centre: hardware.md)")
    for flag, (what, _) in MODES.items():
        ap.add_argument(f"--{flag}", action="store_true", help=what)
    ap.add_argument("--seeds", default="9000,9100,9300,9500",
                    help="first seeds of --detail and --royal-empty, comma-separated")
    args = ap.parse_args()
    for flag, (_, run) in MODES.items():
        if getattr(args, flag.replace("-", "_")):
            return run(args)
    cards, royals = default_bank()
    C.MIN_MARGIN = 1e-9
    C.MIN_SCORE = -1.0
    res = []
    for i in range(args.frames):
        f = duel_frame(("easy", "medium", "hard")[i % 3], 200 + i, args.split, args.framing)
        cal = calibrate(f.image, f.layout)
        if cal is None:
            continue
        print(f"frame {i + 1}/{args.frames}", flush=True)
        for sl in f.layout.slots:
            if (sl.kind not in ("card", "noble") or sl.id in f.hidden or sl.id in f.unseen
                    or sl.id not in f.contents):
                continue
            faces = C.posed_faces(f.image, cal.h_for_slot(sl), sl, cal.gain_at(sl.center),
                                  DUEL_CARD_MM)
            bank = cards.subset(str(sl.level)) if sl.kind == "card" else royals
            n = C.name_card(faces, bank)
            res.append((n.margin, n.score, n.value == f.contents[sl.id], f.contents[sl.id]))
    right = sorted(r for r in res if r[2])
    print(f"{len(res)} cards, {len(right)} right at the best score")
    print("lowest margins of right answers:",
          ", ".join(f"{m:.3f} ({t})" for m, _, _, t in right[:6]))
    print("lowest scores of right answers:",
          ", ".join(f"{s:.2f}" for s in sorted(r[1] for r in right)[:6]))
    print("wrong:", ", ".join(f"{t}: margin {m:.3f} score {s:.2f}" for m, s, ok, t in res
                             if not ok) or "none")
    return 0


def detail_names(split: str, seeds: str) -> int:
    """The detail's name, score and lead of every low-scoring pyramid card."""
    cards, _ = default_bank()
    rows: list[tuple[float, float, str, str, str]] = []
    for lens in ("standard", "wide"):
        for level in ("medium", "hard"):
            for base in (int(v) for v in seeds.split(",")):
                for seed in range(base, base + 12):
                    f = duel_frame(level, seed, split, "centre", lens)
                    cal = calibrate(f.image, f.layout)
                    if cal is None:
                        continue
                    print(f"{lens} {level} {seed}", flush=True)
                    for sl in f.layout.slots_of("card"):
                        if sl.id in f.unseen or not sl.id.startswith("pyramid"):
                            continue
                        h, gain = cal.h_for_slot(sl), cal.gain_at(sl.center)
                        if C.find_card(f.image, h, sl, gain, DUEL_CARD_MM).state != "present":
                            continue
                        faces = C.posed_faces(f.image, h, sl, gain, DUEL_CARD_MM)
                        bank = cards.subset(str(sl.level))
                        if C.name_card(faces, bank).score >= C.MIN_SCORE:
                            continue
                        found = C.by_detail(faces, bank)
                        if found is None:
                            continue
                        name, score, lead = found
                        truth = f.contents.get(sl.id, "")
                        rows.append((score, lead, f"{lens} {level} {seed} {sl.id}",
                                     f.hidden.get(sl.id) or "readable",
                                     "right" if name == truth else f"wrong ({name})"))
    for score, lead, where, seen, verdict in sorted(rows, reverse=True):
        print(f"{where} {seen}: detail {score:.2f} ahead {lead:.3f} {verdict}")
    return 0


def royal_scores(frames: int, split: str, framing: str) -> int:
    """Best score and lead of every readable royal place where a card was found (right,
    wrong, or an empty place under a shadow or a hand): MIN_SCORE_ROYAL, MIN_MARGIN_ROYAL."""
    _, royals = default_bank()
    rows: list[tuple[str, float, float]] = []
    for i in range(frames):
        f = duel_frame(("easy", "medium", "hard")[i % 3], 200 + i, split, framing)
        cal = calibrate(f.image, f.layout)
        if cal is None:
            continue
        for sl in f.layout.slots_of("noble", "royals"):
            if sl.id in f.hidden or sl.id in f.unseen:
                continue
            h, gain = cal.h_for_slot(sl), cal.gain_at(sl.center)
            if C.find_card(f.image, h, sl, gain, DUEL_CARD_MM).state != "present":
                continue
            n = C.name_card(C.posed_faces(f.image, h, sl, gain, DUEL_CARD_MM), royals)
            truth = f.contents.get(sl.id)
            verdict = "empty" if truth is None else "right" if n.value == truth else "wrong"
            rows.append((verdict, n.score, n.margin))
    for verdict in ("right", "wrong", "empty"):
        mine = sorted(r[1:] for r in rows if r[0] == verdict)
        print(f"{verdict}: {len(mine)} places; lowest scores (score, lead): " +
              ", ".join(f"{sc:.2f} ({m:.2f})" for sc, m in mine[:6]) +
              ("; highest: " + ", ".join(f"{sc:.2f} ({m:.2f})" for sc, m in mine[-3:])
               if verdict != "right" and mine else ""))
    return 0


def empty_places(split: str) -> int:
    """Ranges of the plain-place measures and the outline's depth per kind of place."""
    import numpy as np

    from vision.calibrate import rectify

    seen: dict[str, list[tuple[float, float, float]]] = {}
    for lens in ("wide", "standard"):
        for level in ("easy", "medium", "hard"):
            for seed in range(5000, 5012):
                f = duel_frame(level, seed, split, "centre", lens)
                cal = calibrate(f.image, f.layout)
                if cal is None:
                    continue
                for sl in f.layout.slots:
                    if sl.kind not in ("card", "noble") or sl.id in f.unseen or not (
                            sl.id.startswith(("royal", "pyramid"))):
                        continue
                    h = cal.h_for_slot(sl)
                    outer = rectify(f.image, h, sl, C.FIND_PX_PER_MM,
                                    C.RING_OUT_MM).astype(np.float32)
                    s, ring = C.FIND_PX_PER_MM, round(C.RING_WIDTH_MM * C.FIND_PX_PER_MM)
                    band = np.concatenate([outer[:ring].reshape(-1, 3),
                                           outer[-ring:].reshape(-1, 3),
                                           outer[:, :ring].reshape(-1, 3),
                                           outer[:, -ring:].reshape(-1, 3)])
                    paper = np.median(band, axis=0)
                    cut = round((C.RING_OUT_MM + C.FIND_MARGIN_MM) * s)
                    inner = outer[cut: outer.shape[0] - cut, cut: outer.shape[1] - cut]
                    total = inner.sum(axis=2) + 3.0
                    chroma = np.abs(inner / total[..., None] - paper / (paper.sum() + 3.0))
                    light = C.cv2.GaussianBlur(np.log(total), (0, 0), 1.5)
                    grad = np.hypot(C.cv2.Sobel(light, C.cv2.CV_32F, 1, 0),
                                    C.cv2.Sobel(light, C.cv2.CV_32F, 0, 1)) / 8
                    kind = ("card" if f.contents.get(sl.id) else "empty") + " " + \
                        f.hidden.get(sl.id, "readable")
                    seen.setdefault(kind, []).append((
                        float(np.percentile(chroma.max(axis=2), C.PLAIN_PERCENTILE)),
                        float(np.percentile(grad, C.PLAIN_PERCENTILE)),
                        C.outline_depth(f.image, h, sl)))
            print(f"{lens} {level} done", flush=True)
    for kind, rows in sorted(seen.items()):
        v = np.asarray(rows)
        print(f"{kind}: {len(v)} places; colour {v[:, 0].min():.3f}-{v[:, 0].max():.3f}, "
              f"lightness {v[:, 1].min():.3f}-{v[:, 1].max():.3f}, outline "
              f"{v[:, 2].min():.3f}-{v[:, 2].max():.3f}")
    return 0


def royal_empty(split: str, seeds: str) -> int:
    """Ranges of the plain share and the outline's second-least side per kind of royal
    place, and the places the royal rule would call empty beyond ``find_card``."""
    import numpy as np
    from duel_frames import calibrated_frames  # a sibling bench module

    seen: dict[str, list[tuple[float, float]]] = {}
    called = []
    for lens, level, seed, f, cal in calibrated_frames(seeds, 12, ("easy", "medium", "hard"),
                                                         split=split):
        for sl in f.layout.slots_of("noble", "royals"):
            if sl.id in f.unseen:
                continue
            h = cal.h_for_slot(sl)
            state = C.find_card(f.image, h, sl, cal.gain_at(sl.center), DUEL_CARD_MM).state
            share, side = C.plain_share(f.image, h, sl), C.outline_sides(f.image, h, sl)[1]
            kind = (f"{'royal' if f.contents.get(sl.id) else 'empty'} "
                    f"{f.hidden.get(sl.id, 'readable')} {state}")
            seen.setdefault(kind, []).append((share, side))
            if state != "empty" and C.royal_place_empty(f.image, h, sl):
                called.append(f"{lens} {level} {seed} {sl.id}: {kind}, plain {share:.2f}, "
                              f"three sides {side:.2f}")
    for kind, rows in sorted(seen.items()):
        v = np.asarray(rows)
        print(f"{kind}: {len(v)} places; plain {v[:, 0].min():.2f}-{v[:, 0].max():.2f}, "
              f"three sides {v[:, 1].min():.2f}-{v[:, 1].max():.2f}")
    print("\n".join(["called empty by ROYAL_PLAIN_EMPTY:", *called]))
    return 0


def washed_cards(split: str) -> int:
    """Every card place of medium and hard central frames washed out over 12 %."""
    cards, royals = default_bank()
    tally: dict[tuple[str, str], int] = {}
    for lens in ("wide", "standard"):
        for level in ("medium", "hard"):
            for seed in (*range(5000, 5016), *range(7000, 7012)):
                f = duel_frame(level, seed, split, "centre", lens)
                cal = calibrate(f.image, f.layout)
                if cal is None:
                    continue
                for sl in f.layout.slots:
                    if sl.kind not in ("card", "noble") or sl.id in f.unseen:
                        continue
                    h, gain = cal.h_for_slot(sl), cal.gain_at(sl.center)
                    found = C.find_card(f.image, h, sl, gain, DUEL_CARD_MM)
                    if found.state != "present" or found.washed <= 0.12:
                        continue
                    bank = cards.subset(str(sl.level)) if sl.kind == "card" else royals
                    n = C.name_card(C.posed_faces(f.image, h, sl, gain, DUEL_CARD_MM), bank)
                    truth = f.contents.get(sl.id, "")
                    verdict = ("unsure" if n.value is None else
                               "right" if n.value == truth else "WRONG")
                    seen = f.hidden.get(sl.id, "readable")
                    tally[seen, verdict] = tally.get((seen, verdict), 0) + 1
                    print(f"{lens} {level} {seed} {sl.id} {seen}: washed {found.washed:.2f} "
                          f"{verdict} ({n.value} for {truth!r}, score {n.score:.2f})",
                          flush=True)
    for (seen, verdict), k in sorted(tally.items()):
        print(f"{seen} {verdict}: {k}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
