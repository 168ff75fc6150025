"""``splendor-companion demo``: a recorded 3-player game refereed end to end.

Renders (once; later runs reuse the frames) the still frames of a seeded
3-player game, then plays them -- hands passing over the table between turns
-- through the real card reader, referee, screen and game log, with the
recording's scripted button presses.  A window shows it when there is a
display; otherwise it runs headless.  Each confirmed turn is printed in
notation, then the final standings, then where the record and the
screenshots are.  The run fails (exit 1) if a confirmed turn differs from the
game the recording was made from, or a turn was confirmed wrongly in silence.

At the end it counts the turns confirmed at the camera's first guess, those
that needed NEXT, those entered with the buttons, and silent wrong
confirmations: turns where the button script confirmed the first guess and
the turn confirmed is not the one played.  A recording with a render.txt
(tests/data/world-game) has no committed frames: they are rendered at first
use into a cache (--frames).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands import CommandError
from companion.commands._computer_demo import demo_computer
from companion.commands._duel_table import demo_duel
from companion.commands._speech import add_options, apply_language, open_from_options
from companion.commands._table import DEFAULT_OUT, parse_size
from companion.games import DUEL_GAME, SPLENDOR_GAME, AnyKind, by_key, keys
from companion.i18n import _, words
from companion.output import write_text
from companion.record import GameLog, LogError
from companion.referee.splendor.hooks import SplendorReferee
from companion.referee.splendor.observe import from_observation
from companion.rules.errors import RulesError
from companion.rules.splendor.record import read_record
from vision.errors import VisionError
from vision.layout import build_layout

if TYPE_CHECKING:  # imported when a demo plays: `--help` loads none of them
    import numpy as np

    from companion.demo.splendor import Frames, Step
    from companion.referee.splendor.loop import SplendorLoop
    from companion.referee.splendor.reading import TableReading
    from companion.rules.splendor.outcome import Outcome
    from companion.rules.splendor.record import Record
    from companion.rules.splendor.state import GameState
    from companion.screen.window import Window
    from vision.lens import LensModel


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "demo",
        help="referee a recorded 3-player game through the reader, referee and screen",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT,
        help="folder for the record, the log, the screenshots and the frame cache"
        f" (default {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--recording", type=Path, default=None,
        help="a recording folder (game.txt, frames/, buttons.txt) to play instead of"
        " the cached demo game (default OUT/recording)",
    )
    parser.add_argument(
        "--frames", type=Path, default=None,
        help="where a recording rendered at first use (it has a render.txt) keeps its"
        " frames (default out/NAME/frames, NAME the recording's folder name)",
    )
    parser.add_argument(
        "--turns", type=int, default=None,
        help="stop after this many turns (default: the whole game)",
    )
    parser.add_argument(
        "--record", action="store_true",
        help="ignore the recording's button script: let the operator who knows the game"
        " press the buttons, and save what was pressed as the new script",
    )
    parser.add_argument(
        "--headless", action="store_true", help="never open a window, even with a display"
    )
    parser.add_argument(
        "--screen", default="800x480", help="screen size WxH (default 800x480)"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only the summary, not every turn"
    )
    parser.add_argument(
        "--game", choices=keys(), default=keys()[0],
        help="splendor (default: the recorded 3-player game) or duel (a seeded Splendor Duel"
        " game, written to out/demo-duel unless --out)",
    )
    parser.add_argument(
        "--reader", choices=("real", "unsure"), default="real",
        help="duel only: the Duel reader on rendered frames (default), or a perfect reader"
        " unsure of some places (no rendering)",
    )
    parser.add_argument(
        "--computer", nargs="?", const=3, type=int, default=None, dest="computer_level",
        metavar="LEVEL",
        help="a scripted person against the computer (level 1-5, default 3), either game;"
        " prints the computer's turns and the result (out/demo-computer unless --out)",
    )

    add_options(parser)
    parser.set_defaults(func=run, output_folders=("out", "frames"))


def _prepare(folder: Path, turns: int | None) -> Record:
    """Write the seeded game's record into ``folder`` (dropping stale frames)."""
    # lazy: numpy loads only when the command runs, not for --help
    from companion.demo.splendor import RENDER_VERSION, demo_game

    record, _ = demo_game()
    if turns is not None:
        if turns < 0:
            raise CommandError("--turns must be 0 or more")
        record.turns = record.turns[:turns]
        record.headers["Result"] = "*"
        record.headers.pop("Winner", None)
    text = record.text()
    game = folder / "game.txt"
    if game.exists() and game.read_text(encoding="utf-8") != text:
        try:
            old = read_record(game.read_text(encoding="utf-8"))
            n = min(len(old.turns), len(record.turns))
            same_start = (
                old.initial_state() == record.initial_state()
                and old.turns[:n] == record.turns[:n]
            )
        except ValueError:
            same_start = False
        if not same_start:  # another game: its frames are of no use
            shutil.rmtree(folder / "frames", ignore_errors=True)
        (folder / "buttons.txt").unlink(missing_ok=True)
    stamp = folder / "frames" / "render-version.txt"
    if (folder / "frames").exists() and (
        not stamp.exists() or stamp.read_text(encoding="utf-8").strip() != str(RENDER_VERSION)
    ):  # frames of an older renderer
        shutil.rmtree(folder / "frames", ignore_errors=True)
    (folder / "frames").mkdir(parents=True, exist_ok=True)
    stamp.write_text(f"{RENDER_VERSION}\n", encoding="utf-8")
    game.write_text(text, encoding="utf-8")
    return record


