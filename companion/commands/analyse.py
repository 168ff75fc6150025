"""``splendor-companion analyse GAME``: where a logged game was won and lost.

Splendor and Splendor Duel games alike (the record's ``Game`` header or the
log's game type says which; :mod:`companion.analysis` searches either).

For every turn: each player's chance to win (searched from that position,
the unseen cards sampled), the best turn found and how much the turn played
gave up; inaccuracies, mistakes and blunders at 10 / 20 / 30 points, the
turning points and each player's accuracy.  The result is stored in the
game log, where ``review --html`` shows it; ``--record FILE`` analyses a
record file instead (stored nowhere, unless ``--json``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

from companion.analysis import DEFAULT_BUDGET, GameAnalysis, analyse_record
from companion.analysis.game import AnyRecord, read_any_record, verdict
from companion.commands import CommandError
from companion.commands.games import add_db_option, game_id, open_log
from companion.commands.replay import read_text
from companion.games import game_types
from companion.output import write_text
from companion.record import GameLog, LogError, default_db_path
from companion.record.analyses import load_analysis, save_analysis
from companion.rules.errors import RulesError
from companion.rules.record_format import clip, game_name
from companion.rules.splendor.record import RecordError

#: The games the analysis knows (a record's ``Game`` header, the log's game type).
GAMES = game_types()

#: The longest search per position (an hour): ``inf`` or ``1e300s`` is not a budget.
MAX_SECONDS = 3600.0

#: The most playouts per position (days of search on a Pi): larger is a typo.
MAX_PLAYOUTS = 10_000_000

#: Playouts timed to turn a budget in seconds into a playout count.
_CALIBRATION_PLAYOUTS = 60


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "analyse",
        help="find each turn's win chances, best alternative and mistakes",
        description="Analyse a Splendor or Splendor Duel game turn by turn: every player's "
        "chance to win (by search, with the unseen cards sampled), the best turn found, "
        "the win chance each turn gave up (inaccuracy / mistake / blunder at 10 / 20 / 30 "
        "points), the turning points and each player's accuracy. A logged game's analysis is "
        "stored in the log and shown by 'review --html'.",
    )
    p.add_argument("game", nargs="?", help="the logged game's id, or 'last'")
    p.add_argument("--record", type=Path, metavar="FILE", help="analyse a record file instead")
    p.add_argument(
        "--budget", default=str(DEFAULT_BUDGET), metavar="N|Ss",
        help=f"search per position: N playouts (default {DEFAULT_BUDGET}) or S seconds "
        "('1.5s', converted once to playouts by timing this machine; the count is printed)",
    )
    p.add_argument("--seed", type=int, default=0, help="search seed (same seed, same figures)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes (default: one per core)")
    p.add_argument("--force", action="store_true",
                   help="analyse again even when the log holds an analysis of this game")
    p.add_argument("--json", type=Path, metavar="FILE", help="also write the analysis as JSON")
    add_db_option(p)
    p.set_defaults(func=run, outputs=("json",))


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``"800"`` -> (800, None) playouts; ``"1.5s"`` -> (None, 1.5) seconds."""
    raw = text.strip().lower()
    try:
        if raw.endswith("s"):
            seconds = float(raw[:-1])
            if not 0 < seconds <= MAX_SECONDS:  # False for nan; inf is past the cap
                raise ValueError
            return None, seconds
        playouts = int(raw)
        if not 4 <= playouts <= MAX_PLAYOUTS:
            raise ValueError
        return playouts, None
    except ValueError:
        raise CommandError(
            f"--budget '{clip(text)}' is neither a playout count (4 to {MAX_PLAYOUTS}) nor"
            f" seconds like 1.5s (at most {MAX_SECONDS:.0f}s)"
        ) from None


def playouts_for(record: AnyRecord, seconds: float) -> int:
    """Playouts one process runs in ``seconds`` on this machine, timed mid-game."""
    states = record.states()
    mid = len(record.turns) // 2
    start = time.perf_counter()
    verdict(states[mid], record.turns[mid], mid, _CALIBRATION_PLAYOUTS, 0)
    per = max(time.perf_counter() - start, 1e-9) / _CALIBRATION_PLAYOUTS
    return max(4, min(MAX_PLAYOUTS, int(seconds / per)))


