"""Nobles decided by structure (the numerals tell 2 squares from 3), and decks,
reserved slots and nobles that abstain under glare or a hand instead of saying
"absent" / "empty".

The publisher's faces are read from ../shared (skipped when absent); the design
faces are what the reader was tuned on, the check faces are only reported on.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules.gems import COLOURS
from companion.rules.splendor import catalogue
from vision import noble_reader
from vision.colours import ColourModel
from vision.layout import Slot
from vision.locate import FACE_PX_PER_MM
from vision.mats import INK, PAPER
from vision.readers import read_deck, read_reserved
from vision.synth import faces
from vision.synth.facesets import face_sets, shared_faces

needs_faces = pytest.mark.skipif(shared_faces() is None,
                                 reason="../shared/card-faces not available")
SIZE = round(60 * FACE_PX_PER_MM)


def _nobles(split: str) -> list[tuple[str, str, np.ndarray]]:
    return [(name, k, cv2.resize(v, (SIZE, SIZE), interpolation=cv2.INTER_AREA))
            for name, fs in face_sets(split) for k, v in sorted(fs.items())
            if k.startswith("n")]


def _four(nid: str) -> bool:
    return max(catalogue.noble(nid).requirement[g] for g in COLOURS) == 4


def _spoil(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blurred, noisy, lit differently, cut out up to 2 mm off and turned 2°."""
    g = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.5)).astype(np.float32)
    g = g * rng.uniform(0.75, 1.15) + rng.normal(0, 4, g.shape)
    h, w = g.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-2, 2), 1.0)
    m[:, 2] += rng.uniform(-2, 2, 2) * FACE_PX_PER_MM
    return cv2.warpAffine(np.clip(g, 0, 255).astype(np.uint8), m, (w, h),
                          borderMode=cv2.BORDER_REPLICATE)


def test_numerals_of_our_tiles_tell_the_number_of_squares() -> None:
    colours = ColourModel()
    for noble in catalogue.nobles():
        got = noble_reader.decode_noble(faces.noble_face(noble, FACE_PX_PER_MM), colours)
        assert got.noble == noble
        assert (got.numeral > 0) == _four(noble.id)
        assert abs(got.numeral) >= noble_reader.NUMERAL_FULL


@needs_faces
def test_numerals_of_the_design_faces_tell_the_number_of_squares() -> None:
    colours = ColourModel()
    leads = []
    for name, nid, face in _nobles("design"):
        got = noble_reader.decode_noble(face, colours)
        leads.append((name, nid, round(got.numeral, 2)))
        assert got.noble is not None and got.noble.id == nid, (name, nid, got)
        assert (got.numeral > 0) == _four(nid), (name, nid, got.numeral)
    print("\nnumeral leads (4 over 3):", leads)


@needs_faces
def test_newer_printing_n6_is_not_taken_for_n1() -> None:
    """The issue's case: the newer printing's n6 (3 white, 3 blue, 3 green: a design
    face) was always read as n1 (4 white, 4 blue).  Spoiled 20 ways: never n1."""
    face = next(f for name, nid, f in _nobles("design") if name == "newer-even" and nid == "n6")
    rng = np.random.default_rng(6)
    got = [noble_reader.decode_noble(_spoil(face, rng), ColourModel()).noble for _ in range(20)]
    ids = [g.id if g else None for g in got]
    assert "n1" not in ids
    assert ids.count("n6") >= 17, ids


@needs_faces
@pytest.mark.parametrize("split", ["design", "check"])
def test_publisher_faces_spoiled_read_themselves_or_abstain(split: str) -> None:
    """Design: what the reader was tuned on; check: never tuned on (reported, and held
    to no wrong noble at the referee's "sure" 0.9)."""
    rng = np.random.default_rng(12)
    colours = ColourModel()
    right = wrong = sure_wrong = n = 0
    for _name, nid, face in _nobles(split):
        for _ in range(3):
            got = noble_reader.decode_noble(_spoil(face, rng), colours)
            n += 1
            if got.noble is None:
                continue
            ok = got.noble.id == nid
            right += ok
            wrong += not ok
            sure_wrong += (not ok) and got.confidence >= 0.9
    print(f"\n{split}: {right}/{n} right, {wrong} wrong ({sure_wrong} at >= 0.9)")
    assert sure_wrong == 0
    assert wrong <= n // 50
    # nearly all on design; the check faces (1.5 px/mm scans among them) abstain more
    assert right >= (0.85 if split == "design" else 0.75) * n


