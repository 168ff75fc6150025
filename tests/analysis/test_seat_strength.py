"""Each level of the computer seat beats the one below, on a small seeded sample.

The matches are the strength bench's own (``tests/bench/bench_seat.py``:
seats alternate who starts, the seat decides as at the table).  A sample
is enough when its result would be rare for two equal players: the test
asks for a one-sided binomial p-value below 5 % against a fair coin, so it
fails if a level stops beating the one below (as levels 1 and 2 once did,
about 50 % against ``random``).  The seeds are fixed, so it never flickers;
the full table with 95 % intervals is the bench's business.
"""

from __future__ import annotations

import math

import pytest

from tests.bench.bench_seat import duel_match, splendor_match

#: The largest chance, for two equal players, of a result at least this good.
P_VALUE = 0.05
MATCHES = {"splendor": splendor_match, "duel": duel_match}


def p_value(wins: float, n: int) -> float:
    """P(X >= wins) for X ~ Binomial(n, 1/2): a shared win counts half, rounded down."""
    k = math.floor(wins)
    return float(sum(math.comb(n, i) for i in range(k, n + 1))) / float(2 ** n)


def score(game: str, me: str, other: str, n: int) -> float:
    """``me``'s wins over ``n`` seeded games against ``other``, starting every other game."""
    match = MATCHES[game]
    total = 0.0
    for g in range(n):
        seed = 500 + g
        if g % 2 == 0:
            total += match(seed, (me, other)).score
        else:
            total += 1.0 - match(seed, (other, me)).score
    return total


def test_the_p_value_is_that_of_a_fair_coin() -> None:
    assert p_value(0, 10) == 1.0
    assert p_value(10, 10) == pytest.approx(1 / 1024)
    assert p_value(9, 12) == pytest.approx(299 / 4096)  # 9 of 12 is not enough ...
    assert p_value(10, 12) == pytest.approx(79 / 4096)  # ... 10 of 12 is


@pytest.mark.parametrize("game", ["splendor", "duel"])
@pytest.mark.parametrize(("me", "other", "n"), [
    ("L1", "random", 30),  # a beginner still plays to win
    ("L2", "L1", 80),      # the rule of thumb beats its noisy self
    ("L3", "L2", 14),      # the default's search beats the rule (the costly pairing)
])
def test_a_level_beats_the_one_below(game: str, me: str, other: str, n: int) -> None:
    wins = score(game, me, other, n)
    assert p_value(wins, n) < P_VALUE, f"{me} won {wins} of {n} against {other}"
