"""``demo --computer``: a person (scripted) against the computer, through the real loop.

The game is first played out on a simulated table: the person is the
``greedy`` policy, the computer seat is the search at the level asked for
(:func:`computer_game`, seeded by the state as the referee seeds it, so the
referee at the table then makes exactly the same choices), and a seeded
deck (and, in Duel, bag) gives the cards revealed.  Then that game is
played through the real pieces: its tables rendered and read by the real
reader (``--reader unsure`` in Duel: a perfect reader unsure of some
places, no rendering), the referee with the computer seat (whose turns are
confirmed by the table alone, no button), the screen, speech when asked and
the log; the built-in operator presses the buttons for the person's turns.
It prints each confirmed turn, the computer's turns with their think time,
and the result; the screenshots of the computer's turns are in the output
folder.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.analysis.seat import LEVELS
from companion.commands import CommandError
from companion.commands._computer import duel_referee, headers_for, splendor_referee
from companion.commands._duel_table import _rendered_tables
from companion.commands._speech import open_from_options
from companion.commands._table import DEFAULT_OUT, parse_size
from companion.games import DUEL_GAME, SPLENDOR_GAME, AnyKind, by_key
from companion.record import GameLog
from companion.referee.computer import think
from companion.referee.splendor.computer import SPLENDOR_BRAIN
from companion.referee.splendor.observe import from_observation
from companion.rules.duel import record as duel_record
from companion.rules.duel import simulate as duel_simulate
from companion.rules.duel.cards import JewelCard
from companion.rules.duel.simulate import DuelDeck
from companion.rules.duel.view import DuelView
from companion.rules.splendor import players as splendor_players
from companion.rules.splendor import record as splendor_record
from companion.rules.splendor.deck import Deck
from companion.rules.splendor.state import needs_reveal
from vision.layout import build_layout

if TYPE_CHECKING:
    import numpy as np

    from companion.referee.splendor.reading import TableReading
    from companion.rules.duel.record import DuelRecord
    from companion.rules.duel.state import GameState as DuelState
    from companion.rules.splendor.record import Record
    from companion.rules.splendor.state import GameState

#: The person and the computer of the demo, and the game's seed.
DEMO_NAMES = ("Ann", "Bob")
COMPUTER = "Bob"
SEED = 11
OUT = {SPLENDOR_GAME: Path("out/demo-computer"), DUEL_GAME: Path("out/demo-computer-duel")}


def splendor_game(seed: int, level: int, turns: int | None = None,
                  names: Sequence[str] = DEMO_NAMES) -> tuple[Record, list[GameState]]:
    """The seeded Splendor game of the greedy person against the computer (last seat)."""
    deck = Deck(seed)
    state = deck.deal(tuple(names))
    seats = {names[-1]: level}
    record = splendor_record.new_record(state, Seed=str(seed), **headers_for(seats))
    states = [state]
    rng = random.Random(f"person-{seed}")

    def reveal(lv: int) -> str | None:
        card = deck.draw(lv)
        return card.id if card else None

    while not state.is_over() and (turns is None or len(record.turns) < turns):
        if state.player.name in seats:
            choice = think(SPLENDOR_BRAIN, state, LEVELS[level], False).choice
            assert choice is not None  # Splendor always has a turn, a pass at worst
            level_ = needs_reveal(state, choice.turn.action)
            turn = replace(choice.turn, reveal=reveal(level_) if level_ else None)
        else:
            greedy = splendor_players.POLICIES["greedy"]
            turn = splendor_players.choose_turn(state, greedy, rng, reveal, [])
        state = state.apply(turn)
        record.turns.append(turn)
        states.append(state)
    outcome = state.outcome()
    record.headers["Result"] = outcome.summary() if outcome else "*"
    return record, states


def duel_game(seed: int, level: int, turns: int | None = None,
              names: Sequence[str] = DEMO_NAMES) -> tuple[DuelRecord, list[DuelState]]:
    """The seeded Duel game of the greedy person against the computer (second seat).

    When the computer cannot move without a replenish, the bag is drawn
    first and the computer plans on the board it leaves, as the referee's
    computer seat does (:class:`~companion.referee.duel.computer.DuelPrelude`)."""
    # lazy: numpy loads only when the command runs, not for --help
    from companion.referee.duel.computer import DUEL_BRAIN, DUEL_PRELUDE
    from companion.rules.duel.planner import TurnPlanner

    deck = DuelDeck(seed)
    state = deck.deal(tuple(names))
    seats = {names[-1]: level}
    record = duel_record.new_record(state, Seed=str(seed), **headers_for(seats))
    states = [state]
    rng = random.Random(f"duel-person-{seed}")
    hidden: list[list[JewelCard]] = [[], []]
    while not state.is_over() and (turns is None or len(record.turns) < turns):
        choice, base = None, state
        if state.player.name in seats:
            if DUEL_PRELUDE.steps(state):  # the forced refill, then the plan on its board
                planner = TurnPlanner(state)
                planner.replenish(deck.draw_bag(planner.bag()))
                base = planner.midway()
            choice = think(DUEL_BRAIN, base, LEVELS[level], False).choice
        if choice is not None:
            turn = choice.turn if base is state else DUEL_PRELUDE.join(state, base, choice.turn)
            if choice.example.reveal is not None:
                card = deck.draw(int(choice.example.reveal[0]))
                turn = replace(turn, reveal=card.id if card else None)
            after = state.apply(turn)
        else:
            turn, after = duel_simulate.choose_turn(
                state, duel_simulate.POLICIES["greedy"], rng, deck, hidden[state.current])
        state = after
        record.turns.append(turn)
        states.append(state)
    outcome = state.outcome()
    record.headers["Result"] = outcome.summary() if outcome else "*"
    return record, states


def demo_computer(args: argparse.Namespace) -> int:
    """``demo --computer [LEVEL]`` for either game."""
    level = int(args.computer_level)
    if level not in LEVELS:
        raise CommandError(f"--computer {level}: the level is 1 to 5")
    if args.turns is not None and args.turns < 0:
        raise CommandError("--turns must be 0 or more")

    size = parse_size(args.screen)
    game = by_key(args.game)
    out: Path = args.out if args.out != DEFAULT_OUT else OUT[game]
    say: Callable[[str], None] = (lambda s: None) if args.quiet else print
    started = time.perf_counter()
    try:
        out.mkdir(parents=True, exist_ok=True)
        shots = out / "screens"
        shutil.rmtree(shots, ignore_errors=True)
        shots.mkdir()
        db = out / "demo.db"
        for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            stale.unlink(missing_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot use {out}: {exc.strerror or exc}") from None
    print(f"{COMPUTER} is the computer (level {level}: {LEVELS[level].words});"
          f" {DEMO_NAMES[0]} plays greedy.")
    loop, count = PLAYS[game](args, level, out, shots, db, size, say)
    referee = loop.referee
    computer = [(i, turn) for i, (before, turn) in enumerate(referee.history, start=1)
                if before.player.name == COMPUTER]
    print(f"The computer's turns ({len(computer)}):")
    for i, turn in computer:
        print(f"  {i:3}. {turn}")
    thinks = sorted(referee.think_times)
    if thinks:
        print(f"Think time per computer turn: median {thinks[len(thinks) // 2]:.2f} s,"
              f" longest {thinks[-1]:.2f} s (this machine)")
    shot = next((p for p in loop.screenshots if "computer" in p.name), None)
    outcome = loop.outcome
    if outcome is not None:
        summary = outcome.summary()  # Duel's already says why; Splendor's names the winner
        why = "" if outcome.reason in summary else f" {outcome.reason}"
        print(f"Result: {summary}.{why}")
    else:
        print(f"Stopped after {len(referee.history)} turns (unfinished in the log).")
    print(f"Log: {db}; record: {out / 'record.txt'}; screenshots: {len(loop.screenshots)} in"
          f" {shots}" + (f" (a computer turn: {shot.name})" if shot else ""))
    print(f"{time.perf_counter() - started:.0f} s")
    complete = len(referee.history) == count - 1
    return 0 if complete else 1


class _ComputerShots:
    """Saves a screenshot each time the screen shows a new computer turn's steps."""

    def __init__(self, loop: Any) -> None:
        self.loop = loop
        self.last = -1

    def __call__(self) -> None:
        ref = self.loop.referee
        if ref.computer_to_move() is not None and ref.restore is None \
                and len(ref.history) != self.last and ref.plan() is not None:
            self.last = len(ref.history)
            self.loop.redraw()
            self.loop.screenshot("computer-turn")


