"""A noble slot is seen under hard light (noise on the mat, a sleeve over one side of
its outline, a glare halo on the tile) yet a slot off its outline still is not read
(the band round a slot, ``border_fraction``, is the reserved slots' test)."""

from __future__ import annotations

from unittest import mock

import numpy as np

from companion.rules.splendor import catalogue
from tests.vision.test_nobles_decks import _slot_image
from vision import noble_reader
from vision.colours import ColourModel
from vision.face_cut import face_gain
from vision.locate import slot_view
from vision.noble_seen import border_fraction, outline_three_sides
from vision.outline import outline_ink
from vision.readers import RESERVED_BORDER_MIN
from vision.synth import faces

GAIN = np.ones(3, np.float32)
SLEEVE = (120, 150, 205)  # skin, BGR


def test_a_sleeve_over_one_side_of_the_outline_does_not_stop_the_reading() -> None:
    tile = faces.noble_face(catalogue.noble("n6"), 4.0)
    image, h, slot = _slot_image("noble", tile, (64.0, 64.0))
    image[:, 4 * 101:4 * 112] = SLEEVE  # over the slot's right side (x 102 mm), not the tile
    lab = slot_view(image, h, slot, GAIN)[1]
    assert outline_ink(lab, slot) < noble_reader.OUTLINE_MIN_SIDE  # the least side is hidden
    assert outline_three_sides(lab, slot) >= noble_reader.OUTLINE_MIN_SIDE
    got = noble_reader.read_noble(image, h, slot, GAIN, ColourModel())
    assert got.noble == catalogue.noble("n6") and got.confidence >= 0.9, got


def test_a_sleeve_over_two_sides_of_the_outline_leaves_the_network_alone() -> None:
    tile = faces.noble_face(catalogue.noble("n6"), 4.0)
    image, h, slot = _slot_image("noble", tile, (64.0, 64.0))
    image[:, 4 * 101:4 * 112] = SLEEVE
    image[4 * 101:4 * 112, :] = SLEEVE  # and over its bottom side
    lab = slot_view(image, h, slot, GAIN)[1]
    assert outline_three_sides(lab, slot) < noble_reader.OUTLINE_MIN_SIDE
    with mock.patch.object(noble_reader, "_decode_looks") as decode:
        noble_reader.read_noble(image, h, slot, GAIN, ColourModel())
    decode.assert_not_called()  # the squares are not read
    # the network alone names the tile as far as the fitted join trusts it: never as
    # another noble
    reading = noble_reader.read_noble(image, h, slot, GAIN, ColourModel())
    assert reading.noble in (None, catalogue.noble("n6"))


def test_sensor_noise_on_the_mat_is_not_taken_for_something_else() -> None:
    rng = np.random.default_rng(5)
    image, h, slot = _slot_image("noble", None, (64.0, 64.0))
    noisy = np.clip(image + rng.normal(0, 18, image.shape), 0, 255).astype(np.uint8)
    lab = slot_view(noisy, h, slot, GAIN)[1]
    assert border_fraction(lab) < RESERVED_BORDER_MIN  # pixel by pixel: not mat
    assert border_fraction(lab, smooth=True) > 0.9
    # wood over half the slot's surroundings stays wood after the median
    wood = noisy.copy()
    wood[:, 4 * 70:] = (40, 80, 120)
    lab = slot_view(wood, h, slot, GAIN)[1]
    assert border_fraction(lab, smooth=True) < RESERVED_BORDER_MIN


def test_a_glare_halo_is_not_the_tiles_white_at_the_second_look() -> None:
    """Most of the strip is the tile's pale band (160 as recorded); a halo (245, not
    clipped) over a twentieth of it is its whitest: the first look keeps the strip
    dark, the second brings the band to white."""
    raw = np.full((240, 72, 3), 160, np.uint8)
    raw[:12] = 245
    first = face_gain(raw, GAIN, noble_reader.WHITE_PERCENTILES[0])
    second = face_gain(raw, GAIN, noble_reader.WHITE_PERCENTILES[1])
    assert float(first.max()) * 160 < 180
    assert float(second.max()) * 160 > 200


def test_a_tile_washed_out_beside_three_sides_of_its_outline_is_not_empty() -> None:
    """Glare that whitens the tile without clipping it (240) and hides the outline's
    right side: three sides are enough to read a tile, not to say the slot is empty."""
    tile = faces.noble_face(catalogue.noble("n4"), 4.0)
    image, h, slot = _slot_image("noble", tile, (64.0, 64.0))
    image[160:400, 160:440] = 240
    lab = slot_view(image, h, slot, GAIN)[1]
    assert outline_three_sides(lab, slot) >= noble_reader.OUTLINE_MIN_SIDE
    got = noble_reader.read_noble(image, h, slot, GAIN, ColourModel())
    assert got.state == "unknown", got


def test_a_cast_the_markers_gain_leaves_does_not_stop_a_tile_in_its_outline() -> None:
    """A lamp unlike the markers' (a cool LED over this end of the table) leaves the
    paper round the slot tinted once balanced, so it no longer looks like the mat; the
    slot's outline is where the markers put it, so the tile is read (its own white
    balances its squares)."""
    tile = faces.noble_face(catalogue.noble("n6"), 4.0)
    image, h, slot = _slot_image("noble", tile, (64.0, 64.0))
    cool = np.clip(image * np.float32((1.0, 0.92, 0.8)), 0, 255).astype(np.uint8)  # BGR
    lab = slot_view(cool, h, slot, GAIN)[1]
    assert border_fraction(lab, smooth=True) < RESERVED_BORDER_MIN
    assert outline_three_sides(lab, slot) >= noble_reader.OUTLINE_MIN_SIDE
    got = noble_reader.read_noble(cool, h, slot, GAIN, ColourModel())
    assert got.noble == catalogue.noble("n6") and got.confidence >= 0.9, got
