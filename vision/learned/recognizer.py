"""Running a shipped network on a batch of crops with OpenCV's DNN module.

A :class:`Recognizer` is one ONNX file and its class list from
``vision/learned/models/`` (package data: on a Pi they sit in site-packages),
plus its temperature from :mod:`vision.learned.params`.  All the crops of a
read go through one ``forward`` call; the answer is a probability per allowed
class (the cards a slot's level can hold, say), the logits divided by the
temperature fitted on the design calibration frames so that "0.99" is right 99
times in 100 on frames nobody tuned on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import cv2
import numpy as np

from vision.errors import VisionError
from vision.learned.params import params
from vision.learned.prep import SPECS, Spec, batch


@dataclass(frozen=True)
class Guess:
    """A network's answer for one crop: the leading class and its probability, and the
    runner-up's."""

    best: str
    p: float
    second: str
    p_second: float


class Recognizer:
    """One network: ``probabilities(crops, allowed)`` in one batch."""

    def __init__(self, name: str) -> None:
        if name not in SPECS:
            raise VisionError(f"no network named {name!r}")
        self.spec: Spec = SPECS[name]
        folder = resources.files("vision.learned") / "models"
        try:
            info = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
            model = (folder / f"{name}.onnx").read_bytes()
        except (OSError, ValueError) as e:
            raise VisionError(f"the {name} network is missing from the package "
                              f"(reinstall splendor-companion): {e}") from None
        self.classes: tuple[str, ...] = tuple(info["classes"])
        self.index = {c: i for i, c in enumerate(self.classes)}
        self.net = cv2.dnn.readNetFromONNX(np.frombuffer(model, np.uint8))
        self.temperature = params(name).temperature

    def logits(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Raw logits (n, classes) of ``crops`` (upright BGR covering ``spec.crop_mm``)."""
        if not crops:
            return np.zeros((0, len(self.classes)), np.float32)
        self.net.setInput(batch(list(crops), self.spec))
        return np.asarray(self.net.forward(), np.float32).reshape(len(crops), -1)

    def probabilities(self, crops: Sequence[np.ndarray],
                      allowed: Sequence[str] | None = None) -> tuple[tuple[str, ...], np.ndarray]:
        """(the classes answered, (n, len) probabilities): a softmax of the logits over
        ``allowed`` (every class when None) at the fitted temperature."""
        return self.softmax(self.logits(crops), allowed)

    def softmax(self, logits: np.ndarray, allowed: Sequence[str] | None = None
                ) -> tuple[tuple[str, ...], np.ndarray]:
        """:meth:`probabilities` of logits already computed (a batch cut into places)."""
        ids = tuple(allowed) if allowed is not None else self.classes
        cols = [self.index[c] for c in ids]
        z = logits[:, cols] / self.temperature
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return ids, e / e.sum(axis=1, keepdims=True)

    def guess(self, crops: Sequence[np.ndarray], allowed: Sequence[str] | None = None
              ) -> Guess:
        """The one object several crops of it show: their probabilities averaged
        (several cuts of the same card are a test-time average, not a vote)."""
        return self.guess_from(self.logits(crops), allowed)

    def surest(self, crops: Sequence[np.ndarray], allowed: Sequence[str] | None = None
               ) -> Guess:
        """The guess of the one crop among several cuts of one object that the network
        reads most surely.  WHY not their average: when one cut is misplaced (a card
        located 5 mm off its slot in a dark, noisy frame), it shows a strip of mat and
        the network spreads its probability there; averaged, it dragged a sure reading
        of the well-cut face down to a coin toss.  The reader's join is fitted on
        guesses made this way, so the choice's optimism is calibrated."""
        logits = self.logits(crops)
        return max((self.guess_from(logits[i:i + 1], allowed) for i in range(len(crops))),
                   key=lambda g: g.p)

    def guess_from(self, logits: np.ndarray, allowed: Sequence[str] | None = None) -> Guess:
        """:meth:`guess` of logits already computed."""
        ids, p = self.softmax(logits, allowed)
        mean = p.mean(axis=0)
        order = np.argsort(mean)[::-1]
        second = order[1] if len(order) > 1 else order[0]
        return Guess(ids[order[0]], float(mean[order[0]]), ids[second], float(mean[second]))


@cache
def recognizer(name: str) -> Recognizer:
    """The shared recognizer ``name`` (loaded once per process)."""
    return Recognizer(name)
