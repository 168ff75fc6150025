"""The sure thresholds: one data file both readers read, written by one script."""

from __future__ import annotations

import pytest

from vision import sure
from vision.confidence import CATEGORIES, NEVER, SURE
from vision.duel.confidence import KINDS
from vision.duel.confidence import SURE as DUEL_SURE
from vision.training.sure import _renewed, choose, main


def test_the_file_holds_a_threshold_for_every_category_and_kind() -> None:
    # market cards: the fitted join's threshold (card_join.toml); empty market slots: here
    assert set(sure.splendor()) == set(CATEGORIES)
    assert sure.splendor() == SURE and SURE["market cards"] == sure.card_join()["sure"]
    assert set(sure.duel()) == set(KINDS) and sure.duel() == DUEL_SURE
    for t in [*SURE.values(), *(x for pair in DUEL_SURE.values() for x in pair)]:
        assert 0.0 <= t <= NEVER


def test_choose_lands_above_the_most_confident_mistake_on_a_small_design_set() -> None:
    design = {"nobles": [(0.99, True), (0.95, False), (0.9, True), (0.97, True)],
              "decks": [], "reserved": [(0.8, False)]}
    check = {"nobles": [(0.96, True), (0.5, True)]}
    chosen, lines = choose(design, check, {"decks": 0.5})
    assert chosen == {"nobles": 0.97, "decks": 0.5, "reserved": NEVER}
    assert any(line.startswith("# nobles: 0.9700; design 2 of 4 answers sure, 0 wrong; "
                               "check 0 of 2 answers sure, 0 wrong") for line in lines)


def test_few_design_answers_never_lower_a_threshold_many_may() -> None:
    few = {"nobles": [(0.9, True), (0.95, True)]}
    assert choose(few, {}, {"nobles": 0.99})[0] == {"nobles": 0.99}
    many = {"nobles": [(0.9 + k * 1e-5, True) for k in range(1000)]}
    assert choose(many, {}, {"nobles": 0.99})[0] == {"nobles": 0.9}


def test_an_answer_at_confidence_zero_is_never_sure() -> None:
    many = {"board cells/empty": [(0.0, True)] * 600 + [(0.2 + k * 1e-4, True)
                                                         for k in range(1000)]}
    assert choose(many, {}, {})[0] == {"board cells/empty": 0.2}


def test_renew_takes_only_duel_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    """``--renew`` names the Duel kinds whose reader changed; a kind it does not know
    is one clear line and exit 2, before any frame is rendered or anything written."""
    assert main(["--game", "duel", "--renew", "privileges,scrolls"]) == 2
    assert capsys.readouterr().err.startswith("error: --renew takes kinds of ")


def test_renewed_kinds_are_chosen_without_a_floor_and_the_others_kept() -> None:
    """A changed reader's kinds are chosen on their own design answers, however few
    (the old floor measured another reader); every other kind keeps its value and line."""
    old = {"decks/something": 0.6, "decks/empty": 1.01, "royals/something": 0.99,
           "royals/empty": 0.2}
    notes = ["# design seeds 1.., 12 frames per cell",
             "# royals/something: 0.9900; kept", "# royals/empty: 0.2000; kept",
             "# decks/something: 0.6000; old", "# decks/empty: 1.0100; old"]
    design = {"decks/something": [(0.9, True), (0.5, False), (0.7, True)],
              "decks/empty": [(0.95, True)], "royals/something": [(0.3, True)] * 2000}
    got, lines = _renewed(design, {}, old, ["decks"], notes, "# design seeds 1.., 40 frames")
    assert got == {"decks": (0.7, 0.95), "royals": (0.99, 0.2)}
    assert lines[0].startswith("# design seeds 1.., 40 frames: decks (--renew); the others kept")
    assert lines[1].startswith("# decks/something: 0.7000; design 2 of 3 answers sure")
    assert lines[3:] == notes[1:3]  # in the file's order


def test_a_second_renew_names_the_run_the_kept_kinds_come_from() -> None:
    """Renewing again the kinds a former renew chose (and more) names the run the kinds
    still kept were chosen on, not the former renew's header inside it; a kind the
    former renew chose and this one keeps keeps that header."""
    old = {"decks/something": 0.6, "decks/empty": 1.01, "royals/something": 0.99,
           "royals/empty": 0.2, "board cells/something": 0.5, "board cells/empty": 0.6}
    first = ("# design seeds 1.., 40 frames: decks (--renew); the others kept "
             "(design seeds 1.., 12 frames)")
    notes = [first, "# decks/something: 0.6000; old"]
    _, lines = _renewed({}, {}, old, ["decks", "royals"], notes, "# design seeds 1.., 40 frames")
    assert lines[0] == ("# design seeds 1.., 40 frames: decks, royals (--renew); the others "
                        "kept (design seeds 1.., 12 frames)")
    _, lines = _renewed({}, {}, old, ["royals"], notes, "# design seeds 1.., 40 frames")
    assert lines[0].endswith(f"kept ({first[2:]})")
