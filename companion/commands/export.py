"""``splendor-companion export GAME --format text|json [--out FILE]``.

``text`` is the game record that ``splendor-companion replay`` checks;
``json`` keeps everything the log holds about the game except thumbnails.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands.games import add_db_option, add_game_argument, game_id, open_log
from companion.output import write_text
from companion.review.export import export_json, export_text


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "export",
        help="export a logged game as a record (text) or JSON",
        description="Export a logged game: 'text' is the game record in the notation that "
        "'replay' checks; 'json' holds headers, every turn (notation, state hash, confidence, "
        "taken back or not) and the result.",
    )
    add_game_argument(p)
    p.add_argument("--format", choices=("text", "json"), default="text", help="default: text")
    p.add_argument("--out", type=Path, metavar="FILE", help="write to FILE (default: stdout)")
    add_db_option(p)
    p.set_defaults(func=run, outputs=("out",))


def run(args: argparse.Namespace) -> int:
    with open_log(args.db) as log:
        gid = game_id(log, args.game)
        text = export_json(log, gid) if args.format == "json" else export_text(log, gid)
    if args.out is None:
        sys.stdout.write(text)
    else:
        write_text(args.out, text)
        print(f"Wrote game {gid} as {args.format} to {args.out}", file=sys.stderr)
    return 0
