"""The unseen-table evaluation: scoring, calibration figures and the `vision world` CLI.

The end-to-end test reads a frame of a stand-in world built from today's
renderer (the central mat at 4 px/mm); it checks the plumbing, not the world.
"""

from __future__ import annotations

import math
import sys
import types
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest

from companion.rules.splendor import catalogue
from vision.calibration_report import (
    choose_threshold,
    expected_calibration_error,
    reliability,
    sure_stats,
)
from vision.confidence import CATEGORIES, NEVER, SURE, answer_category, is_sure
from vision.layout import Layout, build_layout
from vision.observation import (
    CardReading,
    DeckReading,
    NobleReading,
    Observation,
    ReservedReading,
    TokenSlotReading,
)
from vision.world_eval import Outcome, calibration_lines, chosen_thresholds, report, score

# ------------------------------------------------------------------ scoring by hand


def _by_slot(outcomes: list[Outcome]) -> dict[str, Outcome]:
    return {o.slot: o for o in outcomes}


def test_score_counts_right_wrong_abstained_hidden_and_unseen(layout2: Layout) -> None:
    a, b = catalogue.cards_of_level(1)[:2]
    n1, n2 = catalogue.nobles()[:2]
    contents = {"market.1.0": a.id, "market.1.1": a.id, "market.1.2": b.id,
                "market.1.3": b.id, "noble.0": n1.id, "noble.1": n2.id,
                "deck.1": "deck1", "supply.w.0": "w", "supply.u.0": "u",
                "player1.reserved.0": "deck2"}
    obs = Observation(
        True, (100, 100),
        cards=(CardReading("market.1.0", "card", a, 0.97),     # right
               CardReading("market.1.1", "card", b, 0.91),     # wrong
               CardReading("market.1.2", "unknown", None, 0.2),  # abstained
               CardReading("market.1.3", "empty", None, 0.9),  # wrong: empty for a card
               CardReading("market.2.0", "empty", None, 1.0)),  # right: an empty slot
        nobles=(NobleReading("noble.0", "noble", n1, 0.99),
                NobleReading("noble.1", "noble", n1, 0.8)),    # hidden by a hand: kept apart
        decks=(DeckReading(1, True, 0.95), DeckReading(2, None, 0.0), DeckReading(3, True, 0.7)),
        token_slots=(TokenSlotReading("supply.w.0", "supply", "token", "w", 0.99),
                     TokenSlotReading("supply.u.0", "supply", "token", "k", 0.9),
                     TokenSlotReading("supply.w.1", "supply", "empty", None, 0.98),
                     TokenSlotReading("supply.u.1", "supply", "token", "u", 0.6)),
        reserved=(ReservedReading("player1.reserved.0", 1, True, 0.9),
                  ReservedReading("player1.reserved.1", 1, None, 0.0)),
    )
    hidden = {"noble.1": "hand"}
    unseen = {"player2.reserved.0"}
    got = _by_slot(score(obs, layout2, contents, hidden, unseen))
    assert got["market.1.0"].verdict == "right" and got["market.1.0"].confidence == 0.97
    assert got["market.1.1"].verdict == "wrong"
    assert got["market.1.2"].verdict == "abstained" and got["market.1.2"].confidence == 0.0
    assert got["market.1.3"].verdict == "wrong" and got["market.1.3"].answer == "empty"
    assert got["market.2.0"].category == "empty market slots"
    assert got["market.2.0"].verdict == "right"
    # an empty noble slot the reader said nothing of: abstained
    assert got["noble.2"].category == "empty noble slots"
    assert got["noble.2"].verdict == "abstained"
    assert got["noble.0"].verdict == "right" and got["noble.1"].hidden == "hand"
    assert got["noble.1"].verdict == "wrong"
    assert [got[f"deck.{lv}"].verdict for lv in (1, 2, 3)] == ["right", "abstained", "wrong"]
    assert got["supply.w.0"].category == "token chips" and got["supply.w.0"].verdict == "right"
    assert got["supply.u.0"].verdict == "wrong"
    assert got["supply.w.1"].category == "empty token slots"
    assert got["supply.w.1"].verdict == "right"
    assert got["supply.u.1"].verdict == "wrong" and got["supply.u.1"].truth == "empty"
    # a token slot the reader did not return at all is abstained
    assert got["supply.g.0"].verdict == "abstained"
    assert got["player1.reserved.0"].verdict == "right"
    assert got["player1.reserved.1"].verdict == "abstained"
    assert "player2.reserved.0" not in got
    assert got["player2.reserved.1"].truth == "empty"


