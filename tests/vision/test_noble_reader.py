"""The noble reader: our own tiles under camera effects, the publisher's tiles read
directly (from ../shared, skipped when absent), and a slot the markers misplace.

Tolerant: a few abstentions are allowed, a wrong noble is not.
"""

from __future__ import annotations

from unittest import mock

import cv2
import numpy as np
import pytest

from companion.rules.splendor import catalogue
from tests.conftest import SHARED
from vision import noble_reader
from vision.calibrate import calibrate
from vision.colours import ColourModel
from vision.confidence import is_sure
from vision.locate import FACE_PX_PER_MM
from vision.synth import Camera, TableScene, faces, render
from vision.synth.scene import random_scene

FACES = SHARED / "card-faces" / "splendor"
NOBLES = tuple(catalogue.nobles())
#: the nobles row of the centre mat, with the markers at its two ends
NOBLE_WINDOW = (-400.0, -225.0, 30.0, -40.0)


def _spoil(img: np.ndarray, rng: np.random.Generator, shift_mm: float = 1.5,
           turn: float = 1.5) -> np.ndarray:
    """What a rectified face looks like: blurred, noisy, lit differently, cut out a
    little off and turned."""
    s = FACE_PX_PER_MM
    g = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.5)).astype(np.float32)
    g = g * rng.uniform(0.75, 1.15) + rng.normal(0, 4, g.shape)
    h, w = g.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-turn, turn), 1.0)
    m[:, 2] += rng.uniform(-shift_mm, shift_mm, 2) * s
    g = cv2.warpAffine(np.clip(g, 0, 255).astype(np.uint8), m, (w, h),
                       borderMode=cv2.BORDER_REPLICATE)
    return g


def _tally(pairs: list[tuple[str, str | None]]) -> tuple[int, int, int]:
    right = sum(got == want for want, got in pairs)
    abstained = sum(got is None for _, got in pairs)
    return right, len(pairs) - right - abstained, abstained


def test_our_tiles_read_themselves_or_abstain() -> None:
    """All ten nobles of our renderer (five with two squares, five with three),
    spoiled ten ways each: no wrong noble, nearly all right."""
    rng = np.random.default_rng(11)
    colours = ColourModel()
    pairs = []
    for noble in NOBLES:
        face = faces.noble_face(noble, FACE_PX_PER_MM)
        for _ in range(10):
            got = noble_reader.decode_noble(_spoil(face, rng), colours)
            pairs.append((noble.id, got.noble.id if got.noble else None))
    right, wrong, _ = _tally(pairs)
    assert wrong == 0, pairs
    assert right >= 90


def test_two_square_nobles_are_not_read_as_three_square_ones() -> None:
    """A 2-square noble's pale band above its squares is "no square", even where a
    3-square noble of the same lower colours would have its third."""
    colours = ColourModel()
    for noble in NOBLES[:5]:
        from companion.rules.gems import COLOURS

        assert sorted(noble.requirement[g] for g in COLOURS) == [0, 0, 0, 4, 4]
        got = noble_reader.decode_noble(faces.noble_face(noble, FACE_PX_PER_MM), colours)
        assert got.noble == noble
        assert got.layout == "ours"


def test_squares_in_a_shadow_band_are_read_by_their_colour() -> None:
    """A shadow band over a tile's squares, its top (the white reference) in the
    light: a square darker than its colour still fits it (``NOBLE_SHADE``).  Without
    it, at 0.72 a two-square noble (n1) was named as another (n2), and the squares
    that were read fitted their colours at 0.6-0.7."""
    colours = ColourModel()
    for depth in (0.75, 0.72, 0.7, 0.68):
        for noble in NOBLES:
            face = faces.noble_face(noble, FACE_PX_PER_MM).astype(np.float32)
            light = np.ones(face.shape[0], np.float32)
            light[int(face.shape[0] * 0.45):] = depth
            got = noble_reader.decode_noble(
                np.clip(face * light[:, None, None], 0, 255).astype(np.uint8), colours)
            assert got.noble is None or got.noble.id == noble.id, (depth, noble.id, got)
            if depth == 0.75 and noble.id in ("n3", "n4", "n5", "n10"):
                assert got.noble is not None and got.weakest >= 0.9, (noble.id, got)


