"""Which of the publisher's faces the readers are designed on, and which are kept to check.

The readers must read two printings of Splendor (``../shared/card-faces/``):
the older one (``splendor/``, plain numerals) and the newer one
(``splendor-newer/``, gem icons beside the numerals).  To measure on what was
not tuned on, the faces are split once, here, and every tool uses this split:

* **design**: every face of the older printing, and the newer printing's
  faces whose file number is even (``level_one0.jpg``, ``noble4.jpg`` ...).
* **check**: the newer printing's faces whose file number is odd, and both
  printings resampled to ``CHECK_PX_PER_MM`` and blurred (a camera that
  resolves less than either scan).  No constant may be adjusted to them.
* **design-low**: the design faces resampled to ``DESIGN_LOW_PX_PER_MM`` and
  blurred.  WHY: two of the check split's three sets are faces resampled to
  1.5 px/mm, the design split had none, so design frames were easier than check
  frames (hard-light cards: 96 % right on design, 84-91 % on check) and a
  change could not be judged where the reader fails most.  Its own resolution
  and blur, not the check split's, and only design faces.

Chips: the older printing's gem faces (``splendor/gems/circle``) are design,
the newer printing's (``splendor-newer/gems``) are check.

Nothing read here may be written into the repository (the publisher's art).
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np

from vision.layout import CARD_MM
from vision.synth.official import load_official_faces

#: The resolution the check-only resampled faces are brought down to (px/mm): the
#: issue's "resampled and blurred to 1.5 px/mm".
CHECK_PX_PER_MM = 1.5
#: The Gaussian blur (sigma, in px at ``CHECK_PX_PER_MM``) of the resampled faces.
CHECK_BLUR_PX = 0.6
#: The resolution (px/mm) and blur (px) of the design-low faces: a camera that
#: resolves less than either scan, chosen apart from the check split's 1.5 / 0.6.
DESIGN_LOW_PX_PER_MM = 1.8
DESIGN_LOW_BLUR_PX = 0.7
#: The names ``face_sets`` and ``token_faces`` take.
SPLITS = ("design", "design-low", "check")
#: The folder of the publisher's faces beside the checkout.
SHARED_FACES = Path(__file__).resolve().parents[2].parent / "shared" / "card-faces"
OLDER = "splendor"
NEWER = "splendor-newer"
#: Gem face file stems -> token letters.
GEM_FILES = {"diamond": "w", "sapphire": "u", "emerald": "g", "ruby": "r", "onyx": "k",
             "gold": "y"}


def shared_faces(root: Path | None = None) -> Path | None:
    """The card-faces folder, or ``None`` when ``../shared`` is absent (tests skip)."""
    root = root or SHARED_FACES
    return root if (root / OLDER / "labels.csv").exists() else None


def is_check_only(file: str) -> bool:
    """Whether a newer-printing face file (as named in its labels.csv) is check-only."""
    m = re.search(r"(\d+)\.\w+$", file)
    return bool(m and int(m.group(1)) % 2)


def _newer(root: Path, check: bool) -> dict[str, np.ndarray]:
    keep = {row.split(",", 1)[0] for row in
            (root / NEWER / "labels.csv").read_text(encoding="utf-8").splitlines()[1:]
            if row and is_check_only(row.split(",", 1)[0]) == check}
    return load_official_faces(root / NEWER, only=keep)


def resample(face: np.ndarray, width_mm: float = CARD_MM[0],
             px_per_mm: float = CHECK_PX_PER_MM, blur_px: float = CHECK_BLUR_PX) -> np.ndarray:
    """``face`` as a camera resolving ``px_per_mm`` would record it (area-averaged, blurred)."""
    s = px_per_mm * width_mm / face.shape[1]
    size = (max(8, round(face.shape[1] * s)), max(8, round(face.shape[0] * s)))
    small = cv2.resize(face, size, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), blur_px) if blur_px else small


def face_sets(split: str, root: Path | None = None) -> list[tuple[str, dict[str, np.ndarray]]]:
    """The named face sets of ``split`` (one of ``SPLITS``): catalogue id -> BGR image.

    Several sets, because one catalogue card has a face in each printing.
    """
    if split not in SPLITS:
        raise ValueError(f"split is one of {', '.join(SPLITS)}, not {split!r}")
    base = shared_faces(root)
    if base is None:
        return []
    if split == "design-low":
        return [(f"{name}-{DESIGN_LOW_PX_PER_MM:g}px",
                 {k: resample(v, 60.0 if k.startswith("n") else CARD_MM[0],
                              DESIGN_LOW_PX_PER_MM, DESIGN_LOW_BLUR_PX) for k, v in faces.items()})
                for name, faces in face_sets("design", root)]
    older = load_official_faces(base / OLDER)
    if split == "design":
        return [("older", older), ("newer-even", _newer(base, False))]
    newer_odd = _newer(base, True)
    newer_all = {**_newer(base, False), **newer_odd}

    def low(faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {k: resample(v, 60.0 if k.startswith("n") else CARD_MM[0])
                for k, v in faces.items()}

    return [("newer-odd", newer_odd), ("older-1.5px", low(older)),
            ("newer-1.5px", low(newer_all))]


def token_faces(split: str, root: Path | None = None) -> dict[str, np.ndarray]:
    """Token letter -> the publisher's chip face (BGRA, transparent outside the chip);
    the design chips for either design split."""
    base = shared_faces(root)
    if base is None:
        return {}
    folder = base / (OLDER + "/gems/circle" if split.startswith("design") else NEWER + "/gems")
    out = {}
    for stem, letter in GEM_FILES.items():
        img = cv2.imread(str(folder / f"{stem}.png"), cv2.IMREAD_UNCHANGED)
        if img is not None:
            out[letter] = img
    return out
