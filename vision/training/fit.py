"""``python -m vision.training.fit``: fit each network's :class:`~vision.learned.params.Params`.

Fits on the design calibration crops (the design faces, rendered with a seed the
training never used) through the shipped ONNX file and OpenCV's DNN module, as
the reader runs it, and scores on the check crops (faces never trained or fitted
on).  Writes ``vision/learned/params.toml``, with the check figures (accuracy,
expected calibration error, the reliability table) as comments beside the
values, chesscog's ``find_best_configs`` in one file.
"""

from __future__ import annotations

import argparse
import sys
from itertools import pairwise
from pathlib import Path
from typing import cast

import numpy as np

from vision.learned.prep import SPECS
from vision.learned.recognizer import Recognizer
from vision.training.train import TABLE_FRAMES, classes, render, table_crops

PARAMS_PATH = Path(__file__).resolve().parents[1] / "learned" / "params.toml"
#: Seeds of the design calibration crops and of the check crops (apart from training's).
CAL_SEED = 3_000_001
CHECK_SEED = 7_000_001
#: The most wrong answers allowed among the sure ones: one in a thousand (issue 38).
SURE_WRONG_GOAL = 0.001
TEMPERATURES = np.exp(np.linspace(np.log(0.2), np.log(8.0), 121))
#: The networks whose "empty" and "hidden" answers get thresholds of their own
#: (``empty_sure``, ``hidden_sure``).
EMPTY_SURE = ("splendor_slots",)
BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 1.0001)


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return cast(np.ndarray, e / e.sum(axis=1, keepdims=True))


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The temperature of least negative log-likelihood on (logits, y)."""
    nll = [-np.log(softmax(logits / t)[np.arange(len(y)), y] + 1e-12).mean()
           for t in TEMPERATURES]
    return float(TEMPERATURES[int(np.argmin(nll))])


def choose_sure(p: np.ndarray, right: np.ndarray, goal: float = SURE_WRONG_GOAL) -> float:
    """The lowest probability at and above which at most ``goal`` of the answers are wrong
    (and at least one wrong is allowed only past 1 / goal answers); 1.01 if none."""
    order = np.argsort(-p)
    wrong = np.cumsum(~right[order])
    n = np.arange(1, len(p) + 1)
    ok = wrong <= np.floor(goal * n)
    if not ok[0]:
        return 1.01
    last = int(np.argmin(ok)) - 1 if not ok.all() else len(p) - 1
    return float(p[order][last])


def reliability(p: np.ndarray, right: np.ndarray) -> tuple[list[str], float]:
    """The reliability table's rows (Markdown) and the expected calibration error."""
    rows, ece = [], 0.0
    for lo, hi in pairwise(BINS):
        m = (p >= lo) & (p < hi)
        if not m.any():
            continue
        acc, conf = float(right[m].mean()), float(p[m].mean())
        ece += m.mean() * abs(acc - conf)
        rows.append(f"| {lo:.3f}-{min(hi, 1):.3f} | {int(m.sum())} | {100 * acc:.2f} | "
                    f"{conf:.4f} |")
    return rows, float(ece)


def scored(rec: Recognizer, x: np.ndarray) -> np.ndarray:
    """Logits of prepared inputs through OpenCV's DNN module, in batches."""
    out = []
    for i in range(0, len(x), 256):
        rec.net.setInput(np.ascontiguousarray(x[i:i + 256]))
        out.append(np.asarray(rec.net.forward(), np.float32))
    return np.concatenate(out)


