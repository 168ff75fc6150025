"""How the chips network's answer joins the chip reader's (vision.chip_net.join)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vision import chip_net
from vision.confidence import SURE
from vision.learned.recognizer import Guess
from vision.observation import TokenSlotReading

ANSWERS = ("empty", "w", "u", "g", "r", "k", "y")
SLOT = ("supply.w.0", "supply")


def reading(state: str, colour: str | None, p: float) -> TokenSlotReading:
    return TokenSlotReading(*SLOT, state, colour, p)


def test_agreement_is_surer_than_either_alone() -> None:
    got = chip_net.join(reading("token", "r", 0.9), Guess("r", 0.95, "k", 0.04))
    assert (got.state, got.colour) == ("token", "r") and got.confidence > 0.99
    empty = chip_net.join(reading("empty", None, 0.8), Guess("empty", 0.9, "w", 0.05))
    assert empty.state == "empty" and empty.confidence > 0.97


def test_the_network_names_a_chip_the_reader_left_unknown() -> None:
    got = chip_net.join(reading("unknown", None, 0.2), Guess("g", 0.999, "u", 0.001))
    assert (got.state, got.colour, got.confidence) == ("token", "g", 0.999)
    bare = chip_net.join(reading("unknown", None, 0.0), Guess("empty", 0.97, "k", 0.01))
    assert (bare.state, bare.colour) == ("empty", None)


def test_a_slot_the_network_calls_hidden_is_never_answered() -> None:
    got = chip_net.join(reading("token", "w", 0.99), Guess("hidden", 0.8, "w", 0.15))
    assert got.state == "unknown" and got.colour is None and got.confidence <= 0.2


def test_a_weak_network_guess_leaves_an_abstention_alone() -> None:
    before = reading("unknown", None, 0.3)
    assert chip_net.join(before, Guess("u", 0.45, "k", 0.4)) == before


@given(st.sampled_from(ANSWERS), st.sampled_from(ANSWERS), st.floats(0, 1), st.floats(0, 1))
def test_a_disagreement_is_never_sure(mine: str, theirs: str, p_mine: float,
                                      p_net: float) -> None:
    if mine == theirs:
        return
    state, colour = ("empty", None) if mine == "empty" else ("token", mine)
    got = chip_net.join(reading(state, colour, p_mine), Guess(theirs, p_net, mine, 0.0))
    assert got.confidence <= max(1 - p_net, 0.0) + 1e-9
    assert got.confidence < SURE["token chips"] or p_net < 1 - SURE["token chips"]
    assert got.state == "unknown" or (got.state, got.colour) == (state, colour)
