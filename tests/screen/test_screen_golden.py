"""Key screens against golden PNGs, with a tolerance for font rendering.

As Pygame Zero's ``assert_screen_match``: the screen is drawn off-screen and
compared with a PNG kept in ``tests/screen/golden``.  Small differences in
anti-aliasing between FreeType builds pass: the mean difference per channel
must stay under 1.5 (of 255) and under 0.5 % of pixels may differ by more
than 40 in a channel.  On failure the actual image and a difference mask
are saved in the test's tmp dir and the message says where.

Regenerate after a deliberate change with ``python tests/screen/regenerate_golden.py``
(or ``REGENERATE_GOLDEN=1``), then look at the PNGs before committing them.
"""

from __future__ import annotations

import os

import numpy as np
import pygame
import pytest

from companion.screen.text import find_fallback
from companion.screen.window import save_screenshot
from tests.screen.golden_cases import CASES, NAMES, golden_path, render

MEAN_TOLERANCE = 1.5
PIXEL_THRESHOLD = 40
PIXEL_FRACTION = 0.005


def compare(actual: pygame.Surface, expected: pygame.Surface) -> tuple[float, float]:
    """(mean absolute difference per channel, fraction of pixels that differ clearly)."""
    a = pygame.surfarray.array3d(actual).astype(np.int16)
    b = pygame.surfarray.array3d(expected).astype(np.int16)
    diff = np.abs(a - b)
    return float(diff.mean()), float((diff.max(axis=2) > PIXEL_THRESHOLD).mean())


@pytest.mark.parametrize("name", list(CASES))
def test_screen_matches_golden(name, tmp_path):
    if name in NAMES and find_fallback() is None:
        pytest.skip("no CJK font installed (apt install fonts-wqy-zenhei; CI installs it)")
    actual = render(name)
    path = golden_path(name)
    if os.environ.get("REGENERATE_GOLDEN"):
        save_screenshot(actual, path)
        pytest.skip(f"regenerated {path}")
    if not path.exists():
        pytest.fail(f"no golden {path}: run python tests/screen/regenerate_golden.py")
    expected = pygame.image.load(str(path))
    assert actual.get_size() == expected.get_size()
    mean, fraction = compare(actual, expected)
    if mean >= MEAN_TOLERANCE or fraction >= PIXEL_FRACTION:
        shot = save_screenshot(actual, tmp_path / f"{name}.actual.png")
        a = pygame.surfarray.array3d(actual).astype(np.int16)
        b = pygame.surfarray.array3d(expected).astype(np.int16)
        mask = (np.abs(a - b).max(axis=2) > PIXEL_THRESHOLD).astype(np.uint8) * 255
        diff = pygame.surfarray.make_surface(np.stack([mask] * 3, axis=2))
        save_screenshot(diff, tmp_path / f"{name}.diff.png")
        pytest.fail(
            f"{name} differs from {path}: mean {mean:.2f} per channel, {fraction:.2%} of"
            f" pixels; actual image: {shot}"
        )


def test_comparison_tolerates_tiny_changes_and_catches_real_ones():
    base = render("4p_error")
    nudged = base.copy()
    nudged.fill((1, 1, 1), special_flags=pygame.BLEND_RGB_ADD)  # a faint global shift
    for x in range(0, 800, 40):  # and some anti-aliased edge pixels changed a lot
        nudged.set_at((x, 240), (255, 255, 255))
    mean, fraction = compare(nudged, base)
    assert mean < MEAN_TOLERANCE and fraction < PIXEL_FRACTION
    broken = base.copy()
    pygame.draw.rect(broken, (255, 0, 255), pygame.Rect(100, 100, 120, 40))  # a misplaced box
    mean, fraction = compare(broken, base)
    assert fraction >= PIXEL_FRACTION
