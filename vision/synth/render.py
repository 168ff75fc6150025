"""The renderer: a :class:`TableScene` on a layout's mats, seen through a camera.

The table is drawn top-down on a canvas in table millimetres (mats, cards,
nobles, deck backs, tokens, hands), then projected by a pinhole camera
(:class:`Camera`: tilt up to 20°, rotation, perspective, barrel distortion)
and degraded the way real photographs are: uneven light, exposure, colour
temperature, glare, shadows, blur, sensor noise and JPEG.  All randomness
comes from ``seed``, so a frame is reproducible.

Only the window of the table the camera looks at is drawn, at about 1.5× the
output resolution, so a partial view at the real px/mm is cheap.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import cast

import cv2
import numpy as np

from companion.rules import catalogue
from vision import cardface as cf
from vision.layout import PILE_STEP_MM, TABLEAU_STEP_MM, TOKEN_MM, Layout, Slot
from vision.mats import affine_for, draw_mats
from vision.synth import faces
from vision.synth.scene import TOKEN_LETTERS, TableScene

TABLE_BGR = (60, 90, 120)
OVERSAMPLE = 1.5
MAX_CANVAS_PX_PER_MM = 6.0
#: A slot counts as covered by a hand when this fraction of it is under the hand.
COVERED_FRACTION = 0.08
#: Darkening of the soft shadow under each component (diffuse overhead light).
SHADOW_DEPTH = 0.12


@dataclass(frozen=True)
class Camera:
    """Where the camera looks from and how its pictures are spoiled.

    ``window`` is the table area (x0, y0, x1, y1 in mm) the frame shows (None =
    the whole table); ``px_per_mm`` the scale at its centre.  Angles are in degrees.
    """

    px_per_mm: float = 3.0
    window: tuple[float, float, float, float] | None = None
    tilt: float = 0.0
    tilt_direction: float = 0.0
    rotation: float = 0.0
    distance_mm: float = 900.0
    distortion: float = 0.0
    light_gradient: float = 0.0
    exposure: float = 1.0
    colour_temperature: float = 0.0
    glare: float = 0.0
    shadow: float = 0.0
    blur: float = 0.0
    noise: float = 0.0
    jpeg_quality: int | None = None
    hands: int = 0
    jitter_mm: float = 1.5
    tags: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def random(cls, rng: np.random.Generator, hard: bool = False, **kw: object) -> Camera:
        """A plausible overhead camera; ``hard`` = steep tilt, dim or glaring light, a hand."""
        tags = []
        cam = cls(
            px_per_mm=float(rng.uniform(3.2, 4.2)),
            tilt=float(rng.uniform(0, 8)),
            tilt_direction=float(rng.uniform(0, 360)),
            rotation=float(rng.uniform(-6, 6)),
            distortion=float(rng.uniform(-0.015, 0.015)),
            light_gradient=float(rng.uniform(0, 0.3)),
            exposure=float(rng.uniform(0.85, 1.1)),
            colour_temperature=float(rng.uniform(-0.4, 0.4)),
            blur=float(rng.uniform(0.3, 0.9)),
            noise=float(rng.uniform(1, 4)),
            jpeg_quality=int(rng.integers(80, 92)),
        )
        if hard:
            kind = rng.choice(["tilt", "dim", "glare", "cover"])
            tags.append(str(kind))
            if kind == "tilt":
                cam = replace(cam, tilt=float(rng.uniform(15, 20)),
                              rotation=float(rng.uniform(-25, 25)))
            elif kind == "dim":
                cam = replace(cam, exposure=float(rng.uniform(0.4, 0.55)), noise=6.0,
                              light_gradient=0.45,
                              colour_temperature=float(rng.choice([-0.8, 0.8])))
            elif kind == "glare":
                cam = replace(cam, glare=float(rng.uniform(0.5, 0.9)), shadow=0.5)
            else:
                cam = replace(cam, hands=1)
        return replace(cam, tags=tuple(tags), **kw)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Rendered:
    """A rendered frame with what the test needs to know about it."""

    image: np.ndarray
    #: 3×3 map from table mm to the frame's pixels (before lens distortion).
    homography: np.ndarray
    #: ids of the slots that a hand covers.
    covered: frozenset[str]
    #: what each occupied slot holds: a card or noble id, a token letter, ``deck<level>``.
    contents: dict[str, str]


def render_scene(scene: TableScene, layout: Layout, camera: Camera | None = None,
                 seed: int = 0, steady: int | None = None) -> np.ndarray:
    """Draw ``scene`` on ``layout`` as ``camera`` sees it: a BGR uint8 frame."""
    return render(scene, layout, camera or Camera(), seed, steady=steady).image


def render(scene: TableScene, layout: Layout, camera: Camera, seed: int = 0,
           face_images: Mapping[str, np.ndarray] | None = None,
           steady: int | None = None,
           token_images: Mapping[str, np.ndarray] | None = None) -> Rendered:
    """Like :func:`render_scene`, also returning the homography, covered slots and contents.

    ``face_images`` replaces our drawn faces by given images (card or noble id ->
    BGR image), e.g. scans of real cards for an evaluation that is never committed.
    ``token_images`` likewise replaces the drawn chips (token letter -> BGRA chip
    face, alpha 0 outside the chip), scaled to the 40 mm token.

    ``steady``: where each thing lies (its jitter, a token's turn, which slots hold
    the tokens) comes from this number, the slot and what is in it rather than
    from ``seed``, so frames of successive turns show what did not move where it
    was, as on a real table; ``seed`` still draws the camera's noise.  The demo
    renders this way.
    """
    rng = np.random.default_rng(seed)
    if camera.window is None:
        x0, y0, x1, y1 = layout.bounds()
        window = (x0 - 20, y0 - 20, x1 + 20, y1 + 20)
    else:
        window = camera.window
    s = min(camera.px_per_mm * OVERSAMPLE, MAX_CANVAS_PX_PER_MM)
    table = draw_table(scene, layout, window, s, rng, camera.jitter_mm, face_images,
                       token_images, steady)
    canvas, aff = table.image, table.affine
    covered: frozenset[str] = frozenset()
    if camera.hands:
        covered = _draw_hands(canvas, layout, aff, s, camera.hands, window, rng)
    h_img, size = _camera_homography(camera, window)
    a3 = np.vstack([aff, [0, 0, 1]])
    m = h_img @ np.linalg.inv(a3)
    img = cv2.warpPerspective(canvas, m, size, flags=cv2.INTER_AREA if s > camera.px_per_mm
                              else cv2.INTER_LINEAR, borderValue=TABLE_BGR)
    img = _photograph(img, camera, rng)
    return Rendered(img, h_img, covered, table.contents)


@dataclass(frozen=True)
class Canvas:
    """The table drawn top-down: ``image`` (BGR), ``affine`` (2×3, table mm -> its px)."""

    image: np.ndarray
    affine: np.ndarray
    px_per_mm: float
    #: what each occupied slot holds (as :attr:`Rendered.contents`).
    contents: dict[str, str]


def draw_table(scene: TableScene, layout: Layout, window: tuple[float, float, float, float],
               px_per_mm: float, rng: np.random.Generator, jitter_mm: float = 1.5,
               face_images: Mapping[str, np.ndarray] | None = None,
               token_images: Mapping[str, np.ndarray] | None = None,
               steady: int | None = None) -> Canvas:
    """The window of the table (plus ``CANVAS_PAD_MM``) drawn top-down at ``px_per_mm``.

    Split from :func:`render` so another camera model (:mod:`vision.synth.world`)
    can photograph the same table; draws from ``rng`` in the order ``render`` did.
    """
    place = _placer(rng, steady)
    wx0, wy0, wx1, wy1 = window
    s = px_per_mm
    pad = CANVAS_PAD_MM
    origin = (wx0 - pad, wy0 - pad)
    aff = affine_for(origin, s)
    cw, ch = round((wx1 - wx0 + 2 * pad) * s), round((wy1 - wy0 + 2 * pad) * s)
    canvas = _table_texture(ch, cw, rng if steady is None else place("table"))
    draw_mats(canvas, layout, aff)
    contents: dict[str, str] = {}
    chips = {k: _chip(v, s) for k, v in (token_images or {}).items()}
    _draw_components(canvas, scene, layout, aff, s, jitter_mm, rng, contents,
                     face_images or {}, place, steady is not None, chips)
    return Canvas(canvas, aff, s, contents)


def _chip(face: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """A BGRA chip face cropped to its opaque disc and scaled to the 40 mm token."""
    alpha = face[:, :, 3] if face.ndim == 3 and face.shape[2] == 4 else None
    if alpha is not None:
        ys, xs = np.nonzero(alpha > 127)
        face = face[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    d = max(4, round(TOKEN_MM * s))
    img = cv2.resize(np.ascontiguousarray(face[:, :, :3]), (d, d), interpolation=cv2.INTER_AREA)
    if alpha is not None:
        mask = cv2.resize(np.ascontiguousarray(face[:, :, 3]), (d, d),
                          interpolation=cv2.INTER_AREA)
    else:
        mask = np.zeros((d, d), np.uint8)
        cv2.circle(mask, (d // 2, d // 2), d // 2, 255, -1, cv2.LINE_AA)
    return img, mask


#: Table drawn round the camera's window, mm; beyond it a tilted view shows bare
#: table colour (slots there are not in the view: see ``drawn``).
CANVAS_PAD_MM = 30.0


def drawn(window: tuple[float, float, float, float], slot: Slot) -> bool:
    """Whether ``slot`` lies wholly on the canvas drawn for ``window``."""
    x0, y0, x1, y1 = window
    p = CANVAS_PAD_MM
    return all(x0 - p <= x <= x1 + p and y0 - p <= y <= y1 + p for x, y in slot.corners())


# -- the table ------------------------------------------------------------
def _table_texture(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Wood-like grain; built in 8 bits (a full table canvas is ~50 MP)."""
    grain = cv2.resize(rng.normal(0, 12, (max(2, h // 40), 8)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    shift = np.clip(grain + 128, 0, 255).astype(np.uint8)
    img = np.empty((h, w, 3), np.uint8)
    for c, base in enumerate(TABLE_BGR):
        # an int is OpenCV's scalar (saturating), which its stubs do not admit
        img[:, :, c] = cv2.add(shift, base - 128) if base >= 128 else cv2.subtract(
            shift, 128 - base)  # type: ignore[call-overload]
    return img


def _paste(canvas: np.ndarray, item: np.ndarray, mask: np.ndarray | None, aff: np.ndarray,
           center: tuple[float, float], angle: float, size_mm: tuple[float, float],
           shadow: bool = True) -> None:
    """Draw ``item`` (upright image of ``size_mm``) centred at ``center`` rotated by ``angle``."""
    ih, iw = item.shape[:2]
    sx, sy = size_mm[0] / iw, size_mm[1] / ih
    t = math.radians(angle)
    c, s = math.cos(t), math.sin(t)
    # item px -> item mm centred -> rotated -> table mm
    a = np.array([[c * sx, -s * sy], [s * sx, c * sy]])
    b = np.array(center) - a @ np.array([iw / 2, ih / 2])
    m_table = np.hstack([a, b[:, None]])
    m = np.vstack([aff, [0, 0, 1]]) @ np.vstack([m_table, [0, 0, 1]])
    corners = np.array([[0, 0, 1], [iw, 0, 1], [iw, ih, 1], [0, ih, 1]], float) @ m[:2].T
    x0, y0 = np.floor(corners.min(0)).astype(int) - 3
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 3
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    mm = m[:2].copy()
    mm[:, 2] -= (x0, y0)
    size = (x1 - x0, y1 - y0)
    if mask is None:
        mask = np.full((ih, iw), 255, np.uint8)
    warped = cv2.warpAffine(item, mm, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(mask, mm, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    roi: np.ndarray = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        k = max(3, (round(aff[0, 0] * 1.5) | 1))
        sh = cv2.GaussianBlur(alpha, (k, k), 0)
        sh = np.roll(sh, (max(1, k // 3), max(1, k // 3)), (0, 1))
        roi *= (1 - SHADOW_DEPTH * sh)[:, :, None]
    roi = roi * (1 - alpha[:, :, None]) + warped.astype(np.float32) * alpha[:, :, None]
    canvas[y0:y1, x0:x1] = roi.astype(np.uint8)


Placer = Callable[..., np.random.Generator]


def _placer(shared: np.random.Generator, steady: int | None) -> Placer:
    """The generator for placing one thing: the frame's own, or (steady) one seeded by
    the thing's slot and identity, so it lies the same in every frame it is in."""
    if steady is None:
        return lambda *key: shared
    return lambda *key: np.random.default_rng(zlib.crc32(repr((steady, *key)).encode()))


def _jitter(slot: Slot, rng: np.random.Generator, mm: float) -> tuple[tuple[float, float], float]:
    dx, dy = rng.uniform(-mm, mm, 2)
    return (slot.center[0] + dx, slot.center[1] + dy), slot.angle + float(rng.uniform(-2, 2)) * (
        mm > 0)


def _draw_components(canvas: np.ndarray, scene: TableScene, layout: Layout, aff: np.ndarray,
                     s: float, jit: float, rng: np.random.Generator,
                     contents: dict[str, str], overrides: Mapping[str, np.ndarray],
                     place: Placer, steady: bool = False,
                     chips: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None) -> None:
    card_size = (cf.CARD_W, cf.CARD_H)

    def card_img(cid: str) -> np.ndarray:
        if cid in overrides:
            return cv2.resize(overrides[cid], (cmask.shape[1], cmask.shape[0]),
                              interpolation=cv2.INTER_CUBIC)
        return faces.card_face(catalogue.card(cid), s)

    cmask = faces.card_mask(s)
    slots = layout.slot_index
    for i, nid in enumerate(scene.nobles):
        slot = slots.get(f"noble.{i}")
        if slot and nid is not None:  # None: a slot left empty (a noble taken from between)
            contents[slot.id] = nid
            c, a = _jitter(slot, place(slot.id, nid), jit)
            img = overrides.get(nid)
            if img is None:
                img = faces.noble_face(catalogue.noble(nid), s)
            _paste(canvas, img, None, aff, c, a,
                   (cf.NOBLE_W, cf.NOBLE_H))
    for lv in (1, 2, 3):
        slot = slots.get(f"deck.{lv}")
        if slot and scene.decks[lv - 1]:
            contents[slot.id] = f"deck{lv}"
            c, a = _jitter(slot, place(slot.id), jit * 0.5)
            for k in (2, 1):  # the stack's edge
                edge = np.full_like(faces.card_back(lv, s), 40)
                _paste(canvas, edge, cmask, aff, (c[0] + 0.5 * k, c[1] + 0.6 * k), a, card_size)
            _paste(canvas, faces.card_back(lv, s), cmask, aff, c, a, card_size)
        for i, cid in enumerate(scene.market[lv - 1]):
            slot = slots.get(f"market.{lv}.{i}")
            if slot and cid:
                contents[slot.id] = cid
                c, a = _jitter(slot, place(slot.id, cid), jit)
                _paste(canvas, card_img(cid), cmask, aff, c, a,
                       card_size)
    _place_tokens(canvas, [s_ for s_ in layout.slots if s_.zone == "supply"], scene.supply,
                  aff, s, jit, rng, contents, by_colour=True, place=place, steady=steady,
                  chips=chips)
    for p, ps in enumerate(scene.players, 1):
        zone = [s_ for s_ in layout.slots if s_.zone == f"player{p}.tokens"]
        if any(s_.kind == "pile" for s_ in zone):
            _place_piles(canvas, zone, ps.tokens, aff, s, rng, contents, chips)
        else:
            _place_tokens(canvas, zone, ps.tokens, aff, s, jit, rng, contents, by_colour=False,
                          place=place, steady=steady, chips=chips)
        for i, entry in enumerate(ps.reserved):
            slot = slots.get(f"player{p}.reserved.{i}")
            if not slot:
                continue
            contents[slot.id] = entry
            c, a = _jitter(slot, place(slot.id, entry), jit)
            if entry.startswith("deck"):
                img = faces.card_back(int(entry[4:]), s)
            else:
                img = card_img(entry)
            _paste(canvas, img, cmask, aff, c, a, card_size)
        for letter in "wugrk":
            slot = slots.get(f"player{p}.tableau.{letter}")
            if not slot:
                continue
            column = [cid for cid in ps.tableau if catalogue.card(cid).bonus.letter == letter]
            if column:
                contents[slot.id] = " ".join(column)
            for k, cid in enumerate(column):
                v = -slot.size[1] / 2 + 2 + cf.CARD_H / 2 + k * TABLEAU_STEP_MM
                t = math.radians(slot.angle)
                r = place(slot.id, cid)
                ctr = (slot.center[0] - v * math.sin(t) + r.uniform(-jit, jit),
                       slot.center[1] + v * math.cos(t) + r.uniform(-jit / 3, jit / 3))
                _paste(canvas, card_img(cid), cmask, aff, ctr,
                       slot.angle + float(r.uniform(-1.5, 1.5)), card_size)


def _place_tokens(canvas: np.ndarray, zone: list[Slot], counts: tuple[int, ...],
                  aff: np.ndarray, s: float, jit: float, rng: np.random.Generator,
                  contents: dict[str, str], by_colour: bool, place: Placer,
                  steady: bool = False,
                  chips: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None) -> None:
    """Tokens in random slots of their zone (steady: the first free ones, in order)."""
    placed: list[tuple[Slot, str]] = []
    if by_colour:
        for letter, n in zip(TOKEN_LETTERS, counts, strict=True):
            row = [sl for sl in zone if sl.colour == letter]
            order = np.arange(len(row)) if steady else rng.permutation(len(row))
            placed += [(row[i], letter) for i in sorted(order[: min(n, len(row))])]
    else:
        letters = [ltr for ltr, n in zip(TOKEN_LETTERS, counts, strict=True) for _ in range(n)]
        order = np.arange(len(zone)) if steady else rng.permutation(len(zone))
        placed = [(zone[order[i]], ltr) for i, ltr in enumerate(letters[: len(zone)])]
    for slot, letter in placed:
        contents[slot.id] = letter
        img, mask = (chips or {}).get(letter) or faces.token(letter, s)
        r = place(slot.id, letter)
        c, _ = _jitter(slot, r, jit * 0.6)
        _paste(canvas, img, mask, aff, c, float(r.uniform(0, 360)), (TOKEN_MM, TOKEN_MM))


def _place_piles(canvas: np.ndarray, zone: list[Slot], counts: tuple[int, ...],
                 aff: np.ndarray, s: float, rng: np.random.Generator,
                 contents: dict[str, str],
                 chips: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None) -> None:
    """Each colour's tokens in its pile zone, shingled ``PILE_STEP_MM`` apart."""
    for slot in zone:
        n = counts[TOKEN_LETTERS.index(slot.colour or "w")]
        if not n:
            continue
        contents[slot.id] = (slot.colour or "") * n
        img, mask = (chips or {}).get(slot.colour or "w") or faces.token(slot.colour or "w", s)
        t = math.radians(slot.angle)
        for k in range(n):
            u = -slot.size[0] / 2 + TOKEN_MM / 2 + k * PILE_STEP_MM + rng.uniform(-0.7, 0.7)
            v = rng.uniform(-0.7, 0.7)
            c = (slot.center[0] + u * math.cos(t) - v * math.sin(t),
                 slot.center[1] + u * math.sin(t) + v * math.cos(t))
            _paste(canvas, img, mask, aff, c, float(rng.uniform(0, 360)), (TOKEN_MM, TOKEN_MM))


def _draw_hands(canvas: np.ndarray, layout: Layout, aff: np.ndarray, s: float, n: int,
                window: tuple[float, float, float, float],
                rng: np.random.Generator) -> frozenset[str]:
    """Skin-coloured hands (palm + fingers + forearm from the window's edge)."""
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for _ in range(n):
        cx = rng.uniform(window[0], window[2])
        cy = rng.uniform(window[1], window[3])
        ang = rng.uniform(0, 2 * np.pi)
        d = np.array([math.cos(ang), math.sin(ang)])
        nrm = np.array([-d[1], d[0]])
        palm = np.array([cx, cy])

        def px(p: np.ndarray) -> tuple[int, int]:
            q = aff[:, :2] @ p + aff[:, 2]
            return round(q[0]), round(q[1])

        cv2.ellipse(mask, px(palm), (round(45 * s), round(52 * s)), math.degrees(ang), 0, 360,
                    255, -1)
        cv2.line(mask, px(palm), px(palm - d * 400), 255, round(70 * s))
        for k in range(4):
            base = palm + d * 35 + nrm * (k - 1.5) * 20
            tip = base + d * rng.uniform(55, 80) + nrm * rng.uniform(-10, 10)
            cv2.line(mask, px(base), px(tip), 255, round(17 * s))
        thumb = palm + nrm * 45
        cv2.line(mask, px(palm), px(thumb + d * 30 + nrm * 20), 255, round(20 * s))
    soft = cv2.GaussianBlur(mask, (0, 0), 1.2 * s).astype(np.float32) / 255
    shade = cv2.GaussianBlur(mask, (0, 0), 12 * s).astype(np.float32) / 255
    skin = np.asarray(faces.SKIN_BGR, np.float32) * (0.75 + 0.3 * shade)[:, :, None]
    img = canvas.astype(np.float32) * (1 - 0.4 * np.roll(shade, round(8 * s), 0))[:, :, None]
    img = img * (1 - soft[:, :, None]) + skin * soft[:, :, None]
    canvas[:] = np.clip(img, 0, 255).astype(np.uint8)
    covered = []
    for slot in layout.slots:
        poly = np.round(np.asarray(slot.corners()) @ aff[:, :2].T + aff[:, 2]).astype(np.int32)
        x0, y0 = np.clip(poly.min(0), 0, [w - 1, h - 1])
        x1, y1 = np.clip(poly.max(0), 0, [w - 1, h - 1])
        if x1 <= x0 or y1 <= y0:
            continue
        if mask[y0:y1, x0:x1].mean() / 255 > COVERED_FRACTION:
            covered.append(slot.id)
    return frozenset(covered)


# -- the camera -------------------------------------------------------------
def _camera_homography(
    camera: Camera, window: tuple[float, float, float, float]
) -> tuple[np.ndarray, tuple[int, int]]:
    """Pinhole camera above the window's centre, tilted and rolled; H maps table mm -> px."""
    x0, y0, x1, y1 = window
    target = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
    f = camera.px_per_mm * camera.distance_mm
    a = math.radians(camera.tilt_direction)
    axis = np.array([math.cos(a), math.sin(a), 0.0]) * math.radians(camera.tilt)
    r_tilt, _ = cv2.Rodrigues(axis)
    r = math.radians(camera.rotation)
    r_roll = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rc = r_tilt @ r_roll
    view = rc @ np.array([0, 0, 1.0])
    centre = target - camera.distance_mm * view
    ext = rc.T @ np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, -centre[2]]])
    k = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1]])
    h = k @ ext
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], float) @ h.T
    pts = corners[:, :2] / corners[:, 2:]
    lo, hi = pts.min(0), pts.max(0)
    shift = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1]])
    h = shift @ h
    size = (math.ceil(hi[0] - lo[0]), math.ceil(hi[1] - lo[1]))
    return h / h[2, 2], size


