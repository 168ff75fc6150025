"""A network's calibration twin: trained without one design printing.

The shipped card (or noble) network was trained on every design face, so on design tables it
is right far more often than on a printing it never saw (the check split, or a
player's own box).  Fitting how much to trust it on those tables would overtrust
it.  The twin is trained exactly as the shipped network is, from the same design
faces less the newer printing's even-numbered ones (``LEAVE_OUT``); on tables
whose cards show that printing it is a network facing faces it never saw, as the
shipped one is at a player's table.  :mod:`vision.training.join` (cards) and
:mod:`vision.training.noble_join` (nobles) fit the join of network and decode on
those tables, through the twin.

Offline only; the twin lives in the cache (``slot_crops.cache_dir()``), never in
the package.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.learned.prep import SPECS
from vision.learned.recognizer import Recognizer
from vision.training.fit import CAL_SEED, fit_temperature, scored
from vision.training.slot_crops import cache_dir
from vision.training.train import TRAIN_SEED, fit, render

MODEL = "splendor_cards"
#: The design face set the twin never sees (the tables the join is fitted on show it).
LEAVE_OUT = "newer-even"
#: Training crops per class and epochs of each network's twin: the shipped network's
#: recipe (``make train``), the cards' a third cheaper (a twin weaker than the shipped
#: network overtrusts the decode where they disagree, so the card join is fitted on
#: the shipped network's rows as well: ``join.POPULATIONS``).
RECIPES = {"splendor_cards": (160, 8), "splendor_nobles": (240, 10)}


def paths(model: str = MODEL) -> tuple[Path, Path]:
    """The twin's ONNX file and its manifest (temperature, recipe) in the cache."""
    stem = cache_dir() / f"{model}-twin-without-{LEAVE_OUT}"
    return stem.with_suffix(".onnx"), stem.with_suffix(".json")


def train_twin(model: str = MODEL) -> None:
    """Train, export and calibrate ``model``'s twin unless the cache holds it."""
    from vision.training.export import to_onnx  # lazy: onnx is in the [train] extra only

    per_class, epochs = RECIPES[model]
    onnx_path, info_path = paths(model)
    if onnx_path.exists() and info_path.exists():
        return
    t0 = time.time()
    print(f"{model} twin: rendering {per_class} crops a class without {LEAVE_OUT}",
          flush=True)
    x, y = render(model, "design", per_class, TRAIN_SEED, leave_out=LEAVE_OUT)
    params = fit(model, x, y, epochs, TRAIN_SEED)
    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    to_onnx(params, SPECS[model].input_px, onnx_path)
    rec = twin(model)
    xc, yc = render(model, "design", 20, CAL_SEED, leave_out=LEAVE_OUT)
    temperature = fit_temperature(scored(rec, xc), yc)
    info_path.write_text(json.dumps({"temperature": temperature, "leave_out": LEAVE_OUT,
                                     "per_class": per_class, "epochs": epochs,
                                     "seconds": round(time.time() - t0)}) + "\n",
                         encoding="utf-8")
    print(f"{model} twin: trained in {time.time() - t0:.0f} s, temperature {temperature}",
          flush=True)


def twin(model: str = MODEL) -> Recognizer:
    """The twin as a :class:`Recognizer` (the shipped network's classes and crop)."""
    onnx_path, info_path = paths(model)
    rec = Recognizer(model)
    rec.net = cv2.dnn.readNetFromONNX(np.frombuffer(onnx_path.read_bytes(), np.uint8))
    if info_path.exists():
        rec.temperature = float(json.loads(info_path.read_text())["temperature"])
    return rec


if __name__ == "__main__":
    for name in RECIPES:
        train_twin(name)