class ProgressBar:
    """``analysing [#####.....] 30/72 turns  12 s`` on stderr, redrawn in place."""

    def __init__(self, width: int = 30) -> None:
        self.width = width
        self.start = time.perf_counter()
        self.live = sys.stderr.isatty()
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.live:  # a log file gets one line per tenth, not a redraw per turn
            tenth = 10 * done // max(total, 1)
            if tenth == self.shown:
                return
            self.shown = tenth
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.perf_counter() - self.start
        end = "\n" if done >= total or not self.live else ""
        print(f"\ranalysing [{bar}] {done}/{total} turns  {elapsed:4.0f} s", end=end,
              file=sys.stderr, flush=True)


def report(analysis: GameAnalysis) -> list[str]:
    """The analysis in lines for the terminal."""
    names = analysis.players
    lines = [f"{len(analysis.turns)} turns, {analysis.budget} playouts per position,"
             f" seed {analysis.seed}"]
    flagged = analysis.flagged()
    if flagged:
        lines.append("Flagged turns:")
    for t in flagged:
        lines.append(f"  {t.number:>3}. {names[t.mover]}: {t.played}  {t.label}, -{t.loss:.0f}"
                     f" points ({t.best_chance:.0f}% -> {t.played_chance:.0f}%);"
                     f" better: {t.best}")
    points = analysis.turning_points()
    lines.append("Turning points: " + (", ".join(f"turn {n}" for n in points) or "none"))
    lines.append("Players:")
    for s in analysis.summaries():
        worst = f", biggest mistake turn {s.worst_turn}" if s.worst_turn else ""
        lines.append(f"  {s.name}: accuracy {s.accuracy:.0f}%, {s.inaccuracies} inaccuracies,"
                     f" {s.mistakes} mistakes, {s.blunders} blunders{worst}")
    return lines


def _read_file(path: Path) -> AnyRecord:
    text = read_text(path)  # as `replay` reads it: a BOM is fine, Latin-1 is one line
    name = game_name(text)
    if name is not None and name not in GAMES:
        raise CommandError(f"{path}: analysis is for Splendor and Splendor Duel games;"
                           f" this is {name}")
    try:
        record = read_any_record(text)
        record.states()
    except (RecordError, RulesError) as exc:
        raise CommandError(f"{path}: {exc}") from None
    return record


def _analyse(record: AnyRecord, args: argparse.Namespace) -> GameAnalysis:
    playouts, seconds = parse_budget(args.budget)
    if args.jobs is not None and args.jobs < 1:  # before the timing: one line, nothing else
        raise CommandError(f"--jobs must be 1 or more, not {args.jobs}")
    if not record.turns:
        raise CommandError("the game has no turns to analyse")
    if seconds is not None:
        playouts = playouts_for(record, seconds)
        print(f"{seconds:g} s per position is {playouts} playouts on this machine"
              f" (use --budget {playouts} to reproduce)", file=sys.stderr)
    assert playouts is not None
    return analyse_record(record, playouts, args.seed, args.jobs, ProgressBar())


@contextmanager
def _writable_log(db: Path | None) -> Iterator[GameLog]:
    """The (sound) log opened for writing: the analysis is stored in it."""
    try:
        log = GameLog.open(db if db is not None else default_db_path())
    except LogError as exc:
        raise CommandError(str(exc)) from None
    try:
        yield log
    except LogError as exc:  # no such game, a damaged row: one line
        raise CommandError(str(exc)) from None
    finally:
        log.close()


def run(args: argparse.Namespace) -> int:
    if (args.game is None) == (args.record is None):
        raise CommandError("name a logged game (an id or 'last') or give --record FILE")
    if args.record is not None:
        analysis = _analyse(_read_file(args.record), args)
    else:
        with open_log(args.db):
            pass  # a missing, damaged or foreign log: one line, and the file left as it is
        with _writable_log(args.db) as log:
            gid = game_id(log, args.game)
            if log.game(gid).game_type not in GAMES:
                raise CommandError(f"game {gid} is {log.game(gid).game_type}: analysis is for"
                                   " Splendor and Splendor Duel games")
            stored = None if args.force else load_analysis(log, gid)
            if stored is not None:
                analysis = GameAnalysis.from_json(stored.data)
                print(f"game {gid} was analysed on {stored.created_at} (use --force to"
                      " analyse again)", file=sys.stderr)
            else:
                # the game type was checked above: a Splendor or a Duel record
                analysis = _analyse(cast(AnyRecord, log.record(gid)), args)
                save_analysis(log, gid, analysis.to_json(), analysis.budget, analysis.seed)
                print(f"stored the analysis of game {gid} in {log.path}", file=sys.stderr)
    if args.json is not None:
        write_text(args.json, analysis.to_json() + "\n")
    print("\n".join(report(analysis)))
    return 0
