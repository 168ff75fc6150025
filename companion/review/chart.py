"""The points-by-round chart of a review, drawn with matplotlib's Agg renderer.

A PNG rather than inline SVG: it is one ``<img>`` with a data URI that every
browser and mail client shows, about 30 kB, and its size does not grow with
the number of turns.  ``matplotlib.figure.Figure`` is used without pyplot, so
no GUI backend is ever chosen and nothing global is touched (the companion
may be drawing its pygame screen in the same process).
"""

from __future__ import annotations

import io

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

#: One colour per seat, told apart in grey print too by the markers.
SEAT_STYLES = (("#1f77b4", "o"), ("#d62728", "s"), ("#2ca02c", "^"), ("#9467bd", "D"))


def new_chart(width_in: float, height_in: float, dpi: int) -> tuple[Figure, Axes]:
    """An empty figure and its axes, drawn off-screen (no pyplot, no display)."""
    fig = Figure(figsize=(width_in, height_in), dpi=dpi)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def finish_png(fig: Figure, ax: Axes) -> bytes:
    """The review's charts' common finish (light grid, legend top left) as PNG bytes."""
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def points_chart_png(
    rounds: list[float],
    points: dict[str, list[int]],
    winning_points: int | None = 15,
    winning_label: str = "final round",
    width_in: float = 7.0,
    height_in: float = 3.6,
    dpi: int = 100,
    unit: str = "points",
    ylabel: str = "Prestige points",
) -> bytes:
    """A line per player of points (y) against rounds completed (x), as PNG bytes.

    Any count by round draws the same way: Duel's crowns pass ``unit="crowns"``
    and their ``ylabel`` (and 10 crowns as ``winning_points``).
    """
    fig, ax = new_chart(width_in, height_in, dpi)
    top = max([0, *(max(v, default=0) for v in points.values())])
    for i, (name, values) in enumerate(points.items()):
        colour, marker = SEAT_STYLES[i % len(SEAT_STYLES)]
        ax.plot(rounds, values, label=name, color=colour, marker=marker, markersize=4,
                linewidth=2)
    if winning_points is not None:
        ax.axhline(winning_points, color="#888888", linestyle="--", linewidth=1)
        ax.text(max(rounds, default=1), winning_points + 0.3,
                f"{winning_points} {unit}: {winning_label}", color="#666666", fontsize=8,
                ha="right")
        top = max(top, winning_points)
    ax.set_xlabel("Round")
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, top + 2)
    ax.set_xlim(left=0)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    return finish_png(fig, ax)
