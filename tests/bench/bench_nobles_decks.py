"""Nobles and decks on rendered tables: right / wrong / abstained per face set, and
how well the confidence means what it says (reliability table, ECE).

Renders the nobles row and the deck column of the centre mat with the
publisher's noble faces of each face set (``vision.synth.facesets``: "design"
is what the reader was tuned on, "check" is never tuned on), through easy and
hard cameras (``Camera.random``) at 2-6 px/mm, calibrates each frame as the
reader would, and reads every noble and deck slot.  A slot under a hand is
counted apart (abstaining is right there).  Hard scenes are read a second time
with a glare spot added over every noble and deck slot ("glare" rows: abstaining
is right there, a wrong answer at >= 0.9 never is).  Ends with the reliability
table of the noble answers per split.  Nothing rendered is written.

    .venv/bin/python tests/bench/bench_nobles_decks.py [scenes per set] [design|check|both]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from itertools import pairwise

import cv2
import numpy as np

from vision.calibrate import calibrate
from vision.colours import ColourModel
from vision.layout import Slot, build_layout
from vision.noble_reader import read_noble
from vision.readers import read_deck
from vision.synth import Camera, TableScene, random_scene, render
from vision.synth.facesets import face_sets

#: the nobles row and the deck column of the centre mat, with markers in view
WINDOW = (-400.0, -225.0, 30.0, 190.0)
#: the referee's "sure"
SURE = 0.9
#: every noble answer (confidence, right) per split, for the reliability table
ALL: dict[str, list[tuple[float, bool]]] = defaultdict(list)
BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01)


class Tally:
    """right / wrong / abstained counts and (confidence, right) pairs of the answers."""

    def __init__(self) -> None:
        self.n = defaultdict(int)  # type: ignore[var-annotated]
        self.answers: list[tuple[float, bool]] = []

    def add(self, want: str, got: str | None, conf: float) -> None:
        if got is None:
            self.n["abstained"] += 1
            return
        ok = got == want
        self.n["right" if ok else "wrong"] += 1
        self.answers.append((conf, ok))

    def sure_wrong(self) -> int:
        return sum(1 for c, ok in self.answers if c >= SURE and not ok)

    def line(self) -> str:
        t = sum(self.n.values()) or 1
        sure = [ok for c, ok in self.answers if c >= SURE]
        return (f"n={t:4d} right {100 * self.n['right'] / t:5.1f}% wrong "
                f"{100 * self.n['wrong'] / t:4.1f}% abstained {100 * self.n['abstained'] / t:5.1f}%"
                f" | sure {len(sure)} wrong {len(sure) - sum(sure)} | ECE {ece(self.answers):.3f}")


def glare_on(img: np.ndarray, hmat: np.ndarray, slot: Slot, rng: np.random.Generator
             ) -> np.ndarray:
    """``img`` with a glare spot (additive, as the renderer's, 0.5-0.9 of its
    strength, 20-45 mm wide) within 15 mm of ``slot``'s centre."""
    def px(p: tuple[float, float]) -> np.ndarray:
        return cv2.perspectiveTransform(np.array([[p]], np.float64), hmat)[0, 0]

    c = px(slot.center)
    scale = float(np.linalg.norm(px((slot.center[0] + 10, slot.center[1])) - c)) / 10
    c = c + rng.uniform(-15, 15, 2) * scale
    sig = rng.uniform(20, 45) * scale
    hh, ww = img.shape[:2]
    yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
    blob = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * sig * sig))
    out = img.astype(np.float32) + (rng.uniform(0.5, 0.9) * 170 * blob)[:, :, None]
    return np.clip(out, 0, 255).astype(np.uint8)


def ece(answers: list[tuple[float, bool]]) -> float:
    """Expected calibration error over ``BINS`` of the answers given."""
    if not answers:
        return 0.0
    c = np.array([a[0] for a in answers])
    ok = np.array([a[1] for a in answers], float)
    total = 0.0
    for lo, hi in pairwise(BINS):
        m = (c >= lo) & (c < hi)
        if m.any():
            total += m.sum() / len(c) * abs(c[m].mean() - ok[m].mean())
    return total