def run(args: argparse.Namespace) -> int:
    if args.computer_level is not None:
        return demo_computer(args)
    return _DEMOS[by_key(args.game)](args)


def _demo_splendor(args: argparse.Namespace) -> int:
    size = parse_size(args.screen)
    if args.turns is not None and args.turns < 0:
        raise CommandError("--turns must be 0 or more")
    out: Path = args.out
    # lazy: numpy loads only when the command runs, not for --help
    from companion.referee.driver import tame_memory

    tame_memory()

    apply_language(args)
    folder: Path = args.recording or out / "recording"
    if args.recording is not None and not (folder / "game.txt").exists():
        raise CommandError(f"{folder} is not a recording: it has no game.txt")
    try:
        if args.recording is None:
            _prepare(folder, args.turns)
        result = play_recording(
            folder, out, size=size, record=args.record, headless=args.headless,
            turns=args.turns, echo=(lambda s: None) if args.quiet else print,
            script_to=None if args.recording is None else out, cache=args.frames,
            speech=args if args.speech else None,
        )
    except OSError as exc:
        where = exc.filename or out
        raise CommandError(f"cannot use {where}: {exc.strerror or exc}") from None
    return 0 if result.matches and not result.silent_wrong else 1


class DemoResult:
    def __init__(self) -> None:
        self.confirmed: list[str] = []
        self.expected: list[str] = []
        self.outcome: Outcome | None = None
        self.screenshots: list[Path] = []
        self.db: Path | None = None
        self.manual = 0
        self.reads_ms: list[float] = []
        self.proposals_ms: list[float] = []
        self.seconds = 0.0
        self.played: list[Step] = []
        self.first_guess = 0
        self.later_guess = 0
        #: turns the table did not show, proposed when the operator asked with CONFIRM
        self.on_confirm = 0
        #: how each confirmed turn was found ("first guess", "later guess", "on CONFIRM",
        #: "buttons")
        self.via: list[str] = []
        #: confirmed at the first guess (by the script) yet not the turn played
        self.silent_wrong = 0
        #: the button script stopped fitting the reads (the operator played it again)
        self.script_stale = False
        #: one WAV per confirmed turn, then the standings (``--speech``)
        self.speech_files: list[Path] = []

    @property
    def matches(self) -> bool:
        return self.confirmed == self.expected


