"""``splendor-companion run``: referee a real game at the table.

Sets a new game up from what the camera sees (the market and nobles are read
and confirmed on the screen), or resumes the unfinished game of the log, then
watches the table turn after turn.  Without a camera (``--no-camera``) every
turn is entered with the three buttons through short menus.

Failures the players can act on (no camera, a bad option, an unreadable log)
end with one line and exit status 1.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from companion.commands import CommandError
from companion.commands.demo import check_size, parse_size
from companion.rules.record_format import name_problem, shown

if TYPE_CHECKING:  # imported when the game starts: `--help` and a bad option load none of them
    import numpy as np
    import pygame

    from companion.commands._computer import SplendorComputer
    from companion.record import GameLog, GameSummary
    from companion.referee.driver import TableLoop
    from companion.referee.game import C, Q, R, S, T
    from companion.referee.splendor.reading import TableReading
    from companion.screen.draw import Screen
    from companion.screen.window import Window
    from companion.speech.announcer import Announcer
    from firmware.buttons import ButtonPanel
    from firmware.camera import Frame, FrameSource, ResilientSource
    from firmware.config import Config
    from firmware.indicators import Indicators
    from firmware.watchdog import Notifier
    from vision.colours import ColourModel
    from vision.layout import Layout
    from vision.lens import LensModel

#: How long the loop waits for a button when no camera frame is due (seconds).
POLL = 0.05


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    on_pi = platform.machine() == "aarch64"
    parser = sub.add_parser(
        "run",
        help="referee a game at the table (camera, buttons, screen)",
        description="Referee a real Splendor game: the camera reads the table, the three"
        " buttons confirm each turn, the screen shows the scores.",
    )
    parser.add_argument("--players", type=int, required=True, help="number of players (2-4)")
    parser.add_argument(
        "--game", choices=("splendor", "duel"), default="splendor",
        help="splendor (default) or duel (Splendor Duel, 2 players; any --camera, or"
        " game:FILE: a record's tables)",
    )
    parser.add_argument("--names", default=None, help="player names in seating order: Ann,Bob,Cy")
    parser.add_argument(
        "--camera", default="picamera" if on_pi else None,
        help="picamera, usb:N, video:FILE or recorded:DIR"
        + (" (default picamera)" if on_pi else " (required unless --no-camera)"),
    )
    parser.add_argument(
        "--no-camera", action="store_true", help="enter every turn with the buttons alone"
    )
    parser.add_argument(
        "--buttons", default="gpio" if on_pi else "keyboard",
        help="gpio, keyboard (Enter/Space/Backspace, u = undo) or script:FILE"
        f" (default {'gpio' if on_pi else 'keyboard'})",
    )
    parser.add_argument("--db", type=Path, default=None, help="game log (SQLite) to use")
    parser.add_argument("--layout", type=Path, default=None, help="table layout JSON file")
    parser.add_argument("--screen", default=None,
                        help="screen size WxH (default: the config's [screen] width and"
                        " height, else 800x480)")
    parser.add_argument("--fullscreen", action="store_true", help="use the whole display")
    parser.add_argument(
        "--resume", choices=("ask", "yes", "no"), default="ask",
        help="resume the log's unfinished game: ask on the screen (default), yes or no",
    )
    parser.add_argument(
        "--screenshots", type=Path, default=None,
        help="save a screenshot at each proposal, error and the end into this folder",
    )
    from companion.commands._computer import add_option
    from companion.speech.options import add_options

    add_option(parser)
    add_options(parser)
    parser.set_defaults(func=run, outputs=("db",), output_folders=("screenshots",))


def _names(args: argparse.Namespace) -> list[str]:
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


def _check_screenshots(folder: Path | None) -> None:
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


def _config() -> Config:
    """The TOML config (pins, camera, layout, screen, log), or the built-in defaults."""
    from firmware.config import ConfigError, load

    try:
        return load()
    except ConfigError as exc:
        raise CommandError(f"config: {exc}") from None


def _camera(
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


def _screen_and_window(args: argparse.Namespace, size: tuple[int, int], config: Config,
                       panel: ButtonPanel) -> tuple[Screen, Window | None]:
    """The screen to draw on and the window showing it (None: headless), the screen
    sized to the window it got; the keyboard read from the terminal when headless."""
    from companion.screen.draw import Screen
    from companion.screen.window import open_window
    from firmware.buttons import KeyboardPanel

    screen = Screen(size)
    window = open_window(size, fullscreen=args.fullscreen or config.screen.fullscreen)
    if window is not None and window.size != size:
        screen = Screen(window.size)
    if isinstance(panel, KeyboardPanel) and window is None:  # `--buttons keyboard`
        panel.start_terminal()
    return screen, window


def _panel(spec: str, config: Config) -> ButtonPanel:
    from firmware.buttons import panel_from_spec
    from firmware.errors import HardwareError

    try:
        return panel_from_spec(spec, config.buttons)
    except HardwareError as exc:
        raise CommandError(f"buttons {spec}: {exc}") from None


def _layout(args: argparse.Namespace, players: int, config: Config) -> Layout:
    from vision.errors import VisionError
    from vision.layout import build_layout, load_layout

    path = args.layout or (Path(config.table.layout) if config.table.layout else None)
    if path is None:
        return build_layout(players)
    try:
        layout = load_layout(path)
    except VisionError as exc:  # its message names the file
        raise CommandError(str(exc)) from None
    if layout.players != players:
        raise CommandError(f"layout {path} is for {layout.players} players, not {players}")
    return layout


def _indicators(config: Config) -> Indicators:
    from firmware.indicators import NullIndicators

    if platform.machine() != "aarch64":
        return NullIndicators()
    try:
        from firmware.indicators import GpioIndicators

        return GpioIndicators.from_config(config.indicators)
    except Exception as exc:  # no pins or a bad config: the game goes on without lights
        print(f"indicators: {exc}; playing without lights and buzzer", file=sys.stderr)
        return NullIndicators()


def _ask_resume(args: argparse.Namespace, log: GameLog, names: list[str], screen: Screen,
                window: Window | None, panel: ButtonPanel,
                speech: Announcer | None = None) -> GameSummary | None:
    """The unfinished game to resume, or None for a new game."""
    from companion.i18n import _
    from companion.screen.view import ScreenView
    from firmware.buttons import KeyboardPanel

    waiting = [g for g in log.unfinished() if g.game_type == "Splendor"]
    if not waiting or args.resume == "no":
        for old in waiting:
            log.abandon(old.id)
        return None
    game = waiting[0]
    if args.resume == "ask":
        label = _("Resume: {players} ({n} turns)").format(
            players=", ".join(game.players), n=game.turns
        )
        items = [label, _("Start a new game")]
        selected = 0
        while True:
            view = ScreenView.choice(None, _("An unfinished game is in the log"), items, selected)
            if speech is not None:
                speech.view(view)
            surface = screen.draw(view)
            if window is not None:
                window.show(surface)
                for key in window.events():
                    if isinstance(panel, KeyboardPanel):  # the keys are its buttons
                        panel.handle_pygame_event(key)
            event = panel.get(timeout=POLL)
            if event is None:
                if panel.exhausted:
                    raise CommandError("the button script ended before the game started")
                continue
            button = event.button.value
            if button == "next":
                selected = 1 - selected
            elif button == "confirm":
                break
        if selected == 1:
            log.abandon(game.id)
            return None
    return game


class Terminated(Exception):
    """SIGTERM arrived (``systemctl stop``, ``kill``): unwind like Ctrl-C does."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    # a second SIGTERM must not cut the clean-up short (systemd's SIGKILL still can)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