def _play_splendor(args: argparse.Namespace, level: int, out: Path, shots: Path, db: Path,
                   size: tuple[int, int], say: Callable[[str], None]) -> tuple[Any, int]:
    # lazy: numpy loads only when the command runs, not for --help
    from companion.demo.splendor import Frames, Operator, show_frame
    from companion.referee.driver import TableLoop

    # lazy: pygame (SDL) loads only when the command runs, not for --help
    from companion.screen.draw import Screen
    from companion.screen.window import open_window
    from vision.colours import ColourModel

    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.learn import learn_or_keep
    from vision.read import read_frame
    from vision.read_cache import ReadCache

    record, states = splendor_game(SEED, level, args.turns)
    folder = out / f"recording-level{level}"
    folder.mkdir(parents=True, exist_ok=True)
    game_file = folder / "game.txt"
    if not game_file.exists() or game_file.read_text(encoding="utf-8") != record.text():
        shutil.rmtree(folder / "frames", ignore_errors=True)
        game_file.write_text(record.text(), encoding="utf-8")
    (folder / "frames").mkdir(exist_ok=True)
    layout = build_layout(len(DEMO_NAMES))
    cache = ReadCache()
    colours = ColourModel()
    at_setup = True

    def reader(image: np.ndarray) -> TableReading:
        nonlocal colours, at_setup
        if at_setup:
            at_setup = False
            colours = learn_or_keep(image, layout, colours, say)
        return from_observation(read_frame(image, layout, colours, cache=cache), 2)

    frames = Frames(folder, record)
    if frames.missing:
        print(f"Rendering {len(frames.missing)} frames into {frames.dir} (once; later runs"
              " reuse them)...", file=sys.stderr)
    log = GameLog.open(db)
    window = None if args.headless else open_window(size)
    speech = _speech(args, out)
    referee = splendor_referee(DEMO_NAMES, {COMPUTER: level})
    loop = TableLoop(referee, reader=reader, screen=Screen(size), window=window, log=log,
                     shots=shots, echo=say, speech=speech,
                     headers={"Event": "splendor-companion demo --computer",
                              **headers_for(referee.seats)})
    operator = Operator(states[0], record.turns)
    computer_shots = _ComputerShots(loop)
    try:
        for index in range(len(states)):
            if index % 10 == 0:
                print(f"  table {index}/{len(states) - 1}", file=sys.stderr, flush=True)
            operator.saw_frame(index)
            show_frame(loop, frames.get(index), index)
            for _ in range(500):
                press = operator.next_press(loop.referee)
                if press is None:
                    break
                loop.press(press)
            computer_shots()
    finally:
        frames.close()
        _close(loop, log, out, window, speech)
    return loop, len(states)


