"""Fixtures for the hardware layer: gpiozero's MockFactory and a hand-driven clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh MockFactory as gpiozero's default, reset afterwards (as gpiozero's own tests do)."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = saved


class FakeClock:
    """A clock that only moves when told; ``sleep`` advances it (and records the call)."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
