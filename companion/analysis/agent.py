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

from companion.analysis.search import Sampler, best_turn, readable_action
from companion.rules.actions import Buy, ReserveDeck, Turn
from companion.rules.catalogue import Card
from companion.rules.deck import Deck
from companion.rules.fast.tables import NOBLE_ID
from companion.rules.gems import Tokens
from companion.rules.players import POLICIES, choose_turn
from companion.rules.simulate import MAX_TURNS
from companion.rules.state import GameState, needs_reveal, player_names

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
    deck = Deck(seed)
    rng = random.Random(f"players-{seed}")
    state = deck.deal(names)
    hidden: dict[int, list[Card]] = {i: [] for i in range(len(seats))}

    def reveal(level: int) -> str | None:
        card = deck.draw(level)
        return card.id if card else None

    while not state.is_over():
        if state.turn >= MAX_TURNS:
            raise RuntimeError(f"game {seed} did not end within {MAX_TURNS} turns")
        mover = state.current
        if seats[mover] == AGENT:
            turn = agent_turn(state, hidden[mover], budget, seed * 7919 + state.turn, reveal)
        else:
            turn = choose_turn(state, POLICIES[seats[mover]], rng, reveal, hidden[mover])
        if isinstance(turn.action, ReserveDeck):
            card = deck.draw(turn.action.level)
            assert card is not None
            hidden[mover].append(card)
        elif isinstance(turn.action, Buy):
            hidden[mover] = [c for c in hidden[mover] if c.id != turn.action.card]
        state = state.apply(turn)
    outcome = state.outcome()
    assert outcome is not None
    return [seats[names.index(w)] for w in outcome.winners], state


__all__ = ["AGENT", "agent_turn", "play_match"]
