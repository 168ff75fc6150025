"""The faces of Splendor Duel's components for the renderer: two sources, or our own.

* **design**: the digital version's sprite sheets (``card-faces/duel/``): jewel
  cards ``cards1-3.jpg`` (120 × 183 px frames, the first the level's back), royal
  cards ``royal-cards.jpg`` (frames 0-3), chips ``tokens.png`` (80 px frames), the
  board ``board.jpg``.  The readers' constants are decided on these only.
* **check**: the cards scanned from print (``card-faces/duel-scans/``, labelled in
  its ``labels.csv`` by the catalogue's columns) and the four small royal scans.
  There are no scans of Duel's chips, board or backs: the check split uses the
  design ones for those (so the check split checks the card and royal readers).
* **drawn**: when ``../shared`` is absent, plain faces of our own that carry the
  printed features (colour, points, crowns, bonus, cost), so tests still run.

Which sprite frame is which card is the table :data:`SPRITE_IDS` (ids, not art):
found by matching every frame against the labelled scans (Lab at 40 × 61 px,
normalised correlation; 61 of 67 unambiguous) and settled by eye where the
sheets' order (per colour: ranks 2 4 1 3 5 at level 1, 4 2 3 1 at level 2)
and the printed costs decide (jokers, 1u5, 1g4, 2g4, 2k2).

Nothing read here may be written into the repository (the publisher's art).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.rules.duel import cards as duel_cards
from vision.duel.layout import DUEL_CARD_MM
from vision.synth.facesets import SHARED_FACES

#: The faces are kept at this resolution (px/mm); the renderer resamples them.
FACE_PX_PER_MM = 4.0
DUEL = "duel"
SCANS = "duel-scans"
_L1 = [f"1{c}{r}" for c in "wugkr" for r in (2, 4, 1, 3, 5)] + ["1j2", "1j1", "1x1", "1j3",
                                                               "1j4"]
_L2 = [f"2{c}{r}" for c in "wugkr" for r in (4, 2, 3, 1)] + ["2j3", "2j1", "2j2", "2x1"]
_L3 = [f"3{c}{r}" for c in "wugkr" for r in (1, 2)] + ["3j2", "3j1", "3x1"]
#: Sprite frame ``k`` (from 1; frame 0 is the back) of ``cards<level>.jpg`` -> card id.
SPRITE_IDS: dict[int, tuple[str, ...]] = {1: tuple(_L1), 2: tuple(_L2), 3: tuple(_L3)}
#: Frames of ``royal-cards.jpg`` -> royal id (r1 steal, r2 again, r3 privilege, r4 3 points).
ROYAL_FRAMES = {"r1": 0, "r2": 1, "r3": 2, "r4": 3}
ROYAL_SCANS = {"r1": "voler", "r2": "rejouer", "r3": "privilege", "r4": "sans"}
#: Frames of ``tokens.png`` -> token letter.
TOKEN_FRAMES = {"y": 0, "p": 1, "u": 2, "w": 3, "g": 4, "k": 5, "r": 6}
SPRITE_W, SPRITE_H, TOKEN_PX = 120, 183, 80


@dataclass(frozen=True)
class DuelFaces:
    """One set of faces: ``cards`` and ``royals`` by id (BGR, upright), ``backs`` by
    level, ``chips`` by token letter (BGRA), ``board`` (BGR) or None (drawn)."""

    name: str
    cards: dict[str, np.ndarray] = field(default_factory=dict)
    royals: dict[str, np.ndarray] = field(default_factory=dict)
    backs: dict[int, np.ndarray] = field(default_factory=dict)
    chips: dict[str, np.ndarray] = field(default_factory=dict)
    board: np.ndarray | None = None


def duel_art(root: Path | None = None) -> Path | None:
    """The card-faces folder when it holds the Duel art, else None (tests skip)."""
    root = root or SHARED_FACES
    return root if (root / DUEL / "cards1.jpg").exists() and (
        root / SCANS / "labels.csv").exists() else None


@lru_cache(maxsize=4)
def duel_faces(split: str, root: Path | None = None) -> DuelFaces:
    """The faces of ``split`` (``design`` or ``check``); drawn ones without the art."""
    if split not in ("design", "check"):
        raise ValueError(f"split is 'design' or 'check', not {split!r}")
    art = duel_art(root)
    if art is None:
        return drawn_faces()
    sprites = _sprites(art)
    if split == "design":
        return sprites
    return DuelFaces("scans", _scanned_cards(art), _scanned_royals(art), sprites.backs,
                     sprites.chips, sprites.board)


def _read(path: Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    img = cv2.imread(str(path), flags)
    if img is None:
        raise FileNotFoundError(path)
    return img


def _sprites(art: Path) -> DuelFaces:
    cards: dict[str, np.ndarray] = {}
    backs: dict[int, np.ndarray] = {}
    for level, ids in SPRITE_IDS.items():
        sheet = _read(art / DUEL / f"cards{level}.jpg")
        backs[level] = sheet[:, :SPRITE_W].copy()
        for k, cid in enumerate(ids, 1):
            cards[cid] = sheet[:, k * SPRITE_W:(k + 1) * SPRITE_W].copy()
    sheet = _read(art / DUEL / "royal-cards.jpg")
    royals = {rid: sheet[:, k * SPRITE_W:(k + 1) * SPRITE_W].copy()
              for rid, k in ROYAL_FRAMES.items()}
    tokens = _read(art / DUEL / "tokens.png", cv2.IMREAD_UNCHANGED)
    chips = {letter: tokens[:, k * TOKEN_PX:(k + 1) * TOKEN_PX].copy()
             for letter, k in TOKEN_FRAMES.items()}
    return DuelFaces("sprites", cards, royals, backs, chips, _read(art / DUEL / "board.jpg"))


def _card_key(row: dict[str, str]) -> tuple[object, ...]:
    return (row["level"], row["colour"], row["bonus_count"], row["points"], row["crowns"],
            row["ability"], *(row[f"cost_{k}"] for k in
                              ("white", "blue", "green", "red", "black", "pearl")))


def _scanned_cards(art: Path) -> dict[str, np.ndarray]:
    """The scans by card id: a label's columns name the catalogue card (cards with the
    same columns are the same face; they take the ids in catalogue order)."""
    rows = list(csv.DictReader(
        (Path(duel_cards.__file__).parents[2] / "data" / "duel_cards.csv").open(
            encoding="utf-8")))
    ids: dict[tuple[object, ...], list[str]] = {}
    for row, card in zip(rows, duel_cards.cards(), strict=True):
        ids.setdefault(_card_key(row), []).append(card.id)
    out: dict[str, np.ndarray] = {}
    with (art / SCANS / "labels.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out[ids[_card_key(row)].pop(0)] = _read(art / SCANS / row["file"])
    return out


def _scanned_royals(art: Path) -> dict[str, np.ndarray]:
    return {rid: _read(art / SCANS / "royals" / f"CartesRoyales_{name}.jpg")
            for rid, name in ROYAL_SCANS.items()}


# -- our own faces ----------------------------------------------------------------
#: Colours of our drawn faces (BGR), per token letter; the grey of jokers and points cards.
KIND_BGR = {"w": (225, 225, 225), "u": (190, 110, 30), "g": (70, 150, 40),
            "r": (40, 40, 200), "k": (45, 45, 45), "p": (200, 170, 230), "y": (40, 190, 230),
            "x": (150, 150, 150), "j": (150, 150, 150)}
_FONT = cv2.FONT_HERSHEY_DUPLEX


def _text(img: np.ndarray, text: str, centre: tuple[float, float], height: float,
          colour: tuple[int, int, int], thick: int = 2) -> None:
    scale = height / 22.0
    (tw, th), _ = cv2.getTextSize(text, _FONT, scale, thick)
    cv2.putText(img, text, (round(centre[0] - tw / 2), round(centre[1] + th / 2)), _FONT,
                scale, colour, thick, cv2.LINE_AA)


def _shade(bgr: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return (round(bgr[0] * f), round(bgr[1] * f), round(bgr[2] * f))


def drawn_card(card: duel_cards.JewelCard) -> np.ndarray:
    """A plain face: the card's colour as its ground, points top left, crowns top
    middle, its bonus top right (a disc per bonus), ability letter, cost circles
    bottom left, and a few shapes seeded by the id (the "art")."""
    s = FACE_PX_PER_MM
    w, h = round(DUEL_CARD_MM[0] * s), round(DUEL_CARD_MM[1] * s)
    kind = card.id[1]
    ground = KIND_BGR[kind]
    img = np.empty((h, w, 3), np.uint8)
    img[:] = _shade(ground, 0.55) if kind != "w" else (170, 170, 170)
    rng = np.random.default_rng(sum(map(ord, card.id)) * 7919)
    for _ in range(10):
        c = tuple(int(v) for v in rng.uniform(40, 220, 3))
        cv2.circle(img, (int(rng.uniform(0, w)), int(rng.uniform(20 * s, h))),
                   int(rng.uniform(3, 12) * s), c, -1, cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (w, round(18 * s)), ground, -1)
    ink = (20, 20, 20) if kind in "wyxj" else (245, 245, 245)
    if card.points:
        _text(img, str(card.points), (7 * s, 9 * s), 9 * s, ink, max(1, round(s)))
    for i in range(card.crowns):
        x = w / 2 + (i - (card.crowns - 1) / 2) * 6 * s
        cv2.rectangle(img, (round(x - 2.3 * s), round(4 * s)), (round(x + 2.3 * s), round(9 * s)),
                      (30, 200, 240), -1)
    for i in range(card.bonus):
        cv2.circle(img, (round(w - 7 * s - i * 8 * s), round(9 * s)), round(3.6 * s),
                   KIND_BGR[card.colour.letter if card.colour else "x"], -1, cv2.LINE_AA)
        cv2.circle(img, (round(w - 7 * s - i * 8 * s), round(9 * s)), round(3.6 * s), ink,
                   max(1, round(0.4 * s)), cv2.LINE_AA)
    abilities = "".join(sorted(a.value[0].upper() for a in card.abilities))
    if abilities:
        _text(img, abilities, (9 * s, 24 * s), 5 * s, (230, 230, 230), max(1, round(s / 2)))
    costs = _costs(card)
    for i, (letter, n) in enumerate(reversed(costs)):
        cy = h - (7 + i * 10) * s
        cv2.circle(img, (round(7 * s), round(cy)), round(4.5 * s), KIND_BGR[letter], -1,
                   cv2.LINE_AA)
        _text(img, str(n), (7 * s, cy), 5 * s, (20, 20, 20) if letter in "wpy" else
              (245, 245, 245), max(1, round(s / 2)))
    return img


def _costs(card: duel_cards.JewelCard) -> list[tuple[str, int]]:
    from companion.rules.duel.tokens import KINDS

    return [(k.letter, card.cost[k]) for k in KINDS if card.cost[k]]


def drawn_royal(royal: duel_cards.Royal) -> np.ndarray:
    s = FACE_PX_PER_MM
    w, h = round(DUEL_CARD_MM[0] * s), round(DUEL_CARD_MM[1] * s)
    img = np.full((h, w, 3), (60, 150, 190), np.uint8)
    cv2.rectangle(img, (round(2 * s), 0), (round(14 * s), round(30 * s)), (30, 200, 240), -1)
    _text(img, str(royal.points), (8 * s, 9 * s), 9 * s, (20, 20, 20), max(1, round(s)))
    word = royal.ability.value[:3].upper() if royal.ability else "---"
    _text(img, word, (w / 2, h / 2), 10 * s, (240, 240, 240), max(1, round(s)))
    return img


def drawn_back(level: int) -> np.ndarray:
    s = FACE_PX_PER_MM
    w, h = round(DUEL_CARD_MM[0] * s), round(DUEL_CARD_MM[1] * s)
    img = np.full((h, w, 3), (60, 90, 40), np.uint8)
    for i in range(level):
        cv2.circle(img, (round(w / 2 + (i - (level - 1) / 2) * 8 * s), round(h - 10 * s)),
                   round(2 * s), (230, 230, 230), -1, cv2.LINE_AA)
    return img


def drawn_chip(letter: str) -> np.ndarray:
    """A chip from above (BGRA): a coloured rim round a cream sticker with the gem."""
    n = TOKEN_PX
    img = np.zeros((n, n, 4), np.uint8)
    c = (n - 1) / 2
    cv2.circle(img, (round(c), round(c)), n // 2 - 1, (*KIND_BGR[letter], 255), -1, cv2.LINE_AA)
    cv2.circle(img, (round(c), round(c)), round(n * 0.42), (200, 225, 235, 255), -1, cv2.LINE_AA)
    cv2.circle(img, (round(c), round(c)), round(n * 0.22), (*KIND_BGR[letter], 255), -1,
               cv2.LINE_AA)
    return img


@lru_cache(maxsize=1)
def drawn_faces() -> DuelFaces:
    return DuelFaces(
        "drawn",
        {c.id: drawn_card(c) for c in duel_cards.cards()},
        {r.id: drawn_royal(r) for r in duel_cards.royals()},
        {lv: drawn_back(lv) for lv in (1, 2, 3)},
        {k: drawn_chip(k) for k in "wugrkpy"},
        None,
    )
