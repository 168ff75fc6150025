"""Tableau columns drawn with the publisher's faces (read from ../shared, never committed):
pale white cards of snowy pictures must still be counted.  Skipped without ../shared."""

from __future__ import annotations

import pytest

from tests.conftest import SHARED
from vision.evaluate import compare
from vision.layout import build_layout
from vision.read import read_frame
from vision.synth.official import load_official_faces
from vision.synth.recorded import recorded_tableau_frames

FACES = SHARED / "card-faces" / "splendor"
pytestmark = pytest.mark.skipif(not (FACES / "labels.csv").exists(),
                                reason="../shared/card-faces not available")


def test_tableau_columns_of_official_faces_are_counted() -> None:
    layout = build_layout(4)
    tallies: dict = {}
    for f in recorded_tableau_frames(layout, 16, face_images=load_official_faces(FACES)):
        compare(read_frame(f.image, layout).to_dict(), f.truth, tallies, f.name)
    columns = tallies["tableau"]
    whites = sum(1 for m in columns.mistakes if ".tableau.w" in m)
    assert columns.total >= 20
    assert columns.wrong <= 1 and whites == 0, columns.mistakes
