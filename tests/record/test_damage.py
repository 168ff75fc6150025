"""Damage is reported, never hidden: a row that does not decode is listed and
skipped, ``run`` still starts, and the reading commands never change the file.

The issue's table: ``UPDATE games SET headers='{not json'`` (or
``players='oops'``) made ``games``, ``review``, ``export`` and ``run`` die
with a traceback; ``games --db corrupt.db`` renamed the file aside and made
an empty log.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from companion.record import DamagedGame, GameLog, LogError
from tests.cli.invoke import invoke
from tests.review.logged import log_game


def _files(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` with a hash of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}




def _damaged_log(path: Path, sql: str) -> None:
    """Game 1 sound and unfinished (6 turns); game 2 unfinished, then damaged by ``sql``."""
    log_game(path, upto=6, finish=False)
    log_game(path, seed=3, upto=4, finish=False)
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


DAMAGE = {
    "headers": "UPDATE games SET headers = '{not json' WHERE id = 2",
    "players": "UPDATE games SET players = 'oops' WHERE id = 2",
    "winners": "UPDATE games SET winners = 'null?' WHERE id = 2",
    "started_at": "UPDATE games SET started_at = 'soon' WHERE id = 2",
}


@pytest.mark.parametrize("column", sorted(DAMAGE))
def test_a_damaged_row_is_listed_and_the_sound_games_stay_readable(
    tmp_path: Path, column: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.db"
    _damaged_log(db, DAMAGE[column])
    with GameLog.open_readonly(db) as log:
        assert [g.id for g in log.games()] == [1]
        assert [g.id for g in log.unfinished()] == [1]
        [bad] = log.damaged()
        assert bad.game_id == 2 and column in bad.problem
        with pytest.raises(DamagedGame, match="game 2 is damaged"):
            log.record(2)
        assert log.record(1).turns  # the sound game reads on

    before = _files(tmp_path)
    code, out, err = invoke(["games", "--db", str(db)], capsys)
    assert code == 1
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["1"]
    assert err.count("\n") == 1 and "game 2 is damaged" in err and column in err
    for argv in (["review", "1"], ["export", "1"], ["export", "1", "--format", "json"]):
        code, out, err = invoke([*argv, "--db", str(db)], capsys)
        assert code == 0 and not err, err
    code, _, err = invoke(["review", "2", "--db", str(db)], capsys)
    assert code == 1 and "game 2 is damaged" in err and "Traceback" not in err
    assert _files(tmp_path) == before, "a reading command changed the log"


def test_run_starts_beside_a_damaged_row_and_resumes_only_a_sound_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Game 2 is the newest unfinished game but damaged: run says so and resumes game 1."""
    db = tmp_path / "g.db"
    _damaged_log(db, DAMAGE["headers"])
    script = tmp_path / "buttons.txt"
    script.write_text("# nothing pressed: start, resume and stop\n", encoding="utf-8")
    code, out, err = invoke(["run", "--players", "2", "--no-camera", "--buttons",
                           f"script:{script}", "--db", str(db), "--resume", "yes"], capsys)
    assert code == 0, err
    assert "game 2 is damaged in the log: headers is not valid JSON" in err
    assert "not offered for resuming" in err
    assert "Resumed game 1 after 6 turns." in out
    with GameLog.open_readonly(db) as log:
        assert [d.game_id for d in log.damaged()] == [2]  # reported, not repaired or deleted


@pytest.mark.parametrize("content", [b"SQLite format 3\x00" + bytes(range(256)) * 16,
                                     b"hello, not a database\n" * 100])
def test_reading_commands_leave_a_corrupt_file_as_it_is_and_run_sets_it_aside(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(content)
    before = _files(tmp_path)
    for argv in (["games"], ["review", "1"], ["export", "last"]):
        code, _out, err = invoke([*argv, "--db", str(db)], capsys)
        assert code == 1
        assert err.count("\n") == 1 and str(db) in err and "left as it is" in err
        assert _files(tmp_path) == before, f"{argv[0]} changed the folder"

    script = tmp_path / "none.txt"
    script.write_text("", encoding="utf-8")
    code, _out, err = invoke(["run", "--players", "2", "--no-camera", "--buttons",
                           f"script:{script}", "--db", str(db), "--resume", "no"], capsys)
    assert code == 0, err
    aside = [p for p in tmp_path.iterdir() if ".set-aside-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert f"kept it as {aside[0].name}" in err


def test_a_foreign_database_is_refused_read_only(tmp_path: Path) -> None:
    db = tmp_path / "recipes.db"
    other = sqlite3.connect(db)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.commit()
    other.close()
    before = _files(tmp_path)
    with pytest.raises(LogError, match="another program's database"):
        GameLog.open_readonly(db)
    assert _files(tmp_path) == before


def test_reading_while_run_writes_sees_the_turns_and_creates_nothing(tmp_path: Path) -> None:
    """With a writer open the -wal/-shm files exist; the reader shares them, creates none."""
    db = tmp_path / "g.db"
    log_game(db, upto=3, finish=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]
    with GameLog.open_readonly(db) as reader:  # no writer: read as immutable
        assert reader.games()[0].turns == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]
    with GameLog.open(db, lock=True) as writer:
        writer.undo_last(1)
        names = {p.name for p in tmp_path.iterdir()}
        with GameLog.open_readonly(db) as reader:
            assert reader.games()[0].turns == 2
        assert {p.name for p in tmp_path.iterdir()} == names


def test_the_writer_lock_names_its_holder_and_is_released_on_close(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with GameLog.open(db, lock=True):
        with pytest.raises(LogError, match=r"in use by process \d+ on .* since 20"):
            GameLog.open(db, lock=True)
        assert db.exists()
    with GameLog.open(db, lock=True) as again:  # released: the next run may write
        assert again.games() == []
