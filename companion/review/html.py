"""The review page of one logged game: a single self-contained HTML file.

Self-contained because it is mailed, copied to a phone or opened years later
from a USB stick: inline CSS, the chart and thumbnails as base64 data URIs,
no scripts, fonts or links to fetch.  Everything taken from the log is
escaped (player names are typed by players).  Gems show their letter as
well as their colour, as on the companion's screen, so the page reads in
grey print and for colour-blind players.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from html import escape
from typing import Any

from companion.analysis import GameAnalysis
from companion.review.analysis_html import analysis_section
from companion.review.story import GameStory, TurnEntry, honours_of

#: Background and text colour of each token letter (both games share the letters).
GEM_COLOURS = {
    "w": ("#f4f4f4", "#222"),
    "u": ("#1f5fbf", "#fff"),
    "g": ("#2e8b3a", "#fff"),
    "r": ("#c62828", "#fff"),
    "k": ("#222222", "#fff"),
    "y": ("#e0b000", "#222"),
    "p": ("#ead7ea", "#222"),
}
GREY = ("#9e9e9e", "#fff")
COLOUR_NAMES = {"w": "white", "u": "blue", "g": "green", "r": "red", "k": "black",
                "y": "gold", "p": "pearl"}

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 60em; padding: 0 1em; color: #222; background: #fff; line-height: 1.4; }
h1 { margin-bottom: 0.2em; }
.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3em 0.6em; text-align: left;
         vertical-align: top; }
th { background: #f2f2f2; }
td.num { text-align: right; }
.reason { font-weight: 600; }
.problem { background: #fff3cd; border: 1px solid #e0c060; padding: 0.5em 1em; }
.gem { display: inline-block; min-width: 1.4em; text-align: center; border-radius: 0.7em;
       border: 1px solid #999; font-size: 0.85em; font-weight: 700; margin: 0 0.1em; }
.card { display: inline-block; border: 1px solid #999; border-radius: 0.25em;
        padding: 0 0.3em; margin: 0.1em; font-size: 0.9em; white-space: nowrap; }
tr.taken-back td { color: #888; text-decoration: line-through; }
tr.taken-back td.why { text-decoration: none; font-style: italic; }
code { font-size: 0.9em; background: #f6f6f6; padding: 0 0.2em; }
img.thumb { width: 160px; height: auto; display: block; }
img.chart { max-width: 100%; height: auto; }
"""


def _data_uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _gem(letter: str, text: str | None = None) -> str:
    bg, fg = GEM_COLOURS.get(letter, GREY)
    label = escape(text if text is not None else letter)
    return (
        f'<span class="gem" style="background:{bg};color:{fg}"'
        f' title="{COLOUR_NAMES.get(letter, letter)}">{label}</span>'
    )


def _card(card: Any, colour: str | None) -> str:
    bg = GEM_COLOURS.get(colour, GREY)[0] if colour else GREY[0]
    points = f" {card.points}\u2009pt" if card.points else ""
    name = COLOUR_NAMES.get(colour, "grey") if colour else "grey"
    return (
        f'<span class="card" style="border-left:0.5em solid {bg}" title="level {card.level}'
        f' {name}">{escape(card.id)}{points}</span>'
    )


def _bonuses(player: Any) -> list[tuple[str, int]]:
    """(letter, count) of a player's bonuses: Splendor ``Tokens`` or Duel's 5-tuple."""
    bonuses = player.bonuses
    if hasattr(bonuses, "items"):
        return [(gem.letter, n) for gem, n in bonuses.items() if n]
    return [(letter, n) for letter, n in zip("wugrk", bonuses, strict=True) if n]


def _honour_ids(holder: Any) -> str:
    return " ".join(escape(h.id) for h in honours_of(holder)) or "-"


def _rows(cells: Iterable[Iterable[str]]) -> str:
    return "\n".join("<tr>" + "".join(c for c in row) + "</tr>" for row in cells)


def _standings(story: GameStory) -> str:
    outcome = story.outcome
    summary = story.summary
    players = {p.name: p for p in story.final.players}

    def row(rank: str, p: Any) -> list[str]:
        return [f'<td class="num">{rank}</td>', f"<td>{escape(p.name)}</td>",
                f'<td class="num">{p.points}</td>', f'<td class="num">{len(p.cards)}</td>',
                f"<td>{_honour_ids(p)}</td>"]

    if outcome is not None and hasattr(outcome, "standings"):
        rows = [row(str(s.rank), players[s.name]) for s in outcome.standings]
    else:
        ordered = sorted(story.final.players, key=lambda p: (-p.points, len(p.cards)))
        if outcome is not None:  # Duel: the winner met a victory condition, no ranking
            ordered.sort(key=lambda p: p.name not in outcome.winners)
            rows = [row(str(i), p) for i, p in enumerate(ordered, start=1)]
        else:
            rows = [row("-", p) for p in ordered]
    if outcome is not None:
        head = "<h2>Final standings</h2>"
        reason = f'<p class="reason">{escape(outcome.reason)}</p>'
    else:
        status = "abandoned" if summary.abandoned else "not finished"
        head = f"<h2>Standings after {story.live_turns} turns (game {status})</h2>"
        reason = ""
    table = (
        "<table><tr><th>Rank</th><th>Player</th><th>Points</th><th>Cards bought</th>"
        f"<th>{story.honours}</th></tr>\n{_rows(rows)}</table>"
    )
    return head + table + reason


