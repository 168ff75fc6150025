"""What ``run`` and ``demo`` share for either game: the screen's size, the config,
the camera, the buttons, the window and the loop that feeds the referee.

Split out of :mod:`companion.commands.run` and :mod:`companion.commands.demo`
so that each game's table code (:mod:`companion.commands._duel_table`,
:mod:`companion.commands._computer_demo`) uses them without importing the
command modules that dispatch to it: that was an import circle (run ->
_duel_table -> run).  Arrows now point one way: the commands import this
module, this module imports no command.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands import CommandError
from companion.rules.record_format import name_problem, shown
from firmware.buttons import KeyboardPanel, panel_from_spec
from firmware.config import ConfigError, load
from firmware.errors import HardwareError

if TYPE_CHECKING:
    import numpy as np
    import pygame

    from companion.referee.driver import TableLoop
    from companion.referee.game import C, Q, R, S, T
    from companion.screen.draw import Screen
    from companion.screen.window import Window
    from firmware.buttons import ButtonPanel
    from firmware.camera import Frame, FrameSource, ResilientSource
    from firmware.config import Config
    from firmware.watchdog import Notifier

DEFAULT_OUT = Path("out/demo")


#: The largest --screen side: an 8K display (7680x4320) fits; 100000x100000 would ask
#: pygame for 40 GB and die with a traceback instead of a message.
MAX_SCREEN_SIDE = 8192


def parse_size(text: str) -> tuple[int, int]:
    shown = text if len(text) <= 40 else text[:40] + "..."
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CommandError(f"--screen '{shown}' is not WxH, e.g. 800x480") from None
    return check_size(w, h, f"--screen {shown}")


def check_size(w: int, h: int, where: str) -> tuple[int, int]:
    """``(w, h)`` when a screen can be that size; else a one-line error naming ``where``
    (``--screen 0x0``, or the config's ``[screen] width/height``)."""
    if w < 160 or h < 96:
        raise CommandError(f"{where}: the screen needs at least 160x96 pixels")
    if w > MAX_SCREEN_SIDE or h > MAX_SCREEN_SIDE:
        raise CommandError(
            f"{where}: at most {MAX_SCREEN_SIDE} pixels a side (8K is 7680x4320)"
        )
    return w, h


#: How long the loop waits for a button when no camera frame is due (seconds).
POLL = 0.05


def player_names(args: argparse.Namespace) -> list[str]:
    if not 2 <= args.players <= 4:
        raise CommandError(f"--players {args.players}: Splendor is for 2 to 4 players")
    if args.names is None:
        return [f"Player {i + 1}" for i in range(args.players)]
    names = [n.strip() for n in args.names.split(",")]
    if len(names) != args.players:
        raise CommandError(
            f"--names gives {len(names)} names for {args.players} players"
        )
    if any(not n for n in names) or len(set(names)) != len(names):
        raise CommandError("--names: every player needs a different, non-empty name")
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise CommandError(f"--names: {shown(name)} cannot be recorded: {problem}")
    return names


def screen_size(args: argparse.Namespace, config: Config) -> tuple[int, int]:
    """``--screen``, else the config's ``[screen] width`` and ``height`` (800x480 by
    default): the config's size used to be ignored."""
    if args.screen is not None:
        return parse_size(args.screen)
    return check_size(config.screen.width, config.screen.height,
                      f"config [screen] {config.screen.width}x{config.screen.height}")


def check_screenshots(folder: Path | None) -> None:
    """Make the screenshot folder now: a bad one is found before the game starts."""
    if folder is None:
        return
    if folder.exists() and not folder.is_dir():
        raise CommandError(f"--screenshots {folder}: this is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"--screenshots {folder}: cannot create it: {exc.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise CommandError(f"--screenshots {folder}: the folder is not writable")


def load_config() -> Config:
    """The TOML config (pins, camera, layout, screen, log), or the built-in defaults."""
    try:
        return load()
    except ConfigError as exc:
        raise CommandError(f"config: {exc}") from None


def open_camera(
    args: argparse.Namespace, config: Config, notifier: Notifier
) -> FrameSource | ResilientSource | None:
    """Open the camera.  A live camera (Pi or USB) is wrapped so that losing it
    mid-game is reported once and retried with back-off while the game goes on
    with the buttons; a recorded folder or video file is opened as it is."""
    if args.no_camera:
        return None
    spec = args.camera or (config.camera_spec() if config.path is not None else None)
    if not spec:
        raise CommandError(
            "no camera given: use --camera usb:0 (or recorded:DIR), or --no-camera to enter"
            " turns with the buttons"
        )
    # lazy: numpy loads only when the command runs, not for --help
    from firmware.camera import CameraError, ResilientSource, open_source, parse_source

    try:
        if spec.startswith(("recorded:", "video:")):
            return open_source(spec)

        started = False

        def changed(available: bool, message: str) -> None:
            if started:  # at start a missing camera is the one error line below
                print(f"camera: {message}", file=sys.stderr)
                notifier.status(f"camera: {message}")

        camera = ResilientSource(lambda: parse_source(spec), on_change=changed)
        camera.open()
        if not camera.available:  # a camera that is not there at start is an error
            raise CameraError(camera.message)
        started = True
        return camera
    except CameraError as exc:
        raise CommandError(f"camera {spec}: {exc} (or run with --no-camera)") from None


def screen_and_window(args: argparse.Namespace, size: tuple[int, int], config: Config,
                       panel: ButtonPanel) -> tuple[Screen, Window | None]:
    """The screen to draw on and the window showing it (None: headless), the screen
    sized to the window it got; the keyboard read from the terminal when headless."""
    # lazy: pygame (SDL) loads only when the command runs, not for --help
    from companion.screen.draw import Screen
    from companion.screen.window import open_window

    screen = Screen(size)
    window = open_window(size, fullscreen=args.fullscreen or config.screen.fullscreen)
    if window is not None and window.size != size:
        screen = Screen(window.size)
    if isinstance(panel, KeyboardPanel) and window is None:  # `--buttons keyboard`
        panel.start_terminal()
    return screen, window


def open_panel(spec: str, config: Config) -> ButtonPanel:
    try:
        return panel_from_spec(spec, config.buttons)
    except HardwareError as exc:
        raise CommandError(f"buttons {spec}: {exc}") from None


def config_db(config: Config) -> Path:
    """The config's ``[storage] database``, a leading ``~`` made the home folder."""
    try:
        return config.database_path()
    except ConfigError as exc:
        raise CommandError(f"config: {exc}") from None


def main_loop(
    loop: TableLoop[S, T, R, C, Q], camera: FrameSource | ResilientSource | None,
    panel: ButtonPanel, window: Window | None, notifier: Notifier,
) -> None:
    """Until the game is over (and acknowledged), the buttons run out or the window closes.

    A recorded folder holds one picture per still table (no motion frames).
    Each picture is shown as a still table (seen three times in a row, as a
    camera sees a table nobody touches), and the next picture comes only
    when the referee waits for the table to change: the players have
    finished with the screen.  So a recorded game plays in step with its
    buttons, whether they come from a script or a keyboard.

    Every turn of the loop feeds systemd's watchdog, so a loop that hangs
    (a frozen camera driver, say) gets the service restarted.  A live camera
    that is away gives no frame; the buttons still work meanwhile.
    """
    # lazy: numpy loads only when the command runs, not for --help
    from firmware.camera import CameraError, EndOfSource, RecordedSource

    camera_ended = camera is None
    recorded = isinstance(camera, RecordedSource)
    while True:
        notifier.tick()
        if window is not None:
            for event in window.events():
                if is_quit(event):
                    return
                if isinstance(panel, KeyboardPanel):  # the keys are its buttons
                    panel.handle_pygame_event(event)
        take_frame = not camera_ended and (not recorded or loop.waiting_for_table)
        if not (recorded and take_frame):
            pressed = panel.get(timeout=0 if take_frame else POLL)
            if pressed is not None:
                loop.press(pressed)
        if take_frame:
            assert camera is not None  # without one the camera has "ended" from the start
            frame = None
            try:
                frame = camera.read()
            except EndOfSource:
                camera_ended = True
            except CameraError as exc:
                raise CommandError(f"camera: {exc}") from None
            if frame is None:
                time.sleep(POLL)  # the camera is away: do not spin while it is retried
            else:
                if recorded:
                    for _ in range(3):
                        loop.feed_frame(frame.image)
                else:
                    try:  # a video may end between its motion frame and its still
                        loop.feed_frame(frame.image, still=lambda: image_of(camera.still()))
                    except EndOfSource:
                        camera_ended = True
        if panel.exhausted and (camera_ended or loop.finished or not loop.waiting_for_table):
            return


def image_of(frame: Frame | None) -> np.ndarray | None:
    """The picture of a frame, or None while a live camera is away."""
    return None if frame is None else frame.image


def is_quit(event: pygame.event.Event) -> bool:
    # lazy: pygame (SDL) loads only when the command runs, not for --help
    import pygame

    return bool(
        event.type == pygame.QUIT
        or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE)
    )
