"""Review of logged games: the story, the HTML page, the chart, exports and commands."""

from __future__ import annotations

import json
import re
import sqlite3
from html import escape
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.record import GameLog
from companion.review import game_story, render_html
from companion.review.chart import SEAT_STYLES, points_chart_png
from companion.rules.splendor.actions import Buy
from companion.rules.splendor.record import read_record
from tests.review.logged import TIE_SEED, log_game


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, object, list]:
    db = tmp_path_factory.mktemp("review") / "games.db"
    gid, record, states = log_game(db, take_back=(5, 12))
    assert "fewer development cards" in states[-1].outcome().reason, "seed lost its tie-break"
    return db, gid, record, states


def test_the_story_retells_every_turn_and_the_taken_back_ones(logged) -> None:
    db, gid, record, states = logged
    with GameLog.open(db) as log:
        story = game_story(log, gid)
    assert story.problem is None
    live = [e for e in story.entries if not e.taken_back]
    back = [e for e in story.entries if e.taken_back]
    assert [e.notation for e in live] == [str(t) for t in record.turns]
    assert [e.number for e in live] == list(range(1, len(record.turns) + 1))
    assert len(back) == 2
    # A taken-back turn sits just before the turn that replaced it, said by the same mover.
    for b in back:
        after = story.entries[story.entries.index(b) + 1]
        assert not after.taken_back and after.player == b.player
        assert b.words.startswith(b.player)
    for e, before in zip(live, states, strict=False):
        assert e.player == before.player.name and e.round == before.round
    assert story.final == states[-1]
    assert story.outcome == states[-1].outcome()


def test_points_are_sampled_after_every_round(logged) -> None:
    db, gid, _, states = logged
    with GameLog.open(db) as log:
        story = game_story(log, gid)
    n = len(story.players)
    assert story.rounds[0] == 0 and story.rounds[-1] == states[-1].turn / n
    for x, *points in zip(story.rounds, *story.points.values(), strict=True):
        state = states[round(x * n)]
        assert points == [p.points for p in state.players]


def test_purchases_and_nobles_match_the_final_tableaux(logged) -> None:
    db, gid, record, states = logged
    with GameLog.open(db) as log:
        story = game_story(log, gid)
    buys = sum(isinstance(t.action, Buy) for t in record.turns)
    assert len(story.purchases) == buys
    for p in states[-1].players:
        assert [x.card for x in story.purchases if x.player == p.name] == list(p.cards)
        assert [v.noble for v in story.visits if v.player == p.name] == list(p.nobles)


def test_the_page_is_self_contained_and_escaped(logged) -> None:
    db, gid, record, states = logged
    with GameLog.open(db) as log:
        page = render_html(game_story(log, gid))
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"(src|href)=\"(?!data:)", page), "a resource outside the page"
    assert "<script" not in page and "<link" not in page and "url(" not in page
    assert "Bob &lt;b&gt;" in page and "Bob <b>" not in page
    outcome = states[-1].outcome()
    assert escape(outcome.reason) in page
    assert 'id="points-chart"' in page and "data:image/png;base64," in page
    assert page.count("data:image/jpeg;base64,") == len(record.turns)
    assert page.count('class="taken-back"') == 2
    for noble in states[0].nobles:
        assert noble.id in page


def test_the_chart_draws_a_line_per_player() -> None:
    png = points_chart_png([0, 1, 2, 3], {"A": [0, 3, 8, 16], "B": [0, 1, 1, 2]})
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (360, 700, 3)
    for colour, _ in SEAT_STYLES[:2]:
        bgr = np.array([int(colour[i : i + 2], 16) for i in (5, 3, 1)])
        near = np.abs(image.astype(int) - bgr).sum(axis=2) < 40
        assert near.sum() > 200, f"no line drawn in {colour}"