def test_uncalibrated_frame_abstains_everywhere(layout2: Layout) -> None:
    outcomes = score(Observation(False, (10, 10)), layout2, {}, {}, ())
    assert outcomes and all(o.verdict == "abstained" for o in outcomes)


def test_report_tables_follow_the_issue(layout2: Layout) -> None:
    from vision.world_eval import FrameResult

    right = [Outcome("market cards", f"market.1.{i}", "1u1", "1u1", 0.99) for i in range(3)]
    wrong = [Outcome("market cards", "market.2.0", "1u1", "1u7", 0.96)]
    hidden = [Outcome("nobles", "noble.0", "n1", "?", 0.0, "glare"),
              Outcome("nobles", "noble.2", "n1", "?", 0.0, "glare"),
              Outcome("nobles", "noble.1", "n1", "n6", 0.9, "hand")]
    results = [FrameResult(2, "easy", 0, tuple(right + wrong + hidden)),
               FrameResult(4, "hard", 0, tuple(right))]
    text = report(results, ["# title"])
    assert "| market cards | 75.0 / **25.0** / 0.0 (n=4) | 100.0 / 0 / 0.0 (n=3) |" in text
    assert "| 2 players | 4 players |" in text and "| easy | hard |" in text
    assert "| **all** | 3 | 66.7 | 33.3 |" in text
    assert "| all, glare | 2 | 100.0 | 0.0 |" in text
    # the hidden nobles are not counted among readable ones
    assert "| nobles | - | - |" in text
    assert "faces:" not in text  # one face set: no table by faces
    by_faces = report([replace(results[0], faces="older"),
                       replace(results[1], faces="newer-odd")])
    assert "| faces: older | faces: newer-odd |" in by_faces


# ------------------------------------------------------------------ calibration figures


def test_reliability_and_ece_on_known_numbers() -> None:
    pairs = [(0.95, True)] * 8 + [(0.95, False)] * 2 + [(0.55, True), (0.55, False)]
    bins = reliability(pairs)
    assert [(b.low, b.high, b.count) for b in bins] == [(0.5, 0.6, 2), (0.9, 0.95, 10)]
    assert bins[1].accuracy == pytest.approx(0.8) and bins[1].mean_confidence == 0.95
    # 10/12 * |0.8 - 0.95| + 2/12 * |0.5 - 0.55|
    assert expected_calibration_error(pairs) == pytest.approx(10 / 12 * 0.15 + 2 / 12 * 0.05)
    assert math.isnan(expected_calibration_error([]))
    assert expected_calibration_error([(1.0, True)] * 5) == 0.0


def test_sure_stats_count_wrong_and_coverage() -> None:
    pairs = [(0.99, True)] * 6 + [(0.97, False), (0.5, False)]
    st = sure_stats(pairs, 0.96, readable=10)
    assert (st.sure, st.wrong) == (7, 1)
    assert st.wrong_rate == pytest.approx(1 / 7) and st.coverage == pytest.approx(0.7)


def test_choose_threshold_lands_above_the_most_confident_mistake() -> None:
    pairs = [(0.99, True)] * 50 + [(0.97, False), (0.96, True), (0.9, False)]
    assert choose_threshold(pairs, 0.002) == 0.99
    # with enough sure answers one mistake per 500 is allowed
    many = [(0.99, True)] * 599 + [(0.98, False), (0.9, False)]
    assert choose_threshold(many, 0.002) == 0.98
    assert choose_threshold([(1.0, False)], 0.002) == NEVER
    assert choose_threshold([], 0.002) == NEVER


def test_thresholds_judge_token_answers_by_what_was_answered() -> None:
    assert set(SURE) == set(CATEGORIES)
    assert answer_category("token chips", "empty") == "empty token slots"
    assert answer_category("empty token slots", "w") == "token chips"
    assert answer_category("market cards", "empty") == "empty market slots"
    assert answer_category("market cards", "1w1") == "market cards"
    assert is_sure("decks", SURE["decks"]) and not is_sure("decks", SURE["decks"] - 0.01)


