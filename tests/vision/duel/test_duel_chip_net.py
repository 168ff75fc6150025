"""The Duel chips network on rendered Duel tables: board cells and players' token
places read by kind, empty or hidden (tolerant: it may abstain, it must not say
something else for sure).  Rendered with the digital sprites when ../shared is
there, else with our drawn chips: the network was trained on both."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.calibrate import calibrate
from vision.duel import chip_net
from vision.duel.read import read_duel_places
from vision.learned.recognizer import Guess
from vision.synth.duel import random_position, render_duel


def test_every_kind_on_the_board_and_the_players_places_is_read() -> None:
    """A mid-game table framed whole (the players' places in view, smaller): every
    readable chip and empty place named right, and no answer wrong."""
    position = random_position(11)
    frame = render_duel(position, 11, split="design", difficulty="easy", framing="table",
                        hand=False)
    reading = read_duel_places(frame.image)
    places = [k for k in reading.places if (k.startswith("board.") or ".tokens." in k)
              and k not in frame.unseen and k not in frame.hidden]
    kinds = Counter(frame.contents.get(k, "") for k in places)
    assert len(kinds) >= 5 and len(places) >= 60, kinds
    said = {k: reading.places[k].value for k in places}
    assert all(v == frame.contents.get(k, "") for k, v in said.items() if v is not None)
    assert sum(v is not None for v in said.values()) >= 0.97 * len(places)


def test_a_hand_over_the_board_leaves_its_cells_unsure_never_wrong() -> None:
    """A hard table with a hand forced in: the cells under it are unsure or right."""
    frame = render_duel(random_position(3), 3, split="design", difficulty="hard",
                        framing="centre", hand=True)
    reading = read_duel_places(frame.image)
    under = [k for k, why in frame.hidden.items() if k.startswith("board.")]
    assert under, "the hand covers no cell: pick another seed"
    for k in under:
        got = reading.places[k]
        assert got.value is None or got.value == frame.contents.get(k, ""), (k, got)


def test_a_place_s_reading_follows_the_network_s_answer() -> None:
    """Hidden is unsure at the chance it is not hidden; a weak answer is unsure; else
    the letter (or "" for empty) at the network's probability."""
    value, confidence, _ = chip_net.reading(Guess("hidden", 0.9, "w", 0.05))
    assert value is None and confidence == pytest.approx(0.1)
    assert chip_net.reading(Guess("p", 0.45, "w", 0.40))[0] is None
    assert chip_net.reading(Guess("p", 0.95, "w", 0.03))[:2] == ("p", 0.95)
    assert chip_net.reading(Guess("empty", 0.99, "w", 0.01))[:2] == ("", 0.99)


def test_the_crop_is_the_network_s_square_round_the_place() -> None:
    frame = render_duel(random_position(5), 5, split="design", difficulty="easy",
                        framing="centre", hand=False)
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None
    slot = frame.layout.slot_index["board.12"]
    got = chip_net.crop(frame.image, cal.h_for_slot(slot), slot, cal.gain_at(slot.center))
    side = round(32.0 * chip_net.CUT_PX_PER_MM)
    assert abs(got.shape[0] - side) <= 1 and abs(got.shape[1] - side) <= 1
    assert got.dtype == np.uint8
