"""The review page in French: headings, standings and their tie-break in the player's language."""

from __future__ import annotations

from pathlib import Path

from companion.i18n import set_language
from companion.record import GameLog
from companion.review import game_story, render_html
from tests.review.logged import log_game


def test_the_review_page_speaks_french(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    gid, _record, states = log_game(db, take_back=(5,))
    set_language("fr")
    try:
        with GameLog.open(db) as log:
            page = render_html(game_story(log, gid))
    finally:
        set_language("en")
    assert '<html lang="fr">' in page
    for french in ("Classement final", "Qui a acheté quoi", "Points par tour", "Tours",
                   "Place", "Joueur", "emporte avec moins de cartes Développement"):
        assert french in page, french
    for english in ("Final standings", "Who bought what", "Points by round", "Cards bought"):
        assert english not in page, english
    outcome = states[-1].outcome()
    assert outcome.reason not in page  # the English reason is replaced, not added
