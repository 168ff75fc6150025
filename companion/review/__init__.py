"""Reviews of logged games: a self-contained HTML report and plain exports.

:func:`review_html` is the page ``splendor-companion review`` writes;
:func:`game_story` is the replayed game behind it (turn list in words and
notation, points by round, purchases, nobles) for any other view;
:func:`export_text` and :func:`export_json` are what ``export`` writes.
"""

from companion.analysis import GameAnalysis
from companion.record.analyses import load_analysis
from companion.record.log import GameLog
from companion.review.export import export_json, export_text
from companion.review.html import render_html
from companion.review.story import GameStory, ReviewError, TurnEntry, game_story


def review_html(log: GameLog, game_id: int) -> str:
    """The review page of game ``game_id`` as one HTML string (with its stored analysis)."""
    return render_html(game_story(log, game_id), stored_analysis(log, game_id))


def stored_analysis(log: GameLog, game_id: int) -> GameAnalysis | None:
    """The analysis ``analyse`` stored for the game as it stands, if any."""
    stored = load_analysis(log, game_id)
    return GameAnalysis.from_json(stored.data) if stored is not None else None


__all__ = [
    "GameStory",
    "ReviewError",
    "TurnEntry",
    "export_json",
    "export_text",
    "game_story",
    "render_html",
    "review_html",
    "stored_analysis",
]
