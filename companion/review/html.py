"""The review page of one logged game: a single self-contained HTML file.

Self-contained because it is mailed, copied to a phone or opened years later
from a USB stick: inline CSS, the chart and thumbnails as base64 data URIs,
no scripts, fonts or links to fetch.  Everything taken from the log is
escaped (player names are typed by players).  Gems show their letter as
well as their colour, as on the companion's screen, so the page reads in
grey print and for colour-blind players.

Written once for both games against the engine contract
(:mod:`companion.rules.contract`): the cards, honours and players are its
protocols, the per-colour figures and crowns come from the game's
:class:`~companion.rules.contract.Scoreboard` (``story.board``), and the only
type tests left are on values whose words differ by game and that are not
states: Splendor's :class:`~companion.rules.splendor.outcome.Outcome` (its standings
explain the tie-break), a :class:`~companion.rules.splendor.catalogue.Noble` (said in
the player's language) and a card reserved blind (:class:`Hidden`).  A game
whose seats carry victory conditions (Duel) gets a crowns chart beside the
points chart and its three figures in the standings.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from html import escape

from companion.analysis import GameAnalysis
from companion.i18n import _, language
from companion.i18n.reasons import translate_reason
from companion.i18n.words import describe_noble, outcome_reason, place_notes
from companion.review.analysis_html import analysis_section
from companion.review.chart import points_chart_png
from companion.review.story import GameStory, TurnEntry, honours_of
from companion.rules.contract import CardFace, Holding, Honour, Scoreboard, Seat
from companion.rules.hidden import Hidden
from companion.rules.splendor.catalogue import Noble
from companion.rules.splendor.outcome import Outcome

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
tr.hinted td { background: #fff8e0; }
.hint { font-style: italic; color: #8a6d00; }
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


def _card(card: CardFace, colour: str | None) -> str:
    bg = GEM_COLOURS.get(colour, GREY)[0] if colour else GREY[0]
    points = f" {card.points}\u2009pt" if card.points else ""
    name = COLOUR_NAMES.get(colour, "grey") if colour else "grey"
    return (
        f'<span class="card" style="border-left:0.5em solid {bg}" title="level {card.level}'
        f' {name}">{escape(card.id)}{points}</span>'
    )


def _bonuses(board: Scoreboard | None, name: str) -> list[tuple[str, int]]:
    """(letter, count) of a player's bonuses, as the game's scoreboard counts them."""
    seat = _seat(board, name)
    if board is None or seat is None:
        return []
    return [(letter, n) for letter, n in zip(board.colour_letters, seat.bonuses, strict=True)
            if n]


def _seat(board: Scoreboard | None, name: str) -> Seat | None:
    return next((s for s in board.seats if s.name == name), None) if board else None


def _honour_ids(holder: Holding) -> str:
    return " ".join(escape(h.id) for h in honours_of(holder)) or "-"


def _rows(cells: Iterable[Iterable[str]]) -> str:
    return "\n".join("<tr>" + "".join(c for c in row) + "</tr>" for row in cells)


def _honours(kind: str) -> str:
    """The heading of the honours: "Nobles" (Splendor) or "Royal cards" (Duel), translated."""
    return {"Nobles": _("Nobles"), "Royal cards": _("Royal cards")}.get(kind, kind)


def _honour(tile: Honour) -> str:
    """A noble in the player's language; a Duel royal as it describes itself."""
    return describe_noble(tile) if isinstance(tile, Noble) else tile.describe()