def test_a_log_that_disagrees_with_the_rules_is_still_reviewed(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    gid, _record, _ = log_game(db, take_back=(), finish=False, upto=20)
    con = sqlite3.connect(db)
    con.execute("UPDATE turns SET state_hash = 'ffffffffffffffff' WHERE seq = 9")
    con.commit()
    con.close()
    with GameLog.open(db) as log:
        story = game_story(log, gid)
        page = render_html(story)
    assert story.problem is not None and story.problem.startswith("turn 9 ")
    assert len(story.entries) == 20
    assert "could not be replayed to the end" in page and "not finished" in page


# ------------------------------------------------------------------ commands
def test_games_lists_finished_and_unfinished_games(logged, tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    log_game(db, take_back=())
    log_game(db, take_back=(), upto=9)
    assert main(["games", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ID", "STARTED", "TYPE", "PLAYERS", "TURNS", "RESULT"]
    assert len(lines) == 3
    assert "won" in lines[1] and lines[2].rstrip().endswith("unfinished")
    assert " 9  " in lines[2]


def test_export_text_is_a_record_that_replay_accepts(logged, tmp_path: Path, capsys) -> None:
    db, gid, record, states = logged
    out = tmp_path / "game.txt"
    assert main(["export", str(gid), "--db", str(db), "--out", str(out)]) == 0
    again = read_record(out.read_text())
    assert again.turns == record.turns
    assert again.headers["Result"] == states[-1].outcome().summary()
    capsys.readouterr()
    assert main(["replay", "-q", str(out)]) == 0
    assert states[-1].outcome().reason in capsys.readouterr().out


def test_export_json_keeps_hashes_confidence_and_taken_back(logged, capsys) -> None:
    db, _gid, record, states = logged
    assert main(["export", "last", "--db", str(db), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    live = [t for t in data["turns"] if not t["taken_back"]]
    assert [t["notation"] for t in live] == [str(t) for t in record.turns]
    assert [t["state_hash"] for t in live] == [s.digest() for s in states[1:]]
    assert sum(t["taken_back"] for t in data["turns"]) == 2
    assert live[9]["confidence"] is None and live[0]["confidence"] == pytest.approx(0.9)
    assert data["result"]["winners"] == list(states[-1].outcome().winners)
    assert data["players"] == ["Ann", "Bob <b>"] and data["game_type"] == "Splendor"


def test_review_writes_the_page_or_prints_words(logged, tmp_path: Path, capsys) -> None:
    db, gid, _record, states = logged
    page = tmp_path / "review.html"
    assert main(["review", str(gid), "--db", str(db), "--html", str(page)]) == 0
    assert 'id="points-chart"' in page.read_text()
    capsys.readouterr()
    assert main(["review", str(gid), "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert states[-1].outcome().reason in text and "(taken back)" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["games", "--db", "{missing}"], "no game log at"),
        (["review", "42", "--db", "{db}"], "there is no game 42"),
        (["export", "first", "--db", "{db}"], "'first' is not a game id"),
        (["review", "1", "--db", "{db}", "--html", "{tmp}/no/such/page.html"], "does not exist"),
    ],
)
def test_command_failures_are_one_line(logged, tmp_path, capsys, argv, message) -> None:
    db = logged[0]
    filled = [a.format(db=db, missing=tmp_path / "none.db", tmp=tmp_path) for a in argv]
    assert main(filled) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not (tmp_path / "none.db").exists()


def test_tie_seed_is_a_two_player_tie_break() -> None:
    """Guards the fixture's premise with a clear message."""
    from companion.rules.splendor.simulate import play_game

    _, states = play_game(TIE_SEED, ["Ann", "Bob"])
    assert "tie on" in states[-1].outcome().reason


def test_a_duel_game_is_reviewed_with_its_royals(tmp_path: Path) -> None:
    from companion.record import setup_headers
    from companion.rules.duel import play_game as play_duel

    record, states = play_duel(3, ("Ann", "Bob"))
    with GameLog.open(tmp_path / "g.db") as log:
        gid = log.start_game("Splendor Duel", record.players, setup_headers(states[0]))
        for turn, after in zip(record.turns, states[1:], strict=True):
            log.append_turn(gid, str(turn), after.digest())
        log.finish_with(gid, states[-1].outcome())
        story = game_story(log, gid)
        page = render_html(story)
    assert story.problem is None and story.final == states[-1]
    assert [e.notation for e in story.entries] == [str(t) for t in record.turns]
    for p in states[-1].players:
        assert [x.card for x in story.purchases if x.player == p.name] == [o.card for o in p.cards]
        assert [v.noble for v in story.visits if v.player == p.name] == list(p.royals)
    assert story.points["Ann"][-1] == states[-1].players[0].points
    assert "<h2>Royal cards</h2>" in page and escape(states[-1].outcome().reason) in page
    assert 'id="points-chart"' in page


def test_a_duel_export_is_a_record_that_replay_accepts(tmp_path: Path, capsys) -> None:
    from companion.record import setup_headers
    from companion.rules.duel import play_game as play_duel

    record, states = play_duel(4, ("Ann", "Bob"))
    db = tmp_path / "g.db"
    with GameLog.open(db) as log:
        gid = log.start_game("Splendor Duel", record.players, setup_headers(states[0]))
        for turn, after in zip(record.turns, states[1:], strict=True):
            log.append_turn(gid, str(turn), after.digest())
        log.finish_with(gid, states[-1].outcome())
    out = tmp_path / "duel.txt"
    assert main(["export", str(gid), "--db", str(db), "--out", str(out)]) == 0
    assert main(["replay", "-q", str(out)]) == 0
    assert main(["games", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "Splendor Duel" in listing and f"{states[-1].outcome().winner} won" in listing


def test_the_turns_are_told_in_the_players_language(logged) -> None:
    """A review in French tells every turn in French (the rules' own words stay
    English for the notation and the logs); back in English, word for word the rules'."""
    from companion.i18n import set_language
    from companion.rules.splendor.describe import describe_turn

    db, gid, record, states = logged
    try:
        set_language("fr")
        with GameLog.open(db) as log:
            french = [e.words for e in game_story(log, gid).entries if not e.taken_back]
    finally:
        set_language("en")
    with GameLog.open(db) as log:
        english = [e.words for e in game_story(log, gid).entries if not e.taken_back]
    assert english == [describe_turn(s, t) for s, t in zip(states, record.turns, strict=False)]
    assert all(f != e for f, e in zip(french, english, strict=True))
    assert any("jeton" in f for f in french)
