"""User text that reaches the record is checked once, where it is typed (issue 41, 2).

``run --names 'Ann;x,Bob,Cy'`` used to log a game whose record could not be
read back (``;`` starts a comment), and the next ``run`` died with a
``RecordError``; a carriage return or U+2028 in a name did the same.  Now
:func:`companion.rules.record_format.name_problem` refuses such a name at
the prompt, the log refuses it too, and a game an older version logged with
one is reported as damaged instead of stopping ``run``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record import GameLog, LogError
from companion.rules.record_format import GameRecord, name_problem
from tests.cli.invoke import invoke
from tests.review.logged import log_game

BAD = ["Ann;x", "A\rB", "A\u2028B", "A\u2029B", "A\x85B", "A\x0bB", "A\x00B", 'A"B', "A[B",
       "A]B", "A,B", "A\udcffB", "x" * 41]
GOOD = ["Ann", "Renée", "Zoë-Ann O'Neil", "דנה", "مريم", "李雷", "Bob 🎲", "A<b>&c"]




def _players_read_back(names: list[str]) -> list[str]:
    record: GameRecord[str, object] = GameRecord()  # type: ignore[type-var]
    record.headers["Players"] = ", ".join(names)
    return GameRecord.read(record.text(), str).players


@pytest.mark.parametrize("name", BAD, ids=ascii)
def test_a_name_the_record_cannot_carry_is_refused(name: str) -> None:
    assert name_problem(name) is not None


@pytest.mark.parametrize("name", GOOD)
def test_names_in_any_script_are_accepted_and_read_back(name: str) -> None:
    assert name_problem(name) is None
    assert _players_read_back([name, "Bob"]) == [name, "Bob"]


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=45))
def test_every_accepted_name_reads_back_as_itself(name: str) -> None:
    """The property the one check stands for: accepted means the record carries it."""
    if name_problem(name) is None:
        assert _players_read_back([name, "Bob"]) == [name, "Bob"]


@pytest.mark.parametrize("name", ["Ann;x", "A\rB", "A\u2028B", "A\udcffB"], ids=ascii)
def test_run_refuses_the_name_at_the_prompt_in_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.db"
    code, _out, err = invoke(["run", "--players", "3", "--names", f"{name},Bob,Cy",
                            "--no-camera", "--buttons", "script:/dev/null", "--db", str(db)],
                           capsys)
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("splendor-companion: --names:"), lines
    assert "cannot be recorded" in lines[0]
    assert not db.exists()


def test_the_log_refuses_such_a_name_too(tmp_path: Path) -> None:
    with GameLog.open(tmp_path / "g.db") as log, pytest.raises(LogError, match="comment"):
        log.start_game("Splendor", ["Ann;x", "Bob"], {})


def test_a_game_logged_with_such_a_name_is_damaged_and_run_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log written by an older version: listed as damaged, not offered, ``run`` goes on."""
    db = tmp_path / "g.db"
    log_game(db, upto=4, finish=False)
    con = sqlite3.connect(db)
    con.execute("UPDATE games SET players = ?, headers = replace(headers, 'Ann', 'Ann;x')",
                ('["Ann;x", "Bob <b>"]',))
    con.commit()
    con.close()
    code, _out, err = invoke(["export", "1", "--db", str(db)], capsys)
    assert code == 1 and "game 1 is damaged" in err and "comment" in err
    script = tmp_path / "buttons.txt"
    script.write_text("# nothing pressed\n", encoding="utf-8")
    code, _out, err = invoke(["run", "--players", "2", "--no-camera", "--buttons",
                            f"script:{script}", "--db", str(db)], capsys)
    assert code == 0, err
    assert "Traceback" not in err and "not offered for resuming" in err
