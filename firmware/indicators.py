"""Indicator LEDs and the buzzer.

Three LEDs say what the table needs: ``YOUR_TURN`` (green: the player to move
may act), ``ATTENTION`` (yellow: the screen asks something -- a token return,
a noble, a card the reader is unsure of) and ``ERROR`` (red: the table does
not match the rules).  The buzzer plays short patterns that differ by count
and length, so they can be told apart without looking:

=========  ===============================  =====================================
sound      pattern                          when
=========  ===============================  =====================================
CLICK      one 30 ms tick                   a button was taken into account
CONFIRM    one 120 ms beep                  a turn was confirmed
ATTENTION  two 80 ms beeps                  the screen asks a question
UNDO       three 60 ms beeps                the last turn was undone
ERROR      one 600 ms buzz                  the table does not match the rules
GAME_END   five 100 ms beeps                the game is over
=========  ===============================  =====================================

Every implementation is a context manager whose exit turns everything off,
whatever ended the block (an exception included): a box left buzzing or with
the red LED on after a crash would tell the players something false.

:class:`GpioIndicators` drives gpiozero ``LED``/``Buzzer`` devices (an active
buzzer, switched through an NPN transistor; see hardware.md).  Patterns play
in gpiozero's background thread, so ``beep`` returns at once; ``wait=True``
blocks until the pattern ends (tests, and the last beep before exit).
:class:`NullIndicators` is for laptops: it keeps the state and a history
that tests and the screen can read, and drives nothing.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from firmware.closing import Closing
from firmware.errors import gpio_error, quiet_gpiozero


class Light(enum.Enum):
    """The three indicator LEDs."""

    YOUR_TURN = "your_turn"
    ATTENTION = "attention"
    ERROR = "error"


@dataclass(frozen=True)
class Pattern:
    """A buzzer pattern: ``count`` beeps of ``on`` seconds separated by ``off`` seconds."""

    on: float
    off: float
    count: int

    @property
    def duration(self) -> float:
        return self.count * self.on + (self.count - 1) * self.off


class Sound(enum.Enum):
    """The buzzer's vocabulary; each value is its pattern."""

    CLICK = Pattern(0.03, 0.0, 1)
    CONFIRM = Pattern(0.12, 0.0, 1)
    ATTENTION = Pattern(0.08, 0.08, 2)
    UNDO = Pattern(0.06, 0.06, 3)
    ERROR = Pattern(0.6, 0.0, 1)
    GAME_END = Pattern(0.1, 0.1, 5)

    @property
    def pattern(self) -> Pattern:
        pattern: Pattern = self.value
        return pattern


class Indicators(Closing, ABC):
    """LEDs and buzzer.  ``show`` sets the lights, ``beep`` plays a sound."""

    @abstractmethod
    def set(self, light: Light, on: bool) -> None:
        """Turn one LED on or off."""

    @abstractmethod
    def beep(self, sound: Sound, wait: bool = False) -> None:
        """Play ``sound`` (replacing one still playing); ``wait`` blocks until it ends."""

    @abstractmethod
    def silence(self) -> None:
        """Stop the buzzer."""

    def show(self, *lights: Light) -> None:
        """Light exactly ``lights`` and turn the others off."""
        for light in Light:
            self.set(light, light in lights)

    def all_off(self) -> None:
        """Every LED off and the buzzer silent."""
        self.silence()
        for light in Light:
            self.set(light, False)

    def close(self) -> None:
        """Turn everything off and release the pins."""
        self.all_off()


class NullIndicators(Indicators):
    """Indicators for machines without pins: remembers, drives nothing.

    ``lit`` is the set of LEDs on; ``history`` lists every call as text
    (``"on your_turn"``, ``"beep error"``...) so a test or a screen can show them.
    """

    def __init__(self) -> None:
        self.lit: set[Light] = set()
        self.history: list[str] = []

    def set(self, light: Light, on: bool) -> None:
        if on != (light in self.lit):
            (self.lit.add if on else self.lit.discard)(light)
            self.history.append(f"{'on' if on else 'off'} {light.value}")

    def beep(self, sound: Sound, wait: bool = False) -> None:
        self.history.append(f"beep {sound.name.lower()}")

    def silence(self) -> None:
        pass


class GpioIndicators(Indicators):
    """LEDs and an active buzzer on GPIO pins (gpiozero)."""

    def __init__(
        self,
        your_turn_pin: int = 5,
        attention_pin: int = 6,
        error_pin: int = 13,
        buzzer_pin: int | None = 12,
        pin_factory: Any = None,
        tempo: float = 1.0,
    ) -> None:
        """``tempo`` divides every pattern's durations (tests play them 10x faster)."""
        # lazy: gpiozero loads only when real pins are used
        import gpiozero  # type: ignore[import-untyped]

        self.tempo = tempo

        self._leds: dict[Light, Any] = {}
        self._buzzer: Any = None
        pins = {
            Light.YOUR_TURN: your_turn_pin,
            Light.ATTENTION: attention_pin,
            Light.ERROR: error_pin,
        }
        try:
            with quiet_gpiozero():
                for light, pin in pins.items():
                    self._leds[light] = gpiozero.LED(pin, pin_factory=pin_factory)
                if buzzer_pin is not None:
                    self._buzzer = gpiozero.Buzzer(buzzer_pin, pin_factory=pin_factory)
        except Exception as exc:
            self.close()
            all_pins = [*pins.values(), *([] if buzzer_pin is None else [buzzer_pin])]
            raise gpio_error("indicators", all_pins, exc) from None

    @classmethod
    def from_config(cls, indicators: Any, **kwargs: Any) -> GpioIndicators:
        """Build from a :class:`firmware.config.IndicatorsConfig`."""
        return cls(
            indicators.your_turn_pin,
            indicators.attention_pin,
            indicators.error_pin,
            indicators.buzzer_pin if indicators.buzzer else None,
            **kwargs,
        )

    def set(self, light: Light, on: bool) -> None:
        led = self._leds.get(light)
        if led is not None:
            led.value = on

    def beep(self, sound: Sound, wait: bool = False) -> None:
        if self._buzzer is None:
            return
        p = sound.pattern
        # gpiozero's blink thread: on/off `count` times, then off; returns at once
        # unless background=False.
        on, off = p.on / self.tempo, p.off / self.tempo
        self._buzzer.beep(on_time=on, off_time=off, n=p.count, background=not wait)

    def silence(self) -> None:
        if self._buzzer is not None:
            self._buzzer.off()  # also stops a pattern still playing

    def close(self) -> None:
        try:
            self.all_off()
        finally:
            for device in [*self._leds.values(), self._buzzer]:
                if device is not None:
                    device.close()
            self._leds.clear()
            self._buzzer = None