def play_recording(
    folder: Path,
    out: Path,
    *,
    size: tuple[int, int] = (800, 480),
    record: bool = False,
    headless: bool = True,
    turns: int | None = None,
    echo: object = print,
    script_to: Path | None = None,
    cache: Path | None = None,
    speech: argparse.Namespace | None = None,
) -> DemoResult:
    """Play a recording folder; return what happened (used by the tests and the bench).

    A new button script is saved in ``script_to`` (default: the recording
    folder); a recording given by the user is never modified unasked.

    The button script is replayed when there is one.  If the reader now reads
    the frames differently from when the script was recorded (vision
    improved), the replay no longer reproduces the game: the run says so and
    plays again with the operator, saving the new script; the silent wrong
    confirmations of the replay are kept in the result.

    ``cache``: where a recording with a render.txt keeps its rendered frames.
    ``speech``: the ``--speech`` options; each confirmed turn and the standings
    are then spoken into ``out/speech/NNNN-turn.wav`` (and ``spoken.txt``).
    """
    # lazy: numpy loads only when the command runs, not for --help
    from companion.demo.splendor import Frames, load_recording, save_script

    say = echo if callable(echo) else print
    started = time.perf_counter()
    try:
        game, steps = load_recording(folder)
    except UnicodeDecodeError:
        raise CommandError(f"cannot read the recording in {folder}: not UTF-8 text") from None
    except (OSError, ValueError) as exc:
        raise CommandError(f"cannot read the recording in {folder}: {exc}") from None
    if turns is not None:
        game.turns = game.turns[:turns]
    if record:
        steps = None

    try:  # read, the record may still not set a game up or replay (found by the generator)
        states = [game.initial_state()]
        for turn in game.turns:
            states.append(states[-1].apply(turn))
    except RulesError as exc:
        raise CommandError(f"the recording {folder / 'game.txt'}: {exc}") from None
    frames = Frames(folder, game, cache=cache)
    if frames.missing:
        print(
            f"Rendering {len(frames.missing)} frames of the recorded game into"
            f" {frames.dir} (once; later runs reuse them)...",
            file=sys.stderr,
        )
    try:
        result = _attempt(game, states, frames, steps, out, size, headless, say, folder, speech)
        if steps is not None and not result.matches:
            print(
                "The reader reads the frames differently from when the button script was"
                " recorded; playing again with the operator and saving a new script.",
                file=sys.stderr,
            )
            steps = None
            silent = result.silent_wrong
            result = _attempt(
                game, states, frames, None, out, size, headless, say, folder, speech
            )
            result.silent_wrong += silent
            result.script_stale = True
        if steps is None:
            target = script_to or folder
            target.mkdir(parents=True, exist_ok=True)
            saved = save_script(target, result.played)
            if script_to is not None:
                print(f"New button script: {saved}", file=sys.stderr)
    finally:
        frames.close()
    result.seconds = time.perf_counter() - started
    _summary(result, out, say)
    return result


