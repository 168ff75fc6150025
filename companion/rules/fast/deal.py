"""The cards a player in the current seat cannot see, dealt at random for a search.

Both games' fast states (:mod:`.splendor.convert`, :mod:`.duel.convert`) are
*determinised* the same way: the unseen cards of each level are shuffled into
decks, and every blind reserve (:class:`~companion.rules.hidden.Hidden`) takes a
card of its level, the one its owner is known to hold if ``known`` pins it, else
the top of that deck.  Only the card tables differ, so they are passed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from companion.rules.hidden import Hidden


def deal_unseen(unseen: Sequence[Iterable[str]], reserved: Sequence[Sequence[object]],
                known: Mapping[int, Sequence[str]] | None, rng: random.Random,
                index: Mapping[str, int], level_of: Sequence[int]
                ) -> tuple[list[list[int]], list[list[int]], list[list[bool]]]:
    """(decks per level, each player's reserved card codes, which of them were blind).

    ``unseen[k]``: the ids of level k + 1 nobody may see; ``reserved[p]``: player p's
    reserves, cards (with ``id``) or :class:`Hidden`; ``known``: ids a blind reserve
    of player p is known to be; ``index``, ``level_of``: the game's card tables."""
    pools = []
    for ids in unseen:
        pool = sorted(index[c] for c in ids)
        rng.shuffle(pool)
        pools.append(pool)
    pinned = {p: [index[c] for c in ids] for p, ids in (known or {}).items()}
    for codes in pinned.values():
        for c in codes:
            pools[level_of[c]].remove(c)
    rows, blind = [], []
    for p, cards in enumerate(reserved):
        mine = list(pinned.get(p, ()))
        row: list[int] = []
        for r in cards:
            if isinstance(r, Hidden):
                pick = next((c for c in mine if level_of[c] == r.level - 1), None)
                if pick is not None:
                    mine.remove(pick)
                else:
                    pick = pools[r.level - 1].pop()
                row.append(pick)
            else:
                row.append(index[r.id])  # type: ignore[attr-defined]
        rows.append(row)
        blind.append([isinstance(r, Hidden) for r in cards])
    return pools, rows, blind
