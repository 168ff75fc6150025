"""``demo --computer`` and the records it leaves: games, replay, export, review, resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.record import GameLog


def test_demo_computer_duel_then_the_log_shows_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "duel"
    code = main(["demo", "--game", "duel", "--computer", "2", "--reader", "unsure",
                 "--headless", "--quiet", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "Bob is the computer (level 2" in text and "The computer's turns (" in text
    result = next(line for line in text.splitlines() if line.startswith("Result: "))
    assert " wins" in result and result.count("prestige points") == 1  # said once
    assert any("computer-turn" in p.name for p in (out / "screens").iterdir())
    db = str(out / "demo.db")
    assert main(["games", "--db", db]) == 0
    assert "Ann, Bob (computer 2)" in capsys.readouterr().out
    assert main(["export", "last", "--db", db, "--format", "text"]) == 0
    record = capsys.readouterr().out
    assert '[Computer "Bob:2"]' in record
    path = tmp_path / "game.txt"
    path.write_text(record)
    assert main(["replay", str(path)]) == 0
    assert "Ann, Bob (computer 2)" in capsys.readouterr().out
    assert main(["review", "last", "--db", db, "--html", str(tmp_path / "r.html")]) == 0
    assert "Bob (computer, level 2)" in (tmp_path / "r.html").read_text()


def test_demo_computer_splendor_plays_a_few_rendered_turns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "splendor"
    code = main(["demo", "--computer", "1", "--turns", "4", "--headless", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "The computer's turns (2):" in text
    assert "(Bob)" in text and "Stopped after 4 turns" in text


def test_a_resumed_game_keeps_its_computer_seat_and_hints(tmp_path: Path) -> None:
    from companion.commands.run import _referee
    from companion.referee.computer import ComputerReferee
    from companion.rules.splendor.deck import Deck
    from companion.rules.splendor.record import new_record

    state = Deck(5).deal(("Ann", "Bob"))
    headers = new_record(state, Computer="Bob:4").headers
    log = GameLog.open(tmp_path / "g.db")
    gid = log.start_game("Splendor", ["Ann", "Bob"],
                         {k: v for k, v in headers.items() if k != "Result"})
    take = next(a for a in state.legal_actions() if type(a).__name__ == "Take")
    from companion.rules.splendor.actions import Turn

    after = state.apply(Turn(take))
    log.append_turn(gid, str(Turn(take)), after.digest())
    log.set_header(gid, "Hints", "1")
    summary = log.game(gid)
    # --computer given again with another level: the game's own seat wins
    referee, resumed_id = _referee(log, summary, ["Ann", "Bob"], False, {"Bob": 1})
    assert resumed_id == gid and isinstance(referee, ComputerReferee)
    assert referee.seats == {"Bob": 4} and referee.hinted == [1]
    assert referee.computer_to_move() == 4
    assert referee.view().title == "Bob (computer, level 4) plays:"
    log.close()