def _standings(story: GameStory) -> str:
    outcome = story.outcome
    summary = story.summary
    players = {p.name: p for p in story.final.players}
    board = story.board
    goals = board is not None and board.has_goals

    def row(rank: str, p: Holding) -> list[str]:
        cells = [f'<td class="num">{rank}</td>', f"<td>{escape(p.name)}</td>",
                 f'<td class="num">{p.points}</td>']
        seat = _seat(board, p.name)
        if goals:
            cells += _goal_cells(seat)
        return [*cells, f'<td class="num">{len(p.cards)}</td>', f"<td>{_honour_ids(p)}</td>"]

    if isinstance(outcome, Outcome):
        rows = [row(str(s.rank), players[s.name]) for s in outcome.standings]
    else:
        ordered = sorted(story.final.players, key=lambda p: (-p.points, len(p.cards)))
        if outcome is not None:  # Duel: the winner met a victory condition, no ranking
            ordered.sort(key=lambda p: p.name not in outcome.winners)
            rows = [row(str(i), p) for i, p in enumerate(ordered, start=1)]
        else:
            rows = [row("-", p) for p in ordered]
    if outcome is not None:
        head = f"<h2>{_('Final standings')}</h2>"
        if isinstance(outcome, Outcome):  # Splendor: every place the points leave open
            why = " ".join([outcome_reason(outcome), *place_notes(outcome)])
        else:
            why = translate_reason(outcome.reason)
        reason = f'<p class="reason">{escape(why)}</p>'
    else:
        status = _("abandoned") if summary.abandoned else _("not finished")
        head = "<h2>" + _("Standings after {n} turns (game {status})").format(
            n=story.live_turns, status=status) + "</h2>"
        reason = ""
    extra = f"<th>{_('Crowns')}</th><th>{_('Best colour')}</th>" if goals else ""
    table = (
        f'<table id="standings"><tr><th>{_("Rank")}</th><th>{_("Player")}</th>'
        f"<th>{_('Points')}</th>{extra}<th>{_('Cards bought')}</th>"
        f"<th>{_honours(story.honours)}</th></tr>\n{_rows(rows)}</table>"
    )
    return head + table + reason


def _goal_cells(seat: Seat | None) -> list[str]:
    """Crowns, and the points of the best colour with its letter (Duel's other two wins)."""
    if seat is None:
        return ["<td></td>", "<td></td>"]
    colour = next((g for g in seat.goals if g.name == "colour"), None)
    best = (
        _gem(colour.colour, f"{colour.have}{colour.colour.upper()}")
        if colour is not None and colour.colour is not None
        else "-"
    )
    return [f'<td class="num">{seat.crowns or 0}</td>', f"<td>{best}</td>"]


def _chart(story: GameStory) -> str:
    png = points_chart_png(
        story.rounds, story.points, story.kind.winning_points,
        _("final round") if story.honours == "Nobles" else _("victory"),
    )
    points = (
        f"<h2>{_('Points by round')}</h2>"
        f'<img class="chart" id="points-chart" alt="{_("Points of every player by round")}"'
        f' src="{_data_uri("image/png", png)}">'
    )
    if not story.crowns:
        return points
    board = story.board
    need = next(
        (g.need for s in (board.seats if board else ()) for g in s.goals if g.name == "crowns"),
        None,
    )
    crowns_png = points_chart_png(
        story.rounds, story.crowns, need, _("victory"), unit="crowns", ylabel="Crowns"
    )
    return points + (
        f"<h2>{_('Crowns by round')}</h2>"
        f'<img class="chart" id="crowns-chart" alt="{_("Crowns of every player by round")}"'
        f' src="{_data_uri("image/png", crowns_png)}">'
    )


def _nobles(story: GameStory) -> str:
    rows = [
        [f'<td class="num">{v.number}</td>', f"<td>{escape(v.player)}</td>",
         f"<td>{escape(_honour(v.noble))}</td>", f'<td class="num">{v.noble.points}</td>']
        for v in story.visits
    ]
    nobles = story.honours == "Nobles"
    taken = _("Visited") if nobles else _("Taken by")
    left = ", ".join(escape(_honour(n)) for n in honours_of(story.final)) or _("none")
    table = (
        f"<table><tr><th>{_('Turn')}</th><th>{taken}</th><th>{_('Card')}</th>"
        f"<th>{_('Points')}</th></tr>\n{_rows(rows)}</table>"
        if rows
        else "<p>" + (_("No one has been visited.") if nobles else _("No one has taken one."))
        + "</p>"
    )
    start = ", ".join(escape(_honour(n)) for n in honours_of(story.start))
    return (
        f"<h2>{_honours(story.honours)}</h2><p>"
        + _("On the table at the start: {what}.").format(what=start) + f"</p>{table}<p>"
        + _("Still on the table at the end: {what}.").format(what=left) + "</p>"
    )


def _purchases(story: GameStory) -> str:
    parts = [f"<h2>{_('Who bought what')}</h2>",
             f"<table><tr><th>{_('Player')}</th><th>{_('Bonuses')}</th>"
             f"<th>{_('Cards bought (turn)')}</th><th>{_('Reserved at the end')}</th></tr>"]
    for p in story.final.players:
        bought = [x for x in story.purchases if x.player == p.name]
        cards = " ".join(
            f"{_card(x.card, x.colour)}"
            f"<small>({x.number}{_(', reserved') if x.from_reserve else ''})</small>"
            for x in bought
        ) or "-"
        bonuses = " ".join(
            _gem(letter, f"{letter}{n}") for letter, n in _bonuses(story.board, p.name)
        ) or "-"
        reserved = " ".join(_reserved(c) for c in p.reserved) or "-"
        parts.append(
            f"<tr><td>{escape(p.name)}</td><td>{bonuses}</td><td>{cards}</td>"
            f"<td>{reserved}</td></tr>"
        )
    parts.append("</table>")
    return "\n".join(parts)


