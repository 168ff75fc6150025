"""The analysis part of a review page: win chances, flagged turns, accuracy.

Shown for Splendor and Splendor Duel games alike, only when
``splendor-companion analyse`` has stored an analysis of the game (the
search takes a minute; the page must not).  Kept apart from
:mod:`.html` so the page's own sections and this one change independently.
Like the rest of the page: inline, no scripts, every text from the log
escaped, verdicts told by word and not by colour alone.
"""

from __future__ import annotations

import base64
from html import escape

from companion.analysis import GameAnalysis
from companion.games import SPLENDOR, kind
from companion.review.chart import SEAT_STYLES, finish_png, new_chart

#: Marker of each verdict on the chart (shape and size tell them apart in grey).
VERDICT_MARKS = {"inaccuracy": ("?!", 7), "mistake": ("?", 9), "blunder": ("??", 11)}

CSS = """
.verdict-blunder { font-weight: 700; color: #b71c1c; }
.verdict-mistake { font-weight: 700; color: #e65100; }
.verdict-inaccuracy { color: #8d6e00; }
.better { color: #1b5e20; }
"""


def win_chance_chart_png(analysis: GameAnalysis, width_in: float = 7.0,
                         height_in: float = 3.6, dpi: int = 100) -> bytes:
    """A line per player of win chance (%) before each turn, flagged turns marked."""
    fig, ax = new_chart(width_in, height_in, dpi)
    series = analysis.series()
    xs = list(range(len(series)))
    for seat, name in enumerate(analysis.players):
        colour, marker = SEAT_STYLES[seat % len(SEAT_STYLES)]
        ys = [point[seat] if seat < len(point) else 0.0 for point in series]
        ax.plot(xs, ys, label=name, color=colour, linewidth=2)
        for t in analysis.turns:
            if t.mover == seat and t.label is not None:
                ax.plot([t.number], [t.played_chance], marker=marker, color=colour,
                        markersize=VERDICT_MARKS[t.label][1], markeredgecolor="#000000")
                ax.annotate(VERDICT_MARKS[t.label][0], (t.number, t.played_chance),
                            textcoords="offset points", xytext=(0, 7), ha="center",
                            fontsize=8)
    ax.axhline(100.0 / max(len(analysis.players), 1), color="#888888", linestyle="--",
               linewidth=1)
    ax.set_xlabel("Turn")
    ax.set_ylabel("Chance to win (%)")
    ax.set_ylim(0, 105)
    ax.set_xlim(0, max(xs, default=1))
    return finish_png(fig, ax)


def _chart(analysis: GameAnalysis) -> str:
    png = base64.b64encode(win_chance_chart_png(analysis)).decode("ascii")
    turning = analysis.turning_points()
    note = (
        "Turning points (the favourite changed): "
        + ", ".join(f"turn {n}" for n in turning) + "."
        if turning else "No turning point: the favourite never changed by 10 points or more."
    )
    unseen = kind(str(analysis.extra.get("game", SPLENDOR))).unseen
    return (
        '<h2 id="analysis">Chances to win</h2>'
        f'<p class="meta">Each player\'s chance to win before every turn, estimated by'
        f" {analysis.budget} simulated games from that position with {unseen}"
        f" shuffled (seed {analysis.seed}); ?! inaccuracy, ? mistake, ?? blunder.</p>"
        f'<img class="chart" id="win-chart" alt="Chance to win of every player by turn"'
        f' src="data:image/png;base64,{png}">'
        f'<p id="turning-points">{escape(note)}</p>'
    )


def _flagged(analysis: GameAnalysis) -> str:
    flagged = analysis.flagged()
    if not flagged:
        return ('<h2>Flagged turns</h2><p id="flagged">No turn gave up 10 points of winning'
                " chance or more.</p>")
    rows = []
    for t in flagged:
        rows.append(
            f'<tr class="flagged" id="flag-{t.number}"><td class="num">{t.number}</td>'
            f"<td>{escape(t.played_words)}<br><code>{escape(t.played)}</code></td>"
            f'<td class="verdict-{t.label}">{escape(str(t.label))}: -{t.loss:.0f} points'
            f" ({t.best_chance:.0f}% &rarr; {t.played_chance:.0f}%)</td>"
            f'<td class="better">Better: {escape(t.best_words)}<br><code>{escape(t.best)}'
            "</code></td></tr>"
        )
    return (
        "<h2>Flagged turns</h2>"
        '<table id="flagged"><tr><th>Turn</th><th>Played</th><th>Verdict</th>'
        f"<th>Alternative</th></tr>{''.join(rows)}</table>"
    )


def _summary(analysis: GameAnalysis) -> str:
    by_number = {t.number: t for t in analysis.turns}
    rows = []
    for s in analysis.summaries():
        worst = "-"
        if s.worst_turn is not None:
            t = by_number[s.worst_turn]
            worst = (f"turn {t.number}: {escape(t.played_words)} (-{t.loss:.0f} points;"
                     f" better: {escape(t.best_words)})")
        rows.append(
            f"<tr><td>{escape(s.name)}</td><td class=\"num\">{s.accuracy:.0f}%</td>"
            f'<td class="num">{s.inaccuracies}</td><td class="num">{s.mistakes}</td>'
            f'<td class="num">{s.blunders}</td><td>{worst}</td></tr>'
        )
    return (
        "<h2>Accuracy</h2>"
        '<table id="accuracy"><tr><th>Player</th><th>Accuracy</th><th>Inaccuracies</th>'
        f"<th>Mistakes</th><th>Blunders</th><th>Biggest mistake</th></tr>{''.join(rows)}</table>"
    )


def analysis_section(analysis: GameAnalysis | None) -> str:
    """The analysis sections of the page, or a line saying how to get them."""
    if analysis is None:
        return ('<p class="meta" id="no-analysis">No analysis stored: run'
                " <code>splendor-companion analyse GAME</code> for each turn's chances to"
                " win and the mistakes.</p>")
    return f"<style>{CSS}</style>" + _chart(analysis) + _summary(analysis) + _flagged(analysis)