# -- glare and hands over a slot -------------------------------------------------------
def _slot_image(kind: str, content: np.ndarray | None, size: tuple[float, float]
                ) -> tuple[np.ndarray, np.ndarray, Slot]:
    """A 4 px/mm view of one slot printed on the mat, with ``content`` pasted in it."""
    s = 4.0
    slot = Slot(f"{kind}.1" if kind == "deck" else f"{kind}.0", kind, kind, "centre",
                (70.0, 70.0), size, level=1 if kind == "deck" else None,
                player=1 if kind == "reserved" else None)
    image = np.zeros((560, 560, 3), np.uint8)
    image[:] = PAPER
    x0, y0 = 70 - size[0] / 2, 70 - size[1] / 2
    cv2.rectangle(image, (round(x0 * s), round(y0 * s)),
                  (round((x0 + size[0]) * s), round((y0 + size[1]) * s)), INK, 2)
    if content is not None:
        ch, cw = content.shape[:2]
        top, left = round(70 * s - ch / 2), round(70 * s - cw / 2)
        image[top:top + ch, left:left + cw] = content
    return image, np.diag([s, s, 1.0]), slot


def _glare(image: np.ndarray, strength: float, sigma_px: float = 120.0,
           at: tuple[int, int] = (280, 280)) -> np.ndarray:
    """An additive glare spot, as the renderer draws one (``strength`` 1 = its most)."""
    hh, ww = image.shape[:2]
    yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
    blob = np.exp(-((xx - at[0]) ** 2 + (yy - at[1]) ** 2) / (2 * sigma_px ** 2))
    return np.clip(image.astype(np.float32) + (strength * 170 * blob)[:, :, None], 0,
                   255).astype(np.uint8)


def _washed(image: np.ndarray) -> np.ndarray:
    """The slot under a glare that clips it to white."""
    out = image.copy()
    out[120:440, 120:440] = 252
    return out


def test_a_deck_is_read_present_or_absent() -> None:
    back = faces.card_back(1, 4.0)
    gain = np.ones(3, np.float32)
    image, h, slot = _slot_image("deck", back, (67.0, 92.0))
    got = read_deck(image, h, slot, gain)
    assert got.present is True and got.confidence >= 0.9
    empty, h, slot = _slot_image("deck", None, (67.0, 92.0))
    got = read_deck(empty, h, slot, gain)
    assert got.present is False and got.confidence >= 0.9


@pytest.mark.parametrize("strength", [0.5, 0.7, 0.9, 1.5])
def test_a_deck_under_glare_is_never_absent_for_sure(strength: float) -> None:
    gain = np.ones(3, np.float32)
    for level in (1, 2, 3):
        image, h, slot = _slot_image("deck", faces.card_back(level, 4.0), (67.0, 92.0))
        got = read_deck(_glare(image, strength), h, slot, gain)
        assert got.present is not False or got.confidence < 0.9, (level, got)
    image, h, slot = _slot_image("deck", faces.card_back(2, 4.0), (67.0, 92.0))
    got = read_deck(_washed(image), h, slot, gain)
    assert got.present is not False or got.confidence < 0.9, got


@pytest.mark.parametrize("angle", [0, 45, 90, 135, 180])
def test_an_arm_over_a_bare_deck_slot_never_says_the_deck_is_gone_for_sure(angle: int) -> None:
    """A shaded arm reaching over a bare deck slot from any side: the slots network may
    leave it unsure or, where the arm lies over the slot like a card, call it occupied,
    but never says "absent" for sure under it.  (Nothing acts on a deck said present:
    the referee counts the decks from the turns; "absent" is the answer that would.)"""
    from vision.sure import splendor

    gain = np.ones(3, np.float32)
    image, h, slot = _slot_image("deck", None, (67.0, 92.0))
    mask = np.zeros(image.shape[:2], np.uint8)
    a = np.radians(angle)
    cv2.line(mask, (280, 280), (int(280 + 400 * np.cos(a)), int(280 + 400 * np.sin(a))), 255,
             170)
    cv2.circle(mask, (280, 280), 95, 255, -1)
    xx = np.mgrid[0:560, 0:560][1]
    shade = 0.75 + 0.25 * np.cos((xx - 280) / 90.0)
    skin = np.stack([120 * shade, 150 * shade, 205 * shade], -1)  # BGR
    arm = cv2.GaussianBlur(np.where((mask > 0)[..., None], skin, image).astype(np.uint8),
                           (0, 0), 1.5)
    got = read_deck(arm, h, slot, gain)
    assert got.present is not False or got.confidence < splendor()["decks"], got


