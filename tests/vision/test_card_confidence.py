"""The card decode's confidence model: fitted by a script, read as data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import card_confidence as cc
from vision.training import confidence
from vision.training.face_spoils import Outcome


def test_the_shipped_model_has_one_weight_per_feature() -> None:
    assert len(cc.weights()) == len(cc.features(0, 0, 0, 0, 0, 0, 0, 0))


def test_a_model_file_of_another_shape_is_refused_with_the_command_to_refit() -> None:
    with pytest.raises(ValueError, match=r"vision\.training\.confidence"):
        cc.parse("weights = [1.0, 2.0, 3.0]\n")


def _outcomes(n: int, seed: int) -> list[Outcome]:
    """Named answers whose lead over the runner-up tells right from wrong (wrong ones
    lead by little), with every other piece of evidence alike."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        right = i % 5 != 0
        margin = float(rng.uniform(0.5, 1.2) if right else rng.uniform(0.0, 0.4))
        out.append(Outcome("design", 1, "degraded", "1w5", "1w5" if right else "1w6",
                           0.0, (margin, 0.1, 0.6, 0.7, 0.0, 0.1, 0.2, 0.1, 0.3, 0.1)))
    return out


def test_the_fit_learns_the_lead_and_the_reader_reads_what_the_script_wrote(
        tmp_path: Path) -> None:
    w = confidence.fit(_outcomes(400, 1))
    sure = (1.0, 0.1, 0.6, 0.7, 0.0, 0.1, 0.2, 0.1, 0.3, 0.1)
    unsure = (0.1, *sure[1:])
    assert cc.probability_of(w, sure) > 0.95 > 0.5 > cc.probability_of(w, unsure)
    path = tmp_path / "card_confidence.toml"
    confidence.write(w, confidence.score(w, _outcomes(200, 2), "check"), path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# The card decode's confidence")
    assert "# check: 200 faces, 200 named, 40 of them wrong" in text
    assert cc.parse(text) == pytest.approx(tuple(w), abs=1e-6)
