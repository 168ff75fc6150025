"""Button panels: gestures on mock GPIO pins, the keyboard panel, scripts."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.buttons import (
    Button,
    ButtonEvent,
    Gesture,
    GpioPanel,
    KeyboardPanel,
    PanelError,
    ScriptedPanel,
    ScriptError,
    panel_from_spec,
    parse_script,
)
from firmware.config import ButtonsConfig

PINS = {Button.CONFIRM: 17, Button.NEXT: 27, Button.BACK: 22}


@pytest.fixture
def panel(mock_factory: MockFactory, clock):
    with GpioPanel(hold_time=2.0, bounce_time=0.05, clock=clock) as panel:
        yield panel


def pin(factory: MockFactory, button: Button):
    return factory.pin(PINS[button])


def drain(panel) -> list[ButtonEvent]:
    events = []
    while (event := panel.get(timeout=0)) is not None:
        events.append(event)
    return events


def test_buttons_use_pull_ups_so_idle_pins_read_high(panel, mock_factory):
    for button in Button:
        assert pin(mock_factory, button).pull == "up"
        assert pin(mock_factory, button).state is True
    assert drain(panel) == []


def test_press_is_reported_on_release(panel, mock_factory, clock):
    confirm = pin(mock_factory, Button.CONFIRM)
    confirm.drive_low()
    clock.advance(0.3)
    assert drain(panel) == []  # still down: a press or the start of a hold
    confirm.drive_high()
    assert drain(panel) == [ButtonEvent(Gesture.PRESS, Button.CONFIRM, clock.now)]


def test_hold_back_for_two_seconds_means_undo(panel, mock_factory, clock):
    back = pin(mock_factory, Button.BACK)
    start = clock.now
    back.drive_low()
    clock.advance(1.9)
    assert drain(panel) == []
    clock.advance(0.2)
    events = drain(panel)
    assert events == [ButtonEvent(Gesture.HOLD, Button.BACK, start + 2.0)]
    assert events[0].is_undo and str(events[0]) == "undo"
    clock.advance(1.0)
    back.drive_high()  # the release ending a hold says nothing
    assert drain(panel) == []


def test_hold_is_reported_even_if_released_before_anyone_polled(panel, mock_factory, clock):
    back = pin(mock_factory, Button.BACK)
    back.drive_low()
    clock.advance(2.5)
    back.drive_high()
    assert [e.kind for e in drain(panel)] == [Gesture.HOLD]


def test_contact_bounce_within_debounce_time_gives_one_event(panel, mock_factory, clock):
    nxt = pin(mock_factory, Button.NEXT)
    for _ in range(3):  # the contacts chatter for 30 ms on the way down...
        nxt.drive_low()
        clock.advance(0.005)
        nxt.drive_high()
        clock.advance(0.005)
    nxt.drive_low()
    clock.advance(0.2)
    for _ in range(3):  # ...and on the way up
        nxt.drive_high()
        clock.advance(0.005)
        nxt.drive_low()
        clock.advance(0.005)
    nxt.drive_high()
    clock.advance(0.1)
    events = drain(panel)
    assert [(e.kind, e.button) for e in events] == [(Gesture.PRESS, Button.NEXT)]


def test_a_tap_shorter_than_the_bounce_time_still_counts(panel, mock_factory, clock):
    confirm = pin(mock_factory, Button.CONFIRM)
    confirm.drive_low()
    clock.advance(0.02)
    confirm.drive_high()  # inside the bounce window: settled once the window has passed
    assert drain(panel) == []
    clock.advance(0.05)
    assert [e.kind for e in drain(panel)] == [Gesture.PRESS]
    clock.advance(5)
    assert drain(panel) == []  # and it never turns into a hold


def test_two_buttons_at_once_give_two_events_in_time_order(panel, mock_factory, clock):
    confirm, nxt = pin(mock_factory, Button.CONFIRM), pin(mock_factory, Button.NEXT)
    confirm.drive_low()
    clock.advance(0.01)
    nxt.drive_low()
    clock.advance(0.3)
    nxt.drive_high()
    clock.advance(0.01)
    confirm.drive_high()
    events = drain(panel)
    assert [(e.kind, e.button) for e in events] == [
        (Gesture.PRESS, Button.NEXT),
        (Gesture.PRESS, Button.CONFIRM),
    ]
    assert events[0].time < events[1].time


def test_repeated_presses_each_count(panel, mock_factory, clock):
    nxt = pin(mock_factory, Button.NEXT)
    for _ in range(4):
        nxt.drive_low()
        clock.advance(0.1)
        nxt.drive_high()
        clock.advance(0.1)
    assert len(drain(panel)) == 4


def test_events_iterator_stops_when_closed(mock_factory, clock):
    panel = GpioPanel(clock=clock)
    confirm = pin(mock_factory, Button.CONFIRM)
    confirm.drive_low()
    clock.advance(0.1)
    confirm.drive_high()
    events = panel.events()
    assert next(events).button is Button.CONFIRM
    panel.close()
    assert list(events) == []
    assert panel.get(timeout=0) is None


def test_close_releases_the_pins_for_reuse(mock_factory, clock):
    GpioPanel(clock=clock).close()
    GpioPanel(clock=clock).close()  # would fail with "pin already in use" otherwise


def test_pins_come_from_the_config(mock_factory, clock):
    config = ButtonsConfig(confirm_pin=23, next_pin=24, back_pin=25, hold_time=1.0)
    with GpioPanel.from_config(config, clock=clock) as panel:
        mock_factory.pin(25).drive_low()
        clock.advance(1.0)
        assert [str(e) for e in drain(panel)] == ["undo"]


def test_a_pin_in_use_is_a_clear_error(mock_factory, clock):
    with GpioPanel(clock=clock), pytest.raises(PanelError, match="cannot open the buttons"):
        GpioPanel(clock=clock)


def test_get_waits_only_until_a_hold_is_due(mock_factory):
    """With the real clock: get(timeout) returns the hold as soon as it is due."""
    with GpioPanel(hold_time=0.05, bounce_time=0.01) as panel:
        mock_factory.pin(22).drive_low()
        event = panel.get(timeout=5)
        assert event is not None and event.is_undo


# -- keyboard ---------------------------------------------------------------------------------


def test_keyboard_keys_map_to_buttons(clock):
    panel = KeyboardPanel(clock=clock)
    for key in ("return", "space", "backspace", "enter"):
        assert panel.key(key, True)
        clock.advance(0.1)
        assert panel.key(key, False)
    assert not panel.key("x", True)
    assert [str(e) for e in drain(panel)] == [
        "press confirm",
        "press next",
        "press back",
        "press confirm",
    ]


def test_keyboard_backspace_held_undoes_and_auto_repeat_is_ignored(clock):
    panel = KeyboardPanel(clock=clock)
    panel.key("backspace", True)
    for _ in range(20):  # the terminal/pygame repeating the held key
        clock.advance(0.1)
        panel.key("backspace", True)
    clock.advance(0.1)
    panel.key("backspace", False)
    assert [str(e) for e in drain(panel)] == ["undo"]


def test_keyboard_u_is_an_instant_undo(clock):
    panel = KeyboardPanel(clock=clock)
    panel.tap("u")
    assert [str(e) for e in drain(panel)] == ["undo"]


def test_keyboard_takes_pygame_events(clock):
    import pygame

    panel = KeyboardPanel(clock=clock)
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE)
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE)
    other = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(0, 0))
    assert panel.handle_pygame_event(down)
    assert panel.handle_pygame_event(up)
    assert not panel.handle_pygame_event(other)
    assert [str(e) for e in drain(panel)] == ["press next"]


def test_keyboard_reads_a_terminal_stream():
    panel = KeyboardPanel()
    panel.start_terminal(io.StringIO("\n u\x7f"))  # not a tty: characters as they come
    events = [panel.get(timeout=5) for _ in range(4)]
    panel.close()
    assert [str(e) for e in events] == ["press confirm", "press next", "undo", "press back"]


def test_keyboard_reads_a_real_terminal_in_cbreak_mode_and_restores_it():
    import pty
    import termios

    master, slave = pty.openpty()
    stream = os.fdopen(slave, "r", buffering=1)
    before = termios.tcgetattr(slave)
    panel = KeyboardPanel()
    panel.start_terminal(stream)
    try:
        assert termios.tcgetattr(slave)[3] & termios.ICANON == 0  # keys without Enter
        os.write(master, b" ")  # no newline needed in cbreak mode
        event = panel.get(timeout=5)
    finally:
        panel.close()
        after = termios.tcgetattr(slave)
        os.close(master)  # the reader thread's read() ends; then the stream can close
        assert panel._terminal is not None
        panel._terminal.join(timeout=5)
        stream.close()
    assert str(event) == "press next"
    assert after == before


# -- scripts ----------------------------------------------------------------------------------


def test_script_parses_every_command():
    text = "confirm\n# comment\n\nNEXT  \nwait 1.5\nback\nundo\nhold next # why not\n"
    steps = parse_script(text)
    assert [(s.delay, s.kind, s.button) for s in steps] == [
        (0.0, Gesture.PRESS, Button.CONFIRM),
        (0.0, Gesture.PRESS, Button.NEXT),
        (1.5, Gesture.PRESS, Button.BACK),
        (0.0, Gesture.HOLD, Button.BACK),
        (0.0, Gesture.HOLD, Button.NEXT),
    ]


def test_every_event_as_text_is_a_script_line_that_reads_back():
    events = [ButtonEvent(kind, button) for kind in Gesture for button in Button]
    steps = parse_script("\n".join(str(e) for e in events))
    assert [ButtonEvent(s.kind, s.button) for s in steps] == events


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("confirm\nconfrim\n", r"turn\.txt:2: cannot understand 'confrim'"),
        ("wait soon\n", r"turn\.txt:1: wait needs a number of seconds"),
        ("next\n\nwait -1\n", r"turn\.txt:3: wait needs"),
        ("hold sideways\n", r"turn\.txt:1: cannot understand 'hold sideways'"),
        ("wait nan\n", r"turn\.txt:1: wait needs"),
    ],
)
def test_script_errors_name_file_and_line(tmp_path: Path, text: str, message: str):
    script = tmp_path / "turn.txt"
    script.write_text(text)
    with pytest.raises(ScriptError, match=message):
        ScriptedPanel.from_file(script)


def test_missing_script_is_a_clear_error(tmp_path: Path):
    with pytest.raises(ScriptError, match="cannot read button script"):
        ScriptedPanel.from_file(tmp_path / "nope.txt")


def test_scripted_panel_honours_waits_with_an_injected_clock(clock):
    script = "confirm\nwait 1.5\nnext\nundo\n"
    panel = ScriptedPanel.from_text(script, clock=clock, sleep=clock.sleep)
    start = clock.now
    first = panel.get(timeout=0)
    assert first == ButtonEvent(Gesture.PRESS, Button.CONFIRM, start)
    assert panel.get(timeout=0.5) is None  # the wait is not over
    assert clock.sleeps == [0.5]
    second = panel.get()  # blocks (on the fake clock) for the rest of the wait
    assert second == ButtonEvent(Gesture.PRESS, Button.NEXT, start + 1.5)
    assert panel.get(timeout=0).is_undo
    assert panel.exhausted and panel.get(timeout=1) is None


def test_scripted_panel_events_iterate_to_the_end(clock):
    panel = ScriptedPanel.from_text("next\nnext\nconfirm\n", clock=clock, sleep=clock.sleep)
    assert [str(e) for e in panel.events()] == ["press next", "press next", "press confirm"]


def test_panel_from_spec(tmp_path: Path, mock_factory):
    script = tmp_path / "s.txt"
    script.write_text("confirm\n")
    with panel_from_spec(f"script:{script}") as panel:
        assert isinstance(panel, ScriptedPanel)
    with panel_from_spec("keyboard") as panel:
        assert isinstance(panel, KeyboardPanel)
    with panel_from_spec("gpio") as panel:
        assert isinstance(panel, GpioPanel)
    with pytest.raises(PanelError, match="use gpio, keyboard or script:FILE"):
        panel_from_spec("joystick")


def test_no_gpio_at_all_is_one_quiet_line(recwarn):
    """Off the Pi, gpiozero finds no pin library: one line with a hint, no warnings printed."""
    from gpiozero import Device

    from firmware.config import is_raspberry_pi

    if is_raspberry_pi() or os.environ.get("GPIOZERO_PIN_FACTORY"):
        pytest.skip("this machine has GPIO, or a pin factory is forced")
    saved, Device.pin_factory = Device.pin_factory, None
    try:
        with pytest.raises(PanelError) as info:
            GpioPanel()
    finally:
        Device.pin_factory = saved
    assert "no GPIO here" in str(info.value) and "\n" not in str(info.value)
    assert not [w for w in recwarn if "Falling back" in str(w.message)]
