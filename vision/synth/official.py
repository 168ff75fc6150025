"""The publisher's card faces, for an evaluation that is never committed.

``load_official_faces(folder)`` reads ``labels.csv`` of a folder of scans
(``../shared/card-faces/splendor``) and returns catalogue id -> BGR image,
matching each card by level, bonus, points and cost and each noble by its
requirement.  The renderer can then draw the same recorded scenes with these
faces (:func:`vision.synth.recorded.frames` with ``face_images``).  Nothing
read here may be written into the repository.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np

from companion.rules import catalogue
from companion.rules.gems import COLOURS, Gem
from vision.errors import VisionError


def load_official_faces(folder: str | Path, only: set[str] | None = None
                        ) -> dict[str, np.ndarray]:
    """Catalogue id -> BGR face of every card and noble in ``labels.csv`` (or only the
    files named in ``only``)."""
    root = Path(folder)
    labels = root / "labels.csv"
    if not labels.exists():
        raise VisionError(f"{labels} not found")
    cards = {(c.level, c.bonus.letter, c.points, tuple(c.cost[g] for g in COLOURS)): c.id
             for c in catalogue.cards()}
    nobles = {tuple(n.requirement[g] for g in COLOURS): n.id for n in catalogue.nobles()}
    out: dict[str, np.ndarray] = {}
    with labels.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["kind"] not in ("card", "noble") or (only is not None
                                                         and row["file"] not in only):
                continue
            cost = tuple(int(row[g.label]) for g in COLOURS)
            if row["kind"] == "card":
                key = (int(row["level"]), Gem.from_name(row["bonus"]).letter,
                       int(row["points"]), cost)
                fid = cards.get(key)
            else:
                fid = nobles.get(cost)
            if fid is None:
                raise VisionError(f"{row['file']}: no catalogue entry matches its label")
            img = cv2.imread(str(root / row["file"]), cv2.IMREAD_UNCHANGED)
            if img is None:
                raise VisionError(f"{root / row['file']}: unreadable")
            if img.ndim == 3 and img.shape[2] == 4:
                alpha = img[:, :, 3:4].astype(np.float32) / 255
                img = (img[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
            out[fid] = img
    return out
