"""The reader on the publisher's card faces (read from ../shared, never committed).

Skipped when ../shared/card-faces is absent.  Reports its figures (run with
``-s`` to see them).  The 90 faces are both the design reference of the card
reader's thresholds and this test, so the recorded scenes (our own faces) stay
the guard.  Thresholds are tolerant: at the time of writing 87 of 90 faces are
read directly (0 wrong) and 20 of 20 cards in the first 12 scenes.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules.splendor import catalogue
from tests.conftest import SHARED
from vision import card_reader
from vision.card_decode import FaceScores
from vision.card_features import extract
from vision.colours import ColourModel
from vision.evaluate import compare
from vision.read import read_frame
from vision.synth.official import load_official_faces
from vision.synth.recorded import recorded_frames

FACES = SHARED / "card-faces" / "splendor"
pytestmark = pytest.mark.skipif(not (FACES / "labels.csv").exists(),
                                reason="../shared/card-faces not available")


@pytest.fixture(scope="module")
def official() -> dict[str, np.ndarray]:
    return load_official_faces(FACES)


def test_every_official_face_is_matched_to_the_catalogue(official) -> None:
    assert sum(1 for k in official if not k.startswith("n")) == 90
    assert sum(1 for k in official if k.startswith("n")) == 10


def test_reading_official_faces_directly(official) -> None:
    right = wrong = abstained = 0
    for card in catalogue.cards():
        face = cv2.resize(official[card.id], (252, 352), interpolation=cv2.INTER_CUBIC)
        got, _, _, _ = card_reader.decode_face(face, card.level, ColourModel())
        if got is None:
            abstained += 1
        elif got == card:
            right += 1
        else:
            wrong += 1
    print(f"\nofficial faces read directly: {right} right, {wrong} wrong, "
          f"{abstained} abstained of 90")
    # 90/0/0 since the rim edge floor (white cards' blank snow is not a circle)
    assert right >= 88 and wrong == 0


def test_the_publishers_numerals_match_the_serif_templates(official) -> None:
    """Read directly, the true value of a points numeral and of a cost numeral
    matches the serif templates better than any other value on almost every face."""
    from companion.rules.gems import COLOURS

    points = costs = n_points = n_costs = 0
    for card in catalogue.cards():
        face = cv2.resize(official[card.id], (252, 352), interpolation=cv2.INTER_AREA)
        ev = FaceScores(extract(face, ColourModel()))
        if card.points:
            n_points += 1
            fits = {v: ev.points(v, serif=True) for v in range(1, 6)}
            points += max(fits, key=fits.__getitem__) == card.points
        letters = [(g.letter, card.cost[g]) for g in COLOURS if card.cost[g]]
        for pos, (letter, n) in enumerate(reversed(letters)):
            n_costs += 1
            fits = {v: ev.digit(pos, letter, v, serif=True) for v in range(1, 8)}
            costs += max(fits, key=fits.__getitem__) == n
    print(f"\nserif templates first: points {points}/{n_points}, costs {costs}/{n_costs}")
    # 55/55 and 208/215 at the time of writing
    assert points >= n_points - 2 and costs >= n_costs - 12


def test_official_faces_in_rendered_scenes(layout4, official) -> None:
    tallies: dict = {}
    for f in recorded_frames(layout4, 12, face_images=official):
        compare(read_frame(f.image, layout4).to_dict(), f.truth, tallies, f.name)
    figures = {k: (t.right, t.wrong, t.abstained) for k, t in tallies.items()}
    print(f"\nofficial faces in the first 12 recorded scenes (right, wrong, abstained): {figures}")
    if "cards" in tallies:
        assert tallies["cards"].rate("wrong") <= 0.02
        assert tallies["cards"].rate("right") >= 0.85
    for cat in ("decks", "token slots"):
        if cat in tallies:
            assert tallies[cat].rate("right") >= 0.9


def test_both_printings_are_read_directly_on_the_design_faces() -> None:
    """The design faces of both printings (the newer one's gem icon beside each
    cost numeral) read directly at the reader's resolution: no wrong answer, few
    abstentions (at the time of writing older 89/0/1, newer-even 43/0/2)."""
    from vision.synth.facesets import face_sets

    sets = dict(face_sets("design"))
    levels = {c.id: c.level for c in catalogue.cards()}
    for name, least in (("older", 86), ("newer-even", 40)):
        right = wrong = 0
        for cid, img in sets[name].items():
            if cid.startswith("n"):
                continue
            face = cv2.resize(img[:, :, :3], (252, 352), interpolation=cv2.INTER_AREA)
            got, _, _, _ = card_reader.decode_face(face, levels[cid], ColourModel())
            right += got is not None and got.id == cid
            wrong += got is not None and got.id != cid
        print(f"\n{name}: {right} right, {wrong} wrong")
        assert wrong == 0 and right >= least


def test_the_newer_printings_cost_numerals_are_found_beside_their_gem_icon() -> None:
    """The newer printing's cost numeral sits off the circle's centre (a gem icon
    beside it): read directly, its true value fits the serif templates best on
    almost every circle of the design faces (107 of 108 at the time of writing;
    95 when the numeral was sought within 0.8 mm of the centre)."""
    from companion.rules.gems import COLOURS
    from vision.synth.facesets import face_sets

    faces = dict(face_sets("design"))["newer-even"]
    first = total = 0
    for cid, img in faces.items():
        if cid.startswith("n"):
            continue
        card = catalogue.card(cid)
        face = cv2.resize(img[:, :, :3], (252, 352), interpolation=cv2.INTER_AREA)
        ev = FaceScores(extract(face, ColourModel()))
        letters = [(g.letter, card.cost[g]) for g in COLOURS if card.cost[g]]
        for pos, (letter, n) in enumerate(reversed(letters)):
            fits = {v: ev.digit(pos, letter, v, serif=True) for v in range(1, 8)}
            first += max(fits, key=fits.__getitem__) == n
            total += 1
    print(f"\nnewer-even cost numerals first: {first}/{total}")
    assert first >= total - 5


def test_the_design_low_split_is_the_design_faces_resampled() -> None:
    """``design-low`` holds the same cards as ``design``, each brought down to
    ``DESIGN_LOW_PX_PER_MM`` across the card (so tuning meets low-resolution
    faces without touching the check split), and the design chips."""
    from vision.synth import facesets as fs

    design, low = dict(fs.face_sets("design")), dict(fs.face_sets("design-low"))
    assert set(low) == {f"{name}-1.8px" for name in design}
    for name, faces in design.items():
        small = low[f"{name}-1.8px"]
        assert set(small) == set(faces)
        card = next(k for k in faces if not k.startswith("n"))
        assert abs(small[card].shape[1] - 63 * fs.DESIGN_LOW_PX_PER_MM) <= 1
        assert small[card].shape[1] < faces[card].shape[1]
    assert fs.token_faces("design-low").keys() == fs.token_faces("design").keys()
    with pytest.raises(ValueError, match="design-low"):
        fs.face_sets("lowres")
