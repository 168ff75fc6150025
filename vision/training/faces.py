"""The labelled faces each network is trained on, and the ones kept to check it.

Offline only (``make train``, ``python -m vision.training.fit``): it reads the
art through ``vision.synth``, which a Pi does not have.  Nothing on the reading
path imports ``vision.training``; the run-time isolation test refuses the import.

Design (trained on): the older Splendor printing, the newer printing's
even-numbered faces, the Duel digital sprites, and our own drawn faces of both
games (so a box without the art, reading the drawn demo tables, still names
cards).  Check (never trained or tuned on): the newer printing's odd-numbered
faces and the Duel print scans.  The split is :mod:`vision.synth.facesets`'s and
:mod:`vision.synth.duel_faces`'s; nothing read here is written to the repository.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from companion.rules import catalogue
from companion.rules.duel import cards as duel_cards
from vision.duel.layout import DUEL_CARD_MM
from vision.synth import faces as drawn
from vision.synth.duel_faces import drawn_faces, duel_faces
from vision.synth.facesets import face_sets

#: Each network's classes, in output order (ids of the catalogues, never of the art).
CLASSES: dict[str, tuple[str, ...]] = {
    "splendor_cards": tuple(c.id for c in catalogue.cards()),
    "splendor_nobles": tuple(n.id for n in catalogue.nobles()),
    "duel_cards": tuple(c.id for c in duel_cards.cards()) + tuple(r.id for r in
                                                                  duel_cards.royals()),
}
#: The drawn faces are made at this resolution (px/mm).
DRAWN_PX_PER_MM = 8.0
#: The inset (mm) the Duel reader leaves off a card's edges (vision.duel.cards.INSET_MM).
DUEL_INSET_MM = 2.0


def labelled(model: str, split: str) -> Iterator[tuple[str, str, np.ndarray]]:
    """(source name, class id, upright BGR face covering the whole card) of ``split``."""
    classes = set(CLASSES[model])
    if model.startswith("splendor"):
        sets = face_sets(split)
        for name, faces in sets:
            for fid, img in faces.items():
                if fid in classes:
                    yield name, fid, img
        if split == "design":
            for c in catalogue.cards():
                if c.id in classes:
                    yield "drawn", c.id, drawn.card_face(c, DRAWN_PX_PER_MM)
            for n in catalogue.nobles():
                if n.id in classes:
                    yield "drawn", n.id, drawn.noble_face(n, DRAWN_PX_PER_MM)
        return
    sources = [duel_faces(split)] + ([drawn_faces()] if split == "design" else [])
    for duel in sources:
        for fid, img in {**duel.cards, **duel.royals}.items():
            if fid in classes:
                yield duel.name, fid, img


def card_mm(model: str, fid: str) -> tuple[float, float]:
    """The whole face's size (w, h) mm."""
    if model == "splendor_nobles":
        return (60.0, 60.0)
    if model == "splendor_cards":
        return (63.0, 88.0)
    return DUEL_CARD_MM
