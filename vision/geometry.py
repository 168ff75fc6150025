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

Lens model: a camera looking straight down at height *h* maps a table point
at distance ρ from the point below it to the image radius
``f · r · (1 + k1 r² + k2 r⁴)`` px with ``r = ρ / h`` (the usual radial model
on the undistorted normalised radius).  Scale along the radius is
``f/h · (1 + 3 k1 r² + 5 k2 r⁴)``, across it ``f/h · (1 + k1 r² + k2 r⁴)``;
the smaller of the two is what a numeral gets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The Camera Module 3's full still (Sony IMX708, 1.4 µm pixels).
STILL_PX = (4608, 2592)
#: Table shown around the central mat on every side: room for a camera that is
#: 2-3 cm off centre or turned 1-2 degrees, and for a mat laid by hand.
CENTRE_MARGIN_MM = 40.0
#: What a robust reader of 6 mm cost numerals needs (a person reads them at ~1.3).
READER_PX_PER_MM = 3.0


@dataclass(frozen=True)
class Lens:
    """A Camera Module 3 lens: focal length in pixels and radial distortion."""

    name: str
    label: str
    f_px: float
    k1: float = 0.0
    k2: float = 0.0
    fov: str = ""

    def radius_px(self, r: float) -> float:
        """Image radius (px from the centre) of a ray at normalised radius ``r`` (tan θ)."""
        return self.f_px * r * (1 + self.k1 * r**2 + self.k2 * r**4)

    def ray_at(self, radius_px: float) -> float:
        """Normalised radius ``r`` whose image lies ``radius_px`` from the centre (inverse)."""
        # the Wide's polynomial rises only up to r ~ 1.6 (near the still's corner);
        # every radius asked here (the still's half-sides) lies well below that
        lo, hi = 0.0, 1.55
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.radius_px(mid) < radius_px else (lo, mid)
        return (lo + hi) / 2


#: Standard lens (SC0872): f = 4.74 mm = 3386 px of 1.4 µm; stated 66° × 41°
#: (75° diagonal), which a pinhole of 3386-3548 px matches within rounding, so
#: no distortion is modelled.  The lowest f (widest view) is taken: the
#: height below fits the mat with it and its px/mm is the lower bound.
STANDARD = Lens("standard", "Camera Module 3", 4.74 / 0.0014, fov="66° × 41°")
#: Wide lens (SC0874): f, k1, k2 solved exactly from its stated fields of view,
#: 67° along 2592 px, 102° across 4608 px and 120° on the diagonal
#: (``f r + f k1 r³ + f k2 r⁵ = half-size`` is linear in f, f k1, f k2);
#: f = 1957 px agrees with the stated 2.75 mm (1964 px) within 0.4 %.
WIDE = Lens("wide", "Camera Module 3 Wide", 1957.37, 0.013479, -0.028967, fov="102° × 67°")
LENSES = {lens.name: lens for lens in (STANDARD, WIDE)}


def scale_at(lens: Lens, height_mm: float, rho_mm: float) -> float:
    """px/mm a numeral gets at ``rho_mm`` from the point below the lens (the smaller
    of the radial and tangential scales)."""
    r = rho_mm / height_mm
    tangential = 1 + lens.k1 * r**2 + lens.k2 * r**4
    radial = 1 + 3 * lens.k1 * r**2 + 5 * lens.k2 * r**4
    return lens.f_px / height_mm * min(tangential, radial)


def height_to_fit(lens: Lens, size_mm: tuple[float, float]) -> float:
    """The lowest height (mm) at which a centred ``size_mm`` area lies wholly in the
    still, its long side along the still's 4608 px."""
    w, h = max(size_mm), min(size_mm)
    half_w, half_h = STILL_PX[0] / 2, STILL_PX[1] / 2
    # the area fits when its four corners and the midpoints of its sides are inside
    # (barrel distortion pulls the corners in, so a side's middle binds first)
    points = ((w / 2, h / 2), (w / 2, 0.0), (0.0, h / 2))
    lo, hi = 10.0, 10000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        inside = True
        for x, y in points:
            rho = math.hypot(x, y)
            px = lens.radius_px(rho / mid)
            if px > 0 and (abs(px * x / rho) > half_w or abs(px * y / rho) > half_h):
                inside = False
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
    #: at the central mat's corners (the slots' farthest corners lie inside them)
    corner_px_per_mm: float


def centre_view(lens: Lens | str, mat_mm: tuple[float, float] = (800.0, 448.0)) -> View:
    """The camera above the central mat at the height where mat + margin fills the still."""
    lens = LENSES[lens] if isinstance(lens, str) else lens
    area = (mat_mm[0] + 2 * CENTRE_MARGIN_MM, mat_mm[1] + 2 * CENTRE_MARGIN_MM)
    height = height_to_fit(lens, area)
    covered = tuple(2 * height * lens.ray_at(n / 2) for n in STILL_PX)
    corner = scale_at(lens, height, math.hypot(mat_mm[0] / 2, mat_mm[1] / 2))
    return View(lens, height, (covered[0], covered[1]), lens.f_px / height, corner)


def whole_table_view(lens: Lens | str, layout_mm: tuple[float, float]) -> View:
    """For comparison: the camera high enough to see a whole layout (plus 20 mm)."""
    lens = LENSES[lens] if isinstance(lens, str) else lens
    area = (layout_mm[0] + 40, layout_mm[1] + 40)
    height = height_to_fit(lens, area)
    covered = tuple(2 * height * lens.ray_at(n / 2) for n in STILL_PX)
    corner = scale_at(lens, height, math.hypot(max(layout_mm) / 2, min(layout_mm) / 2))
    return View(lens, height, (covered[0], covered[1]), lens.f_px / height, corner)
