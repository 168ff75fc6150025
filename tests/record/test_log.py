"""The game log: writing, undo, resume with hash checks, set-aside of bad files."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.record import (
    ABANDONED,
    GameLog,
    LogError,
    ResumeError,
    default_db_path,
    make_thumbnail,
    schema,
    setup_headers,
)
from companion.rules.splendor.record import read_record
from companion.rules.splendor.simulate import play_game


@pytest.fixture(scope="module")
def game() -> tuple:
    return play_game(11, ["Ann", "Bob", "Cy"])


@pytest.fixture
def log(tmp_path: Path):
    with GameLog.open(tmp_path / "games.db") as opened:
        yield opened


def _start(log: GameLog, game: tuple) -> int:
    record, states = game
    return log.start_game("Splendor", record.players, setup_headers(states[0], Seed="11"))


def _play(log: GameLog, game_id: int, game: tuple, upto: int | None = None) -> None:
    record, states = game
    for turn, after in list(zip(record.turns, states[1:], strict=True))[:upto]:
        log.append_turn(game_id, str(turn), after.digest(), None, 0.8)


def test_a_whole_game_round_trips(log: GameLog, game: tuple) -> None:
    record, states = game
    gid = _start(log, game)
    _play(log, gid, game)
    log.finish_with(gid, states[-1].outcome())
    summary = log.game(gid)
    assert summary.finished and summary.turns == len(record.turns)
    assert summary.players == ("Ann", "Bob", "Cy")
    assert summary.winners == states[-1].outcome().winners
    assert log.unfinished() == []
    exported = log.record(gid)
    assert exported.turns == record.turns
    assert exported.headers["Result"] == record.headers["Result"]
    assert exported.headers["Winner"] == record.headers["Winner"]
    # The text export is a record that the rules replay to the same end.
    again = read_record(exported.text())
    assert again.final_state().digest() == states[-1].digest()


def test_append_returns_the_live_turn_number_and_undo_marks_only(
    log: GameLog, game: tuple
) -> None:
    record, states = game
    gid = _start(log, game)
    assert log.undo_last(gid) is None
    assert log.append_turn(gid, record.turns[0], states[1].digest()) == 1
    assert log.append_turn(gid, str(record.turns[1]), states[2].digest()) == 2
    undone = log.undo_last(gid)
    assert undone is not None and undone.taken_back and undone.notation == str(record.turns[1])
    assert log.append_turn(gid, str(record.turns[1]), states[2].digest()) == 2
    every = log.turns(gid, taken_back=True)
    assert [t.seq for t in every] == [1, 2, 3]
    assert [t.taken_back for t in every] == [False, True, False]
    assert [t.number for t in log.turns(gid)] == [1, 2]
    assert log.game(gid).taken_back == 1
    _, state = log.resume(gid)
    assert state.digest() == states[2].digest()


def test_resume_rebuilds_the_state_and_the_player_to_move(log: GameLog, game: tuple) -> None:
    record, states = game
    gid = _start(log, game)
    _play(log, gid, game, upto=17)
    assert [g.id for g in log.unfinished()] == [gid]
    resumed, state = log.resume(gid)
    assert state == states[17]
    assert state.current == 17 % 3
    assert resumed.turns == record.turns[:17]


def test_a_stored_hash_that_disagrees_names_the_turn(log: GameLog, game: tuple) -> None:
    gid = _start(log, game)
    _play(log, gid, game, upto=10)
    db = sqlite3.connect(log.path)
    db.execute("UPDATE turns SET state_hash = '0123456789abcdef' WHERE seq = 6")
    db.commit()
    db.close()
    with pytest.raises(ResumeError, match=r"game \d+, turn 6: .*0123456789abcdef") as err:
        log.resume(gid)
    assert err.value.turn == 6


def test_an_illegal_stored_turn_names_the_turn(log: GameLog, game: tuple) -> None:
    gid = _start(log, game)
    _play(log, gid, game, upto=4)
    db = sqlite3.connect(log.path)
    db.execute("UPDATE turns SET notation = 'take rr' WHERE seq = 3")
    db.commit()
    db.close()
    with pytest.raises(ResumeError) as err:
        log.resume(gid)
    assert err.value.turn == 3 and "take rr" in str(err.value)


def test_bad_input_is_refused_with_one_line_and_loses_nothing(log: GameLog, game: tuple) -> None:
    record, states = game
    gid = _start(log, game)
    log.append_turn(gid, record.turns[0], states[1].digest())
    with pytest.raises(LogError, match="cannot log turn 'grab everything'"):
        log.append_turn(gid, "grab everything", "0" * 16)
    with pytest.raises(LogError, match="confidence"):
        log.append_turn(gid, record.turns[1], states[2].digest(), None, 1.5)
    with pytest.raises(LogError, match="no game 99"):
        log.append_turn(99, record.turns[1], states[2].digest())
    with pytest.raises(LogError, match="unknown game type 'Chess'"):
        log.start_game("Chess", ["A", "B"], {})
    with pytest.raises(LogError, match="cannot start a Splendor game"):
        log.start_game("Splendor", ["A", "B"], {"Nobles": "n1 n2", "Market1": "1w1"})
    assert len(log.turns(gid, taken_back=True)) == 1
    log.finish(gid, "Ann 3 (1 cards)", ["Ann"])
    with pytest.raises(LogError, match="over"):
        log.append_turn(gid, record.turns[1], states[2].digest())


def test_undo_after_the_end_reopens_the_game(log: GameLog, game: tuple) -> None:
    _, states = game
    gid = _start(log, game)
    _play(log, gid, game)
    log.finish_with(gid, states[-1].outcome())
    log.undo_last(gid)
    assert not log.game(gid).finished
    assert log.record(gid).headers["Result"] == "*"
    _, state = log.resume(gid)
    assert state == states[-2]


def test_unfinished_lists_most_recent_first_and_abandon_closes(log: GameLog, game: tuple) -> None:
    first, second = _start(log, game), _start(log, game)
    assert [g.id for g in log.unfinished()] == [second, first]
    log.abandon(first)
    assert [g.id for g in log.unfinished()] == [second]
    assert log.game(first).abandoned and log.game(first).result == ABANDONED


def test_thumbnails_are_small_jpegs_kept_with_their_turn(log: GameLog, game: tuple) -> None:
    record, states = game
    frame = np.zeros((1520, 2028, 3), np.uint8)
    cv2.rectangle(frame, (200, 200), (900, 1000), (0, 0, 255), -1)
    jpeg = make_thumbnail(frame)
    thumb = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert thumb.shape[1] == 160 and abs(thumb.shape[0] - 120) <= 1
    assert len(jpeg) < 10_000
    assert thumb[40, 40, 2] > 200 and thumb[40, 40, 0] < 60  # the red block survived
    gid = _start(log, game)
    log.append_turn(gid, record.turns[0], states[1].digest(), jpeg, 0.97)
    row = log.turns(gid)[0]
    assert row.has_thumbnail and row.confidence == pytest.approx(0.97)
    assert log.thumbnail(gid, row.seq) == jpeg
    with pytest.raises(ValueError, match="not an image"):
        make_thumbnail(np.zeros((0, 5, 3), np.uint8))


def test_times_come_from_the_clock_in_utc(tmp_path: Path, game: tuple) -> None:
    moment = datetime(2026, 3, 1, 20, 15, 7, tzinfo=UTC)
    with GameLog.open(tmp_path / "g.db", clock=lambda: moment) as log:
        gid = _start(log, game)
        assert log.game(gid).started_at == "2026-03-01T20:15:07Z"


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "splendor-companion" / "games.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "splendor-companion" / "games.db"
    with GameLog.open() as log:
        assert log.path.exists()


def test_the_file_is_in_wal_mode_with_a_versioned_schema(log: GameLog) -> None:
    db = sqlite3.connect(log.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.LATEST
    assert db.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    db.close()
    assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_migrations_are_numbered_from_one_without_gaps() -> None:
    assert sorted(schema.MIGRATIONS) == list(range(1, schema.LATEST + 1))


def test_reopening_keeps_games_and_does_not_migrate_again(tmp_path: Path, game: tuple) -> None:
    with GameLog.open(tmp_path / "g.db") as log:
        gid = _start(log, game)
        _play(log, gid, game, upto=3)
    with GameLog.open(tmp_path / "g.db") as log:
        assert log.notice is None
        assert log.game(gid).turns == 3


# ----------------------------------------------------------- bad files
def _assert_set_aside(path: Path, original: bytes) -> None:
    with GameLog.open(path) as log:
        assert log.notice is not None and "\n" not in log.notice
        assert log.set_aside_as is not None
        assert log.set_aside_as.read_bytes() == original, "the bad file was changed"
        assert log.set_aside_as.name.startswith("games.db.set-aside-")
        assert log.games() == []
    with GameLog.open(path) as log:
        assert log.notice is None


def test_a_file_that_is_not_a_database_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    original = b"these are my shopping notes, not a database\n" * 40
    path.write_bytes(original)
    _assert_set_aside(path, original)


def test_a_foreign_database_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.execute("INSERT INTO recipes VALUES ('soup')")
    db.commit()
    db.close()
    original = path.read_bytes()
    _assert_set_aside(path, original)
    with GameLog.open(path) as log:
        assert log.games() == []


def test_a_log_from_a_newer_version_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    GameLog.open(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {schema.LATEST + 1}")
    db.commit()
    db.close()
    _assert_set_aside(path, path.read_bytes())


def test_a_damaged_log_is_set_aside(tmp_path: Path, game: tuple) -> None:
    path = tmp_path / "games.db"
    with GameLog.open(path) as log:
        for _ in range(5):
            _play(log, _start(log, game), game)
        log._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * 4096
    # Scribble over the middle pages, as a failing SD card would.
    for page in range(2, len(data) // 4096 - 1):
        data[page * 4096 : page * 4096 + 200] = b"\xa5" * 200
    path.write_bytes(bytes(data))
    _assert_set_aside(path, bytes(data))


def test_an_empty_file_becomes_a_log(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(b"")
    with GameLog.open(path) as log:
        assert log.notice is None and log.games() == []


def test_a_folder_in_the_way_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "games.db").mkdir()
    with pytest.raises(LogError, match="is a folder"):
        GameLog.open(tmp_path / "games.db")


# ----------------------------------------------------------- Splendor Duel
def test_a_duel_game_is_logged_resumed_and_exported(tmp_path: Path) -> None:
    from companion.rules.duel import play_game as play_duel
    from companion.rules.duel import read_record as read_duel

    record, states = play_duel(3, ("Ann", "Bob"))
    with GameLog.open(tmp_path / "g.db") as log:
        gid = log.start_game("Splendor Duel", record.players, setup_headers(states[0]))
        half = len(record.turns) // 2
        for turn, after in list(zip(record.turns, states[1:], strict=True))[:half]:
            log.append_turn(gid, str(turn), after.digest())
        with pytest.raises(LogError, match="cannot log turn 'take wug'"):
            log.append_turn(gid, "take wug", "0" * 16)  # Splendor notation
        assert log.unfinished()[0].game_type == "Splendor Duel"
        _, state = log.resume(gid)
        assert state == states[half] and state.current == states[half].current
        for turn, after in list(zip(record.turns, states[1:], strict=True))[half:]:
            log.append_turn(gid, str(turn), after.digest())
        log.finish_with(gid, states[-1].outcome())
        assert log.game(gid).winners == (states[-1].outcome().winner,)
        text = log.record(gid).text()
    again = read_duel(text)
    assert again.turns == record.turns
    assert again.states()[-1] == states[-1]


def test_a_write_that_sqlite_refuses_is_a_log_error_and_changes_nothing(
    log: GameLog, game: tuple
) -> None:
    record, states = game
    gid = _start(log, game)
    log.append_turn(gid, record.turns[0], states[1].digest())
    log._db.execute("PRAGMA query_only = ON")  # stands in for a full or failing card
    with pytest.raises(LogError, match=r"game log .* failed: attempt to write a readonly"):
        log.append_turn(gid, record.turns[1], states[2].digest())
    log._db.execute("PRAGMA query_only = OFF")
    assert not log._db.in_transaction
    assert log.append_turn(gid, record.turns[1], states[2].digest()) == 2


def test_a_power_cut_mid_commit_loses_only_that_commit(tmp_path: Path, game: tuple) -> None:
    """What a power cut leaves: the file and a WAL whose last frame is torn."""
    import shutil

    record, states = game
    live = tmp_path / "live"
    live.mkdir()
    with GameLog.open(live / "games.db") as log:
        gid = _start(log, game)
        _play(log, gid, game, upto=10)
        # Copy while the log is open, as the card holds it at the moment of the cut.
        wal = (live / "games.db-wal").read_bytes()
        db_bytes = (live / "games.db").read_bytes()
    assert len(wal) > 4096
    for cut, expected in ((0, 10), (7, 9), (len(wal) // 3, None)):
        folder = tmp_path / f"cut-{cut}"
        folder.mkdir()
        (folder / "games.db").write_bytes(db_bytes)
        (folder / "games.db-wal").write_bytes(wal[: len(wal) - cut])
        with GameLog.open(folder / "games.db") as log:
            assert log.notice is None, log.notice
            turns = [t.notation for t in log.turns(gid)]
            assert turns == [str(t) for t in record.turns[: len(turns)]]
            if expected is not None:
                assert len(turns) == expected
            _, state = log.resume(gid)
            assert state == states[len(turns)]
        shutil.rmtree(folder)
