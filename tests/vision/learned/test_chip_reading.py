"""A token slot's reading from the chips network's answer (vision.chip_net.reading)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vision import chip_net
from vision.layout import build_layout
from vision.learned.recognizer import Guess

ANSWERS = ("empty", "w", "u", "g", "r", "k", "y", "hidden")
SLOT = build_layout(2).slot_index["supply.w.0"]


def test_a_chip_and_an_empty_slot_at_the_networks_probability() -> None:
    got = chip_net.reading(SLOT, Guess("r", 0.95, "k", 0.04))
    assert (got.slot, got.zone) == ("supply.w.0", "supply")
    assert (got.state, got.colour, got.confidence) == ("token", "r", 0.95)
    empty = chip_net.reading(SLOT, Guess("empty", 0.9, "w", 0.05))
    assert (empty.state, empty.colour, empty.confidence) == ("empty", None, 0.9)


def test_a_slot_the_network_calls_hidden_is_never_answered() -> None:
    got = chip_net.reading(SLOT, Guess("hidden", 0.8, "w", 0.15))
    assert got.state == "unknown" and got.colour is None and got.confidence <= 0.2 + 1e-9


def test_a_weak_guess_is_unknown() -> None:
    got = chip_net.reading(SLOT, Guess("u", 0.45, "k", 0.4))
    assert (got.state, got.colour, got.confidence) == ("unknown", None, 0.45)


@given(st.sampled_from(ANSWERS), st.floats(0, 1))
def test_only_a_named_answer_of_at_least_named_min_is_given(best: str, p: float) -> None:
    got = chip_net.reading(SLOT, Guess(best, p, "w", 0.0))
    named = best != "hidden" and p >= chip_net.NAMED_MIN
    assert (got.state != "unknown") == named
    if named:
        assert got.confidence == p
        assert (got.state, got.colour) == (("empty", None) if best == "empty" else ("token", best))