def fit_one(name: str, per_class: int) -> tuple[dict[str, float], list[str]]:
    """(params, report lines) of network ``name``."""
    rec = Recognizer(name)
    print(f"{name}: rendering calibration and check crops", flush=True)
    cal_from, check_from = f"seed {CAL_SEED}", f"seed {CHECK_SEED}"
    if name in TABLE_FRAMES:  # slots cut from rendered tables (vision.training.slot_crops)
        (xc, yc), (xk, yk) = (table_crops(part, model=name) for part in ("calibrate", "check"))
        cal_from, check_from = (", ".join(f"{split} frames {r.start}-{r.stop - 1}"
                                          for r, split in TABLE_FRAMES[name][part])
                                for part in ("calibrate", "check"))
    else:
        xc, yc = render(name, "design", per_class, CAL_SEED)
        xk, yk = render(name, "check", per_class, CHECK_SEED)
    lc, lk = scored(rec, xc), scored(rec, xk)
    t = fit_temperature(lc, yc)
    pc = softmax(lc / t)
    sure = choose_sure(pc.max(1), pc.argmax(1) == yc)
    pk = softmax(lk / t)
    right = pk.argmax(1) == yk
    rows, ece = reliability(pk.max(1), right)
    sure_k = pk.max(1) >= sure
    lines = [f"# {name}: design calibration {len(yc)} crops ({cal_from}), "
             f"top-1 {100 * (pc.argmax(1) == yc).mean():.2f} %",
             f"# check {len(yk)} crops ({check_from}): top-1 {100 * right.mean():.2f} %, "
             f"ECE {ece:.4f}, sure {100 * sure_k.mean():.1f} % of answers, "
             f"sure wrong {int((sure_k & ~right).sum())}",
             "# | p | answers | right % | mean p |", *["# " + r for r in rows]]
    values = {"temperature": round(t, 4), "sure": sure}
    for what in ("empty", "hidden") if name in EMPTY_SURE else ():  # their own thresholds
        e = list(classes(name)).index(what)
        said_c, said_k = pc.argmax(1) == e, pk.argmax(1) == e
        key = f"{what}_sure"
        values[key] = choose_sure(pc.max(1)[said_c], (yc == e)[said_c])
        sure_e = said_k & (pk.max(1) >= values[key])
        lines.append(f"# {what} answers: sure from {values[key]:.4f}; check "
                     f"{int(sure_e.sum())} of {int(said_k.sum())} sure, "
                     f"{int((sure_e & (yk != e)).sum())} wrong; {what} slots "
                     f"{int((yk == e).sum())}, {int((sure_e & (yk == e)).sum())} named "
                     f"{what} for sure")
    print("\n".join(lines), flush=True)
    return values, lines


def _blocks(text: str) -> dict[str, list[str]]:
    """Each network's block of ``params.toml`` (its comment lines, header and values)."""
    blocks: dict[str, list[str]] = {}
    pending: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("# ") and line.split(":")[0][2:] in SPECS:
            pending, current = [line], None
        elif line.startswith("[") and line.endswith("]"):
            current = [*pending, line]
            blocks[line[1:-1]] = current
            pending = []
        elif not line.strip():
            current = None
        elif current is not None:
            current.append(line)
        elif pending:
            pending.append(line)
    return blocks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training.fit",
                                 description="Fit each network's temperature and sure "
                                 "threshold on design crops, score on check crops, and write "
                                 "vision/learned/params.toml.")
    ap.add_argument("--per-class", type=int, default=40, help="crops per class and split")
    ap.add_argument("--model", default="all", help="all or one of " + ", ".join(SPECS)
                    + " (the others' params are kept as they are)")
    a = ap.parse_args(argv)
    if a.model != "all" and a.model not in SPECS:
        print(f"error: --model is all or one of {', '.join(SPECS)}", file=sys.stderr)
        return 2
    kept = _blocks(PARAMS_PATH.read_text(encoding="utf-8")) if PARAMS_PATH.exists() else {}
    out = ["# Written by `python -m vision.training.fit`: fitted on design calibration",
           "# crops, scored on check crops.  Do not edit by hand.", ""]
    for name in SPECS:
        if a.model not in ("all", name) and name in kept:
            out += kept[name] + [""]
            continue
        values, lines = fit_one(name, a.per_class)
        out += lines + [f"[{name}]"] + [f"{k} = {v}" for k, v in values.items()] + [""]
    PARAMS_PATH.write_text("\n".join(out), encoding="utf-8")
    print(f"wrote {PARAMS_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
