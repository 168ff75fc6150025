"""The faces the Duel card reader names cards against.

The reader never learns from the frame it reads: a :class:`~vision.duel.cards.CardBank`
is built once from one face set.  :func:`default_bank` uses the design split (the
digital version's sprites) when ``../shared`` holds them, else our own drawn faces
(:mod:`vision.synth.duel_faces`), so the reader runs everywhere; a bank may also be
built from any faces, e.g. photographs of one's own cards.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from vision.duel.cards import CardBank, face_descriptor, face_detail
from vision.synth.duel_faces import DUEL_CARD_MM, duel_faces


def bank_from_faces(name: str, faces: dict[str, np.ndarray], details: bool = False
                    ) -> CardBank:
    """The bank of ``faces`` by id; ``details``: with each face's detail too (the
    second look of :func:`vision.duel.cards.name_royal` and ``name_jewel``)."""
    ids = tuple(sorted(faces))
    return CardBank(name, ids, np.stack([face_descriptor(faces[i], DUEL_CARD_MM) for i in ids]),
                    np.stack([face_detail(faces[i], DUEL_CARD_MM) for i in ids])
                    if details else None)


@lru_cache(maxsize=2)
def default_bank() -> tuple[CardBank, CardBank]:
    """(jewel cards, royals) of the design faces (drawn ones without the art)."""
    faces = duel_faces("design")
    return (bank_from_faces(faces.name, faces.cards, details=True),
            bank_from_faces(faces.name, faces.royals, details=True))
