"""The catalogue as integer tables, built once, for the fast engine's hot loops.

Why tables: the readable engine asks a :class:`~companion.rules.splendor.catalogue.Card`
for its cost through an enum-keyed :class:`~companion.rules.gems.Tokens`;
here a card is an index 0..89 and its cost a plain tuple, so a playout does
list indexing only.  Colours are 0..4 in card order (white, blue, green, red,
black) and gold is 5, as in :data:`~companion.rules.gems.TOKENS`.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

from companion.rules.gems import COLOURS, TOKENS
from companion.rules.splendor import catalogue

CARDS = catalogue.cards()
CARD_ID: tuple[str, ...] = tuple(c.id for c in CARDS)
CARD_INDEX: dict[str, int] = {c.id: i for i, c in enumerate(CARDS)}
#: Level 0, 1, 2 (rulebook level minus one) of each card.
CARD_LEVEL: tuple[int, ...] = tuple(c.level - 1 for c in CARDS)
CARD_BONUS: tuple[int, ...] = tuple(COLOURS.index(c.bonus) for c in CARDS)
CARD_POINTS: tuple[int, ...] = tuple(c.points for c in CARDS)
CARD_COST: tuple[tuple[int, int, int, int, int], ...] = tuple(
    (c.cost.counts[0], c.cost.counts[1], c.cost.counts[2], c.cost.counts[3], c.cost.counts[4])
    for c in CARDS
)
#: Card indices of each level, in catalogue order.
LEVEL_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, lv in enumerate(CARD_LEVEL) if lv == level) for level in range(3)
)

NOBLES = catalogue.nobles()
NOBLE_ID: tuple[str, ...] = tuple(n.id for n in NOBLES)
NOBLE_INDEX: dict[str, int] = {n.id: i for i, n in enumerate(NOBLES)}
NOBLE_POINTS: tuple[int, ...] = tuple(n.points for n in NOBLES)
NOBLE_REQ: tuple[tuple[int, ...], ...] = tuple(tuple(n.requirement.counts[:5]) for n in NOBLES)

#: Every take: 3, 2 or 1 different colours, then the five pairs.  An action
#: code below :data:`RESERVE_SLOT` is an index into this table.
TAKES: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 if c in combo else 0 for c in range(5))
    for size in (3, 2, 1)
    for combo in combinations(range(5), size)
) + tuple(tuple(2 if c == g else 0 for c in range(5)) for g in range(5))
TAKE_TEXT: tuple[str, ...] = tuple(
    "".join(TOKENS[c].letter * n for c, n in enumerate(t)) for t in TAKES
)

#: Action codes: ``0..29`` takes, then these bases plus a market slot, a
#: level (0..2) or a card index.
RESERVE_SLOT = 100
RESERVE_DECK = 120
BUY = 200
PASS = 999

#: Bonuses are capped at this value in the noble key: no noble asks for more.
NOBLE_CAP = 4
#: Holdings (bonus + tokens) are capped at this value in the affordability
#: key: no card costs more than 7 of one colour.
HOLD_CAP = 7


@cache
def takes_for(supply: tuple[int, ...]) -> tuple[int, ...]:
    """The take codes allowed by a supply's five gem counts (cached: few supplies occur)."""
    available = [c for c in range(5) if supply[c] > 0]
    size = min(3, len(available))
    codes: list[int] = []
    if size:
        for combo in combinations(available, size):
            want = tuple(1 if c in combo else 0 for c in range(5))
            codes.append(TAKES.index(want))
    codes += [25 + c for c in range(5) if supply[c] >= 4]
    return tuple(codes)


#: ``NOBLE_MASK[key]`` is the bit set of nobles whose requirement the capped
#: bonuses coded by ``key`` (base 5, colour c weighing 5**c) meet.
NOBLE_MASK: list[int] = []
for _key in range(5**5):
    _b = [(_key // 5**c) % 5 for c in range(5)]
    NOBLE_MASK.append(
        sum(1 << j for j, req in enumerate(NOBLE_REQ) if all(_b[c] >= req[c] for c in range(5)))
    )

_AFFORD: dict[int, int] = {}


def affordable_mask(key: int) -> int:
    """Bit set of the cards a player can buy, from their holdings key.

    ``key`` packs min(bonus + tokens, 7) per colour (3 bits each, white
    lowest) and the gold held above bit 15.  Computed once per key and kept:
    a random game visits a few thousand keys, each lookup then costs a dict
    access instead of 90 cost comparisons.
    """
    mask = _AFFORD.get(key)
    if mask is None:
        gold = key >> 15
        h = [(key >> (3 * c)) & 7 for c in range(5)]
        mask = 0
        for i, cost in enumerate(CARD_COST):
            short = 0
            for c in range(5):
                if cost[c] > h[c]:
                    short += cost[c] - h[c]
            if short <= gold:
                mask |= 1 << i
        _AFFORD[key] = mask
    return mask


@cache
def return_options(tokens: tuple[int, ...], need: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``need`` tokens coverable by ``tokens``, in the readable order."""
    options = []
    for combo in combinations_with_replacement(range(6), need):
        back = [0] * 6
        for k in combo:
            back[k] += 1
        if all(back[k] <= tokens[k] for k in range(6)):
            options.append(tuple(back))
    return tuple(options)
