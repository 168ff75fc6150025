"""Sequential halving (companion.analysis.halving): its budget and its deadline."""

from __future__ import annotations

import time

from companion.analysis.halving import halving


def _run(option: int, draw: int) -> list[float]:
    """A playout: option 7 always wins, the others by the draw's parity."""
    return [1.0 if option == 7 else float(draw % 2), 0.0]


def test_the_best_option_wins_and_the_budget_is_kept() -> None:
    ranking, spent = halving(list(range(8)), _run, 0, 400, seed=3)
    assert ranking[0][0] == 7 and sorted(t for t, _, _ in ranking) == list(range(8))
    assert spent <= 400


def test_past_its_deadline_the_search_stops_and_still_ranks_every_option() -> None:
    ranking, spent = halving(list(range(8)), _run, 0, 400, seed=3,
                             deadline=time.monotonic() - 1)
    assert spent == 8  # one draw for each option, then it stops
    assert sorted(t for t, _, _ in ranking) == list(range(8))
    assert all(n == 1 for _, _, n in ranking)
