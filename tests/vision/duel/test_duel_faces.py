"""Duel faces: every card and royal has a face in every set; the art's own tests skip
without ../shared."""

from __future__ import annotations

import pytest

from companion.rules.duel import cards as duel_cards
from vision.synth.duel_faces import SPRITE_IDS, drawn_faces, duel_art, duel_faces

ALL_IDS = sorted(c.id for c in duel_cards.cards())
ROYAL_IDS = sorted(r.id for r in duel_cards.royals())


def test_the_sprite_table_names_every_card_once_at_its_level() -> None:
    ids = [cid for level in SPRITE_IDS for cid in SPRITE_IDS[level]]
    assert sorted(ids) == ALL_IDS
    for level, row in SPRITE_IDS.items():
        assert all(duel_cards.card(cid).level == level for cid in row)


def test_drawn_faces_cover_the_catalogue() -> None:
    faces = drawn_faces()
    assert sorted(faces.cards) == ALL_IDS and sorted(faces.royals) == ROYAL_IDS
    assert sorted(faces.chips) == sorted("wugrkpy") and set(faces.backs) == {1, 2, 3}
    # two cards that differ only in their printed features do not draw alike
    assert (faces.cards["2j1"] != faces.cards["2j3"]).any()


@pytest.mark.skipif(duel_art() is None, reason="../shared/card-faces (Duel art) is absent")
@pytest.mark.parametrize("split", ["design", "check"])
def test_both_sources_cover_the_catalogue(split: str) -> None:
    faces = duel_faces(split)
    assert sorted(faces.cards) == ALL_IDS and sorted(faces.royals) == ROYAL_IDS
    assert faces.board is not None
    assert {img.shape[2] for img in faces.chips.values()} == {4}  # BGRA chips


@pytest.mark.skipif(duel_art() is None, reason="../shared/card-faces (Duel art) is absent")
def test_a_sprite_and_its_scan_are_the_same_card() -> None:
    """The sprite table agrees with the scans' labels: the network trained on the sprites
    (labelled by the table) names most scans, cut as the reader cuts them, as their
    labels say.  A wrong entry in the table would teach it the wrong name."""
    import numpy as np

    from vision.duel.cards import INSET_MM
    from vision.duel.layout import DUEL_CARD_MM
    from vision.learned.recognizer import recognizer

    check = duel_faces("check")
    rec = recognizer("duel_cards")
    agree = 0
    for cid in ALL_IDS:
        img = check.cards[cid]
        hgt, wid = img.shape[:2]
        ix, iy = round(INSET_MM / DUEL_CARD_MM[0] * wid), round(INSET_MM / DUEL_CARD_MM[1] * hgt)
        inset = np.ascontiguousarray(img[iy: hgt - iy, ix: wid - ix])
        level = [k for k in ALL_IDS if k[0] == cid[0]]
        agree += rec.guess([inset], level).best == cid
    assert agree >= 60
