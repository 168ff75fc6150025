"""The Duel referee takes a reading as evidence only at or above its kind's sure
threshold (``vision.duel.confidence.SURE``); below it the place is no evidence, so a
revealed card is asked, never guessed, and a misread cell does not move the proposal."""

from __future__ import annotations

from functools import lru_cache

import pytest

from companion.referee.duel.candidates import explaining
from companion.rules.duel import GameState, Turn, play_game
from companion.rules.duel.view import DuelView, view_of
from vision.duel import confidence
from vision.duel.layout import build_duel_layout
from vision.duel.read import PlaceReading, view_from

#: Thresholds for these tests: every kind and answer well above 0, so "ignored" shows.
THRESHOLD = 0.6
BELOW, AT = THRESHOLD - 0.01, THRESHOLD


@pytest.fixture(autouse=True)
def _thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    for kind in confidence.KINDS:
        monkeypatch.setitem(confidence.SURE, kind, (THRESHOLD, THRESHOLD))


@lru_cache(maxsize=2)
def _game(seed: int) -> tuple[list[Turn], list[GameState]]:
    record, states = play_game(seed, ("Ann", "Bob"))
    return list(record.turns), states


def _readings(view: DuelView, conf: float) -> dict[str, PlaceReading]:
    """The central mat's places as a reader that read ``view`` right at ``conf``."""
    values: dict[str, str] = {f"board.{i}": v or "" for i, v in enumerate(view.board)}
    for level, row in enumerate(view.pyramid, start=1):
        values.update({f"pyramid.{level}.{i}": v or "" for i, v in enumerate(row)})
    values.update({f"deck.{level}": "present" if d else ""
                   for level, d in enumerate(view.decks, start=1)})
    assert view.royals is not None and view.privileges is not None
    values.update({f"royal.{i}": f"r{i + 1}" if f"r{i + 1}" in view.royals else ""
                   for i in range(4)})
    values.update({f"privilege.{i}": "present" if i < view.privileges else ""
                   for i in range(3)})
    return {place: PlaceReading(place, v, conf) for place, v in values.items()}


def _revealing_turn() -> tuple[int, list[Turn], list[GameState], str]:
    turns, states = _game(1)
    i = next(i for i, t in enumerate(turns) if t.reveal is not None)
    after = view_of(states[i + 1])
    reveal = turns[i].reveal
    assert reveal is not None
    place = next(f"pyramid.{level}.{j}" for level, row in enumerate(after.pyramid, start=1)
                 for j, v in enumerate(row) if v == reveal)
    return i, turns, states, place


def test_sure_readings_make_the_view_and_unsure_ones_are_none() -> None:
    _, states = _game(1)
    truth = view_of(states[6])
    layout = build_duel_layout()
    sure = view_from(layout, _readings(truth, AT))
    assert sure.board == truth.board and sure.pyramid == truth.pyramid
    assert sure.royals == truth.royals and sure.privileges == truth.privileges
    assert sure.decks == truth.decks
    unsure = view_from(layout, _readings(truth, BELOW))
    assert all(v is None for v in unsure.board)
    assert all(v is None for row in unsure.pyramid for v in row)
    assert unsure.royals is None and unsure.privileges is None
    assert all(d is None for d in unsure.decks)


def test_an_unsure_reading_of_the_revealed_card_is_asked() -> None:
    i, _, states, place = _revealing_turn()
    layout = build_duel_layout()
    read = _readings(view_of(states[i + 1]), AT)
    seen = view_from(layout, read)
    assert "reveal" not in explaining(states[i], seen)[0].ask
    read[place] = PlaceReading(place, read[place].value, BELOW)
    best = explaining(states[i], view_from(layout, read))[0]
    assert "reveal" in best.ask


def test_the_threshold_goes_by_the_answer() -> None:
    # an "empty" answer is judged by the kind's empty threshold, anything else by the other
    confidence.SURE["board cells"] = (0.7, 0.3)
    assert PlaceReading("board.3", "", 0.4).sure
    assert not PlaceReading("board.3", "r", 0.4).sure
    assert PlaceReading("board.3", "r", 0.7).sure
    assert not PlaceReading("board.3", None, 1.0).sure
    # places no threshold was measured on keep every answer
    assert PlaceReading("player1.tokens.r.0", "r", 0.0).sure


def test_an_unsure_misread_is_no_evidence_against_the_turn_played() -> None:
    # a cell read wrong: sure, it counts against the true turn; below the threshold it
    # does not, and the turn played is proposed at distance 0
    i, _, states, _ = _revealing_turn()
    layout = build_duel_layout()
    read = _readings(view_of(states[i + 1]), AT)
    cell = next(p for p, r in read.items() if p.startswith("board.") and r.value == "")
    read[cell] = PlaceReading(cell, "r", AT)
    assert explaining(states[i], view_from(layout, read))[0].distance >= 1
    read[cell] = PlaceReading(cell, "r", BELOW)
    best = explaining(states[i], view_from(layout, read))[0]
    assert best.distance == 0 and states[i + 1] in best.afters