def _chart(story: GameStory) -> str:
    # matplotlib takes about a second to import: only a review page pays for it,
    # not every start of the companion (the CLI loads every command module).
    from companion.review.chart import points_chart_png

    png = points_chart_png(
        story.rounds, story.points, story.kind.winning_points,
        "final round" if story.honours == "Nobles" else "victory",
    )
    return (
        "<h2>Points by round</h2>"
        f'<img class="chart" id="points-chart" alt="Points of every player by round"'
        f' src="{_data_uri("image/png", png)}">'
    )


def _nobles(story: GameStory) -> str:
    rows = [
        [f'<td class="num">{v.number}</td>', f"<td>{escape(v.player)}</td>",
         f"<td>{escape(v.noble.describe())}</td>", f'<td class="num">{v.noble.points}</td>']
        for v in story.visits
    ]
    taken = "Visited" if story.honours == "Nobles" else "Taken by"
    left = ", ".join(escape(n.describe()) for n in honours_of(story.final)) or "none"
    table = (
        f"<table><tr><th>Turn</th><th>{taken}</th><th>Card</th><th>Points</th></tr>\n"
        f"{_rows(rows)}</table>"
        if rows
        else f"<p>No one has {'been visited' if taken == 'Visited' else 'taken one'}.</p>"
    )
    start = ", ".join(escape(n.describe()) for n in honours_of(story.start))
    return (
        f"<h2>{story.honours}</h2><p>On the table at the start: {start}.</p>{table}"
        f"<p>Still on the table at the end: {left}.</p>"
    )


def _purchases(story: GameStory) -> str:
    parts = ["<h2>Who bought what</h2>",
             "<table><tr><th>Player</th><th>Bonuses</th><th>Cards bought (turn)</th>"
             "<th>Reserved at the end</th></tr>"]
    for p in story.final.players:
        bought = [x for x in story.purchases if x.player == p.name]
        cards = " ".join(
            f"{_card(x.card, x.colour)}"
            f"<small>({x.number}{', reserved' if x.from_reserve else ''})</small>"
            for x in bought
        ) or "-"
        bonuses = " ".join(_gem(letter, f"{letter}{n}") for letter, n in _bonuses(p)) or "-"
        reserved = " ".join(
            _card(c, _colour_of(c)) if hasattr(c, "id")
            else escape(f"a level {c.level} card, unseen")
            for c in p.reserved
        ) or "-"
        parts.append(
            f"<tr><td>{escape(p.name)}</td><td>{bonuses}</td><td>{cards}</td>"
            f"<td>{reserved}</td></tr>"
        )
    parts.append("</table>")
    return "\n".join(parts)


def _colour_of(card: Any) -> str | None:
    colour = getattr(card, "colour", None) or getattr(card, "bonus", None)
    return getattr(colour, "letter", None)


def _turn_row(entry: TurnEntry) -> str:
    thumb = (
        f'<img class="thumb" alt="the table at turn {entry.number or "taken back"}"'
        f' src="{_data_uri("image/jpeg", entry.thumbnail)}">'
        if entry.thumbnail
        else ""
    )
    confidence = "buttons" if entry.confidence is None else f"{entry.confidence:.0%}"
    number = (
        '<td class="why">taken back</td>' if entry.taken_back
        else f'<td class="num">{entry.number}</td>'
    )
    points = "" if entry.points_after is None else str(entry.points_after)
    cls = ' class="taken-back"' if entry.taken_back else ""
    return (
        f"<tr{cls}>{number}<td class=\"num\">{entry.round}</td>"
        f"<td>{escape(entry.player)}</td><td>{escape(entry.words)}</td>"
        f"<td><code>{escape(entry.notation)}</code></td><td class=\"num\">{points}</td>"
        f"<td>{confidence}</td><td>{thumb}</td></tr>"
    )


def _turns(story: GameStory) -> str:
    rows = "\n".join(_turn_row(e) for e in story.entries)
    return (
        "<h2>Turns</h2>"
        '<table id="turns"><tr><th>#</th><th>Round</th><th>Player</th><th>Turn</th>'
        "<th>Notation</th><th>Points after</th><th>Read</th><th>Table</th></tr>\n"
        f"{rows}</table>"
    )


def _analysis(story: GameStory, analysis: GameAnalysis | None) -> str:
    """Win chances and flagged turns (Splendor only: Duel is not analysed yet)."""
    if story.honours != "Nobles":
        return ""
    return analysis_section(analysis)


def _when(stamp: str) -> str:
    """A stored UTC time for reading: "2026-11-22 20:15 UTC"."""
    return escape(stamp.replace("T", " ")[:16] + " UTC")


def render_html(story: GameStory, analysis: GameAnalysis | None = None) -> str:
    """The whole page for ``story``, with its stored ``analysis`` when there is one."""
    s = story.summary
    title = f"{s.game_type} game {s.id}: {', '.join(s.players)}"
    ended = f", ended {_when(s.finished_at)}" if s.finished_at else ""
    problem = (
        f'<p class="problem">The log could not be replayed to the end: {escape(story.problem)}.'
        " The report shows the game up to there.</p>"
        if story.problem
        else ""
    )
    meta = (
        f'<p class="meta">Started {_when(s.started_at)}{ended}; {story.live_turns} turns'
        f"{f', {s.taken_back} taken back' if s.taken_back else ''}.</p>"
    )
    body = "\n".join(
        [f"<h1>{escape(title)}</h1>", meta, problem, _standings(story), _chart(story),
         _analysis(story, analysis), _nobles(story), _purchases(story), _turns(story)]
    )
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
        "</body></html>\n"
    )
