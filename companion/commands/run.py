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
import platform
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from companion.commands import CommandError
from companion.commands._computer import (
    add_option,
    headers_for,
    resumed,
    seats_of,
    splendor_referee,
)
from companion.commands._duel_table import run_duel
from companion.commands._speech import add_options, apply_language, open_from_options
from companion.commands._table import (
    POLL,
    check_screenshots,
    config_db,
    load_config,
    main_loop,
    open_camera,
    open_panel,
    parse_size,
    player_names,
    screen_and_window,
    screen_size,
)
from companion.games import DUEL_GAME, SPLENDOR, SPLENDOR_GAME, AnyKind, by_key, keys
from companion.i18n import _
from companion.i18n.words import outcome_reason
from companion.record import GameLog, LogError, ResumeError
from companion.referee.splendor.observe import from_observation
from companion.rules.splendor.actions import Turn
from companion.rules.splendor.record import Record
from companion.rules.splendor.state import GameState
from companion.screen.view import ScreenView
from firmware.buttons import KeyboardPanel
from firmware.indicators import GpioIndicators, NullIndicators
from firmware.watchdog import Notifier
from vision.errors import VisionError
from vision.layout import build_layout, load_layout

if TYPE_CHECKING:  # imported when the game starts: `--help` and a bad option load none of them
    import numpy as np

    from companion.commands._computer import SplendorComputer
    from companion.record import GameLog, GameSummary
    from companion.referee.splendor.reading import TableReading
    from companion.screen.draw import Screen
    from companion.screen.window import Window
    from companion.speech.announcer import Announcer
    from firmware.buttons import ButtonPanel
    from firmware.config import Config
    from firmware.indicators import Indicators
    from vision.colours import ColourModel
    from vision.layout import Layout
    from vision.lens import LensModel


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
        "--game", choices=keys(), default=keys()[0],
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

    add_option(parser)
    add_options(parser)
    parser.set_defaults(func=run, outputs=("db",), output_folders=("screenshots",))


def _layout(args: argparse.Namespace, players: int, config: Config) -> Layout:
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
    if platform.machine() != "aarch64":
        return NullIndicators()
    try:
        return GpioIndicators.from_config(config.indicators)
    except Exception as exc:  # no pins or a bad config: the game goes on without lights
        print(f"indicators: {exc}; playing without lights and buzzer", file=sys.stderr)
        return NullIndicators()


def _ask_resume(args: argparse.Namespace, log: GameLog, names: list[str], screen: Screen,
                window: Window | None, panel: ButtonPanel,
                speech: Announcer | None = None) -> GameSummary | None:
    """The unfinished game to resume, or None for a new game."""
    waiting = [g for g in log.unfinished() if g.game_type == SPLENDOR]
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
    return _RUNS[by_key(args.game)](args)


def _run_splendor(args: argparse.Namespace) -> int:
    # lazy: numpy loads only when the command runs, not for --help
    from companion.referee.driver import TableLoop, tame_memory

    names = player_names(args)
    seats = seats_of(args, names)
    if args.screen is not None:
        parse_size(args.screen)  # a bad option is found before the config is read
    check_screenshots(args.screenshots)
    tame_memory()
    config = load_config()
    size = screen_size(args, config)

    apply_language(args, config)
    notifier = Notifier()
    layout = _layout(args, len(names), config)
    camera = open_camera(args, config, notifier)
    lens = _stored_lens(config) if camera is not None else None  # a bad one stops us here
    panel = open_panel(args.buttons, config)
    db = args.db or (config_db(config) if config.storage.database else None)
    try:
        log = GameLog.open(db, lock=True)
        damaged = log.damaged()
    except LogError as exc:
        raise CommandError(str(exc)) from None
    if log.notice:
        print(log.notice, file=sys.stderr)
    for bad in damaged:
        print(f"{log.path}: {bad}; it is not offered for resuming", file=sys.stderr)
    screen, window = screen_and_window(args, size, config, panel)
    speech = open_from_options(args, config)
    notifier.ready("refereeing")
    try:
        game = _ask_resume(args, log, names, screen, window, panel, speech)
        referee, game_id = _referee(log, game, names, camera is not None, seats)
        reader = None
        if camera is not None:
            # lazy: OpenCV loads only when the command runs, not for --help
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
        main_loop(loop, camera, panel, window, notifier)
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
    # lazy: numpy loads only when the command runs, not for --help
    from companion.referee.splendor.loop import outcome_of

    outcome = outcome_of(loop)
    if outcome is not None:
        print(outcome_reason(outcome))
    return 0


def _stored_colours() -> ColourModel:
    """The colours stored by ``calibrate`` (or the built-in ones); a bad file is reported
    and the built-in ones serve."""
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.colours import ColourModel, load_colours

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
    # lazy: OpenCV loads only when the command runs, not for --help
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




#: Each game's ``run``, by its registry entry (tests/test_shape.py: every game has one).
_RUNS: dict[AnyKind, Callable[[argparse.Namespace], int]] = {
    SPLENDOR_GAME: _run_splendor,
    DUEL_GAME: run_duel,
}
