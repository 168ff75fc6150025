"""Seeded games between computer players, written as records.

Used by ``splendor-companion simulate``, the property tests, the golden
playthroughs, the benchmarks and the demo.  Everything is determined by the
seed: the deck order comes from a :class:`~companion.rules.splendor.deck.Deck` and the
players' choices from a ``random.Random`` seeded from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.rules.splendor.actions import Buy, ReserveDeck, Turn
from companion.rules.splendor.catalogue import Card
from companion.rules.splendor.deck import Deck
from companion.rules.splendor.players import POLICIES, choose_turn
from companion.rules.splendor.record import Record, new_record
from companion.rules.splendor.state import GameState, player_names

#: A safety net: no real or simulated game needs this many turns.
MAX_TURNS = 1000


#: How a seat chooses its turn: ``(state, its blind reserves' cards, reveal)`` -> the
#: turn; ``reveal(level)`` draws the card that replaces one taken from the market.
Chooser = Callable[[GameState, list[Card], Callable[[int], str | None]], Turn]


def deal_and_play(seed: int, names: Sequence[str], choose: Chooser
                  ) -> tuple[list[Turn], list[GameState]]:
    """Deal the seeded game and play it to the end with ``choose``; its turns and
    every state from the start.  The deck order is the seed's (:class:`Deck`); the
    engine keeps what each player reserved blind, which only they may know."""
    deck = Deck(seed)
    state = deck.deal(tuple(names))
    states = [state]
    turns: list[Turn] = []
    hidden: dict[int, list[Card]] = {i: [] for i in range(len(names))}

    def reveal(level: int) -> str | None:
        card = deck.draw(level)
        return card.id if card else None

    while not state.is_over():
        if state.turn >= MAX_TURNS:
            raise RuntimeError(f"game {seed} did not end within {MAX_TURNS} turns")
        mover = state.current
        turn = choose(state, hidden[mover], reveal)
        if isinstance(turn.action, ReserveDeck):
            card = deck.draw(turn.action.level)
            assert card is not None
            hidden[mover].append(card)
        elif isinstance(turn.action, Buy):
            hidden[mover] = [c for c in hidden[mover] if c.id != turn.action.card]
        state = state.apply(turn)
        turns.append(turn)
        states.append(state)
    return turns, states


def play_game(
    seed: int,
    players: int | Sequence[str] = 2,
    policy: str | Sequence[str] = "random",
) -> tuple[Record, list[GameState]]:
    """Play one seeded game; return its record and every state from the start."""
    names = player_names(players) if isinstance(players, int) else tuple(players)
    policies = [policy] * len(names) if isinstance(policy, str) else list(policy)
    chosen = [POLICIES[p] for p in policies]
    rng = random.Random(f"players-{seed}")

    def choose(state: GameState, hidden: list[Card], reveal: Callable[[int], str | None]
               ) -> Turn:
        return choose_turn(state, chosen[state.current], rng, reveal, hidden)

    turns, states = deal_and_play(seed, names, choose)
    record = new_record(states[0], Seed=str(seed), Policies=", ".join(policies))
    record.turns.extend(turns)
    outcome = states[-1].outcome()
    assert outcome is not None
    record.headers["Result"] = outcome.summary()
    record.headers["Winner"] = ", ".join(outcome.winners)
    return record, states
