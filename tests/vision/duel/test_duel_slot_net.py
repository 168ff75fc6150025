"""The Duel slots network on rendered Duel tables: decks, privilege scrolls,
reserved cards, pyramid and royal places read as present, empty or hidden
(tolerant: it may abstain, it must not say the other for sure).  Rendered with
the digital sprites when ../shared is there, else with our drawn faces: the
network was trained on both."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np
import pytest

from vision.calibrate import calibrate
from vision.duel import chip_net, slot_net
from vision.duel.read import read_duel_places
from vision.learned.prep import SPECS
from vision.learned.recognizer import Guess
from vision.synth.duel import random_position, render_duel


def _places(ids: Iterable[str]) -> list[str]:
    """The deck, privilege and reserved places among the slot ids ``ids``."""
    return [k for k in ids
            if k.startswith(("deck.", "privilege.")) or ".privilege." in k or ".reserved." in k]


@pytest.mark.parametrize(("seed", "decks", "privileges"),
                         [(11, (0, 4, 2), 1), (21, (7, 0, 0), 3), (31, (3, 5, 1), 0)])
def test_decks_and_scrolls_present_or_taken_are_read(seed: int, decks: tuple[int, int, int],
                                                     privileges: int) -> None:
    """A table framed whole, some decks run out and the scrolls above the board
    redrawn: every readable place answered is right, and almost all are answered."""
    position = replace(random_position(seed), decks=decks, privileges=privileges)
    frame = render_duel(position, seed, split="design", difficulty="easy", framing="table",
                        hand=False)
    reading = read_duel_places(frame.image)
    places = [k for k in _places(reading.places)
              if k not in frame.unseen and k not in frame.hidden]
    truth = {k: "present" if frame.contents.get(k) else "" for k in places}
    assert {"", "present"} <= set(truth.values()) and len(places) >= 12, truth
    said = {k: reading.places[k].value for k in places}
    wrong = {k: (v, truth[k]) for k, v in said.items() if v is not None and v != truth[k]}
    assert not wrong
    assert sum(v is not None for v in said.values()) >= 0.9 * len(places), said
    for level, n in enumerate(decks, 1):  # the view's decks: a sure answer is the truth
        got = reading.view.decks[level - 1]
        assert got is None or got == (n > 0)


@pytest.mark.parametrize("seed", [4, 17])
def test_pyramid_cards_and_royals_taken_leave_places_read_empty(seed: int) -> None:
    """A central mat whose pyramid lost a card in each row (its deck run out) and
    whose royals lost one: every readable card and royal place answered is right (an
    empty place "", a card by its id), and almost all are answered."""
    position = random_position(seed)
    pyramid = tuple((*row[:-1], None) for row in position.pyramid)
    position = replace(position, pyramid=pyramid, royals=position.royals[1:])
    frame = render_duel(position, seed, split="design", difficulty="easy", framing="centre",
                        hand=False)
    reading = read_duel_places(frame.image)
    places = [k for k in reading.places if k.startswith(("pyramid.", "royal."))
              and k not in frame.unseen and k not in frame.hidden]
    truth = {k: frame.contents.get(k) or "" for k in places}
    assert list(truth.values()).count("") >= 4, truth
    said = {k: reading.places[k].value for k in places}
    wrong = {k: (v, truth[k]) for k, v in said.items() if v is not None and v != truth[k]}
    assert not wrong
    assert sum(v is not None for v in said.values()) >= 0.9 * len(places), said
    assert all(reading.places[k].value == "" for k in places if truth[k] == ""), said


def test_a_hand_over_the_central_mat_leaves_its_places_unsure_never_wrong() -> None:
    """Hard tables with a hand forced in (over a scroll and an empty place, over all
    three decks, over one deck): a place a person could not read is unsure or right,
    never the other answer for sure."""
    under = 0
    for seed in (8, 13, 16):
        frame = render_duel(random_position(seed), seed, split="design", difficulty="hard",
                            framing="centre", hand=True)
        reading = read_duel_places(frame.image)
        for k in _places(reading.places):
            if k in frame.hidden and k not in frame.unseen:
                under += 1
                got = reading.places[k]
                truth = "present" if frame.contents.get(k) else ""
                assert not got.sure or got.value == truth, (seed, k, got)
    assert under >= 5, "the hands cover too few decks or scrolls: pick other seeds"


def test_a_place_s_reading_follows_the_network_s_answer() -> None:
    """The Duel chips' rule on this network's classes: hidden is unsure at the chance it
    is not hidden; a weak answer is unsure; else "present" (or "" for empty) at the
    network's probability."""
    assert slot_net.EMPTY == chip_net.EMPTY and slot_net.HIDDEN == chip_net.HIDDEN
    value, confidence, _ = chip_net.reading(Guess("hidden", 0.9, "present", 0.05))
    assert value is None and confidence == pytest.approx(0.1)
    assert chip_net.reading(Guess("present", 0.45, "empty", 0.40))[0] is None
    assert chip_net.reading(Guess("present", 0.95, "empty", 0.03))[:2] == ("present", 0.95)
    assert chip_net.reading(Guess("empty", 0.99, "hidden", 0.01))[:2] == ("", 0.99)
    blank = np.full((64, 48, 3), 128, np.uint8)
    got = slot_net.read_places([blank, blank])
    assert len(got) == 2 and got[0] == got[1] and slot_net.read_places([]) == []


def test_every_place_is_cut_upright_to_the_network_s_input() -> None:
    """A deck's place, a scroll's place above the board and a player's, which lies
    across: all cut upright (taller than wide) at the network's input size."""
    frame = render_duel(random_position(5), 5, split="design", difficulty="easy",
                        framing="table", hand=False)
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None
    w, h = SPECS[slot_net.NAME].input_px
    for sid in ("deck.1", "privilege.1", "player1.privilege.0", "player2.reserved.2"):
        slot = frame.layout.slot_index[sid]
        got = slot_net.crop(frame.image, cal.h_for_slot(slot), slot, cal.gain_at(slot.center))
        assert got.shape == (h, w, 3) and got.dtype == np.uint8, sid
