"""What both games' searches share: the unseen cards dealt anew, and a turn's estimate.

Splendor's and Duel's fast states keep decks and reserved cards the same
way (lists of card indices per level, a blind flag per reserved card), so
one determinisation serves both: the cards the analyst cannot see (the
decks, the opponents' blind reserves) are pooled by level, shuffled and
dealt back.  The game's own table of card levels is passed in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, Self, TypeVar


class Dealt(Protocol):
    """What a fast state of either game offers the sampler: decks, reserves, blindness."""

    decks: list[list[int]]
    reserved: list[list[int]]
    blind: list[list[bool]]

    def copy(self) -> Self: ...


F = TypeVar("F", bound=Dealt)


class Redealer(Generic[F]):
    """Determinisations of one table position: every unseen card placed at random.

    Built once per position from ``base`` (one determinisation, the slow part:
    finding the unseen cards); :meth:`sample` then only shuffles.  ``pinned``
    cards behind the ``mover``'s blind reserves stay where they are (a card the
    analyst knows: the one the turn buys).  Each game's search makes its own
    ``base`` (``Sampler``, ``DuelSampler``)."""

    def __init__(self, base: F, mover: int, pinned: Sequence[str],
                 card_index: Mapping[str, int], card_level: Sequence[int]) -> None:
        self.base = base
        self.level = card_level
        self.slots = blind_slots(base.reserved, base.blind, mover,
                                 [card_index[c] for c in pinned])

    def sample(self, rng: random.Random) -> F:
        s = self.base.copy()
        s.decks = redeal(s.decks, s.reserved, self.slots, self.level, rng)
        return s


def blind_slots(reserved: Sequence[Sequence[int]], blind: Sequence[Sequence[bool]],
                mover: int, pinned: Sequence[int]) -> list[tuple[int, int]]:
    """(player, index) of every reserved card nobody but its owner has seen,
    except the mover's ``pinned`` ones (a card the analyst knows: the one bought)."""
    return [(p, i) for p in range(len(reserved))
            for i, (card, hidden) in enumerate(zip(reserved[p], blind[p], strict=True))
            if hidden and not (p == mover and card in pinned)]


def redeal(decks: Sequence[Sequence[int]], reserved: list[list[int]],
           slots: Sequence[tuple[int, int]], level: Sequence[int],
           rng: random.Random) -> list[list[int]]:
    """New decks, with the cards of the decks and of ``slots`` pooled by ``level``,
    shuffled and dealt back (``reserved`` is changed in place).  Sorted before the
    shuffle, so a sample depends on the seed alone, not on the order seen."""
    pools = [list(d) for d in decks]
    for p, i in slots:
        card = reserved[p][i]
        pools[level[card]].append(card)
    for pool in pools:
        pool.sort()
        rng.shuffle(pool)
    for p, i in slots:
        reserved[p][i] = pools[level[reserved[p][i]]].pop()
    return pools


@dataclass(frozen=True)
class Estimate:
    """A turn's estimated outcome: each seat's win chance (0..1) and the playouts behind it."""

    chances: tuple[float, ...]
    playouts: int


def chance_lost(mover: int, best: Estimate, played: Estimate) -> float:
    """Win chance the mover gave up by the turn played, 0..1 (never negative)."""
    return max(0.0, best.chances[mover] - played.chances[mover])