def reliability(answers: list[tuple[float, bool]]) -> str:
    c = np.array([a[0] for a in answers] or [0.0])
    ok = np.array([a[1] for a in answers] or [True], float)
    rows = []
    for lo, hi in pairwise(BINS):
        m = (c >= lo) & (c < hi)
        if m.any():
            rows.append(f"    [{lo:.2f},{min(hi, 1):.2f}) n={m.sum():4d} "
                        f"conf {c[m].mean():.3f} acc {ok[m].mean():.3f}")
    return "\n".join(rows)


def run(split: str, scenes: int, seed0: int = 0) -> None:
    layout = build_layout(2)
    colours = ColourModel()
    for name, faces in face_sets(split):
        nobles = {k: v for k, v in faces.items() if k.startswith("n")}
        if not nobles:
            continue
        ids = sorted(nobles)
        for hard in (False, True):
            tn, tn_cov, td, td_cov = Tally(), Tally(), Tally(), Tally()
            tn_glare, td_glare = Tally(), Tally()
            for i in range(scenes):
                rng = np.random.default_rng(1000 * seed0 + 100 * hard + i)
                base = random_scene(2, int(rng.integers(1 << 16)))
                pick = tuple(str(x) for x in rng.choice(ids, size=min(5, len(ids)),
                                                        replace=False))
                decks = tuple(bool(x) for x in rng.integers(0, 2, 3))
                scene = TableScene(base.market, decks, pick, base.supply,  # type: ignore[arg-type]
                                   base.players)
                cam = Camera.random(rng, hard=hard, window=WINDOW,
                                    px_per_mm=float(rng.uniform(2.0, 6.0)))
                r = render(scene, layout, cam, seed=i, face_images=nobles)
                cal = calibrate(r.image, layout)
                if cal is None:
                    continue
                h = cal.h_for("centre")
                # the same frame with glare centred on every noble and deck slot
                glared = None
                if hard:
                    glared = r.image
                    for sid in [f"noble.{j}" for j in range(len(pick))] + \
                            [f"deck.{lv}" for lv in (1, 2, 3)]:
                        glared = glare_on(glared, r.homography, layout.slot_index[sid], rng)
                for j, want in enumerate(pick):
                    slot = layout.slot_index[f"noble.{j}"]
                    got = read_noble(r.image, h, slot, cal.gain_at(slot.center), colours)
                    ans = "empty" if got.state == "empty" else got.noble.id if got.noble else None
                    (tn_cov if slot.id in r.covered else tn).add(want, ans, got.confidence)
                    if glared is not None:
                        g = read_noble(glared, h, slot, cal.gain_at(slot.center), colours)
                        tn_glare.add(want, "empty" if g.state == "empty" else
                                     g.noble.id if g.noble else None, g.confidence)
                for level in (1, 2, 3):
                    slot = layout.slot_index[f"deck.{level}"]
                    d = read_deck(r.image, h, slot, cal.gain_at(slot.center))
                    ans = None if d.present is None else str(d.present)
                    (td_cov if slot.id in r.covered else td).add(
                        str(decks[level - 1]), ans, d.confidence)
                    if glared is not None:
                        d = read_deck(glared, h, slot, cal.gain_at(slot.center))
                        td_glare.add(str(decks[level - 1]),
                                     None if d.present is None else str(d.present), d.confidence)
            kind = "hard" if hard else "easy"
            print(f"{split}/{name} {kind} nobles  {tn.line()}")
            print(f"{split}/{name} {kind} decks   {td.line()}")
            if tn_cov.n or td_cov.n:
                print(f"{split}/{name} {kind} covered nobles {tn_cov.line()} decks {td_cov.line()}")
            if hard:
                print(f"{split}/{name} glare nobles {tn_glare.line()}")
                print(f"{split}/{name} glare decks  {td_glare.line()}")
                print(f"    glare answers >= {SURE}: wrong {tn_glare.sure_wrong()} nobles, "
                      f"{td_glare.sure_wrong()} decks")
            ALL[split].extend(tn.answers)
            if "-v" in sys.argv:
                print(reliability(tn.answers))
            sys.stdout.flush()


def main() -> None:
    scenes = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    which = sys.argv[2] if len(sys.argv) > 2 else "both"
    cv2.setNumThreads(1)
    for split in ("design", "check"):
        if which in (split, "both"):
            run(split, scenes, seed0=0 if split == "design" else 1)
            print(f"{split}: nobles reliability (unglared, uncovered), ECE {ece(ALL[split]):.3f}")
            print(reliability(ALL[split]))


if __name__ == "__main__":
    main()
