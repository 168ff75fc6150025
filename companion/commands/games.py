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
from companion.record.seats import labels


def add_db_option(parser: argparse.ArgumentParser) -> None:
    try:
        default = str(default_db_path())
    except LogError:  # no home folder: the command says so if it needs the default log
        default = "$XDG_DATA_HOME/splendor-companion/games.db"
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"the game log (default: {default}, from $XDG_DATA_HOME)",
    )


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game's id as 'games' lists it, or 'last'")


@contextmanager
def open_log(db: Path | None) -> Iterator[GameLog]:
    """Open an existing log read-only for the reading commands: nothing is
    created, renamed or written; a missing, damaged or foreign file is an error."""
    try:
        log = GameLog.open_readonly(db if db is not None else default_db_path())
    except LogError as exc:
        raise CommandError(str(exc)) from None
    try:
        yield log
    except LogError as exc:
        raise CommandError(str(exc)) from None
    finally:
        log.close()


def game_id(log: GameLog, text: str) -> int:
    """The id named by a GAME argument: a number, or ``last`` for the newest game.

    ``last`` is the newest row even when it is damaged: then the command
    says so rather than quietly showing an older game.
    """
    if text.strip().lower() == "last":
        newest = log.last_id()
        if newest is None:
            raise CommandError(f"the game log {log.path} holds no games yet")
        log.game(newest)  # raises DamagedGame for a damaged row
        return newest
    shown = text if len(text) <= 40 else text[:40] + "..."
    try:
        number = int(text)
    except ValueError:
        raise CommandError(
            f"'{shown}' is not a game id (a number from 'games', or 'last')"
        ) from None
    if not 1 <= number < 2**63:
        raise CommandError(f"game id {shown} is out of range (ids start at 1)")
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
            labels(g.players, g.headers),
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
    """List the sound games; each damaged one is one line on stderr, and then exit 1."""
    with open_log(args.db) as log:
        games = log.games()
        damaged = log.damaged()
        if not games and not damaged:
            print(f"No games in {log.path} yet.")
            return 0
        if games:
            for line in table(games):
                print(line)
        for bad in damaged:
            print(f"splendor-companion: {log.path}: {bad}; skipped", file=sys.stderr)
    return 1 if damaged else 0
