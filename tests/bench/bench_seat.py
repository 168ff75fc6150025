"""The computer seat's strength per level and its think time, with a Pi 4 estimate.

Strength: each level 1-5 plays seeded 2-player games (Splendor and Splendor
Duel) against ``random``, ``greedy`` and the level above, seats alternating
who starts; the table gives its win rate with a 95 % Wilson interval (a
shared win counts half; a Duel game has one winner).  The seat decides as at
the table (:mod:`companion.analysis.seat`: never a blind reserve, in Duel
no privileges and no replenish by choice).  The default is a small sample
so that ``make bench`` stays reasonable; ``--games 200`` gives the issue's
count (hours: ``make bench ARGS="--seat-games 200"``).

Think time: the CPU seconds of one decision at each level over fixed
positions of seeded greedy games (the referee seeds its search the same
way), the median and the longest, and the Pi 4 estimate of
``tests/bench/pi4_estimate.py`` for one core (a seat's search runs on one).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.analysis.seat import LEVELS, duel_choice, splendor_choice
from tests.bench.pi4_estimate import CPYTHON_311_GAIN, pi4_ratio

Chooser = Callable[..., object]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def splendor_match(seed: int, seats: tuple[str, str]) -> float:
    """Seat 0's score in one game (1 win, 0.5 shared, 0 loss); a seat is a policy or L1-L5."""
    from companion.rules.splendor.players import POLICIES, choose_turn
    from companion.rules.splendor.simulate import deal_and_play
    from companion.rules.splendor.state import needs_reveal, player_names

    names = player_names(2)
    rng = random.Random(f"seat-bench-{seed}")

    def choose(state, hidden, reveal):  # type: ignore[no-untyped-def]
        seat = seats[state.current]
        if seat.startswith("L"):
            choice = splendor_choice(state, LEVELS[int(seat[1:])].budget,
                                     seed * 7919 + state.turn)
            level = needs_reveal(state, choice.turn.action)
            return replace(choice.turn, reveal=reveal(level) if level else None)
        return choose_turn(state, POLICIES[seat], rng, reveal, hidden)

    _, states = deal_and_play(seed, names, choose)
    outcome = states[-1].outcome()
    assert outcome is not None
    if names[0] not in outcome.winners:
        return 0.0
    return 1.0 / len(outcome.winners)


def duel_match(seed: int, seats: tuple[str, str]) -> float:
    """Seat 0's score in one Duel game."""
    from companion.rules.duel.simulate import POLICIES, DuelDeck, choose_turn

    deck = DuelDeck(seed)
    state = deck.deal(("A", "B"))
    rng = random.Random(f"duel-seat-bench-{seed}")
    hidden: list[list[object]] = [[], []]
    while not state.is_over() and state.turn < 400:
        seat = seats[state.current]
        choice = None
        if seat.startswith("L"):
            choice = duel_choice(state, LEVELS[int(seat[1:])].duel_budget,
                                 seed * 7919 + state.turn)
        if choice is not None:
            turn = choice.turn
            if choice.example.reveal is not None:
                card = deck.draw(int(choice.example.reveal[0]))
                turn = replace(turn, reveal=card.id if card else None)
            state = state.apply(turn)
        else:  # a replenish is needed (the players would enter it): greedy plays it
            policy = POLICIES["greedy" if seat.startswith("L") else seat]
            _, state = choose_turn(state, policy, rng, deck,
                                   hidden[state.current])  # type: ignore[arg-type]
    outcome = state.outcome()
    return 1.0 if outcome is not None and outcome.winner == "A" else 0.0


def strength(game: str, levels: list[int], games: int) -> None:
    match = splendor_match if game == "splendor" else duel_match
    print(f"{game}: win rate of each level (95 % interval), {games} games per pairing")
    print(f"  {'level':<6}{'vs random':<22}{'vs greedy':<22}{'vs level above':<22}")
    for level in levels:
        cells = []
        for opponent in ("random", "greedy", f"L{level + 1}"):
            if opponent == "L6":
                cells.append("-")
                continue
            score = 0.0
            for g in range(games):
                me_first = g % 2 == 0
                seats = (f"L{level}", opponent) if me_first else (opponent, f"L{level}")
                result = match(1000 + g, seats)
                score += result if me_first else 1.0 - result
            lo, hi = wilson(score, games)
            cells.append(f"{score / games:5.0%} [{lo:.0%}, {hi:.0%}]")
        print(f"  {level:<6}" + "".join(f"{c:<22}" for c in cells), flush=True)


def think_times(game: str, levels: list[int], positions: int, ratio: float) -> None:
    if game == "splendor":
        from companion.rules.splendor.simulate import play_game

        _, states = play_game(7, 2, "greedy")
        choose: Callable[..., object] = splendor_choice
        budget = "budget"
    else:
        from companion.rules.duel.simulate import play_game as duel_game

        _, states = duel_game(7, 2, "greedy")
        choose = duel_choice
        budget = "duel_budget"
    step = max(1, (len(states) - 1) // positions)
    picked = [s for s in states[:-1:step]][:positions]
    print(f"{game}: think time per turn over {len(picked)} positions (CPU s, one core)")
    print(f"  {'level':<6}{'playouts':<10}{'median':<9}{'longest':<9}{'Pi 4 estimate (longest)'}")
    for level in levels:
        times = []
        for i, state in enumerate(picked):
            t0 = time.process_time()
            choose(state, getattr(LEVELS[level], budget), i)
            times.append(time.process_time() - t0)
        times.sort()
        longest = times[-1] * ratio
        print(f"  {level:<6}{getattr(LEVELS[level], budget):<10}{times[len(times) // 2]:<9.2f}"
              f"{times[-1]:<9.2f}{longest / CPYTHON_311_GAIN:.1f}-{longest:.1f} s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4,
                        help="games per pairing (default 4; the issue's count: 200)")
    parser.add_argument("--positions", type=int, default=6, help="positions timed per level")
    parser.add_argument("--levels", default="1,2,3,4,5", help="levels to measure")
    parser.add_argument("--game", choices=("splendor", "duel", "both"), default="both")
    parser.add_argument("--only", choices=("strength", "time", "both"), default="both")
    args = parser.parse_args()
    levels = [int(v) for v in args.levels.split(",")]
    games = ["splendor", "duel"] if args.game == "both" else [args.game]
    if args.only != "strength":
        ratio = pi4_ratio()
        print(f"Pi 4 / this machine, one core: x{ratio:.1f} (pi4_estimate.py; the range"
              f" divides by {CPYTHON_311_GAIN:.0f} for CPython 3.11)")
        for game in games:
            think_times(game, levels, args.positions, ratio)
    if args.only != "time":
        for game in games:
            strength(game, levels, args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
