"""A world the reader has never seen: the printed layout under a real Pi camera and real light.

:func:`world_frame` draws a seeded table (:func:`vision.synth.scene.random_scene`,
faces of one of :func:`vision.synth.facesets.face_sets`' sets, the publisher's
chips) top-down with :func:`vision.synth.render.draw_table`, then photographs it
through an explicit 3-D camera: a pose above the table, the lens of the
Raspberry Pi Camera Module 3 (Wide or standard) and the light of a room.  Every
output pixel is traced back through the lens to the table, so
:meth:`WorldFrame.project` is the exact forward map of what was rendered.

The lens model (Kannala–Brandt, as ``cv2.fisheye``)
----------------------------------------------------
A ray at angle ``θ`` from the optical axis lands at radius
``r = f · θ · (1 + k1 θ² + k2 θ⁴)`` on the sensor.  The IMX708 is 4608 × 2592
pixels of 1.4 µm: 6.451 × 3.629 mm, half-diagonal 3.701 mm.

*Wide* (f = 2.75 mm, stated FOV 102° H / 67° V / 120° D).  A pinhole of 2.75 mm
would see 99.1° / 66.8° / 106.8°: the lens bends the corners in (barrel).  The
half-angles the edges see are 51°, 33.5° and 60°, where ``r/f`` is 1.173, 0.660 and
1.346.  ``k1, k2`` minimise the squared errors of the three FOVs (grid over k1,
k2 with the slope dr/dθ kept ≥ 0.3 up to 65° so the map never folds); the
model then sees 103.6° / 64.6° / 119.2° (H +1.6°, V −2.4°, D −0.8°).  No pinhole
plus polynomial in ``tan θ`` fits the three: it folds before the corner.

*Standard* (f = 4.74 mm, stated 66° / 41° / 75°).  A pinhole of 4.74 mm would
see 68.5° / 41.9° / 76.0°, slightly more than stated; the same fit gives
k1 = 0.63, k2 = −0.37 and 66.6° / 40.8° / 74.5°: within 2.6 % of a pinhole
anywhere in the frame, the mild lens (its sign is pincushion against the nominal
4.74 mm, because the stated FOVs are narrower than that focal length implies).

Light, per difficulty (all seeded): white balance left warm (tungsten 2700 K),
cool (LED) or mixed across the table, a lamp's fall-off and the lens's residual
vignetting, specular hot spots on sleeved cards and domed chips (elliptical,
flat-topped, broken up by the sleeve's ripples, mostly near a glossy slot since
a reflection on the matte mat is not seen; a small crescent on every chip on
the side facing the lamp), soft shadows, a hand and arm
reaching in from a player's edge, motion blur, sensor noise that grows as the
light falls, JPEG.

What a person could not read is recorded in :attr:`WorldFrame.hidden`, by
these rules, measured in the frame over each slot's outline:

* ``hand``: ≥ ``HAND_HIDES`` of the slot under the hand or arm;
* ``glare``: ≥ ``GLARE_HIDES`` of the slot clipped near white by the glare;
* ``shadow``: ≥ ``SHADOW_HIDES`` of the slot lit less than ``SHADOW_DARK``
  of the frame's median light;
* and a card or noble under a hand or a shadow by those rules, when any
  printed element a person tells it by (a card's bonus gem and each cost
  circle it has; a noble's requirement squares) is at least ``ELEMENT_HIDES``
  under it.  WHY: a finger over a card's cost circles hides its identity while
  covering a tenth of its slot; the issue asks the reader to abstain wherever a
  reading region is not seen, so there abstaining is right.  The points are
  left out: they follow from the bonus and costs (every noble scores 3).  Glare
  keeps the slot's rule alone: its mask is what clipped, and a white circle or
  gem clips under mild glare while its numeral still shows.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from companion.rules import catalogue
from vision import cardface as cf
from vision.geometry import CENTRAL_MATS_MM
from vision.layout import TOKEN_MM, Layout, Slot, build_layout
from vision.synth.facesets import face_sets, token_faces
from vision.synth.render import TABLE_BGR, Canvas, draw_table
from vision.synth.scene import PlayerScene, TableScene, random_scene

PIXEL_MM = 1.4e-3
SENSOR_PX = (4608, 2592)
#: Margin round the central mat that the "centre" framing keeps in view, mm a side.
CENTRE_MARGIN_MM = 20.0
#: Margin round the whole layout for the "table" framing, mm a side.
TABLE_MARGIN_MM = 20.0
#: Canvas resolution over the frame's resolution at its centre (issue: ~1.5×).
CANVAS_OVERSAMPLE = 1.25
#: Output pixels between the samples of the lens map (interpolated between; the
#: map is smooth, the error is below 0.01 px).
MAP_STEP = 8
HAND_HIDES = 0.25
GLARE_HIDES = 0.15
SHADOW_HIDES = 0.25
#: Share of one printed element of a card or noble (a cost circle, the bonus gem, a
#: noble's square) under a hand or a deep shadow at which a person cannot read it: half
#: of a cost circle covers half of its numeral.
ELEMENT_HIDES = 0.5
SHADOW_DARK = 0.3
#: A pixel counts as clipped by glare when its darkest channel is at least this
#: and the glare added at least ``GLARE_ADDED``.
CLIPPED = 240
GLARE_ADDED = 40.0
DIFFICULTIES = ("easy", "medium", "hard")
SKIN_BGR = ((180, 200, 235), (150, 178, 222), (120, 152, 200), (90, 122, 170),
            (62, 90, 135), (42, 60, 95))
SLEEVE_BGR = ((60, 60, 60), (140, 90, 40), (40, 40, 130), (200, 200, 200), (70, 110, 60))


@dataclass(frozen=True)
class Lens:
    """A fisheye-model lens on the IMX708: focal length (mm) and ``cv2.fisheye`` k1..k4."""

    name: str
    focal_mm: float
    k: tuple[float, float, float, float]

    def theta_d(self, theta: np.ndarray) -> np.ndarray:
        t2 = theta * theta
        k1, k2, k3, k4 = self.k
        return np.asarray(theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4)))))

    def theta(self, theta_d: np.ndarray) -> np.ndarray:
        """Inverse of :meth:`theta_d` by Newton from ``atan`` (below the root, where the
        map is concave, so the steps stay below it and never reach the fold)."""
        th = np.arctan(np.asarray(theta_d, np.float64))
        k1, k2, k3, k4 = self.k
        for _ in range(12):
            t2 = th * th
            g = th * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4)))) - theta_d
            dg = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)))
            th = th - g / dg
        return th

    def fov(self) -> tuple[float, float, float]:
        """Horizontal, vertical, diagonal field of view (degrees) on the full sensor."""
        w, h = (n * PIXEL_MM / 2 for n in SENSOR_PX)
        half = np.array([w, h, math.hypot(w, h)]) / self.focal_mm
        return tuple(float(v) for v in 2 * np.degrees(self.theta(half)))  # type: ignore[return-value]


LENSES = {
    "wide": Lens("imx708-wide", 2.75, (0.65, -0.35, 0.0, 0.0)),
    "standard": Lens("imx708", 4.74, (0.63, -0.37, 0.0, 0.0)),
}


@dataclass(frozen=True)
class PiCamera:
    """A camera above the table: ``centre`` (table mm, z = height), rotation, lens, image size.

    World axes: x right, y down the table (image convention), z into the table,
    so the table is z = 0 and a camera above it has negative z.  ``rotation`` maps
    world directions to camera ones (x right, y down, z along the view).
    """

    lens: Lens
    size: tuple[int, int]
    centre: tuple[float, float, float]
    rotation: np.ndarray = field(repr=False)

    @property
    def f_px(self) -> float:
        return self.lens.focal_mm / PIXEL_MM * self.size[0] / SENSOR_PX[0]

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) -> frame px (N, 2)."""
        p = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        world = np.column_stack([p, np.zeros(len(p))]) - np.asarray(self.centre)
        cam = world @ self.rotation.T
        xy = cam[:, :2] / cam[:, 2:3]
        r = np.hypot(xy[:, 0], xy[:, 1])
        th = np.arctan(r)
        scale = np.where(r > 1e-12, self.lens.theta_d(th) / np.maximum(r, 1e-12), 1.0)
        w, h = self.size
        return np.asarray(xy * scale[:, None] * self.f_px + ((w - 1) / 2, (h - 1) / 2))

    def unproject(self, px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Frame px (..., 2) -> (table mm (..., 2), field angle θ (...)); rays meet z = 0."""
        w, h = self.size
        d = (np.asarray(px, np.float64) - ((w - 1) / 2, (h - 1) / 2)) / self.f_px
        rd = np.hypot(d[..., 0], d[..., 1])
        th = self.lens.theta(rd)
        s = np.where(rd > 1e-12, np.tan(th) / np.maximum(rd, 1e-12), 1.0)
        ray = np.stack([d[..., 0] * s, d[..., 1] * s, np.ones_like(rd)], -1) @ self.rotation
        c = np.asarray(self.centre)
        t = -c[2] / ray[..., 2]
        return c[:2] + ray[..., :2] * t[..., None], th


def _rotation(tilt: float, tilt_dir: float, roll: float) -> np.ndarray:
    """World -> camera rotation: looking straight down, rolled, then tilted (degrees)."""
    r = math.radians(roll)
    roll_m = np.array([[math.cos(r), math.sin(r), 0], [-math.sin(r), math.cos(r), 0],
                       [0, 0, 1]])
    a = math.radians(tilt_dir)
    tilt_m, _ = cv2.Rodrigues(np.array([math.cos(a), math.sin(a), 0.0]) * math.radians(tilt))
    return roll_m @ tilt_m.T


def _fit_height(lens: Lens, size: tuple[int, int], rot: np.ndarray,
                target: tuple[float, float], rect: tuple[float, float, float, float]) -> float:
    """The lowest camera height (mm) looking at ``target`` that keeps ``rect`` in the frame."""
    x0, y0, x1, y1 = rect
    t = np.linspace(0, 1, 33)
    edge = np.concatenate([
        np.column_stack([x0 + (x1 - x0) * t, np.full_like(t, y0)]),
        np.column_stack([x0 + (x1 - x0) * t, np.full_like(t, y1)]),
        np.column_stack([np.full_like(t, x0), y0 + (y1 - y0) * t]),
        np.column_stack([np.full_like(t, x1), y0 + (y1 - y0) * t])])
    view = rot.T @ np.array([0.0, 0.0, 1.0])

    def cam(hgt: float) -> PiCamera:
        dist = hgt / view[2]
        c = np.array([*target, 0.0]) - dist * view
        return PiCamera(lens, size, (float(c[0]), float(c[1]), float(c[2])), rot)

    lo, hi = 100.0, 10000.0
    for _ in range(40):
        mid = (lo + hi) / 2
        px = cam(mid).project(edge)
        inside = bool(((px >= 0) & (px <= (size[0] - 1, size[1] - 1))).all())
        lo, hi = (lo, mid) if inside else (mid, hi)
    return hi


@dataclass(frozen=True)
class WorldFrame:
    """One photographed table and the truth about it."""

    image: np.ndarray
    layout: Layout
    contents: dict[str, str]
    hidden: dict[str, str]
    unseen: frozenset[str]
    difficulty: str
    tags: tuple[str, ...]
    camera: PiCamera = field(repr=False)

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) -> frame px (N, 2), the lens included (exactly as rendered)."""
        return self.camera.project(pts_mm)


@dataclass(frozen=True)
class Light:
    """The room's light and the camera's faults, drawn per difficulty."""

    cast: str
    cast_strength: float
    exposure: float
    lamp: tuple[float, float, float]
    lamp_falloff: float
    shading: float
    glare: tuple[tuple[float, ...], ...]
    #: Brightness added by the lamp's small reflection on each domed chip.
    chip_shine: float
    shadow: float
    hand: bool
    blur: float
    motion: tuple[float, float]
    noise: float
    jpeg: int


def _draw_light(rng: np.random.Generator, difficulty: str,
                view: tuple[float, float, float, float], shiny: np.ndarray) -> Light:
    """``shiny``: centres (mm) of the slots in view; a lamp's reflection is seen where it
    falls on something glossy, so most hot spots are drawn near one of them."""
    level = DIFFICULTIES.index(difficulty)
    x0, y0, x1, y1 = view
    cast = str(rng.choice([["neutral", "neutral", "warm", "cool"],
                           ["warm", "cool", "mixed", "neutral"],
                           ["warm", "cool", "mixed", "mixed"]][level]))
    strength = float(rng.uniform(*[(0.0, 0.3), (0.3, 0.7), (0.6, 1.0)][level]))
    exposure = float(rng.uniform(*[(0.92, 1.08), (0.7, 1.1), (0.45, 1.15)][level]))
    lamp = (float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)),
            float(rng.uniform(600, 1400)))
    falloff = float(rng.uniform(*[(0.0, 0.3), (0.3, 0.8), (0.6, 1.0)][level]))
    shading = float(rng.uniform(*[(0.85, 0.95), (0.75, 0.9), (0.6, 0.8)][level]))
    n_glare = int(rng.integers(*[(0, 2), (1, 3), (1, 4)][level]))
    spots = []
    for _ in range(n_glare):
        near = shiny[int(rng.integers(len(shiny)))] + rng.uniform(-30, 30, 2) if len(
            shiny) and rng.uniform() < 0.7 else (rng.uniform(x0, x1), rng.uniform(y0, y1))
        spots.append((float(near[0]), float(near[1]), float(rng.uniform(25, 90)),
                      float(rng.uniform(12, 40)), float(rng.uniform(0, 180)),
                      float(rng.uniform(*[(30, 120), (120, 350), (250, 600)][level]))))
    glare = tuple(spots)
    shine = float(rng.uniform(*[(20, 60), (40, 120), (80, 200)][level]))
    shadow = float(rng.uniform(0.35, 0.6)) if rng.uniform() < [0.0, 0.4, 0.7][level] else 0.0
    hand = bool(rng.uniform() < [0.0, 0.4, 1.0][level])
    blur = float(rng.uniform(*[(0.4, 0.6), (0.5, 0.8), (0.6, 1.1)][level]))
    motion = (float(rng.uniform(*[(0, 1), (0, 3), (2, 7)][level])), float(rng.uniform(0, 180)))
    noise = float(rng.uniform(*[(1.0, 2.0), (1.5, 3.0), (2.5, 4.5)][level]))
    jpeg = int(rng.integers(*[(90, 96), (85, 93), (80, 89)][level]))
    return Light(cast, strength, exposure, lamp, falloff, shading, glare, shine, shadow, hand,
                 blur, motion, noise, jpeg)