def test_calibration_lines_report_sure_wrong_share() -> None:
    outcomes = ([Outcome("decks", "deck.1", "present", "present", 0.99)] * 9
                + [Outcome("decks", "deck.1", "present", "absent", 0.7),
                   Outcome("decks", "deck.2", "present", "?", 0.0)])
    lines = calibration_lines(outcomes, {c: 0.8 for c in CATEGORIES})
    # ECE: 9/10 * |1 - 0.99| + 1/10 * |0 - 0.7|
    row = next(line for line in lines if line.startswith("| decks |"))
    assert row == "| decks | 10 | 0.079 | 0.700 | 0.800 | 0.00 (0/9) | 81.8 |"
    chosen = chosen_thresholds(outcomes)
    assert chosen["decks"] == 0.99 and chosen["nobles"] is None


# ------------------------------------------------------------------ the command


def test_world_cli_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    for argv in (["--count", "0"], ["--difficulty", "easy,impossible"], ["--players", "2,x"],
                 ["--split", "train"], ["--workers", "0"], ["--lens", "fisheye"],
                 ["--choose"]):
        assert main(["vision", "world", *argv]) != 0, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("splendor-companion:"), argv


@dataclass(frozen=True)
class _StandIn:
    image: np.ndarray
    layout: Layout
    contents: dict[str, str]
    hidden: dict[str, str]
    unseen: frozenset[str]
    difficulty: str
    tags: tuple[str, ...] = ()


def _stand_in_world(players: int, difficulty: str, seed: int, split: str = "check",
                    framing: str = "centre", lens: str = "wide", setup: bool = False,
                    size: tuple[int, int] = (0, 0)) -> Any:
    """Today's renderer standing in for vision.synth.world: the central mat at 4 px/mm."""
    from vision.synth import Camera, random_scene, render
    from vision.synth.scene import PlayerScene

    layout = build_layout(players)
    scene = random_scene(players, seed, 0.3)
    if setup:
        full = {2: 4, 3: 5, 4: 7}[players]
        scene = replace(scene, decks=(True, True, True), supply=(full,) * 5 + (5,),
                        players=tuple(PlayerScene() for _ in scene.players))
    window = (-420.0, -244.0, 420.0, 244.0)
    frame = render(scene, layout, Camera(px_per_mm=4.0, window=window,
                                         hands=int(difficulty == "hard")), seed=seed)
    unseen = frozenset(s.id for s in layout.slots
                       if not all(window[0] <= x <= window[2] and window[1] <= y <= window[3]
                                  for x, y in s.corners()))
    return _StandIn(frame.image, layout, frame.contents,
                    {s: "hand" for s in frame.covered}, unseen, difficulty)


def test_world_cli_reads_a_stand_in_frame(monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    module = types.ModuleType("vision.synth.world")
    module.world_frame = _stand_in_world  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vision.synth.world", module)
    out = tmp_path / "r.md"
    assert main(["vision", "world", "--players", "2", "--difficulty", "easy", "--count", "1",
                 "--seed", "3", "--split", "design", "--choose", "--report", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text == capsys.readouterr().out
    row = next(line for line in text.splitlines() if line.startswith("| market cards | "))
    right = float(row.split("|")[2].split("/")[0])
    assert right >= 90.0, row  # the project's own faces on a clean frame
    assert "## Thresholds these design frames support" in text
    assert "colours learned from each set-up frame" in text


def test_a_real_world_frame_is_scored_through_the_contract() -> None:
    """vision.synth.world's frame (half size, to stay light) goes through the scorer:
    every central category is scored, nothing outside the picture is."""
    from functools import partial

    from vision.synth.world import world_frame
    from vision.world_eval import evaluate_frame

    world = partial(world_frame, size=(2304, 1296))
    result = evaluate_frame(2, "easy", 5, "design", "centre", "wide", True, world=world)
    frame = world(2, "easy", 5, split="design", framing="centre", lens="wide")
    cats = {o.category for o in result.outcomes}
    assert {"market cards", "decks", "token chips", "empty token slots"} <= cats
    assert not {o.slot for o in result.outcomes} & set(frame.unseen)
    right = sum(o.verdict == "right" for o in result.outcomes)
    assert right >= 0.5 * len(result.outcomes), result.outcomes

