"""The reader on the publisher's card faces (read from ../shared, never committed).

Skipped when ../shared/card-faces is absent.  Reports its figures (run with
``-s`` to see them); the thresholds are deliberately tolerant: our numeral
templates are OpenCV fonts, not the cards' serif numerals.
"""

from __future__ import annotations

import csv

import cv2
import numpy as np
import pytest

from companion.rules import catalogue
from companion.rules.gems import COLOURS, Gem
from tests.conftest import SHARED
from vision import readers
from vision.colours import ColourModel
from vision.evaluate import compare
from vision.read import read_frame
from vision.synth.recorded import frames

FACES = SHARED / "card-faces" / "splendor"
pytestmark = pytest.mark.skipif(not (FACES / "labels.csv").exists(),
                                reason="../shared/card-faces not available")


def _official_faces() -> dict[str, np.ndarray]:
    """Catalogue id -> scan (BGR on white), matched by level, bonus, points and cost."""
    cards = {(c.level, c.bonus.letter, c.points, tuple(c.cost[g] for g in COLOURS)): c.id
             for c in catalogue.cards()}
    nobles = {tuple(n.requirement[g] for g in COLOURS): n.id for n in catalogue.nobles()}
    out = {}
    with (FACES / "labels.csv").open() as f:
        for row in csv.DictReader(f):
            cost = tuple(int(row[g.label]) for g in COLOURS) if row["white"] else ()
            if row["kind"] == "card":
                key = (int(row["level"]), Gem.from_name(row["bonus"]).letter,
                       int(row["points"]), cost)
                cid = cards[key]
            elif row["kind"] == "noble":
                cid = nobles[cost]
            else:
                continue
            img = cv2.imread(str(FACES / row["file"]), cv2.IMREAD_UNCHANGED)
            alpha = img[:, :, 3:4].astype(np.float32) / 255 if img.shape[2] == 4 else 1.0
            out[cid] = (img[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return out


@pytest.fixture(scope="module")
def official() -> dict[str, np.ndarray]:
    return _official_faces()


def test_every_official_face_is_matched_to_the_catalogue(official) -> None:
    assert sum(1 for k in official if not k.startswith("n")) == 90
    assert sum(1 for k in official if k.startswith("n")) == 10


def test_reading_official_faces_directly(official) -> None:
    right = wrong = abstained = 0
    for card in catalogue.cards():
        face = cv2.resize(official[card.id], (252, 352), interpolation=cv2.INTER_CUBIC)
        got, _, _, _ = readers.decode_face(face, card.level, ColourModel())
        if got is None:
            abstained += 1
        elif got == card:
            right += 1
        else:
            wrong += 1
    print(f"\nofficial faces read directly: {right} right, {wrong} wrong, "
          f"{abstained} abstained of 90")
    assert right >= 15 and wrong <= 12


def test_official_faces_in_rendered_scenes(layout4, official) -> None:
    tallies: dict = {}
    for f in frames(layout4, 12, seed=99, face_images=official):
        compare(read_frame(f.image, layout4).to_dict(), f.truth, tallies, f.name)
    figures = {k: (t.right, t.wrong, t.abstained) for k, t in tallies.items()}
    print(f"\nofficial faces in 12 rendered frames (right, wrong, abstained): {figures}")
    if "cards" in tallies:
        assert tallies["cards"].rate("wrong") <= 0.2
    for cat in ("decks", "token slots"):
        if cat in tallies:
            assert tallies[cat].rate("right") >= 0.9
