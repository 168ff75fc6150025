"""Fixtures for the vision tests: layouts and small rendered frames (seeded)."""

from __future__ import annotations

import pytest

from vision.layout import Layout, build_layout


@pytest.fixture(scope="session")
def layout2() -> Layout:
    return build_layout(2)


@pytest.fixture(scope="session")
def layout4() -> Layout:
    return build_layout(4)


def calibrated_table(layout: Layout, scene_seed: int, camera_kw: dict[str, float],
                     seed: int) -> tuple[object, object]:
    """A seeded 2-player table rendered through a camera and calibrated: (image, cal)."""
    from vision.calibrate import calibrate
    from vision.synth import Camera, random_scene, render

    image = render(random_scene(2, scene_seed, 0.5), layout, Camera(**camera_kw),
                   seed=seed).image
    cal = calibrate(image, layout)
    assert cal is not None
    return image, cal