def _play_duel(args: argparse.Namespace, level: int, out: Path, shots: Path, db: Path,
               size: tuple[int, int], say: Callable[[str], None]) -> tuple[Any, int]:
    # lazy: numpy loads only when the command runs, not for --help
    from companion.demo.duel import Operator, presses, unsure_reader
    from companion.referee.duel.loop import DuelLoop

    # lazy: pygame (SDL) loads only when the command runs, not for --help
    from companion.screen.draw import Screen

    record, states = duel_game(SEED, level, args.turns)
    (out / "game.txt").write_text(record.text(), encoding="utf-8")
    tables: Callable[[int], tuple[DuelView | None, object]]
    if args.reader == "unsure":
        read = unsure_reader(seed=SEED)

        def tables(index: int) -> tuple[DuelView | None, object]:
            return read(states[index]), None

        say("Reader: a perfect reader unsure of some places (no rendering).")
    else:
        tables = _rendered_tables(states, out / f"frames-level{level}", say)
    log = GameLog.open(db)
    referee = duel_referee(DEMO_NAMES, {COMPUTER: level})
    loop = DuelLoop(referee, screen=Screen(size), log=log, shots=shots, echo=say,
                    headers={"Event": "splendor-companion demo --computer",
                             **headers_for(referee.seats)})
    operator = Operator(states, record.turns)
    computer_shots = _ComputerShots(loop)
    try:
        for index in range(len(states)):
            if index % 10 == 0 and not args.quiet:
                print(f"  table {index}/{len(states) - 1}", file=sys.stderr, flush=True)
            operator.shown = index
            view, source = tables(index)
            loop.show(view, source)
            for _press in presses(loop, operator):
                pass
            computer_shots()
    finally:
        _close(loop, log, out, None, None)
    return loop, len(states)


#: How each game's computer demo is played, by its registry entry.
PLAYS: dict[AnyKind, Callable[..., tuple[Any, int]]] = {
    SPLENDOR_GAME: _play_splendor,
    DUEL_GAME: _play_duel,
}


def _speech(args: argparse.Namespace, out: Path) -> Any:
    if not getattr(args, "speech", False):
        return None
    spoken = out / "speech"
    shutil.rmtree(spoken, ignore_errors=True)
    return open_from_options(args, out_dir=spoken, log=spoken / "spoken.txt")


def _close(loop: Any, log: Any, out: Path, window: Any, speech: Any) -> None:
    game_id = loop.game_id if loop.game_id is not None else loop.finished_game_id
    if game_id is not None:
        (out / "record.txt").write_text(log.record(game_id).text(), encoding="utf-8")
    log.close()
    if window is not None:
        window.close()
    if speech is not None:
        speech.speaker.wait(timeout=120)
        speech.speaker.close()
