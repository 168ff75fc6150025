"""Where the camera hangs and how many pixels each millimetre of the table gets.

One geometry for 2, 3 and 4 players: the camera looks straight down on the
central mat (market, nobles, decks, supply), which is the same mat for every
player count, at the height where that mat plus :data:`CENTRE_MARGIN_MM` on
every side fills a 4608 × 2592 still.  What the rules cannot know is read
there at full resolution; what each player holds follows from the confirmed
turns (the referee ranks the turns that explain the central mat's change).
The whole 4-player layout (1734 × 1382 mm) in one still would give under
2 px/mm, below the 3 px/mm a 6 mm cost numeral needs.

``hardware.md`` quotes these numbers and ``splendor-companion mats`` prints
them; ``tests/vision/test_geometry.py`` keeps the three equal.

Lens model: the one ``vision/synth/world.py`` photographs the evaluation's
tables with (Kannala-Brandt, as ``cv2.fisheye``): a ray at angle θ from the
optical axis lands ``f · θ · (1 + k1 θ² + k2 θ⁴)`` px from the still's centre.
Looking straight down from height *h*, a table point at distance ρ from the
point below the lens has θ = atan(ρ / *h*); along the radius a millimetre gets
``f/h · cos²θ · (1 + 3 k1 θ² + 5 k2 θ⁴)`` px, across it ``f · θd / ρ``; a
numeral gets the smaller of the two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The Camera Module 3's full still (Sony IMX708, 1.4 µm pixels).
STILL_PX = (4608, 2592)
PIXEL_MM = 1.4e-3
#: Table shown round the central mat on every side (the evaluation's "centre"
#: framing keeps the same).  With the mat's 40 mm marker band it keeps every slot
#: in view with the camera up to 40 mm off the mat's centre and turned 3° (tests).
CENTRE_MARGIN_MM = 20.0
#: Table shown round a whole layout for the comparison with a whole-table camera.
TABLE_MARGIN_MM = 20.0
#: What a robust reader of 6 mm cost numerals needs (a person reads them at ~1.3).
READER_PX_PER_MM = 3.0


@dataclass(frozen=True)
class Lens:
    """A Camera Module 3 lens: focal length and ``cv2.fisheye`` k1, k2."""

    name: str
    label: str
    focal_mm: float
    k1: float
    k2: float

    @property
    def f_px(self) -> float:
        return self.focal_mm / PIXEL_MM

    def radius_px(self, theta: float) -> float:
        """Image radius (px from the centre) of a ray ``theta`` radians off the axis."""
        t2 = theta * theta
        return self.f_px * theta * (1 + self.k1 * t2 + self.k2 * t2 * t2)

    def theta_at(self, radius_px: float) -> float:
        """The ray whose image lies ``radius_px`` from the centre (inverse of radius_px;
        the map rises up to about 70°, beyond the still's 60° corner)."""
        lo, hi = 0.0, math.radians(65)
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.radius_px(mid) < radius_px else (lo, mid)
        return (lo + hi) / 2


#: Standard lens (SC0872, f = 4.74 mm, stated 66° × 41°, 75° diagonal) and Wide
#: (SC0874, f = 2.75 mm, stated 102° × 67°, 120°): focal lengths as stated and
#: k1, k2 fitted to the stated fields of view by the world renderer
#: (vision/synth/world.py, whose docstring gives the fit); the models see
#: 66.6° × 40.8° (74.5°) and 103.6° × 64.6° (119.2°).  Copied here because vision
#: must not import its test renderer; tests/vision/test_geometry.py keeps them equal.
STANDARD = Lens("standard", "Camera Module 3", 4.74, 0.63, -0.37)
WIDE = Lens("wide", "Camera Module 3 Wide", 2.75, 0.65, -0.35)
LENSES = {lens.name: lens for lens in (STANDARD, WIDE)}


def fov_degrees(lens: Lens) -> tuple[float, float, float]:
    """Horizontal, vertical and diagonal field of view of the full still."""
    w, h = (n / 2 for n in STILL_PX)
    return tuple(2 * math.degrees(lens.theta_at(r)) for r in (w, h, math.hypot(w, h)))  # type: ignore[return-value]


def scale_at(lens: Lens, height_mm: float, rho_mm: float) -> float:
    """px/mm a numeral gets ``rho_mm`` from the point below the lens (the smaller of
    the radial and tangential scales)."""
    theta = math.atan2(rho_mm, height_mm)
    t2 = theta * theta
    radial = lens.f_px / height_mm * math.cos(theta) ** 2 * (
        1 + 3 * lens.k1 * t2 + 5 * lens.k2 * t2 * t2)
    if rho_mm <= 0:
        return radial
    return min(radial, lens.radius_px(theta) / rho_mm)


def _image_point(lens: Lens, height_mm: float, x: float, y: float) -> tuple[float, float]:
    rho = math.hypot(x, y)
    if rho == 0:
        return 0.0, 0.0
    r = lens.radius_px(math.atan2(rho, height_mm))
    return r * x / rho, r * y / rho


def height_to_fit(lens: Lens, size_mm: tuple[float, float]) -> float:
    """The lowest height (mm) at which a centred ``size_mm`` area lies wholly in the
    still, its long side along the still's 4608 px."""
    w, h = max(size_mm), min(size_mm)
    half_w, half_h = STILL_PX[0] / 2, STILL_PX[1] / 2
    edge = [(w / 2 * t / 16, h / 2) for t in range(17)] + [(w / 2, h / 2 * t / 16)
                                                          for t in range(17)]
    lo, hi = 10.0, 10000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        inside = all(abs(u) <= half_w and abs(v) <= half_h
                     for u, v in (_image_point(lens, mid, x, y) for x, y in edge))
        lo, hi = (lo, mid) if inside else (mid, hi)
    return hi


@dataclass(frozen=True)
class View:
    """The decided camera for one lens: height and what the still gets."""

    lens: Lens
    height_mm: float
    #: table covered along the still's centre lines (across 4608 px, along 2592 px), mm
    covered_mm: tuple[float, float]
    centre_px_per_mm: float
    #: at the area's corners (for the central mat: the slots' farthest corners lie inside)
    corner_px_per_mm: float


def _view(lens: Lens, area: tuple[float, float], corner: tuple[float, float]) -> View:
    return _view_at(lens, height_to_fit(lens, area), [corner])


def _view_at(lens: Lens, height: float, corners: list[tuple[float, float]]) -> View:
    covered = tuple(2 * height * math.tan(lens.theta_at(n / 2)) for n in STILL_PX)
    return View(lens, height, (covered[0], covered[1]), lens.f_px / height,
                min(scale_at(lens, height, math.hypot(*c)) for c in corners))


#: The central mats one mount frames: Splendor's (the same for 2-4 players) and
#: Splendor Duel's (``build_duel_layout().mat("centre").size``; a test keeps them equal).
#: The camera is clamped once for both games, at the higher of the heights they need.
CENTRAL_MATS_MM = ((800.0, 448.0), (919.4857142857143, 374.0))


def mount_view(lens: Lens | str) -> View:
    """The one mount for both games: over the central mat's centre, at the height where
    either game's central mat plus the margin fits the still (the higher of the two);
    its corner figure is the lower of the two mats' corners."""
    lens = LENSES[lens] if isinstance(lens, str) else lens
    m = 2 * CENTRE_MARGIN_MM
    height = max(height_to_fit(lens, (w + m, h + m)) for w, h in CENTRAL_MATS_MM)
    return _view_at(lens, height, [(w / 2, h / 2) for w, h in CENTRAL_MATS_MM])


def centre_view(lens: Lens | str, mat_mm: tuple[float, float] = (800.0, 448.0)) -> View:
    """The camera above the central mat at the height where mat + margin fills the still."""
    lens = LENSES[lens] if isinstance(lens, str) else lens
    m = 2 * CENTRE_MARGIN_MM
    return _view(lens, (mat_mm[0] + m, mat_mm[1] + m), (mat_mm[0] / 2, mat_mm[1] / 2))


def whole_table_view(lens: Lens | str, layout_mm: tuple[float, float]) -> View:
    """For comparison: the camera high enough to see a whole layout (plus the margin)."""
    lens = LENSES[lens] if isinstance(lens, str) else lens
    m = 2 * TABLE_MARGIN_MM
    return _view(lens, (layout_mm[0] + m, layout_mm[1] + m),
                 (max(layout_mm) / 2, min(layout_mm) / 2))