def _reserved(card: CardFace | Hidden) -> str:
    """A reserved card: its face, or only its level for one reserved blind."""
    if isinstance(card, Hidden):
        return escape(_("a level {level} card, unseen").format(level=card.level))
    return _card(card, card.colour_letter)


def _player(name: str, seats: Mapping[str, int]) -> str:
    """A player's name, with "(computer, level 3)" for a computer seat."""
    if name not in seats:
        return name
    return _("{name} (computer, level {level})").format(name=name, level=seats[name])


def _turn_row(entry: TurnEntry, seats: Mapping[str, int] | None = None,
              hinted: Sequence[int] = ()) -> str:
    alt = _("the table at turn {n}").format(n=entry.number or _("taken back"))
    thumb = (
        f'<img class="thumb" alt="{alt}"'
        f' src="{_data_uri("image/jpeg", entry.thumbnail)}">'
        if entry.thumbnail
        else ""
    )
    confidence = _("buttons") if entry.confidence is None else f"{entry.confidence:.0%}"
    number = (
        f'<td class="why">{_("taken back")}</td>' if entry.taken_back
        else f'<td class="num">{entry.number}</td>'
    )
    points = "" if entry.points_after is None else str(entry.points_after)
    cls = ' class="taken-back"' if entry.taken_back else ""
    hint = ""
    if not entry.taken_back and entry.number in hinted:
        cls = ' class="hinted"'
        hint = f' <span class="hint">{escape(_("(a hint was asked)"))}</span>'
    return (
        f"<tr{cls}>{number}<td class=\"num\">{entry.round}</td>"
        f"<td>{escape(_player(entry.player, seats or {}))}</td>"
        f"<td>{escape(entry.words)}{hint}</td>"
        f"<td><code>{escape(entry.notation)}</code></td><td class=\"num\">{points}</td>"
        f"<td>{confidence}</td><td>{thumb}</td></tr>"
    )


def _turns(story: GameStory) -> str:
    seats, hinted = story.seats, story.hinted
    rows = "\n".join(_turn_row(e, seats, hinted) for e in story.entries)
    return (
        f"<h2>{_('Turns')}</h2>"
        f'<table id="turns"><tr><th>#</th><th>{_("Round")}</th><th>{_("Player")}</th>'
        f"<th>{_('Turn')}</th><th>{_('Notation')}</th><th>{_('Points after')}</th>"
        f"<th>{_('Read')}</th><th>{_('Table')}</th></tr>\n"
        f"{rows}</table>"
    )


def _analysis(story: GameStory, analysis: GameAnalysis | None) -> str:
    """Win chances and flagged turns (both games: :mod:`.analysis_html`)."""
    return analysis_section(analysis)


def _when(stamp: str) -> str:
    """A stored UTC time for reading: "2026-11-22 20:15 UTC"."""
    return escape(stamp.replace("T", " ")[:16] + " UTC")


def render_html(story: GameStory, analysis: GameAnalysis | None = None) -> str:
    """The whole page for ``story``, with its stored ``analysis`` when there is one."""
    s = story.summary
    title = _("{kind} game {id}: {players}").format(
        kind=s.game_type, id=s.id,
        players=", ".join(_player(p, story.seats) for p in s.players))
    ended = _(", ended {when}").format(when=_when(s.finished_at)) if s.finished_at else ""
    problem = (
        '<p class="problem">'
        + _("The log could not be replayed to the end: {why}. The report shows the game up"
            " to there.").format(why=escape(story.problem)) + "</p>"
        if story.problem
        else ""
    )
    back = _(", {n} taken back").format(n=s.taken_back) if s.taken_back else ""
    meta = (
        '<p class="meta">' + _("Started {when}{ended}; {n} turns{back}.").format(
            when=_when(s.started_at), ended=ended, n=story.live_turns, back=back) + "</p>"
    )
    body = "\n".join(
        [f"<h1>{escape(title)}</h1>", meta, problem, _standings(story), _chart(story),
         _analysis(story, analysis), _nobles(story), _purchases(story), _turns(story)]
    )
    return (
        f"<!DOCTYPE html>\n<html lang=\"{language()}\"><head><meta charset=\"utf-8\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
        "</body></html>\n"
    )
