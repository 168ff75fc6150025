"""Review of a logged Splendor Duel game: story, page (points and crowns), games, export.

The game is logged through :class:`GameLog` as the companion logs it
(:func:`tests.review.logged.log_duel_game`: a turn taken back, a thumbnail
per turn), so these hold for what ``run --game duel`` writes.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import pytest

from companion.cli import main
from companion.record import GameLog
from companion.review import game_story, render_html
from companion.rules import duel
from tests.review.logged import log_duel_game


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("duel-review") / "games.db"
    gid, record, states = log_duel_game(db, take_back=(5,))
    with GameLog.open_readonly(db) as log:
        story = game_story(log, gid)
    return db, gid, record, states, story


def test_the_story_samples_points_and_crowns_every_round(logged) -> None:
    _db, _gid, record, states, story = logged
    assert story.problem is None and story.final == states[-1]
    assert story.live_turns == len(record.turns)
    final = states[-1]
    for player in final.players:
        assert story.points[player.name][-1] == player.points
        assert story.crowns[player.name][-1] == player.crowns
        assert story.crowns[player.name][0] == 0
        assert len(story.crowns[player.name]) == len(story.rounds)
    # a sample after every second turn: the crowns then are those of that state
    for i, state in enumerate(s for s in states if s.turn % 2 == 0):
        for player in state.players:
            assert story.crowns[player.name][i] == player.crowns


def test_the_page_charts_points_and_crowns_and_ranks_with_the_three_figures(logged) -> None:
    _db, _gid, _record, states, story = logged
    page = render_html(story)
    final, outcome = states[-1], states[-1].outcome()
    assert outcome is not None
    for chart in ("points-chart", "crowns-chart"):
        tag = re.search(rf'<img[^>]*id="{chart}"[^>]*>', page)
        assert tag and 'src="data:image/png;base64,' in tag.group(0)
    standings = re.search(r'<table id="standings">.*?</table>', page, re.S)
    assert standings is not None
    rows = re.findall(r"<tr><td.*?</tr>", standings.group(0))
    assert escape(outcome.winner) in rows[0]  # the winner first
    for player in final.players:
        row = next(r for r in rows if f"<td>{escape(player.name)}</td>" in r)
        cells = re.findall(r'<td class="num">(\d+)</td>', row)
        assert cells[1:3] == [str(player.points), str(player.crowns)]
        colour, best = player.best_colour()
        assert f">{best}{colour.letter.upper()}</span>" in row
        assert cells[3] == str(len(player.cards))
    assert escape(outcome.reason) in page
    assert "<h2>Royal cards</h2>" in page


def test_every_turn_is_told_in_words_and_the_taken_back_one_struck(logged) -> None:
    _db, _gid, record, states, story = logged
    page = render_html(story)
    for turn, before in zip(record.turns, states, strict=False):
        assert escape(duel.describe_turn(before, turn)) in page
    assert page.count('class="taken-back"') == 1
    assert page.count('class="thumb"') == len(record.turns)  # the live turns' pictures


def test_games_lists_the_duel_and_export_is_a_record_replay_accepts(
    logged, tmp_path: Path, capsys
) -> None:
    db, gid, record, states, _story = logged
    outcome = states[-1].outcome()
    assert main(["games", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "Splendor Duel" in listing and f"{outcome.winner} won" in listing
    out = tmp_path / "duel.txt"
    assert main(["export", str(gid), "--db", str(db), "--out", str(out)]) == 0
    again = duel.read_record(out.read_text())
    assert again.turns == record.turns  # the taken-back turn is not in the record
    assert again.states()[-1].digest() == states[-1].digest()
    capsys.readouterr()
    assert main(["replay", "-q", str(out)]) == 0
    assert outcome.reason in capsys.readouterr().out
    assert main(["export", str(gid), "--db", str(db), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game_type"] == "Splendor Duel"
    assert sum(t["taken_back"] for t in data["turns"]) == 1


def test_review_writes_the_duel_page(logged, tmp_path: Path, capsys) -> None:
    db, gid, _record, states, _story = logged
    page = tmp_path / "duel.html"
    assert main(["review", str(gid), "--db", str(db), "--html", str(page)]) == 0
    text = page.read_text()
    assert 'id="crowns-chart"' in text and 'id="points-chart"' in text
    capsys.readouterr()
    assert main(["review", str(gid), "--db", str(db)]) == 0
    words = capsys.readouterr().out
    assert states[-1].outcome().reason in words and "(taken back)" in words
