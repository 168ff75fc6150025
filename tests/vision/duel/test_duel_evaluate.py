"""The Duel world report: per kind, and per difficulty when the frames mix them."""

from __future__ import annotations

import pytest

from vision.confidence import NEVER
from vision.duel import confidence
from vision.duel.evaluate import FrameResult, Outcome, chosen_thresholds, report


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


def test_the_sure_table_counts_what_the_referee_takes() -> None:
    # two chips answered: one right and sure, one wrong but below the threshold
    frame = FrameResult(1, "hard", "design", (), (
        Outcome("board cells", "board.0", "w", "w", None, "", 0.9, True),
        Outcome("board cells", "board.1", "p", "w", "hand", "", 0.2, False),
        Outcome("board cells", "board.2", "", "", None, "", 0.5, True)))
    text = report([frame])
    row = next(line for line in text.splitlines()
               if line.startswith("| board cells (something) |")).split("|")
    assert row[3:7] == [" 2 ", " 1 ", " 0.00 % (0) ", " 100.0% "]
    # these frames choose a chip threshold above the wrong answer, empty at its answer
    assert chosen_thresholds([frame])["board cells"] == (0.9, 0.5)


def test_a_sort_of_answer_never_right_is_never_sure() -> None:
    frame = FrameResult(1, "hard", "design", (
        ), (Outcome("decks", "deck.1", "present", "", "hand", "", 0.95, False),))
    assert chosen_thresholds([frame])["decks"] == (NEVER, NEVER)
    assert confidence.threshold("decks", "") == pytest.approx(confidence.SURE["decks"][1])