def _photograph(img: np.ndarray, cam: Camera, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    if not (cam.distortion or cam.light_gradient or cam.exposure != 1 or cam.colour_temperature
            or cam.shadow or cam.glare or cam.blur or cam.noise or cam.jpeg_quality):
        return img  # a perfect camera (the demo's): no float copy of a large frame
    out: np.ndarray = img.astype(np.float32)
    if cam.distortion:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy, norm = w / 2, h / 2, math.hypot(w, h) / 2
        u, v = (xx - cx) / norm, (yy - cy) / norm
        factor = 1 + cam.distortion * (u * u + v * v)
        out = cv2.remap(out, cx + u * factor * norm, cy + v * factor * norm, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    a = rng.uniform(0, 2 * np.pi)
    if cam.light_gradient or cam.exposure != 1 or cam.colour_temperature:
        # the light field is smooth: compute it small and enlarge it
        sh, sw = max(2, h // 16), max(2, w // 16)
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        ramp = (xx / sw - 0.5) * math.cos(a) + (yy / sh - 0.5) * math.sin(a)
        vign = (xx / sw - 0.5) ** 2 + (yy / sh - 0.5) ** 2
        gain = cam.exposure * (1 + cam.light_gradient * ramp - 0.3 * cam.light_gradient * vign)
        gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
        t = cam.colour_temperature
        channel = np.array([1 + 0.18 * t, 1.0, 1 - 0.18 * t], np.float32)
        out = out * gain[:, :, None] * channel
    if cam.shadow:
        sm: np.ndarray = np.zeros((h, w), np.float32)
        pts = (rng.uniform(0, 1, (4, 2)) * (w, h)).astype(np.int32)
        cv2.fillConvexPoly(sm, cv2.convexHull(pts), 1.0)
        sm = cv2.GaussianBlur(sm, (0, 0), 0.03 * max(w, h))
        out *= (1 - 0.45 * cam.shadow * sm)[:, :, None]
    if cam.glare:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        sig = 0.07 * max(w, h)
        blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig))
        out += (cam.glare * 170 * blob)[:, :, None]
    if cam.blur:
        out = cv2.GaussianBlur(out, (0, 0), cam.blur)
    if cam.noise:
        out += rng.normal(0, cam.noise, out.shape).astype(np.float32)
    img = np.clip(out, 0, 255).astype(np.uint8)
    if cam.jpeg_quality:
        _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg_quality])
        # a JPEG OpenCV itself just encoded: imdecode gives it back
        img = cast(np.ndarray, cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return img
