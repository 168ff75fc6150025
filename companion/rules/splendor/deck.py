"""A seeded, shuffled set of decks for simulations and rendered demo games.

On a real table the decks are shuffled by hand and the engine never assumes
their order; a :class:`Deck` plays the part of the hand-shuffled decks when
nobody is at the table, supplying reveals and the truth behind blind reserves.
It is mutable on purpose (drawing consumes it) and lives outside the state.
"""

from __future__ import annotations

import random

from companion.rules.splendor import catalogue
from companion.rules.splendor.catalogue import LEVELS, Card, Noble
from companion.rules.splendor.state import MARKET_WIDTH, GameState


class Deck:
    """Three shuffled development decks and the shuffled nobles."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self.cards: dict[int, list[Card]] = {}
        for level in LEVELS:
            pile = list(catalogue.cards_of_level(level))
            self.rng.shuffle(pile)
            self.cards[level] = pile
        self.nobles: list[Noble] = list(catalogue.nobles())
        self.rng.shuffle(self.nobles)

    def draw(self, level: int) -> Card | None:
        """The top card of a level's deck, or ``None`` when it is empty."""
        pile = self.cards[level]
        return pile.pop() if pile else None

    def remaining(self, level: int) -> int:
        return len(self.cards[level])

    def deal(self, names: list[str] | tuple[str, ...]) -> GameState:
        """Set up a new game: players + 1 nobles and 4 cards of each level."""
        nobles = [n.id for n in self.nobles[: len(names) + 1]]
        market = []
        for level in LEVELS:
            row = []
            for _ in range(MARKET_WIDTH):
                card = self.draw(level)
                assert card is not None
                row.append(card.id)
            market.append(row)
        return GameState.new(list(names), nobles, market)