@pytest.mark.parametrize("cam", [
    {},
    {"tilt": 18.0, "tilt_direction": 90.0},
    {"exposure": 0.55, "noise": 5.0},
    {"glare": 0.6},
    {"colour_temperature": 0.5, "light_gradient": 0.4},
], ids=["plain", "tilt", "dim", "glare", "warm"])
def test_nobles_on_the_table_under_camera_effects(layout4, cam) -> None:
    base = random_scene(4, 3)
    scene = TableScene(base.market, base.decks, ("n3", "n9", "n5", "n8", "n1"),
                       base.supply, base.players)
    settings = {"noise": 2.0, **cam}
    r = render(scene, layout4, Camera(px_per_mm=3.2, window=NOBLE_WINDOW, blur=0.6,
                                      jpeg_quality=75, **settings), seed=7)
    cal = calibrate(r.image, layout4)
    assert cal is not None
    got = []
    for i, want in enumerate(scene.nobles):
        slot = layout4.slot_index[f"noble.{i}"]
        reading = noble_reader.read_noble(r.image, cal.h_for("centre"), slot,
                                          cal.gain_at(slot.center), ColourModel())
        got.append((want, reading.noble.id if reading.noble else None))
    right, wrong, _ = _tally(got)
    assert wrong == 0, got
    assert right >= 4, got


def test_a_slot_the_markers_misplace_is_never_misread(layout4) -> None:
    """The homography stretched to 2.4 times the slot's height towards the mat's edge (as
    two markers on one line in a steep frame did, recorded scene 0063): half of what
    it takes for the slot is wood beyond the mat.  Neither a held slot nor an empty
    one is then read as anything else, nor named for sure."""
    base = random_scene(4, 3)
    scene = TableScene(base.market, base.decks, ("n7", "n4"), base.supply, base.players)
    r = render(scene, layout4, Camera(px_per_mm=3.2, window=NOBLE_WINDOW, noise=2,
                                      blur=0.6, jpeg_quality=80), seed=3)
    cal = calibrate(r.image, layout4)
    assert cal is not None
    h = cal.h_for("centre")
    for i, held in ((1, "n4"), (3, None)):
        slot = layout4.slot_index[f"noble.{i}"]
        gain = cal.gain_at(slot.center)
        bottom = slot.center[1] + slot.size[1] / 2
        stretch = np.eye(3)
        stretch[1, 1] = 2.4
        stretch[1, 2] = bottom * (1 - 2.4)
        reading = noble_reader.read_noble(r.image, h @ stretch, slot, gain, ColourModel())
        said = reading.noble.id if reading.noble else reading.state
        assert said in (held or "empty", "unknown"), (i, reading)
        assert said == "unknown" or not is_sure("nobles", reading.confidence, said), reading
        # read where the markers put it right, each slot is itself
        right = noble_reader.read_noble(r.image, h, slot, gain, ColourModel())
        assert (right.noble.id if right.noble else right.state) == (held or "empty")


def test_noble_slot_placed_half_off_the_mat_abstains() -> None:
    """(From test_readers.)  A noble slot whose surroundings are not mat (homography
    off there, e.g. markers all on one line) is not read: wood across it must not
    pass for a noble's squares, nor for an empty slot.  On the mat, with its
    outline printed, the same empty slot reads empty."""
    from vision.layout import Slot
    from vision.mats import INK, PAPER

    slot = Slot("noble.0", "noble", "nobles", "centre", (50.0, 50.0), (64.0, 64.0))
    h = np.diag([4.0, 4.0, 1.0])  # 4 px/mm, table origin at the image's corner
    image = np.zeros((400, 400, 3), np.uint8)
    image[:] = PAPER
    cv2.rectangle(image, (4 * 18, 4 * 18), (4 * 82, 4 * 82), INK, 2)
    gain = np.ones(3, np.float32)
    assert noble_reader.read_noble(image, h, slot, gain, ColourModel()).state == "empty"
    wood = image.copy()
    wood[:, 4 * 40:] = (40, 80, 120)  # the mat ends (BGR brown) across the slot
    reading = noble_reader.read_noble(wood, h, slot, gain, ColourModel())
    assert reading.state == "unknown" and reading.noble is None


