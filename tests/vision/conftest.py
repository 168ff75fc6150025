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
