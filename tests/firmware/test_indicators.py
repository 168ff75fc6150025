"""LEDs and buzzer on mock pins: states, distinct patterns, all off on exit."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.config import IndicatorsConfig
from firmware.indicators import GpioIndicators, Light, NullIndicators, Sound

LED_PINS = {Light.YOUR_TURN: 5, Light.ATTENTION: 6, Light.ERROR: 13}
BUZZER = 12


def levels(pin) -> list[bool]:
    """The successive levels a mock output pin went through."""
    return [state.state for state in pin.states]


def test_show_lights_exactly_the_named_leds(mock_factory: MockFactory):
    with GpioIndicators() as ind:
        ind.show(Light.YOUR_TURN)
        assert [mock_factory.pin(p).state for p in LED_PINS.values()] == [True, False, False]
        ind.show(Light.ATTENTION, Light.ERROR)
        assert [mock_factory.pin(p).state for p in LED_PINS.values()] == [False, True, True]
    mock_factory.pin(5).assert_states([False, True, False])


@pytest.mark.parametrize("sound", list(Sound))
def test_each_sound_beeps_its_pattern_on_the_buzzer(mock_factory: MockFactory, sound: Sound):
    with GpioIndicators(tempo=10) as ind:
        buzzer = mock_factory.pin(BUZZER)
        buzzer.clear_states()
        ind.beep(sound, wait=True)
        assert levels(buzzer) == [False, *[True, False] * sound.pattern.count]


def test_sounds_are_told_apart_by_count_and_length():
    signatures = {(s.pattern.count, s.pattern.on) for s in Sound}
    assert len(signatures) == len(Sound)
    assert all(s.pattern.duration <= 1.0 for s in Sound)  # short: never a nuisance


def test_background_beep_returns_and_close_silences_it(mock_factory: MockFactory):
    ind = GpioIndicators()
    ind.beep(Sound.GAME_END)  # ~0.9 s in gpiozero's thread
    ind.close()
    assert mock_factory.pin(BUZZER).state is False


def test_everything_is_off_after_an_exception(mock_factory: MockFactory):
    with pytest.raises(RuntimeError, match="boom"), GpioIndicators() as ind:
        ind.show(*Light)
        ind.beep(Sound.ERROR)
        raise RuntimeError("boom")
    for pin in [*LED_PINS.values(), BUZZER]:
        assert mock_factory.pin(pin).state is False
        assert mock_factory.pin(pin).function == "input"  # released


def test_buzzer_can_be_disabled_in_the_config(mock_factory: MockFactory):
    with GpioIndicators.from_config(IndicatorsConfig(buzzer=False)) as ind:
        ind.beep(Sound.ERROR, wait=True)
        assert levels(mock_factory.pin(BUZZER)) == [False]  # never driven
        ind.set(Light.ERROR, True)
        assert mock_factory.pin(13).state is True


def test_pins_come_from_the_config(mock_factory: MockFactory):
    config = IndicatorsConfig(your_turn_pin=23, attention_pin=24, error_pin=25, buzzer_pin=26)
    with GpioIndicators.from_config(config) as ind:
        ind.show(Light.ERROR)
        assert mock_factory.pin(25).state is True
        assert mock_factory.pin(13).state is False


def test_null_indicators_remember_what_they_would_show():
    with pytest.raises(ValueError), NullIndicators() as ind:
        ind.show(Light.YOUR_TURN)
        ind.beep(Sound.CONFIRM)
        ind.show(Light.ERROR)
        raise ValueError
    assert ind.lit == set()
    assert ind.history == [
        "on your_turn",
        "beep confirm",
        "off your_turn",
        "on error",
        "off error",
    ]
