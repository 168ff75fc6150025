"""Reviews of logged games: a self-contained HTML report and plain exports.

:func:`review_html` is the page ``splendor-companion review`` writes;
:func:`game_story` is the replayed game behind it (turn list in words and
notation, points by round, purchases, nobles) for any other view;
:func:`export_text` and :func:`export_json` are what ``export`` writes.
"""

from companion.record.log import GameLog
from companion.review.export import export_json, export_text
from companion.review.html import render_html
from companion.review.story import GameStory, ReviewError, TurnEntry, game_story


def review_html(log: GameLog, game_id: int) -> str:
    """The review page of game ``game_id`` as one HTML string."""
    return render_html(game_story(log, game_id))


__all__ = [
    "GameStory",
    "ReviewError",
    "TurnEntry",
    "export_json",
    "export_text",
    "game_story",
    "render_html",
    "review_html",
]