def _attempt(
    game: Record, states: list[GameState], frames: Frames, steps: list[Step] | None, out: Path,
    size: tuple[int, int], headless: bool, say: Callable[[str], None], folder: Path,
    speech_options: argparse.Namespace | None = None,
) -> DemoResult:
    # lazy: numpy loads only when the command runs, not for --help
    from companion.demo.splendor import Operator, play
    from companion.referee.driver import TableLoop

    # lazy: numpy loads only when the command runs, not for --help
    from companion.referee.splendor.loop import outcome_of

    # lazy: pygame (SDL) loads only when the command runs, not for --help
    from companion.screen.draw import Screen
    from companion.screen.window import open_window
    from vision.colours import ColourModel

    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.learn import learn_or_keep
    from vision.read import read_frame
    from vision.read_cache import ReadCache

    names = game.players
    out.mkdir(parents=True, exist_ok=True)
    shots = out / "screens"
    shutil.rmtree(shots, ignore_errors=True)
    db = out / "demo.db"
    for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        stale.unlink(missing_ok=True)
    try:
        log = GameLog.open(db)
    except LogError as exc:
        raise CommandError(str(exc)) from None
    layout = build_layout(len(names))

    cache = ReadCache()  # as `run`: unchanged slots keep their last reading
    lens = _recorded_lens(folder, say)
    colours = ColourModel()  # the built-in ones: a user's stored colours are not this table's
    at_setup = True  # as `run` starting a game: its first frame is the laid-out table

    def reader(image: np.ndarray) -> TableReading:
        nonlocal colours, at_setup
        if at_setup:
            at_setup = False
            colours = learn_or_keep(image, layout, colours, say)
        obs = read_frame(image, layout, colours, cache=cache, lens=lens)
        return from_observation(obs, len(names))

    screen = Screen(size)
    window = None if headless else open_window(size)
    speech = None
    if speech_options is not None:
        spoken = out / "speech"
        shutil.rmtree(spoken, ignore_errors=True)
        speech = open_from_options(speech_options, out_dir=spoken, log=spoken / "spoken.txt",
                                   kinds=frozenset({"turn", "standings"}))
    loop: SplendorLoop = TableLoop(
        SplendorReferee(names), reader=reader, screen=screen, window=window, log=log, shots=shots,
        echo=say, headers={"Event": "splendor-companion demo"}, speech=speech,
    )
    operator = Operator(states[0], game.turns) if steps is None else None

    def progress(index: int, total: int) -> None:
        if window is not None:
            window.events()
        if index in frames.missing or index % 10 == 0:
            print(f"  frame {index + 1}/{total}", file=sys.stderr, flush=True)

    result = DemoResult()
    try:
        expected = [str(t) for t in game.turns]
        result.played = play(
            loop, frames, len(states), steps, operator, progress, expected=expected
        )
        if window is not None:
            _linger(window)
    finally:
        if window is not None:
            window.close()
        if speech is not None:
            speech.speaker.wait(timeout=120)
            speech.speaker.close()
            result.speech_files = list(speech.speaker.files)
    result.manual = loop.via.count("buttons")
    result.first_guess = loop.via.count("first guess")
    result.later_guess = loop.via.count("later guess")
    result.on_confirm = loop.via.count("on CONFIRM")
    result.via = list(loop.via)
    result.confirmed = loop.confirmed
    result.expected = [str(t) for t in game.turns]
    result.silent_wrong = silent_wrong(loop, states, result.expected)
    result.outcome = outcome_of(loop)
    result.screenshots = loop.screenshots
    result.db = db
    result.reads_ms = loop.timings.reads_ms
    result.proposals_ms = loop.timings.proposals_ms
    game_id = loop.game_id if loop.game_id is not None else loop.finished_game_id
    if game_id is not None:
        write_text(out / "record.txt", log.record(game_id).text(), named=False)
    log.close()
    return result


#: A recording's stored lens (as ``calibrate --lens`` writes it), used as `run` uses the
#: config's ``[camera] lens``; without it each frame's markers fit the lens.
LENS_FILE = "lens.json"


def _recorded_lens(folder: Path, say: Callable[[str], None]) -> LensModel | None:
    """The lens stored with the recording, or None.

    Not the user's configured lens: the recording's frames were taken by the
    recording's camera, not the one on this table.
    """
    path = folder / LENS_FILE
    if not path.exists():
        return None
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.lens import load_lens

    try:
        lens = load_lens(path)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    say(f"Lens: {path} (the recording's camera, as `calibrate --lens` stores it).")
    return lens


