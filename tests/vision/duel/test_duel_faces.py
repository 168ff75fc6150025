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
    """The sprite table agrees with the scans' labels: each sprite's nearest scan (small
    Lab pictures) at its level is the scan labelled with the same id, for most cards
    (jokers share their picture and are settled by their cost, as the table says)."""
    import numpy as np

    from vision.duel.cards import descriptor

    design, check = duel_faces("design"), duel_faces("check")
    agree = 0
    for cid in ALL_IDS:
        level = cid[0]
        v = descriptor(design.cards[cid])
        others = [k for k in ALL_IDS if k[0] == level]
        best = max(others, key=lambda k: float(np.dot(v, descriptor(check.cards[k]))))
        agree += best == cid
    assert agree >= 60
