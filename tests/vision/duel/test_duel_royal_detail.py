"""A royal under a lamp's veil and glare's slope, plain to a person, is named by its
detail when the whole picture's correlation falls short; a detail that names nothing
clearly, or names another royal than the picture, names none."""

from __future__ import annotations

import cv2
import numpy as np

from vision.duel import cards as C
from vision.duel.bank import bank_from_faces
from vision.layout import Slot
from vision.mats import PAPER
from vision.synth.duel_faces import DUEL_CARD_MM


def _faces() -> dict[str, np.ndarray]:
    """Four pictures that share nothing: smooth random colour fields (80 x 122 px)."""
    rng = np.random.default_rng(5)
    return {f"r{i + 1}": cv2.resize(rng.integers(0, 255, (12, 8, 3), dtype=np.uint8),
                                    (80, 122), interpolation=cv2.INTER_CUBIC)
            for i in range(4)}


def _seen(face: np.ndarray) -> np.ndarray:
    """The face as a card on the table is cut: inset as the reader cuts it."""
    hgt, wid = face.shape[:2]
    ix = round(C.INSET_MM / DUEL_CARD_MM[0] * wid)
    iy = round(C.INSET_MM / DUEL_CARD_MM[1] * hgt)
    return face[iy: hgt - iy, ix: wid - ix].astype(np.float32)


def _veiled(seen: np.ndarray, contrast: float, glare: float) -> np.ndarray:
    """``seen`` dimmed to ``contrast``, a warm cast, a lamp's spot of ``glare`` over
    its upper left and a veil: every line of the drawing still there."""
    hh, ww = seen.shape[:2]
    yy, xx = np.mgrid[0:hh, 0:ww]
    spot = np.exp(-(((xx - ww * 0.3) / (ww * 0.35)) ** 2
                    + ((yy - hh * 0.35) / (hh * 0.3)) ** 2))[..., None]
    out = seen * contrast * np.array([1.1, 1.0, 0.8]) + glare * spot + 30
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_veiled_royal_the_picture_misses_is_named_by_its_detail() -> None:
    faces = _faces()
    bank = bank_from_faces("test", faces, details=True)
    seen = _veiled(_seen(faces["r2"]), 0.3, 250)
    assert C.name_card([seen], bank, C.ROYAL_MIN_SCORE, C.ROYAL_MIN_MARGIN).value is None
    named = C.name_royal([seen], bank)
    assert named.value == "r2" and named.why == "by its detail"
    assert C.name_royal([seen], bank_from_faces("test", faces)).value is None  # no details


def test_a_detail_between_two_royals_names_none() -> None:
    faces = _faces()
    bank = bank_from_faces("test", faces, details=True)
    both = (_seen(faces["r1"]) + _seen(faces["r2"])) / 2  # as like the one as the other
    seen = _veiled(both, 0.3, 250)
    assert C.name_card([seen], bank, C.ROYAL_MIN_SCORE, C.ROYAL_MIN_MARGIN).value is None
    assert C.name_royal([seen], bank).value is None
    clear = _veiled(_seen(faces["r1"]) * 0.8 + _seen(faces["r2"]) * 0.2, 0.3, 250)
    assert C.name_royal([clear], bank).value == "r1"  # the same, one plainly ahead


def test_a_royal_between_its_leader_and_one_named_elsewhere_is_its_leader() -> None:
    faces = _faces()
    bank = bank_from_faces("test", faces, details=True)
    # as like r2 as r1, a little more like r1: unsure on its own
    seen = _veiled(_seen(faces["r1"]) * 0.53 + _seen(faces["r2"]) * 0.47, 0.3, 250)
    alone = C.name_royal([seen], bank)
    assert alone.value is None and alone.leader == "r1"
    assert C.name_royal([seen], bank, frozenset({"r2"})).value == "r1"
    # the leader itself named elsewhere, or only a third royal: still unsure
    assert C.name_royal([seen], bank, frozenset({"r1"})).value is None
    assert C.name_royal([seen], bank, frozenset({"r4"})).value is None


def test_a_detail_that_names_another_royal_than_the_picture_names_none() -> None:
    faces = _faces()
    bank = bank_from_faces("test", faces, details=True)
    seen = _seen(faces["r1"]).astype(np.uint8)
    # the detail bank swapped: the picture says r1, the detail r4
    swapped = C.CardBank("test", bank.ids, bank.vectors,
                         None if bank.details is None else bank.details[[3, 1, 2, 0]])
    named = C.name_royal([seen], swapped)
    assert C.name_card([seen], bank, C.ROYAL_MIN_SCORE, C.ROYAL_MIN_MARGIN).value == "r1"
    assert named.value is None and "r4" in named.why