def setup_scene(players: int, nobles: tuple[str | None, ...],
                market: tuple[tuple[str | None, ...], ...]) -> TableScene:
    """The set-up table: the game's full supply, empty player areas, all decks down."""
    gems = {2: 4, 3: 5, 4: 7}[players]
    return TableScene(market, (True, True, True), nobles, (gems, gems, gems, gems, gems, 5),
                      tuple(PlayerScene() for _ in range(players)))


@lru_cache(maxsize=4)
def _faces(split: str) -> tuple[list[tuple[str, dict[str, np.ndarray]]], dict[str, np.ndarray]]:
    return face_sets(split), token_faces(split)


def _pick_faces(sets: list[tuple[str, dict[str, np.ndarray]]],
                pick: int) -> tuple[str, dict[str, np.ndarray]]:
    """Set ``pick`` of the split, ids it lacks taken from the split's other sets in order
    (a set may hold half a printing); our own drawn faces when there is no set."""
    if not sets:
        return "drawn", {}
    name, chosen = sets[pick]
    merged: dict[str, np.ndarray] = {}
    for _, other in sets:
        merged.update(other)
    return name, {**merged, **chosen}


def world_frame(players: int, difficulty: str, seed: int, split: str = "check",
                framing: str = "centre", lens: str = "wide", setup: bool = False,
                size: tuple[int, int] = SENSOR_PX, *, scene: TableScene | None = None,
                hand: bool | None = None, steady: int | None = None) -> WorldFrame:
    """A seeded table photographed by a Pi camera; ``setup``: the same table's set-up frame.

    Beyond the contract, for recording a game through this world: ``scene`` draws that
    table instead of ``random_scene(players, seed)``; ``hand`` forces a hand in or out
    (None: as the difficulty draws it); ``steady`` places what lies on the table from
    this number and each slot's content (:func:`vision.synth.render.render`), so
    successive frames of one game (same ``seed`` = same camera and light) show what
    did not move where it was.
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty is one of {DIFFICULTIES}, not {difficulty!r}")
    layout = build_layout(players)
    rng = np.random.default_rng(zlib.crc32(repr(("world", players, seed)).encode()))
    if scene is None:
        scene = random_scene(players, seed)
    if setup:  # the game's first deal (a full market, every noble) on an empty table
        start = random_scene(players, seed, progress=0.0)
        scene = setup_scene(players, start.nobles, start.market)
    sets, chips = _faces(split)
    set_name, faces = _pick_faces(sets, int(rng.integers(max(1, len(sets)))))
    # the camera: pose and lens
    cam = _place_camera(rng, layout, LENSES[lens], size, framing, difficulty)
    view = _footprint(cam, layout)
    x0, y0, x1, y1 = view
    shiny = np.array([sl.center for sl in layout.slots if sl.kind != "tableau"
                      and x0 < sl.center[0] < x1 and y0 < sl.center[1] < y1]).reshape(-1, 2)
    light = _draw_light(rng, difficulty, view, shiny)
    if hand is not None:
        light = replace(light, hand=hand)
    # the light's own draws (shadow, ripples, noise) never depend on the table or the hand
    light_rng = np.random.default_rng(rng.integers(2**32))
    out_ppmm = cam.f_px / -cam.centre[2]
    s = out_ppmm * CANVAS_OVERSAMPLE
    table = draw_table(scene, layout, view, s, rng, 1.5, faces, chips, steady)
    _shine_chips(table, layout, light)
    arm = None
    if light.hand and not setup:
        arm = _draw_hand(table, layout, view, cam, rng)
    image, masks = _photograph(table, cam, light, arm, layout, light_rng)
    unseen = frozenset(sl.id for sl in layout.slots if not _inside(cam, sl))
    tags = (cam.lens.name, framing, f"faces:{set_name}", f"light:{light.cast}",
            *(["glare"] if light.glare else []), *(["shadow"] if light.shadow else []),
            *(["hand"] if arm is not None else []),
            *(["motion"] if light.motion[0] >= 2 else []), *(["setup"] if setup else []))
    contents = {k: v for k, v in table.contents.items() if k in layout.slot_index}
    hidden = _hidden(cam, layout, masks, unseen, contents, set_name != "drawn")
    return WorldFrame(image, layout, contents, hidden, unseen, difficulty, tags, cam)


def _place_camera(rng: np.random.Generator, layout: Layout, lens: Lens,
                  size: tuple[int, int], framing: str, difficulty: str) -> PiCamera:
    level = DIFFICULTIES.index(difficulty)
    tilt = float(rng.uniform(0, [1.5, 3.0, 5.0][level]))
    rot = _rotation(tilt, float(rng.uniform(0, 360)), float(rng.uniform(-2, 2)))
    if framing == "centre":
        m = CENTRE_MARGIN_MM
        x0, y0, x1, y1 = layout.mat("centre").corners()[0] + layout.mat("centre").corners()[2]
    elif framing == "table":
        m = TABLE_MARGIN_MM
        x0, y0, x1, y1 = layout.bounds()
    else:
        raise ValueError(f"framing is 'centre' or 'table', not {framing!r}")
    rects = [(x0 - m, y0 - m, x1 + m, y1 + m)]
    if framing == "centre":  # one mount for both games: the other game's mat fits too
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rects += [(cx - w / 2 - m, cy - h / 2 - m, cx + w / 2 + m, cy + h / 2 + m)
                  for w, h in CENTRAL_MATS_MM]
    target = ((x0 + x1) / 2 + float(rng.uniform(-5, 5)), (y0 + y1) / 2 + float(rng.uniform(-5, 5)))
    hgt = max(_fit_height(lens, size, rot, target, r) for r in rects)
    view = rot.T @ np.array([0.0, 0.0, 1.0])
    c = np.array([*target, 0.0]) - hgt / view[2] * view
    return PiCamera(lens, size, (float(c[0]), float(c[1]), float(c[2])), rot)


def _footprint(cam: PiCamera, layout: Layout) -> tuple[float, float, float, float]:
    """The table window the frame sees (clipped to the layout plus a margin), mm."""
    w, h = cam.size
    t = np.linspace(0, 1, 65)
    border = np.concatenate([np.column_stack([t * (w - 1), np.zeros_like(t)]),
                             np.column_stack([t * (w - 1), np.full_like(t, h - 1)]),
                             np.column_stack([np.zeros_like(t), t * (h - 1)]),
                             np.column_stack([np.full_like(t, w - 1), t * (h - 1)])])
    pts, _ = cam.unproject(border)
    lx0, ly0, lx1, ly1 = layout.bounds()
    lo = np.maximum(pts.min(0), (lx0 - 60, ly0 - 60))
    hi = np.minimum(pts.max(0), (lx1 + 60, ly1 + 60))
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def _outline(slot: Slot, n: int = 8) -> np.ndarray:
    """A slot's outline in table mm: its rectangle, or its circle for a token slot."""
    if slot.kind == "token":
        a = np.linspace(0, 2 * np.pi, 4 * n, endpoint=False)
        r = slot.size[0] / 2
        return np.column_stack([slot.center[0] + r * np.cos(a), slot.center[1] + r * np.sin(a)])
    c = np.asarray(slot.corners())
    t = np.linspace(0, 1, n, endpoint=False)[:, None]
    return np.concatenate([c[i] + (c[(i + 1) % 4] - c[i]) * t for i in range(4)])


