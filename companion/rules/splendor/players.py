"""Computer players for simulations: a random player and a simple greedy one.

They choose a turn step by step, as the engine enumerates it (action, then
payment, then returns, then noble), never through a flat list of every
combination.  They exist to exercise the rules over many games and to make
demo games; they are not meant to play well.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from companion.rules.gems import COLOURS, Tokens
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.catalogue import Card
from companion.rules.splendor.state import GameState, needs_reveal

#: chooses a main action among the legal ones
Policy = Callable[[GameState, list[Action], random.Random], Action]


def random_policy(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly; buys when it can half of the time, so games end."""
    buys = [a for a in actions if isinstance(a, Buy)]
    if buys and rng.random() < 0.5:
        return rng.choice(buys)
    return rng.choice(actions)


def greedy_policy(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """Buy the most valuable card it can; else gather gems for the cheapest target."""
    buys = [a for a in actions if isinstance(a, Buy)]
    if buys:

        def value(a: Buy) -> tuple[int, int, float]:
            card = catalogue.card(a.card)
            return (card.points, -a.payment.total(), rng.random())

        return max(buys, key=value)
    takes = [a for a in actions if isinstance(a, Take)]
    if takes and state.player.tokens.total() <= 8:
        target = _cheapest_target(state)
        if target is not None:
            short = state.price(target) - _clip(state.player.tokens, state.price(target))

            def useful(a: Take) -> tuple[int, int, float]:
                hit = sum(min(a.gems[g], short[g]) for g in COLOURS)
                return (hit, a.gems.total(), rng.random())

            return max(takes, key=useful)
    reserves = [a for a in actions if isinstance(a, ReserveCard | ReserveDeck)]
    if reserves and rng.random() < 0.3:
        return rng.choice(reserves)
    return rng.choice(takes or actions)


def _clip(held: Tokens, price: Tokens) -> Tokens:
    return Tokens(min(held[g], price[g]) for g in COLOURS)


def _cheapest_target(state: GameState) -> Card | None:
    cards = list(state.market_cards())
    if not cards:
        return None
    return min(cards, key=lambda c: (state.price(c).total() - c.points, c.id))


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def choose_turn(
    state: GameState,
    policy: Policy,
    rng: random.Random,
    reveal: Callable[[int], str | None],
    hidden: Sequence[Card] = (),
) -> Turn:
    """Build a complete legal turn step by step.

    ``reveal(level)`` supplies the card that refills the market; ``hidden``
    are the cards behind the mover's blind reserves (the simulator knows
    them; the table learns each when it is bought).
    """
    actions = _with_hidden_buys(state, state.legal_actions(), hidden)
    action = policy(state, actions, rng)
    if isinstance(action, Buy):
        payments = state.payments(action.card)
        payment = payments[0] if rng.random() < 0.8 else rng.choice(payments)
        action = replace(action, payment=payment)
    level = needs_reveal(state, action)
    card_revealed = reveal(level) if level else None
    mid = state.after_action(action, card_revealed)
    returned = rng.choice(state.return_options(mid))
    after_return = mid.after_return(returned)
    nobles = after_return.qualifying_nobles()
    noble = rng.choice(nobles).id if nobles else None
    return Turn(action, card_revealed, returned, noble)


def _with_hidden_buys(
    state: GameState, actions: list[Action], hidden: Sequence[Card]
) -> list[Action]:
    """Add purchases of blind-reserved cards, which only their owner can know."""
    extra: list[Action] = []
    for card in hidden:
        payments = state.payments(card)
        if payments:
            extra.append(Buy(card.id, payments[0]))
    if not extra:
        return actions
    return [a for a in actions if not isinstance(a, Pass)] + extra