def test_a_slot_without_its_outline_is_read_by_the_network_alone() -> None:
    """Mat all around but no outline where the markers put the slot (they are a few
    mm off, or scaled): the decode does not read the squares there; the network alone
    names the tile cut where the slot is, as far as the fitted join trusts a network
    alone ("abstained"), and never as another noble."""
    from vision.layout import Slot
    from vision.mats import INK, PAPER

    slot = Slot("noble.0", "noble", "nobles", "centre", (50.0, 50.0), (64.0, 64.0))
    h = np.diag([4.0, 4.0, 1.0])
    image = np.zeros((400, 400, 3), np.uint8)
    image[:] = PAPER
    image[4 * 22:4 * 78, 4 * 22:4 * 78] = faces.noble_face(NOBLES[0], 4.0)[8:232, 8:232]
    gain = np.ones(3, np.float32)
    # the outline printed 9 mm lower than the markers say
    cv2.rectangle(image, (4 * 18, 4 * 27), (4 * 82, 4 * 91), INK, 2)
    reading = noble_reader.read_noble(image, h, slot, gain, ColourModel())
    assert reading.state == "unknown" or (reading.noble is not None
                                          and reading.noble.id == NOBLES[0].id)
    with mock.patch.object(noble_reader, "_decode_looks") as decode:
        noble_reader.read_noble(image, h, slot, gain, ColourModel())
    decode.assert_not_called()  # the squares were not read where the outline is missing



def test_a_pale_tile_in_its_outline_is_read_where_its_slot_is() -> None:
    """A tile whose picture is pale (a white beard under a cool lamp) differs from paper
    over less of the slot than ``locate`` fits a tile on: with its outline in view it
    is read where its slot is, and was "unknown" before."""
    from vision.layout import Slot
    from vision.locate import EMPTY_MAX, OCCUPIED_MIN, locate
    from vision.mats import INK, PAPER

    slot = Slot("noble.0", "noble", "nobles", "centre", (50.0, 50.0), (64.0, 64.0))
    h = np.diag([4.0, 4.0, 1.0])
    gain = np.ones(3, np.float32)
    pale = 0
    for noble in NOBLES:
        image = np.zeros((400, 400, 3), np.uint8)
        image[:] = PAPER
        tile = faces.noble_face(noble, 4.0)[:240, :240].astype(np.float32)
        # the picture right of the squares' strip washed three quarters of the way to paper
        tile[:, 70:] = 0.25 * tile[:, 70:] + 0.75 * np.asarray(PAPER, np.float32)
        image[80:320, 80:320] = tile.astype(np.uint8)
        cv2.rectangle(image, (4 * 18, 4 * 18), (4 * 82, 4 * 82), INK, 2)
        coverage = locate(image, h, slot, gain, (60.0, 60.0)).coverage
        if not EMPTY_MAX <= coverage < OCCUPIED_MIN:
            continue
        pale += 1
        reading = noble_reader.read_noble(image, h, slot, gain, ColourModel())
        assert reading.noble is not None and reading.noble.id == noble.id, (noble.id, reading)
    assert pale >= 6  # the wash leaves most tiles between "empty" and "fitted"

# -- the publisher's tiles (never committed: read from ../shared) --------------------
needs_faces = pytest.mark.skipif(not (FACES / "labels.csv").exists(),
                                 reason="../shared/card-faces not available")


@pytest.fixture(scope="module")
def official_nobles() -> dict[str, np.ndarray]:
    from vision.synth.official import load_official_faces

    size = round(60 * FACE_PX_PER_MM)
    return {k: cv2.resize(v, (size, size), interpolation=cv2.INTER_CUBIC)
            for k, v in load_official_faces(FACES).items() if k.startswith("n")}