def test_a_card_washed_out_past_the_paper_is_not_said_empty() -> None:
    # a pale card, textured but within the paper's colour, under glare over its top
    # quarter (a third of the place's pixels clipped white, as design frame wide hard
    # 9509, royal.1); the place's printed outline all round it
    s = 4.0
    slot = Slot("royal.0", "noble", "royals", "central", (60.0, 70.0), (67.0, 92.0), 0.0)
    image = np.zeros((round(140 * s), round(120 * s), 3), np.uint8)
    image[:] = PAPER
    cv2.rectangle(image, (round(26.5 * s), round(24 * s)), (round(93.5 * s), round(116 * s)),
                  (110, 110, 110), round(0.8 * s))
    x0, y0 = round((60 - 57.5 / 2) * s), round((70 - 88 / 2) * s)
    x1, y1 = round((60 + 57.5 / 2) * s), round((70 + 88 / 2) * s)
    grain = cv2.resize(np.random.default_rng(1).normal(0, 25, (44, 29)), (x1 - x0, y1 - y0),
                       interpolation=cv2.INTER_CUBIC)[..., None]
    image[y0:y1, x0:x1] = np.clip(np.array((226, 232, 236)) + grain, 0, 255).astype(np.uint8)
    image[y0:y0 + (y1 - y0) // 4, x0:x1] = 255
    found = C.find_card(image, np.diag([s, s, 1.0]), slot, np.ones(3, np.float32),
                        DUEL_CARD_MM)
    assert C.EMPTY_WASHED_MAX < found.washed < 0.35 and found.share < C.EMPTY_MAX
    assert found.state != "empty"


def _royal_place(s: float = 4.0) -> tuple[np.ndarray, np.ndarray, Slot]:
    """An empty royal place: paper, its printed outline all round."""
    slot = Slot("royal.0", "noble", "royals", "central", (60.0, 70.0), (67.0, 92.0), 0.0)
    image = np.zeros((round(140 * s), round(120 * s), 3), np.uint8)
    image[:] = PAPER
    cv2.rectangle(image, (round(26.5 * s), round(24 * s)), (round(93.5 * s), round(116 * s)),
                  (110, 110, 110), round(0.8 * s))
    return image, np.diag([s, s, 1.0]), slot


def test_an_empty_royal_place_under_a_sleeve_s_edge_is_empty() -> None:
    # a dark sleeve over the place's left side and outline, a tenth of the place
    # (design frame wide hard 9902, royal.0): not plain as a whole, but most of it is
    image, h, slot = _royal_place()
    image[:, :round(34 * 4.0)] = (40, 30, 30)
    assert C.find_card(image, h, slot, np.ones(3, np.float32), DUEL_CARD_MM).state != "empty"
    assert C.royal_place_empty(image, h, slot)


def test_a_royal_or_a_hand_over_the_outline_is_not_an_empty_royal_place() -> None:
    image, h, slot = _royal_place()
    x0, y0 = round((60 - 57.5 / 2) * 4), round((70 - 88 / 2) * 4)
    x1, y1 = round((60 + 57.5 / 2) * 4), round((70 + 88 / 2) * 4)
    grain = cv2.resize(np.random.default_rng(2).normal(0, 40, (44, 29, 3)), (x1 - x0, y1 - y0),
                       interpolation=cv2.INTER_CUBIC)
    card = image.copy()
    card[y0:y1, x0:x1] = np.clip(np.array((150, 170, 190)) + grain, 0, 255).astype(np.uint8)
    assert not C.royal_place_empty(card, h, slot)
    # a sleeve of the paper's own colour, darker, over two sides of the outline: as
    # plain as paper, but the outline seen on two sides only
    sleeve = image.copy()
    dark = (np.array(PAPER) * 0.7).astype(np.uint8)
    sleeve[:, round(88 * 4.0):] = dark
    sleeve[:round(30 * 4.0)] = dark
    assert C.plain_share(sleeve, h, slot) >= C.ROYAL_PLAIN_EMPTY
    assert not C.royal_place_empty(sleeve, h, slot)
