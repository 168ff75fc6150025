"""The Duel world report: per kind, and per difficulty when the frames mix them."""

from __future__ import annotations

from vision.duel.evaluate import FrameResult, Outcome, report


def _frame(difficulty: str, answer: str | None) -> FrameResult:
    return FrameResult(1, difficulty, "design", (), (
        Outcome("board cells", "board.0", "w", answer, None),
        Outcome("board cells", "board.1", "", "", None)))


def test_each_difficulty_gets_its_own_table_with_its_own_verdict() -> None:
    text = report([_frame("easy", "w"), _frame("hard", None)])
    rows = [line for line in text.splitlines() if line.startswith("| board cells |")]
    assert len(rows) == 3  # all frames, easy, hard
    assert rows[0].split("|")[3:6] == [" 75.0% ", " 0.0% ", " 25.0% "]
    assert "holds" in rows[1] and "MISSED" in rows[2]
    assert "## easy (1 frames)" in text and "## hard (1 frames)" in text


def test_one_difficulty_gets_one_table() -> None:
    text = report([_frame("easy", "w")])
    assert sum(line.startswith("| board cells |") for line in text.splitlines()) == 1
    assert "## " not in text