@needs_faces
def test_official_tiles_read_directly(official_nobles) -> None:
    """Design reference as well as test: the publisher's layout and square colours in
    noble_reader were measured on these ten tiles, so this checks the measurements
    are used right; the spoiled reads below are the less circular part."""
    colours = ColourModel()
    for nid, face in official_nobles.items():
        got = noble_reader.decode_noble(face, colours)
        assert got.noble is not None and got.noble.id == nid
        assert got.layout == "publisher"


@needs_faces
def test_official_tiles_spoiled_read_themselves_or_abstain(official_nobles) -> None:
    rng = np.random.default_rng(5)
    colours = ColourModel()
    pairs = []
    for nid, face in sorted(official_nobles.items()):
        for _ in range(10):
            got = noble_reader.decode_noble(_spoil(face, rng, shift_mm=2.5, turn=2.0),
                                            colours)
            pairs.append((nid, got.noble.id if got.noble else None))
    right, wrong, abstained = _tally(pairs)
    print(f"\nofficial nobles spoiled: {right} right, {wrong} wrong, {abstained} abstained")
    assert wrong == 0, pairs
    assert right >= 85



def test_tiles_in_a_shade_the_markers_are_not_in_read_by_their_own_white(layout4) -> None:
    """A lamp's fall-off or a shadow over the nobles but not over the markers: each
    tile's own whites raise the markers' gain (``face_cut.face_gain``), so the squares
    keep their colours instead of all reading dark."""
    base = random_scene(4, 3)
    scene = TableScene(base.market, base.decks, ("n3", "n9", "n5", "n8", "n1"),
                       base.supply, base.players)
    r = render(scene, layout4, Camera(px_per_mm=3.2, window=NOBLE_WINDOW, blur=0.6,
                                      noise=3.0, jpeg_quality=75), seed=7)
    cal = calibrate(r.image, layout4)
    assert cal is not None
    shaded = r.image.copy()
    w = shaded.shape[1]
    band = slice(round(0.12 * w), round(0.88 * w))  # the tiles, not the markers at the ends
    shaded[:, band] = (shaded[:, band].astype(np.float32) * 0.72).astype(np.uint8)
    got = []
    for i, want in enumerate(scene.nobles):
        slot = layout4.slot_index[f"noble.{i}"]
        reading = noble_reader.read_noble(shaded, cal.h_for("centre"), slot,
                                          cal.gain_at(slot.center), ColourModel())
        got.append((want, reading.noble.id if reading.noble else None))
    right, wrong, _ = _tally(got)
    assert wrong == 0, got
    assert right >= 4, got


def test_a_noble_far_ahead_is_named_on_one_faint_square(monkeypatch) -> None:
    """The newer printing's squares carry a gem icon over their edge and, spoiled,
    fit their colour at 0.3-0.35; where the numerals do not settle the number of
    squares, such a square made the reader abstain however far the noble led.  Far
    ahead (``CLEAR_MARGIN``: a confidence of 0.9) it is named; nearer, it is not."""
    centres = [np.zeros(2)] * 3
    # n6: 3 white, 3 blue, 3 green; its white square (the lowest) faint
    sims = [{"w": 0.3, "u": 0.0, "g": 0.0, "r": 0.0, "k": 0.0, "y": 0.0},
            {"w": 0.0, "u": 0.9, "g": 0.0, "r": 0.0, "k": 0.0, "y": 0.0},
            {"w": 0.0, "u": 0.0, "g": 0.9, "r": 0.0, "k": 0.0, "y": 0.0}]
    monkeypatch.setattr(noble_reader, "square_sims", lambda *a, **k: (sims, centres))
    monkeypatch.setattr(noble_reader, "numeral_lead", lambda *a, **k: 0.0)
    face = np.full((round(60 * FACE_PX_PER_MM), round(60 * FACE_PX_PER_MM), 3), 200, np.uint8)
    got = noble_reader.decode_noble(face, ColourModel())
    assert got.noble is not None and got.noble.id == "n6"
    assert got.margin >= noble_reader.CLEAR_MARGIN and got.weakest < noble_reader.WEAKEST_MIN
    monkeypatch.setattr(noble_reader, "CLEAR_MARGIN", got.margin + 0.01)
    assert noble_reader.decode_noble(face, ColourModel()).noble is None
