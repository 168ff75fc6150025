"""The Splendor Duel side of ``run`` and ``demo`` (``--game duel``).

Kept apart, as :mod:`companion.commands._duel` is for ``replay``, so the
Splendor commands read as before and keep their behaviour.

Where the table's views come from (``run --game duel --camera``):

* ``recorded:DIR`` -- photos of the table, read by the Duel reader
  (:func:`vision.duel.read.read_duel`), one still table per picture;
* ``game:FILE`` -- a simulated camera: the tables of a Duel record (its
  set-up, then the table after each turn), read perfectly.  For tests and
  rehearsals of the buttons without a camera or a renderer;
* ``picamera``, ``usb:N``, ``video:FILE`` -- a live camera (or a video),
  watched for motion and read by the Duel reader when still, through the
  same loop as Splendor's ``run`` (:func:`companion.commands._table.main_loop`);
* ``--no-camera`` -- every turn entered with the buttons.

Each view is shown when the referee waits for the table to change, as the
Splendor ``run`` shows a recorded folder: the players have finished with
the screen.  The game is logged as ``Splendor Duel`` in the same SQLite log,
so ``games``, ``review``, ``export`` and ``replay`` handle it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands import CommandError
from companion.commands._computer import duel_referee, headers_for, resumed, seats_of
from companion.commands._speech import apply_language
from companion.commands._table import (
    check_screenshots,
    config_db,
    is_quit,
    load_config,
    main_loop,
    open_camera,
    open_panel,
    parse_size,
    player_names,
    screen_and_window,
    screen_size,
)
from companion.commands.replay import read_text
from companion.output import write_text
from companion.record import GameLog, LogError, ResumeError
from companion.referee.duel.hooks import DuelReferee
from companion.rules import duel
from companion.rules.duel import play_game
from companion.rules.duel.record import GAME_NAME, DuelRecord
from companion.rules.duel.state import GameState
from companion.rules.duel.turns import Turn
from companion.rules.duel.view import DuelView, view_of
from firmware.buttons import KeyboardPanel
from firmware.watchdog import Notifier
from vision.errors import VisionError
from vision.layout import load_layout

if TYPE_CHECKING:  # imported when a game starts, as `run` does
    import numpy as np

    from companion.commands._computer import DuelComputer
    from companion.record import GameLog
    from companion.referee.duel.loop import DuelLoop
    from companion.rules.duel.state import GameState
    from companion.screen.window import Window
    from firmware.buttons import ButtonPanel
    from firmware.camera import FrameSource, ResilientSource
    from firmware.watchdog import Notifier
    from vision.layout import Layout

#: How long the loop waits for a button when no view is due (seconds).
POLL = 0.05
#: The folder ``demo --game duel`` writes into by default.
DEMO_OUT = Path("out/demo-duel")


# ------------------------------------------------------------------ sources
def _views_of_game(path: Path) -> Iterator[tuple[DuelView | None, object]]:
    try:  # decoded as `replay` does: UTF-8 with or without a BOM, anything else one line
        text = read_text(path)
    except CommandError as exc:
        raise CommandError(f"--camera game:{exc}") from None
    try:
        states = duel.read_record(text).states()
    except duel.RecordError as exc:
        raise CommandError(f"--camera game:{path}: {exc}") from None
    for state in states:
        yield view_of(state), None


def duel_layout(args: argparse.Namespace) -> Layout | None:
    """``--layout`` of ``run --game duel``: a Duel layout (``mats --game duel``), or None
    for the built-in one.  It used to be ignored: a missing file exited 0."""
    if args.layout is None:
        return None

    try:
        layout = load_layout(args.layout)
    except VisionError as exc:  # its message names the file
        raise CommandError(str(exc)) from None
    if not any(s.kind == "privilege" for s in layout.slots):
        raise CommandError(f"layout {args.layout} is not a Splendor Duel layout"
                           " (write one with `mats --game duel`)")
    return layout


def _views_of_photos(folder: Path, layout: Layout | None = None
                     ) -> Iterator[tuple[DuelView | None, object]]:
    # lazy: OpenCV loads only when the command runs, not for --help
    import cv2

    from vision.duel.read import read_duel

    if not folder.is_dir():
        raise CommandError(f"--camera recorded:{folder}: no such folder")
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if not photos:
        raise CommandError(f"--camera recorded:{folder}: no .jpg or .png pictures in it")
    for photo in photos:
        image = cv2.imread(str(photo))
        if image is None:
            print(f"{photo}: not a picture; skipped", file=sys.stderr)
            continue
        try:
            yield (read_duel(image) if layout is None else read_duel(image, layout=layout)), None
        except VisionError as exc:  # an unreadable frame: the reader abstains
            print(f"{photo}: {exc}", file=sys.stderr)
            yield None, None


def views_from(spec: str | None, layout: Layout | None = None
               ) -> Iterator[tuple[DuelView | None, object]] | None:
    """The source of table views named by ``--camera`` (None: no camera)."""
    if spec is None:
        return None
    if spec.startswith("game:"):
        return _views_of_game(Path(spec[len("game:"):]))
    if spec.startswith("recorded:"):
        return _views_of_photos(Path(spec[len("recorded:"):]), layout)
    raise CommandError(f"--camera {spec}: not a source of still tables")


def is_live(spec: str | None) -> bool:
    """Whether ``--camera`` names a live camera or a video (not photos, not a record)."""
    return spec is not None and not spec.startswith(("game:", "recorded:"))


def live_reader(echo: Callable[[str], None], layout: Layout | None = None
                ) -> Callable[[np.ndarray], DuelView | None]:
    """The Duel reader for a live camera's still frames: a frame it cannot use (no
    marker seen, say) is read as nothing (the referee waits), said once per reason."""
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.duel.read import read_duel

    said = ""

    def read(image: np.ndarray) -> DuelView | None:
        nonlocal said
        try:
            view = read_duel(image) if layout is None else read_duel(image, layout=layout)
        except VisionError as exc:
            if str(exc) != said:
                said = str(exc)
                echo(f"camera: {exc}")
            return None
        said = ""
        return view

    return read


# ---------------------------------------------------------------------- run
def run_duel(args: argparse.Namespace) -> int:
    """``run --game duel``: referee one Duel game and log it."""
    # lazy: numpy loads only when the command runs, not for --help
    from companion.referee.duel.loop import DuelLoop

    if args.players != 2:
        raise CommandError(f"--players {args.players}: Splendor Duel is for 2 players")

    names = player_names(args)
    seats = seats_of(args, names)
    if args.screen is not None:
        parse_size(args.screen)
    check_screenshots(args.screenshots)
    config = load_config()

    size = screen_size(args, config)
    apply_language(args, config)  # --lang fr: the Duel screens were English
    layout = duel_layout(args)
    spec = None if args.no_camera else (
        args.camera or (config.camera_spec() if config.path is not None else None))
    camera: FrameSource | ResilientSource | None = None
    notifier: Notifier | None = None
    if is_live(spec):
        notifier = Notifier()
        camera = open_camera(argparse.Namespace(no_camera=False, camera=spec), config, notifier)
        views = None
    else:
        views = None if spec is None else views_from(spec, layout)
    if spec is None and not args.no_camera:
        raise CommandError(
            "no camera given: use --camera usb:N, game:FILE or recorded:DIR, or --no-camera"
            " to enter turns with the buttons"
        )
    panel = open_panel(args.buttons, config)

    db = args.db or (config_db(config) if config.storage.database else None)
    try:
        log = GameLog.open(db, lock=True)
    except LogError as exc:
        raise CommandError(str(exc)) from None

    screen, window = screen_and_window(args, size, config, panel)
    try:
        referee, game_id = _duel_referee(log, names, args.resume, spec is not None, seats)
        loop = DuelLoop(
            referee, reader=None if camera is None else live_reader(print, layout),
            screen=screen,
            window=window, log=log, game_id=game_id, shots=args.screenshots,
            headers=headers_for(referee.seats),
        )
        if game_id is not None:
            print(f"Resumed Duel game {game_id} after {len(referee.history)} turns.")
        if camera is not None:

            assert notifier is not None  # opened with the live camera
            notifier.ready("refereeing")
            main_loop(loop, camera, panel, window, notifier)
        else:
            _duel_loop(loop, views, panel, window)
    except (LogError, ResumeError) as exc:
        raise CommandError(str(exc)) from None
    finally:
        if notifier is not None:
            notifier.stopping()
        if camera is not None:
            camera.close()
        panel.close()
        if window is not None:
            window.close()
        log.close()
    if loop.outcome is not None:
        print(loop.outcome.summary())
    return 0


def _duel_referee(
    log: GameLog, names: list[str], resume: str, camera: bool,
    seats: dict[str, int] | None = None,
) -> tuple[DuelComputer, int | None]:
    """A new referee, or one resuming the log's unfinished Duel game (unless ``--resume no``;
    ``ask`` resumes: the Duel screen has no resume menu yet), with its computer seats."""
    waiting = [g for g in log.unfinished() if g.game_type == GAME_NAME]
    if not waiting or resume == "no":
        for old in waiting:
            log.abandon(old.id)
        return duel_referee(names, seats or {}, camera=camera), None
    game = waiting[0]
    record, state = log.resume(game.id)
    # only Duel games are resumed here: the log replays them with Duel's engine
    assert isinstance(record, DuelRecord) and isinstance(state, GameState), game.game_type
    history: list[tuple[GameState, Turn]] = []
    current = record.initial_state()
    for turn in record.turns:
        history.append((current, turn))
        current = current.apply(turn)
    seats, hinted = resumed(log.headers(game.id), seats or {})
    return (
        duel_referee(record.players, seats, hinted, state=state, history=history,
                     camera=camera),
        game.id,
    )


def _duel_loop(
    loop: DuelLoop, views: Iterator[tuple[DuelView | None, object]] | None, panel: ButtonPanel,
    window: Window | None = None,
) -> None:
    """Until the buttons run out with nothing left to show, or the window closes."""
    ended = views is None
    while True:
        if window is not None:
            for event in window.events():
                if is_quit(event):
                    return
                if isinstance(panel, KeyboardPanel):  # the keys are its buttons
                    panel.handle_pygame_event(event)
        if not ended and loop.waiting_for_table:
            assert views is not None
            try:
                view, source = next(views)
            except StopIteration:
                ended = True
                continue
            loop.show(view, source)
            continue
        pressed = panel.get(timeout=POLL)
        if pressed is not None:
            loop.press(pressed)
        elif panel.exhausted:
            return


# --------------------------------------------------------------------- demo
def demo_duel(args: argparse.Namespace) -> int:
    """``demo --game duel``: a seeded Duel game through the reader, referee, log and screen."""
    # lazy: numpy loads only when the command runs, not for --help
    from companion.demo.duel import (
        DEMO_NAMES,
        DEMO_SEED,
        Operator,
        play,
        tally,
        unsure_reader,
    )
    from companion.referee.duel.loop import DuelLoop, outcome_of

    # lazy: pygame (SDL) loads only when the command runs, not for --help
    from companion.screen.draw import Screen

    size = parse_size(args.screen)

    apply_language(args)  # --lang fr: the screens and the summary in French
    out: Path = args.out if args.out != Path("out/demo") else DEMO_OUT
    if args.turns is not None and args.turns < 0:
        raise CommandError("--turns must be 0 or more")
    say: Callable[[str], None] = (lambda s: None) if args.quiet else print
    record, states = play_game(DEMO_SEED, DEMO_NAMES, "greedy")
    count = len(states) if args.turns is None else min(len(states), args.turns + 1)
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_text(out / "game.txt", record.text(), named=False)
        shots = out / "screenshots"
        shots.mkdir(exist_ok=True)
        for old in shots.glob("*.png"):
            old.unlink()
        db = out / "demo.sqlite"
        db.unlink(missing_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot use {out}: {exc.strerror or exc}") from None
    reader = args.reader
    tables: Callable[[int], tuple[DuelView | None, object]]
    if reader == "unsure":
        read = unsure_reader(seed=DEMO_SEED)

        def tables(index: int) -> tuple[DuelView | None, object]:
            return read(states[index]), None

        say(f"Reader: a perfect reader unsure of some places (game {DEMO_SEED}).")
    else:
        tables = _rendered_tables(states, out / "frames", say)
    log = GameLog.open(db)
    started = time.perf_counter()
    try:
        loop = DuelLoop(DuelReferee(DEMO_NAMES), screen=Screen(size), log=log, shots=shots,
                        echo=say)
        operator = Operator(states, record.turns)

        def progress(index: int, total: int) -> None:
            if args.quiet:
                return
            print(f"[table {index}/{total - 1}]", file=sys.stderr, flush=True)

        pressed = play(loop, operator, tables, count, progress)
    finally:
        log.close()
    result = tally(loop, states, pressed, operator)
    seconds = time.perf_counter() - started
    print(
        f"Duel demo: {result.turns} turns confirmed, {result.first} at the first guess"
        f" ({result.first_rate:.1%}), {result.later} at a later guess, {result.manual} entered"
        f" by hand; {result.misled} silent wrong (a first guess that was not the turn"
        f" played), {result.wrong} wrong confirmations; {result.presses} button presses;"
        f" {seconds:.0f} s"
    )
    for wrong in result.wrong_turns:
        print(f"  wrong: {wrong}")
    outcome = outcome_of(loop)
    if outcome is not None:
        print(f"Winner: {outcome.winner}. {outcome.reason}.")
    print(f"Log: {db}; screenshots: {len(loop.screenshots)} in {shots}")
    complete = result.turns == count - 1 and result.wrong == 0 and result.misled == 0
    return 0 if complete else 1


def _rendered_tables(
    states: Sequence[GameState], frames: Path, say: Callable[[str], None]
) -> Callable[[int], tuple[DuelView | None, object]]:
    """Each table rendered (once, cached as JPEG in ``frames``) and read by the real reader.

    Only ``demo --game duel`` comes here: the demo draws its own tables, so it (and
    only it) imports the renderer, lazily.  ``run`` reads through ``views_from`` and
    ``live_reader``, which never import ``vision.synth``; ``duel_art`` only tells the
    demo whether it draws the publisher's faces or ours, to say so (the reader reads
    both: ``tests/vision/learned/test_runtime_isolation.py`` keeps it free of the
    renderer and the art)."""
    try:
        # lazy: OpenCV loads only when the command runs, not for --help
        import cv2

        from vision.duel.read import read_duel

        # lazy: OpenCV loads only when the command runs, not for --help
        from vision.synth.duel import render_duel
        from vision.synth.duel_faces import duel_art
    except ImportError as exc:
        raise CommandError(
            f"the Duel renderer and reader are not installed ({exc}); use --reader unsure"
        ) from None
    # lazy: numpy loads only when the command runs, not for --help
    from companion.demo.duel import DEMO_SEED

    frames.mkdir(parents=True, exist_ok=True)
    drawn = duel_art() is None
    say("Reader: the Duel reader on rendered frames (cached in " f"{frames})"
        + ("; the publisher's art is absent here, so the tables show our drawn faces."
           if drawn else "."))

    def tables(index: int) -> tuple[DuelView | None, object]:
        path = frames / f"{index:04d}.jpg"
        image = cv2.imread(str(path)) if path.exists() else None
        if image is None:
            frame = render_duel(
                states[index], RENDER_SEED, difficulty="easy", framing="table", hand=False,
                steady=DEMO_SEED,
            )
            image = frame.image
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        try:
            return read_duel(image), None
        except VisionError as exc:
            say(f"table {index}: {exc}")
            return None, None

    return tables


#: The renderer's seed for the demo's camera and light (one for every frame of the game).
RENDER_SEED = 3
