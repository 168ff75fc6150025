"""The Splendor Duel catalogue and board as tables for the fast Duel engine.

Why tables: the fast engine (:mod:`.duel`) asks "what does card 31 cost,
which ability has it, which cells make line 17" hundreds of thousands of
times per analysed game; tuples indexed by small integers answer without
attribute look-ups or enum hashing.  Everything here is computed once at
import from :mod:`companion.rules.duel` (cards in CSV order, cells in reading
order, the 145 lines of :data:`~companion.rules.duel.board.LINES`).

Token kinds are the indices of :data:`~companion.rules.duel.tokens.KINDS`:
0-4 the gem colours, 5 pearl, 6 gold.  Action codes:

* ``TAKE + line`` (0-144): take the tokens of one line;
* ``RESERVE_SLOT + slot`` (145-156): reserve a pyramid slot (level 1 slots
  0-4, level 2 5-8, level 3 9-11) with a gold taken from a cell;
* ``RESERVE_DECK + level - 1`` (157-159): reserve a deck's top card, blind;
* ``BUY + card`` (160-226): buy a card (pyramid or own reserve).
"""

from __future__ import annotations

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import LINES, SPIRAL
from companion.rules.duel.cards import Ability

PEARL = 5
GOLD = 6

CARDS = catalogue.cards()
CARD_ID: tuple[str, ...] = tuple(c.id for c in CARDS)
CARD_INDEX: dict[str, int] = {c.id: i for i, c in enumerate(CARDS)}
CARD_LEVEL: tuple[int, ...] = tuple(c.level - 1 for c in CARDS)
#: The bonus colour (0-4), -1 for the grey joker and points cards.
CARD_COLOUR: tuple[int, ...] = tuple(c.colour.index if c.colour else -1 for c in CARDS)
CARD_BONUS: tuple[int, ...] = tuple(c.bonus for c in CARDS)
CARD_POINTS: tuple[int, ...] = tuple(c.points for c in CARDS)
CARD_CROWNS: tuple[int, ...] = tuple(c.crowns for c in CARDS)
#: Cost per kind (w u g r k p), and only the kinds it names as (kind, count) pairs.
CARD_COST: tuple[tuple[int, ...], ...] = tuple(c.cost.counts[:6] for c in CARDS)
CARD_NEED: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((k, n) for k, n in enumerate(cost) if n) for cost in CARD_COST
)
CARD_JOKER: tuple[bool, ...] = tuple(Ability.WILD in c.abilities for c in CARDS)
CARD_AGAIN: tuple[bool, ...] = tuple(Ability.AGAIN in c.abilities for c in CARDS)
CARD_TOKEN: tuple[bool, ...] = tuple(Ability.TOKEN in c.abilities for c in CARDS)
CARD_PRIVILEGE: tuple[bool, ...] = tuple(Ability.PRIVILEGE in c.abilities for c in CARDS)
CARD_STEAL: tuple[bool, ...] = tuple(Ability.STEAL in c.abilities for c in CARDS)
#: True when buying the card asks more than its payment (joker, token, privilege, steal).
CARD_SPECIAL: tuple[bool, ...] = tuple(
    bool(c.abilities - {Ability.AGAIN}) for c in CARDS
)
LEVEL_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, c in enumerate(CARDS) if c.level == level) for level in (1, 2, 3)
)

ROYALS = catalogue.royals()
ROYAL_ID: tuple[str, ...] = tuple(r.id for r in ROYALS)
ROYAL_INDEX: dict[str, int] = {r.id: i for i, r in enumerate(ROYALS)}
ROYAL_POINTS: tuple[int, ...] = tuple(r.points for r in ROYALS)
ROYAL_AGAIN: tuple[bool, ...] = tuple(r.ability is Ability.AGAIN for r in ROYALS)
ROYAL_PRIVILEGE: tuple[bool, ...] = tuple(r.ability is Ability.PRIVILEGE for r in ROYALS)
ROYAL_STEAL: tuple[bool, ...] = tuple(r.ability is Ability.STEAL for r in ROYALS)

#: The pyramid's 12 slots: level of each, and the first slot of each level.
SLOT_LEVEL: tuple[int, ...] = (0,) * 5 + (1,) * 4 + (2,) * 3
LEVEL_FIRST_SLOT: tuple[int, ...] = (0, 5, 9)
PYRAMID_SLOTS = 12

#: Lines of 1-3 cells (sorted cell indices) and their bit masks.
LINE_CELLS: tuple[tuple[int, ...], ...] = LINES
LINE_MASK: tuple[int, ...] = tuple(sum(1 << c for c in line) for line in LINES)
LINE_INDEX: dict[tuple[int, ...], int] = {line: i for i, line in enumerate(LINES)}
SPIRAL_CELLS: tuple[int, ...] = SPIRAL

TAKE = 0
RESERVE_SLOT = len(LINES)
RESERVE_DECK = RESERVE_SLOT + PYRAMID_SLOTS
BUY = RESERVE_DECK + 3
ACTIONS = BUY + len(CARDS)


def cells_of(mask: int) -> list[int]:
    """The cell indices set in a 25-bit mask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