def silent_wrong(loop: SplendorLoop, states: list[GameState], expected: list[str]) -> int:
    """Turns confirmed at the camera's first guess (or proposed on CONFIRM, the table
    showing no turn) that are not the turn played.

    Counted only where the referee knew the true table before the turn: a
    replay whose set-up or an earlier turn already went wrong is a stale
    script (played again by the operator), not a wrong guess.  Under the
    operator every confirmation is checked against the truth, so these come
    from a replayed script: what a player who trusts the first guess confirms.
    """
    knew = [before == states[i] for i, (before, _) in enumerate(loop.referee.history)]
    return sum(
        1 for via, got, true, known in zip(loop.via, loop.confirmed, expected, knew,
                                           strict=False)
        if via in ("first guess", "on CONFIRM") and known and got != true
    )


#: Seconds the window keeps showing the standings (any key or closing it ends sooner).
LINGER_SECONDS = 8.0


def _linger(window: Window) -> None:
    # lazy: pygame (SDL) loads only when the command runs, not for --help
    import pygame

    end = time.monotonic() + LINGER_SECONDS
    while time.monotonic() < end:
        for event in window.events():
            if event.type in (pygame.QUIT, pygame.KEYDOWN):
                return
        time.sleep(0.05)


def _summary(result: DemoResult, out: Path, say: object) -> None:
    print_ = say if callable(say) else print
    outcome = result.outcome

    if outcome is not None:
        print(_("Final standings:"))
        for s in outcome.standings:
            print(f"  {words.ordinal(s.rank):>4} {s.name:<8} {words.short_points(s.points)},"
                  f" {words.cards(s.cards)}")
        print(f"  {words.outcome_reason(outcome)}")
        for note in words.place_notes(outcome):
            print(f"  {note}")
    else:
        print(_("Stopped after {n} turns (the game is not over).").format(
            n=len(result.confirmed)))
    if result.matches:
        print(_("All {n} confirmed turns match the recorded game.").format(
            n=len(result.confirmed)))
    else:
        wrong = sum(1 for a, b in zip(result.confirmed, result.expected, strict=False) if a != b)
        wrong += abs(len(result.confirmed) - len(result.expected))
        print(_("{n} confirmed turns differ from the recorded game.").format(n=wrong),
              file=sys.stderr)
    if result.confirmed:
        n = len(result.confirmed)
        print(_("From the camera: {first} of {n} turns were its first guess ({share} %),"
                " {later} a later guess (NEXT); {manual} were entered with the buttons.")
              .format(first=result.first_guess, n=n, share=f"{100 * result.first_guess / n:.1f}",
                      later=result.later_guess, manual=result.manual))
        if result.on_confirm:
            print(_("{n} turns the table did not show were proposed on CONFIRM.")
                  .format(n=result.on_confirm))
        others = [f"{i}. {result.confirmed[i - 1]} ({via})"
                  for i, via in enumerate(result.via, start=1) if via != "first guess"]
        if others:
            more = f"; ... {len(others) - 8}" if len(others) > 8 else ""
            print(_("Not at the first guess:") + " " + "; ".join(others[:8]) + more)
    stale = (" " + _("(while the stale button script was replayed)")
             if result.script_stale else "")
    print(_("Silent wrong confirmations: {n}").format(n=result.silent_wrong) + f"{stale}.")
    if result.speech_files:
        print(_("Speech: {n} WAV files in {folder} (spoken.txt lists what was said).")
              .format(n=len(result.speech_files), folder=out / "speech"))
    print(_("Record: {record} (log {log}); screenshots: {screens} ({n} files);"
            " took {seconds} s.").format(record=out / "record.txt", log=result.db,
                                         screens=out / "screens", n=len(result.screenshots),
                                         seconds=f"{result.seconds:.0f}"))
    del print_


#: Each game's ``demo``, by its registry entry (tests/test_shape.py: every game has one).
_DEMOS: dict[AnyKind, Callable[[argparse.Namespace], int]] = {
    SPLENDOR_GAME: _demo_splendor,
    DUEL_GAME: demo_duel,
}