def _inside(cam: PiCamera, slot: Slot) -> bool:
    px = cam.project(_outline(slot))
    w, h = cam.size
    return bool(((px >= 0) & (px <= (w - 1, h - 1))).all())


# -- spoilers drawn on the table -------------------------------------------
def _draw_hand(table: Canvas, layout: Layout, view: tuple[float, float, float, float],
               cam: PiCamera, rng: np.random.Generator) -> np.ndarray:
    """A hand and forearm reaching from a player's edge to a slot in view; returns its mask."""
    canvas, aff, s = table.image, table.affine, table.px_per_mm
    h, w = canvas.shape[:2]
    x0, y0, x1, y1 = view
    seen = [sl for sl in layout.slots if x0 < sl.center[0] < x1 and y0 < sl.center[1] < y1]
    goal = np.asarray(seen[int(rng.integers(len(seen)))].center if seen else
                      ((x0 + x1) / 2, (y0 + y1) / 2)) + rng.uniform(-20, 20, 2)
    side = int(rng.integers(4 if layout.players > 2 else 2))
    start = {0: (goal[0] + rng.uniform(-150, 150), y1 + 300),
             1: (goal[0] + rng.uniform(-150, 150), y0 - 300),
             2: (x0 - 300, goal[1] + rng.uniform(-100, 100)),
             3: (x1 + 300, goal[1] + rng.uniform(-100, 100))}[side]
    d = goal - np.asarray(start)
    d /= np.linalg.norm(d)
    nrm = np.array([-d[1], d[0]])

    def px(p: np.ndarray) -> tuple[int, int]:
        q = aff[:, :2] @ p + aff[:, 2]
        return round(q[0]), round(q[1])

    mask = np.zeros((h, w), np.uint8)
    sleeve = np.zeros((h, w), np.uint8)
    palm = goal - d * 40
    cv2.line(mask, px(palm), px(np.asarray(start)), 255, round(rng.uniform(65, 85) * s))
    cv2.line(sleeve, px(palm - d * rng.uniform(140, 260)), px(np.asarray(start)), 255,
             round(95 * s))
    cv2.ellipse(mask, px(palm), (round(42 * s), round(50 * s)),
                math.degrees(math.atan2(d[1], d[0])), 0, 360, 255, -1)
    spread = rng.uniform(16, 22)
    for k in range(4):
        base = palm + d * 30 + nrm * (k - 1.5) * spread
        tip = base + d * rng.uniform(50, 80) + nrm * rng.uniform(-12, 12)
        cv2.line(mask, px(base), px(tip), 255, round(rng.uniform(15, 19) * s))
    side_sign = 1 if rng.uniform() < 0.5 else -1
    thumb = palm + nrm * side_sign * 42
    cv2.line(mask, px(palm), px(thumb + d * 35 + nrm * side_sign * 15), 255, round(19 * s))
    mask = np.maximum(mask, sleeve)
    ys, xs = np.nonzero(mask[::8, ::8])
    if not len(xs):
        return mask
    pad = round(100 * s)  # the shade (14 mm blur) shifted 25 mm stays inside
    x0, y0 = max(xs.min() * 8 - pad, 0), max(ys.min() * 8 - pad, 0)
    x1, y1 = min(xs.max() * 8 + 8 + pad, w), min(ys.max() * 8 + 8 + pad, h)
    roi = (slice(y0, y1), slice(x0, x1))
    m, sl = mask[roi], sleeve[roi]
    size = (x1 - x0, y1 - y0)
    small = (max(2, round(size[0] / s)), max(2, round(size[1] / s)))  # 1 px/mm

    def smooth(a: np.ndarray, sigma_mm: float) -> np.ndarray:
        lo = cv2.resize(a, small, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        return cv2.resize(cv2.GaussianBlur(lo, (0, 0), sigma_mm), size,
                          interpolation=cv2.INTER_LINEAR)

    soft = cv2.resize(cv2.resize(m, small, interpolation=cv2.INTER_AREA), size,
                      interpolation=cv2.INTER_LINEAR).astype(np.float32) / 255
    shade = smooth(m, 14)
    skin = np.asarray(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], np.float32)
    cloth = np.asarray(SLEEVE_BGR[int(rng.integers(len(SLEEVE_BGR)))], np.float32)
    slv = cv2.resize(cv2.resize(sl, small, interpolation=cv2.INTER_AREA), size,
                     interpolation=cv2.INTER_LINEAR).astype(np.float32)[:, :, None] / 255
    lit = 0.7 + 0.35 * shade
    colour = cv2.merge([(skin[c] + (cloth[c] - skin[c]) * slv[:, :, 0]) * lit
                        for c in range(3)])
    off = round(25 * s)
    cast = 1 - 0.45 * np.roll(shade, (off, off // 2), (0, 1))
    dark = cv2.multiply(canvas[roi], cv2.merge([cast, cast, cast]), dtype=cv2.CV_8U)
    canvas[roi] = cv2.blendLinear(np.clip(colour, 0, 255).astype(np.uint8), dark, soft,
                                  1 - soft)
    return mask


def _shine_chips(table: Canvas, layout: Layout, light: Light) -> None:
    """The lamp's reflection on each chip: a small bright crescent on the dome's side that
    faces the lamp, desaturated (white light on gloss)."""
    aff, s = table.affine, table.px_per_mm
    lamp = np.asarray(light.lamp[:2])
    h, w = table.image.shape[:2]
    for sl in layout.slots:
        if sl.kind != "token" or sl.id not in table.contents:
            continue
        c = np.asarray(sl.center)
        d = lamp - c
        d = d / max(float(np.linalg.norm(d)), 1.0)
        p = aff[:, :2] @ (c + d * TOKEN_MM * 0.3) + aff[:, 2]
        r = round(TOKEN_MM * 0.4 * s)
        x0, y0 = max(round(p[0]) - r, 0), max(round(p[1]) - r, 0)
        x1, y1 = min(round(p[0]) + r, w), min(round(p[1]) + r, h)
        if x1 <= x0 or y1 <= y0:
            continue
        spot = np.zeros((y1 - y0, x1 - x0), np.float32)
        ang = math.degrees(math.atan2(d[1], d[0])) + 90
        cv2.ellipse(spot, (round(p[0]) - x0, round(p[1]) - y0),
                    (round(TOKEN_MM * 0.22 * s), round(TOKEN_MM * 0.07 * s)), ang, 0, 360,
                    1.0, -1, cv2.LINE_AA)
        spot = cv2.GaussianBlur(spot, (0, 0), 0.8 * s) * light.chip_shine
        roi = table.image[y0:y1, x0:x1]
        roi[:] = np.clip(roi + spot[:, :, None], 0, 255).astype(np.uint8)


def _gloss(table: Canvas, layout: Layout) -> np.ndarray:
    """How glossy the table is at each canvas pixel (0..255): sleeves and chips shine."""
    g = np.full(table.image.shape[:2], 30, np.uint8)
    aff = table.affine
    for sl in layout.slots:
        if sl.id not in table.contents or sl.kind == "tableau":
            continue
        val = {"token": 220, "pile": 220, "noble": 170}.get(sl.kind, 255)
        if sl.kind in ("token", "pile"):
            c = aff[:, :2] @ np.asarray(sl.center) + aff[:, 2]
            cv2.circle(g, (round(c[0]), round(c[1])), round(TOKEN_MM / 2 * table.px_per_mm),
                       val, -1)
            continue
        poly = np.asarray(sl.corners()) @ aff[:, :2].T + aff[:, 2]
        cv2.fillConvexPoly(g, np.round(poly).astype(np.int32), val)
    return g


# -- the photograph ----------------------------------------------------------
def _maps(cam: PiCamera, aff: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray]:
    """Canvas coordinates of every output pixel (x, y float32 maps), and coarse table mm
    and field angle for the light, sampled every ``MAP_STEP`` px and interpolated."""
    w, h = cam.size
    st = MAP_STEP
    nx, ny = -(-w // st) + 2, -(-h // st) + 2
    u = (np.arange(nx) - 1 + 0.5) * st - 0.5
    v = (np.arange(ny) - 1 + 0.5) * st - 0.5
    grid = np.stack(np.meshgrid(u, v), -1)
    table, theta = cam.unproject(grid)
    # the canvas draws images (markers, cards, chips) with their first pixel's centre
    # on the corner point (mats._draw_marker, render._paste): half a canvas pixel
    # up-left of the table mm; sampled there, markers land where project() says
    # (mean offset -0.35, -0.40 px -> ~0 at 2304 x 1296, tests/vision/test_world.py)
    cx = (aff[0, 0] * table[..., 0] + aff[0, 2] - 0.5).astype(np.float32)
    cy = (aff[1, 1] * table[..., 1] + aff[1, 2] - 0.5).astype(np.float32)
    full = (nx * st, ny * st)

    def up(a: np.ndarray) -> np.ndarray:
        return cv2.resize(a, full, interpolation=cv2.INTER_LINEAR)[st: st + h, st: st + w]

    return up(cx), up(cy), table.astype(np.float32), theta.astype(np.float32)


def _photograph(table: Canvas, cam: PiCamera, light: Light, hand: np.ndarray | None,
                layout: Layout, rng: np.random.Generator
                ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    w, h = cam.size
    mx, my, coarse_tab, coarse_th = _maps(cam, table.affine)
    img = cv2.remap(table.image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=TABLE_BGR)
    gloss = cv2.remap(_gloss(table, layout), mx, my, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=30)
    masks: dict[str, np.ndarray] = {}
    if hand is not None:
        masks["hand"] = cv2.remap(hand, mx, my, cv2.INTER_NEAREST,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    del mx, my
    # smooth fields on the coarse grid (table mm), enlarged like the maps
    gx, gy = coarse_tab[..., 0], coarse_tab[..., 1]
    lx, ly, lh = light.lamp
    dist2 = (gx - lx) ** 2 + (gy - ly) ** 2 + lh * lh
    lamp = (lh * lh / dist2) ** (1.5 * light.lamp_falloff)
    vignette = np.cos(coarse_th) ** (4 * (1 - light.shading))
    gain = lamp / np.median(lamp) * vignette * light.exposure
    if light.shadow:
        gain = gain * _shadow_field(gx, gy, light.shadow, rng)
    glare = np.zeros_like(gx)
    ripple = cv2.resize(rng.uniform(0.55, 1.0, (9, 14)).astype(np.float32),
                        (gx.shape[1], gx.shape[0]), interpolation=cv2.INTER_CUBIC)
    for cx, cy, a, b, ang, peak in light.glare:
        t = math.radians(ang)
        du, dv = gx - cx, gy - cy
        p = (du * math.cos(t) + dv * math.sin(t)) / a
        q = (-du * math.sin(t) + dv * math.cos(t)) / b
        glare += peak * np.exp(-((p * p + q * q) ** 1.6))
    glare *= ripple
    gain3 = gain[..., None] * _cast(light, gx)
    st = MAP_STEP
    full = (gx.shape[1] * st, gx.shape[0] * st)

    def up(a: np.ndarray) -> np.ndarray:
        return cv2.resize(a.astype(np.float32), full,
                          interpolation=cv2.INTER_LINEAR)[st: st + h, st: st + w]

    out: np.ndarray = cv2.multiply(img, up(gain3), dtype=cv2.CV_32F)
    glare_f = cv2.multiply(up(glare), gloss, scale=1 / 255, dtype=cv2.CV_32F)
    out += cv2.merge([glare_f, glare_f, glare_f])
    # clipped by glare (before the blurs: the sensor clips what the lens blurred, but a
    # region washed out this much stays unreadable), looked at only where glare fell
    masks["glare"] = np.zeros((h, w), np.uint8)
    ys, xs = np.nonzero(glare >= GLARE_ADDED)
    if len(xs):
        y0, y1 = max((ys.min() - 2) * st, 0), min((ys.max() + 1) * st, h)
        x0, x1 = max((xs.min() - 2) * st, 0), min((xs.max() + 1) * st, w)
        darkest = cv2.min(cv2.min(out[y0:y1, x0:x1, 0], out[y0:y1, x0:x1, 1]),
                          out[y0:y1, x0:x1, 2])
        masks["glare"][y0:y1, x0:x1] = ((darkest >= CLIPPED)
                                        & (glare_f[y0:y1, x0:x1] >= GLARE_ADDED))
    del glare_f
    if light.shadow:
        masks["shadow"] = (up(gain) < SHADOW_DARK * float(np.median(gain))).astype(np.uint8)
    if light.blur:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    length, angle = light.motion
    if length >= 1:
        k = math.ceil(length) | 1
        kern = np.zeros((k, k), np.float32)
        c = k // 2
        dx = math.cos(math.radians(angle)) * length / 2
        dy = math.sin(math.radians(angle)) * length / 2
        cv2.line(kern, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        out = cv2.filter2D(out, -1, kern / kern.sum())
    # sensor noise: shot noise grows with the gain the camera needs in dim light;
    # full-resolution grain in brightness, coarser in colour (as after demosaicing)
    sigma = light.noise / max(0.3, float(np.median(gain)))
    cv2.setRNGSeed(int(rng.integers(2**31)))
    grain = np.empty((h, w), np.float32)
    cv2.randn(grain, (0.0,), (1.0,))  # type: ignore[call-overload]
    chroma = np.empty(((h + 1) // 2, (w + 1) // 2, 3), np.float32)
    cv2.randn(chroma, (0.0,) * 3, (0.6,) * 3)  # type: ignore[call-overload]
    noise: np.ndarray = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
    noise += cv2.merge([grain, grain, grain])
    del grain, chroma
    shot = cv2.sqrt(np.maximum(out, 1.0))
    out += cv2.multiply(noise, shot, scale=sigma / math.sqrt(128.0))
    np.clip(out, 0, 255, out=out)
    _ok, buf = cv2.imencode(".jpg", out.astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, light.jpeg])
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR)), masks


def _cast(light: Light, gx: np.ndarray) -> np.ndarray:
    """Per-channel (B, G, R) gains left after the camera's white balance, on the coarse grid."""
    a = light.cast_strength
    warm = np.array([1 - 0.35 * a, 1.0, 1 + 0.22 * a], np.float32)
    cool = np.array([1 + 0.18 * a, 1 + 0.03 * a, 1 - 0.16 * a], np.float32)
    neutral = np.array([1 + 0.03 * (a - 0.15), 1.0, 1 - 0.03 * (a - 0.15)], np.float32)
    if light.cast == "mixed":
        lo, hi = float(gx.min()), float(gx.max())
        t = ((gx - lo) / max(hi - lo, 1.0))[..., None]
        return (warm * (1 - t) + cool * t).astype(np.float32)
    one = {"warm": warm, "cool": cool}.get(light.cast, neutral)
    return np.broadcast_to(one, (*gx.shape, 3)).astype(np.float32)


def _shadow_field(gx: np.ndarray, gy: np.ndarray, depth: float,
                  rng: np.random.Generator) -> np.ndarray:
    """A soft shadow band (a person or a lamp arm between lamp and table): light factor."""
    cx, cy = float(np.median(gx)), float(np.median(gy))
    span = float(gx.max() - gx.min())
    ang = rng.uniform(0, np.pi)
    off = rng.uniform(-0.3, 0.3) * span
    width = rng.uniform(0.08, 0.25) * span
    dist = (gx - cx) * -math.sin(ang) + (gy - cy) * math.cos(ang) - off
    soft = rng.uniform(0.02, 0.06) * span
    inside = 1 / (1 + np.exp((np.abs(dist) - width / 2) / soft))
    return (1 - depth * inside).astype(np.float32)


def _hidden(cam: PiCamera, layout: Layout, masks: dict[str, np.ndarray],
            unseen: frozenset[str], contents: dict[str, str] | None = None,
            publisher: bool = True) -> dict[str, str]:
    """Slots a person could not read, by the rules in the module's docstring
    (``contents``: what each slot holds, for the printed elements of its card or noble;
    ``publisher``: whether its faces are the publisher's or our drawn ones)."""
    rules = (("hand", HAND_HIDES), ("glare", GLARE_HIDES), ("shadow", SHADOW_HIDES))
    out: dict[str, str] = {}
    for sl in layout.slots:
        if sl.id in unseen or sl.kind == "tableau":
            continue
        printed = _printed(sl, (contents or {}).get(sl.id, ""), publisher)
        for name, share in rules:
            m = masks.get(name)
            shapes = [(_outline(sl), share)]
            if name != "glare":
                shapes += [(e, ELEMENT_HIDES) for e in printed]
            if m is not None and any(_covered(cam, m, poly) >= least for poly, least in shapes):
                out[sl.id] = name
                break
    return out


def _covered(cam: PiCamera, mask: np.ndarray, outline_mm: np.ndarray) -> float:
    """Share of a table-mm polygon's picture under ``mask`` (0 when out of the frame)."""
    w, h = cam.size
    poly = cam.project(outline_mm)
    x0, y0 = np.floor(poly.min(0)).astype(int)
    x1, y1 = np.ceil(poly.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(region, [np.round(poly - (x0, y0)).astype(np.int32)], 1)
    area = max(int(region.sum()), 1)
    return int((mask[y0:y1, x0:x1] & region).astype(bool).sum()) / area


def _printed(slot: Slot, held: str, publisher: bool = True) -> list[np.ndarray]:
    """Table-mm outlines of the printed elements a person tells the card or noble in
    ``slot`` by (none for anything else): where :mod:`vision.cardface` says they are
    printed, the face centred on its slot.  ``publisher``: the tiles are the
    publisher's (their squares sit lower than on our drawn tiles)."""
    if slot.kind in ("card", "reserved") and held and not held.startswith("deck"):
        card = catalogue.card(held)
        size = (cf.CARD_W, cf.CARD_H)
        boxes: list[tuple[float, float, float, float]] = []
        circles = [(cf.GEM_CENTER, cf.GEM_R)]
        circles += [(cf.circle_center(i), cf.CIRCLE_R)
                    for i in range(sum(1 for _, n in card.cost.items() if n))]
    elif slot.kind == "noble" and held:
        n = sum(1 for _, k in catalogue.noble(held).requirement.items() if k)
        size = (cf.NOBLE_W, cf.NOBLE_H)
        if publisher:
            (hw, hh), x = cf.PUBLISHER_SQUARE_HALF, cf.PUBLISHER_SQUARE_X
            boxes = [(x - hw, y - hh, x + hw, y + hh) for y in cf.PUBLISHER_SQUARE_YS[:n]]
        else:
            boxes = [(x - cf.SQUARE_HALF, y - cf.SQUARE_HALF, x + cf.SQUARE_HALF,
                      y + cf.SQUARE_HALF) for x, y in (cf.square_center(i) for i in range(n))]
        circles = []
    else:
        return []
    a = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    shapes = [np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float)
              for x0, y0, x1, y1 in boxes]
    shapes += [np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])
               for (cx, cy), r in circles]
    t = math.radians(slot.angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return [(p - np.array(size) / 2) @ rot.T + np.array(slot.center) for p in shapes]
