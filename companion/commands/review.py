"""``splendor-companion review GAME --html FILE``: the review page of a logged game.

With ``--html`` it writes one self-contained HTML page (standings and the
tie-break, points by round, nobles, purchases, every turn with its
thumbnail); without it, it prints the game in words on the terminal.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands import CommandError
from companion.commands.analyse import report
from companion.commands.games import add_db_option, add_game_argument, game_id, open_log
from companion.output import write_text
from companion.record.seats import label
from companion.review import GameStory, ReviewError, game_story, render_html, stored_analysis


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "review",
        help="write the review page of a logged game",
        description="Review a logged game: with --html, write one self-contained HTML page "
        "(final standings, points by round, nobles, who bought what, every turn in words and "
        "notation with its thumbnail); without it, print the game in words.",
    )
    add_game_argument(p)
    p.add_argument("--html", type=Path, metavar="FILE", help="write the HTML page to FILE")
    add_db_option(p)
    p.set_defaults(func=run, outputs=("html",))


def text_review(story: GameStory) -> list[str]:
    s = story.summary
    players = ", ".join(label(p, story.seats) for p in s.players)
    lines = [f"{s.game_type} game {s.id}: {players} ({story.live_turns} turns)"]
    if story.problem:
        lines.append(f"Warning: {story.problem}")
    hinted = story.hinted
    for e in story.entries:
        mark = "   (taken back)" if e.taken_back else ""
        if not e.taken_back and e.number in hinted:
            mark = "   (a hint was asked)"
        number = f"{e.number:>3}." if not e.taken_back else "   -"
        lines.append(f"{number} {e.words}{mark}")
    outcome = story.outcome
    if outcome is not None:
        lines.append("Final standings:")
        if hasattr(outcome, "standings"):
            lines += [f"  {x.rank}. {x.name}: {x.points} points, {x.cards} cards"
                      for x in outcome.standings]
        else:  # Duel: a victory condition, no ranking beyond the winner
            lines += [f"  {p.name}: {p.points} points, {len(p.cards)} cards"
                      for p in story.final.players]
        lines.append(outcome.reason)
    else:
        status = "abandoned" if s.abandoned else "not finished"
        lines.append(f"The game is {status}.")
    return lines


def run(args: argparse.Namespace) -> int:
    with open_log(args.db) as log:
        gid = game_id(log, args.game)
        try:
            story = game_story(log, gid, thumbnails=args.html is not None)
            analysis = stored_analysis(log, gid)
        except ReviewError as exc:
            raise CommandError(str(exc)) from None
    if args.html is None:
        print("\n".join(text_review(story)))
        if analysis is not None:
            print("Analysis: " + "\n".join(report(analysis)))
        return 0
    write_text(args.html, render_html(story, analysis))
    print(f"Wrote the review of game {gid} ({story.live_turns} turns) to {args.html}")
    return 0
