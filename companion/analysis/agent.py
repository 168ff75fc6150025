"""A computer player that chooses its turns with the analysis search.

It exists to measure the analysis honestly: if the search that judges
players' turns cannot beat the simple ``greedy`` player, its verdicts mean
little.  :func:`play_match` seats it against the readable engine's policies
in seeded games refereed by the readable engine, so every turn it plays is
checked by the same rules as a real game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.analysis.splendor.search import Sampler, best_turn, readable_action
from companion.rules.fast.splendor.tables import NOBLE_ID
from companion.rules.gems import Tokens
from companion.rules.splendor.actions import Turn
from companion.rules.splendor.catalogue import Card
from companion.rules.splendor.players import POLICIES, choose_turn
from companion.rules.splendor.simulate import deal_and_play
from companion.rules.splendor.state import GameState, needs_reveal, player_names

AGENT = "search"


def agent_turn(state: GameState, hidden: Sequence[Card], budget: int, seed: int,
               reveal: Callable[[int], str | None]) -> Turn:
    """The search's turn in ``state``; ``hidden`` are the cards behind its blind reserves."""
    own = [c.id for c in hidden]
    sampler = Sampler(state, own)
    best, _ = best_turn(state, budget, seed, sampler, own)
    action = readable_action(state, best)
    level = needs_reveal(state, action)
    returned = Tokens(best[2]) if best[2] is not None else Tokens()
    noble = NOBLE_ID[best[3]] if best[3] >= 0 else None
    return Turn(action, reveal(level) if level else None, returned, noble)


def play_match(seed: int, seats: Sequence[str], budget: int) -> tuple[list[str], GameState]:
    """One seeded game; ``seats`` are ``search`` or a policy name (``greedy``, ``random``).

    Returns the seats' names of the winners (``"search"`` or the policy) and
    the final state.
    """
    names = player_names(len(seats))
    rng = random.Random(f"players-{seed}")

    def choose(state: GameState, hidden: list[Card], reveal: Callable[[int], str | None]
               ) -> Turn:
        seat = seats[state.current]
        if seat == AGENT:
            return agent_turn(state, hidden, budget, seed * 7919 + state.turn, reveal)
        return choose_turn(state, POLICIES[seat], rng, reveal, hidden)

    _, states = deal_and_play(seed, names, choose)
    state = states[-1]
    outcome = state.outcome()
    assert outcome is not None
    return [seats[names.index(w)] for w in outcome.winners], state


__all__ = ["AGENT", "agent_turn", "play_match"]
