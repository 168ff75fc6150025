"""A Duel position rendered in the world and read back (tolerant: a reader may abstain,
it must not say something else)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from companion.rules.duel.view import view_of
from vision.duel.read import DuelReading, read_duel, read_duel_places
from vision.synth.duel import DuelFrame, random_position, render_duel


@lru_cache(maxsize=2)
def _frame(framing: str) -> tuple[DuelFrame, DuelReading]:
    frame = render_duel(random_position(7), 7, split="design", difficulty="easy",
                        framing=framing, hand=False)
    return frame, read_duel_places(frame.image)


def _presence(place: str, truth: str) -> str:
    if place.startswith(("deck.", "privilege.")) or ".privilege." in place or (
            ".reserved." in place):
        return "present" if truth else ""
    return truth


def test_the_frame_carries_the_rules_view_of_its_position() -> None:
    frame, _ = _frame("table")
    assert frame.image.shape == (2592, 4608, 3)
    assert frame.truth == view_of(frame.position)
    on_board = {f"board.{i}" for i, t in enumerate(frame.position.board) if t is not None}
    assert on_board == {k for k in frame.contents if k.startswith("board.")}


def test_an_easy_table_reads_back_without_a_wrong_place() -> None:
    frame, reading = _frame("table")
    readable = {k: r for k, r in reading.places.items()
                if k not in frame.hidden and k not in frame.unseen}
    wrong = {k: (r.value, frame.contents.get(k, "")) for k, r in readable.items()
             if r.value is not None and r.value != _presence(k, frame.contents.get(k, ""))}
    assert not wrong
    board = [k for k in readable if k.startswith("board.")]
    right = [k for k in board if readable[k].value is not None]
    assert len(board) >= 20 and len(right) >= 0.9 * len(board)
    pyramid = [k for k in readable if k.startswith("pyramid.")]
    assert sum(readable[k].value is not None for k in pyramid) >= 0.8 * len(pyramid)


def test_the_view_matches_the_rules_where_it_is_sure() -> None:
    frame, reading = _frame("table")
    view, truth = reading.view, frame.truth
    for got, want in zip(view.board, truth.board, strict=True):
        assert got is None or got == want
    for row, want_row in zip(view.pyramid, truth.pyramid, strict=True):
        assert len(row) == len(want_row)
        assert all(g is None or g == w for g, w in zip(row, want_row, strict=True))
    assert view.privileges in (None, truth.privileges)
    assert view.royals in (None, truth.royals)
    for p, q in zip(view.players, truth.players, strict=True):
        assert all(g is None or g == w for g, w in zip(p.tokens, q.tokens, strict=True))
        assert p.privileges in (None, q.privileges) and p.reserved in (None, q.reserved)
        assert p.bonuses == (None,) * 5 and p.crowns is None  # not read: the referee knows


def test_places_out_of_the_frame_are_unsure_not_empty() -> None:
    frame, reading = _frame("centre")
    assert any(k.startswith("player") for k in frame.unseen)
    for p in reading.view.players:
        assert p.tokens == (None,) * 7 and p.privileges is None and p.reserved is None
    assert all(reading.places[k].value is None for k in frame.unseen if k in reading.places)


def test_a_frame_without_markers_reads_nothing() -> None:
    view = read_duel(np.full((600, 800, 3), 120, np.uint8))
    assert set(view.board) == {None} and view.royals is None and view.privileges is None


@pytest.mark.parametrize("seed", [3])
def test_a_hand_over_the_table_is_never_read_as_something_else(seed: int) -> None:
    frame = render_duel(random_position(seed), seed, difficulty="medium", hand=True)
    reading = read_duel_places(frame.image)
    handled = [k for k, why in frame.hidden.items() if why == "hand"
               and (k.startswith(("board.", "pyramid.", "royal.")))]
    wrong = [k for k in handled if reading.places[k].value not in
             (None, frame.contents.get(k, ""))]
    assert len(wrong) <= max(1, len(handled) // 10)


def test_without_the_art_our_drawn_faces_render_and_read(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: object) -> None:
    """What CI without ../shared runs: drawn faces, drawn board, the drawn chip classes;
    the shipped network names the drawn cards too (it was trained on them as well)."""
    from vision.synth import duel_faces

    monkeypatch.setattr(duel_faces, "SHARED_FACES", tmp_path)
    duel_faces.duel_faces.cache_clear()
    try:
        frame = render_duel(random_position(5), 5, difficulty="easy", hand=False)
        assert "faces:drawn" in frame.tags
        reading = read_duel_places(frame.image)
        for kind in ("board.", "pyramid."):
            places = [k for k in reading.places if k.startswith(kind)
                      and k not in frame.hidden and k not in frame.unseen]
            said = [k for k in places if reading.places[k].value is not None]
            assert len(said) >= 0.8 * len(places), kind
            assert all(reading.places[k].value == frame.contents.get(k, "") for k in said)
    finally:
        duel_faces.duel_faces.cache_clear()


def test_vision_world_scores_duel_tables(tmp_path: object,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from companion.cli import main

    out = Path(str(tmp_path)) / "duel.md"
    assert main(["vision", "world", "--game", "duel", "--difficulty", "easy", "--count", "1",
                 "--seed", "7", "--split", "design", "--report", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text == capsys.readouterr().out
    for kind in ("board cells", "pyramid cards", "royals", "privileges"):
        row = next(line for line in text.splitlines() if line.startswith(f"| {kind} | "))
        assert int(row.split("|")[2]) > 0 and row.split("|")[4].strip() == "0.0%", row
    assert main(["vision", "world", "--game", "duel", "--split", "train"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("splendor-companion:")


def test_mats_for_duel_print_three_mats(tmp_path: object,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from companion.cli import main
    from vision.layout import load_layout

    out = Path(str(tmp_path))
    assert main(["mats", "--game", "duel", "--out", str(out), "--dpi", "50", "--no-pdf",
                 "--player-mats"]) == 0
    assert sorted(p.name for p in out.glob("mat-*.png")) == [
        "mat-centre.png", "mat-player1.png", "mat-player2.png"]
    layout = load_layout(out / "layout.json")
    assert len(layout.slots_of("token", "board")) == 25
    assert "wrote 3 mats" in capsys.readouterr().out
