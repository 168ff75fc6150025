"""``splendor-companion games``: list the games in the game log.

Also home of what the log-reading commands (``games``, ``review``,
``export``) share: the ``--db`` option, opening an existing log without
creating one, and reading a GAME argument (an id or ``last``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from companion.commands import CommandError
from companion.record import GameLog, GameSummary, LogError, default_db_path


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"the game log (default: {default_db_path()}, from $XDG_DATA_HOME)",
    )


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game's id as 'games' lists it, or 'last'")


@contextmanager
def open_log(db: Path | None) -> Iterator[GameLog]:
    """Open an existing log for reading commands; a missing log is an error, not created."""
    path = db if db is not None else default_db_path()
    if not path.exists():
        raise CommandError(f"no game log at {path}: no game has been played yet (or use --db)")
    try:
        log = GameLog.open(path)
    except LogError as exc:
        raise CommandError(str(exc)) from None
    if log.notice:
        print(f"splendor-companion: {log.notice}", file=sys.stderr)
    try:
        yield log
    except LogError as exc:
        raise CommandError(str(exc)) from None
    finally:
        log.close()


def game_id(log: GameLog, text: str) -> int:
    """The id named by a GAME argument: a number, or ``last`` for the newest game."""
    if text.strip().lower() == "last":
        games = log.games()
        if not games:
            raise CommandError(f"the game log {log.path} holds no games yet")
        return games[-1].id
    try:
        number = int(text)
    except ValueError:
        raise CommandError(
            f"'{text}' is not a game id (a number from 'games', or 'last')"
        ) from None
    log.game(number)  # raises "there is no game N"
    return number


def local_time(stamp: str | None) -> str:
    """A stored UTC time as the table's local time, to the minute."""
    if not stamp:
        return "-"
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def result_text(game: GameSummary) -> str:
    if not game.finished:
        return "unfinished"
    if game.abandoned:
        return "abandoned"
    if not game.winners:
        return game.result or "-"
    verb = "won" if len(game.winners) == 1 else "shared the win"
    scores = "-".join(re.findall(r"(\d+) \(\d+ cards?\)", game.result or ""))
    return f"{' and '.join(game.winners)} {verb}" + (f" {scores}" if scores else "")


def table(games: list[GameSummary]) -> list[str]:
    header = ("ID", "STARTED", "TYPE", "PLAYERS", "TURNS", "RESULT")
    rows = [
        (
            str(g.id),
            local_time(g.started_at),
            g.game_type,
            ", ".join(g.players),
            str(g.turns),
            result_text(g),
        )
        for g in games
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    out = []
    for row in [header, *rows]:
        cells = [
            cell.rjust(w) if i in (0, 4) else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=False))
        ]
        out.append("  ".join([*cells, row[-1]]).rstrip())
    return out


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "games",
        help="list the games in the game log",
        description="List every logged game: id, start time, type, players, turns and result "
        "(or 'unfinished'). Use the id with 'review' and 'export'.",
    )
    add_db_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with open_log(args.db) as log:
        games = log.games()
        if not games:
            print(f"No games in {log.path} yet.")
            return 0
        for line in table(games):
            print(line)
    return 0