def run(args: argparse.Namespace) -> int:
    """Referee one game.  SIGTERM and Ctrl-C unwind through the ``finally``
    blocks (log closed, camera released) and the vision workers are stopped,
    so a stopped ``run`` leaves no process behind and says so in one line."""
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _run(args)
    except Terminated:
        print("splendor-companion: stopped (SIGTERM); every confirmed turn is in the log",
              file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("splendor-companion: stopped (Ctrl-C); every confirmed turn is in the log",
              file=sys.stderr)
        return 128 + signal.SIGINT
    finally:
        signal.signal(signal.SIGTERM, previous)
        _stop_vision_workers()


def _stop_vision_workers() -> None:
    """Stop the slot-reading processes now (not at interpreter exit, which a
    second signal could cut short), if any were started."""
    jobs = sys.modules.get("vision.slot_jobs")
    if jobs is not None:
        jobs.shutdown()


def _run(args: argparse.Namespace) -> int:
    if args.game == "duel":
        from companion.commands._duel_table import run_duel

        return run_duel(args)
    from companion.commands._computer import headers_for, seats_of
    from companion.record import GameLog, LogError
    from companion.referee.driver import TableLoop, tame_memory
    from firmware.watchdog import Notifier

    names = _names(args)
    seats = seats_of(args, names)
    if args.screen is not None:
        parse_size(args.screen)  # a bad option is found before the config is read
    _check_screenshots(args.screenshots)
    tame_memory()
    config = _config()
    size = screen_size(args, config)
    from companion.speech.options import apply_language, open_from_options

    apply_language(args, config)
    notifier = Notifier()
    layout = _layout(args, len(names), config)
    camera = _camera(args, config, notifier)
    lens = _stored_lens(config) if camera is not None else None  # a bad one stops us here
    panel = _panel(args.buttons, config)
    db = args.db or (_config_db(config) if config.storage.database else None)
    try:
        log = GameLog.open(db, lock=True)
        damaged = log.damaged()
    except LogError as exc:
        raise CommandError(str(exc)) from None
    if log.notice:
        print(log.notice, file=sys.stderr)
    for bad in damaged:
        print(f"{log.path}: {bad}; it is not offered for resuming", file=sys.stderr)
    screen, window = _screen_and_window(args, size, config, panel)
    speech = open_from_options(args, config)
    notifier.ready("refereeing")
    try:
        game = _ask_resume(args, log, names, screen, window, panel, speech)
        referee, game_id = _referee(log, game, names, camera is not None, seats)
        reader = None
        if camera is not None:
            from companion.referee.splendor.observe import from_observation
            from vision.learn import SetupColours
            from vision.read import check_frame, read_frame
            from vision.read_cache import ReadCache

            # the camera is fixed: slots that look as before keep their last reading
            cache = ReadCache()
            # a new game: the frames of its set-up show the laid-out table (the
            # refusal goes on the screen too: the players can light the table)
            setup = SetupColours(layout, _stored_colours(), print,
                                 lambda line: loop.notify(line))
            setup.done = game is not None

            def reader(image: np.ndarray) -> TableReading:
                # a frame nothing can be read from (black, tiny) is no set-up frame:
                # its VisionError reaches the loop, which says so and goes on
                image = check_frame(image)
                if referee.state is not None:
                    setup.done = True  # the game has started
                colours = setup.see(image)
                obs = read_frame(image, layout, colours, cache=cache, lens=lens)
                return from_observation(obs, len(referee.names))

            if game is not None:
                print(f"Colours: {setup.colours.source} (a resumed game has no set-up frame).")

        loop = TableLoop(
            referee, reader=reader, screen=screen, window=window, log=log, game_id=game_id,
            indicators=_indicators(config), shots=args.screenshots, speech=speech,
            headers=headers_for(referee.seats),
        )
        if game is not None:
            print(f"Resumed game {game_id} after {len(referee.history)} turns.")
        _main_loop(loop, camera, panel, window, notifier)
    except LogError as exc:
        raise CommandError(str(exc)) from None
    finally:
        notifier.stopping()
        panel.close()
        if camera is not None:
            camera.close()
        if window is not None:
            window.close()
        log.close()
        if speech is not None:
            speech.speaker.wait(timeout=30)  # let the standings finish
            speech.speaker.close()
    from companion.referee.splendor.loop import outcome_of

    outcome = outcome_of(loop)
    if outcome is not None:
        from companion.i18n.words import outcome_reason

        print(outcome_reason(outcome))
    return 0


def _config_db(config: Config) -> Path:
    """The config's ``[storage] database``, a leading ``~`` made the home folder."""
    from firmware.config import ConfigError

    try:
        return config.database_path()
    except ConfigError as exc:
        raise CommandError(f"config: {exc}") from None


def _stored_colours() -> ColourModel:
    """The colours stored by ``calibrate`` (or the built-in ones); a bad file is reported
    and the built-in ones serve."""
    from vision.colours import ColourModel, load_colours
    from vision.errors import VisionError

    try:
        return load_colours()
    except VisionError as exc:
        print(f"Colours: {exc}; using the built-in colours.", file=sys.stderr)
        return ColourModel()


def _stored_lens(config: Config) -> LensModel | None:
    """The lens stored by ``calibrate --lens`` and named in the config (``[camera] lens``),
    or None: then each frame's markers fit the lens when it bends the table."""
    if not config.camera.lens:
        return None
    from vision.errors import VisionError
    from vision.lens import load_lens

    try:
        lens = load_lens(config.camera.lens)
    except VisionError as exc:
        raise CommandError(f"config [camera] lens: {exc}") from None
    print(f"Lens: {config.camera.lens} (from `calibrate --lens`).")
    return lens


def _referee(
    log: GameLog, game: GameSummary | None, names: list[str], camera: bool,
    seats: dict[str, int] | None = None,
) -> tuple[SplendorComputer, int | None]:
    """A new game's referee, or the resumed game's (with its own computer seats and hints)."""
    from companion.commands._computer import resumed, splendor_referee
    from companion.record import ResumeError
    from companion.rules.actions import Turn
    from companion.rules.record import Record
    from companion.rules.state import GameState

    if game is None:
        return splendor_referee(names, seats or {}, camera=camera), None
    try:
        record, state = log.resume(game.id)
    except ResumeError as exc:
        raise CommandError(str(exc)) from None
    # only "Splendor" games are offered (_ask_resume): the log replays them with its engine
    assert isinstance(record, Record) and isinstance(state, GameState), game.game_type
    history: list[tuple[GameState, Turn]] = []
    current = record.initial_state()
    for turn in record.turns:
        history.append((current, turn))
        current = current.apply(turn)
    seats, hinted = resumed(log.headers(game.id), seats or {})
    return splendor_referee(record.players, seats, hinted, state=state, history=history,
                            camera=camera), game.id


def _main_loop(
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
    from firmware.buttons import KeyboardPanel
    from firmware.camera import CameraError, EndOfSource, RecordedSource

    camera_ended = camera is None
    recorded = isinstance(camera, RecordedSource)
    while True:
        notifier.tick()
        if window is not None:
            for event in window.events():
                if _quit(event):
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
                        loop.feed_frame(frame.image, still=lambda: _image(camera.still()))
                    except EndOfSource:
                        camera_ended = True
        if panel.exhausted and (camera_ended or loop.finished or not loop.waiting_for_table):
            return


def _image(frame: Frame | None) -> np.ndarray | None:
    """The picture of a frame, or None while a live camera is away."""
    return None if frame is None else frame.image


def _quit(event: pygame.event.Event) -> bool:
    import pygame

    return bool(
        event.type == pygame.QUIT
        or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE)
    )