def test_a_washed_out_reserved_slot_is_not_empty_for_sure() -> None:
    gain = np.ones(3, np.float32)
    image, h, slot = _slot_image("reserved", faces.card_back(3, 4.0), (67.0, 92.0))
    got = read_reserved(_washed(image), h, slot, gain)
    assert got.occupied is not False or got.confidence < 0.9, got


def test_a_washed_out_noble_is_unsure_not_empty() -> None:
    tile = faces.noble_face(catalogue.noble("n6"), 4.0)
    image, h, slot = _slot_image("noble", tile, (64.0, 64.0))
    gain = np.ones(3, np.float32)
    assert noble_reader.read_noble(image, h, slot, gain, ColourModel()).noble == \
        catalogue.noble("n6")
    got = noble_reader.read_noble(_washed(image), h, slot, gain, ColourModel())
    assert got.state != "empty" or got.confidence < 0.9, got
    assert got.noble is None or got.noble.id == "n6"


@pytest.mark.parametrize("strength", [0.5, 0.9])
def test_glare_over_a_noble_gives_no_confident_wrong_noble(strength: float) -> None:
    gain = np.ones(3, np.float32)
    for noble in catalogue.nobles():
        tile = faces.noble_face(noble, 4.0)
        image, h, slot = _slot_image("noble", tile, (64.0, 64.0))
        # the glare's centre over the requirement strip (8 mm into the tile)
        glared = _glare(image, strength, 60.0, at=(192, 300))
        got = noble_reader.read_noble(glared, h, slot, gain, ColourModel())
        assert got.state != "empty" or got.confidence < 0.9, (noble.id, got)
        assert got.noble is None or got.noble == noble or got.confidence < 0.9, (noble.id, got)


def test_a_hand_over_a_reserved_slot_is_unsure_a_card_occupied() -> None:
    gain = np.ones(3, np.float32)
    image, h, slot = _slot_image("reserved", faces.card_back(3, 4.0), (67.0, 92.0))
    got = read_reserved(image, h, slot, gain)
    assert got.occupied is True and got.confidence >= 0.9
    empty, h, slot = _slot_image("reserved", None, (67.0, 92.0))
    empty[60:520, 100:460] = (120, 150, 205)  # a hand (skin, BGR) reaching over the slot
    assert read_reserved(empty, h, slot, gain).occupied is None


@needs_faces
def test_bare_deck_slots_under_a_dim_warm_lamp_are_not_taken_for_backs() -> None:
    """A design world frame (2 players, hard, standard lens) whose three decks have run
    out, under a dim warm lamp with sensor noise: the backs' colour rules took the
    level-1 slot's paper for a back at 1.0.  The slots network reads every slot a
    person can see bare as absent, and none present."""
    from vision.sure import splendor
    from vision.world_eval import evaluate_frame

    result = evaluate_frame(2, "hard", 24003, "design", "centre", "standard", True)
    decks = [o for o in result.outcomes if o.category == "decks"]
    assert decks and all(o.truth == "absent" for o in decks)
    assert not any(o.answer == "present" for o in decks)
    readable = [o for o in decks if not o.hidden]
    assert readable and all(o.answer == "absent" and o.confidence >= splendor()["decks"]
                            for o in readable)


@needs_faces
def test_a_card_the_slots_network_sees_under_a_hand_is_not_named() -> None:
    """A design world frame (2 players, hard, standard lens): a hand over a level-2
    card, where the decoders named another card at 0.995; the slots network is sure of
    the hand, so the card is unknown, as a person would find it."""
    from vision.world_eval import evaluate_frame

    result = evaluate_frame(2, "hard", 24002, "design", "centre", "standard", True)
    card = next(o for o in result.outcomes if o.slot == "market.2.2")
    assert card.hidden == "hand" and card.answer == "?"
