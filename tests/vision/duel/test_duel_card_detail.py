"""A jewel card the whole picture scores too low on (a lamp's veil, a cast, a dim
exposure) is named by its detail; a detail between two cards (a joker and its twin)
names none, and a card the picture names keeps that name."""

from __future__ import annotations

import numpy as np

from tests.vision.duel.test_duel_royal_detail import _faces, _seen, _veiled
from vision.duel import cards as C
from vision.duel.bank import bank_from_faces


def _jewels() -> dict[str, np.ndarray]:
    return {f"1g{i + 1}": face for i, face in enumerate(_faces().values())}


def test_a_veiled_jewel_card_the_picture_misses_is_named_by_its_detail() -> None:
    faces = _jewels()
    bank = bank_from_faces("test", faces, details=True)
    seen = _veiled(_seen(faces["1g3"]), 0.3, 250)
    first = C.name_card([seen], bank)
    assert first.value is None and first.score < C.MIN_SCORE
    named = C.name_jewel([seen], bank)
    assert named.value == "1g3" and named.why == "by its detail"
    assert named.score >= C.CARD_DETAIL_MIN_SCORE
    assert named.margin >= C.CARD_DETAIL_MIN_MARGIN
    # no details in the bank: no second look
    assert C.name_jewel([seen], bank_from_faces("test", faces)).value is None


def test_a_jewel_cards_detail_between_two_cards_names_none() -> None:
    faces = _jewels()
    twin = faces["1g1"].copy()  # a joker and its twin: one picture, a small mark apart
    twin[20:26, 30:36] = 255 - twin[20:26, 30:36]
    faces["1g2"] = twin
    bank = bank_from_faces("test", faces, details=True)
    seen = _veiled(_seen(faces["1g1"]), 0.3, 250)
    assert C.name_card([seen], bank).value is None
    lead = C.by_detail([seen], bank)
    assert lead is not None and lead[0] in ("1g1", "1g2")
    assert lead[2] < C.CARD_DETAIL_MIN_MARGIN
    assert C.name_jewel([seen], bank).value is None


def test_a_jewel_card_the_picture_names_keeps_that_name() -> None:
    faces = _jewels()
    bank = bank_from_faces("test", faces, details=True)
    seen = _seen(faces["1g4"]).astype(np.uint8)
    assert C.name_card([seen], bank).value == "1g4"
    got = C.name_jewel([seen], bank)
    assert got.value == "1g4" and got.why == ""
