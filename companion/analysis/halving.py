"""Sequential halving with common draws: the one search both games' players use.

Each round gives every surviving option the same seeded draws (so options are
compared on the same futures), ranks them by their mean result for the mover
and keeps the better half, until one is left (Karnin et al. 2013).  The
analysis (:mod:`.splendor.search`, :mod:`.duel.search`) wants the winner; the computer
seat (:mod:`.seat`) wants the whole ranking with means and playouts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

X = TypeVar("X", bound=Hashable)


def draw_seed(*parts: int) -> int:
    """A playout's seed from its parts (search seed, round, draw), stable across runs."""
    value = 0
    for part in parts:
        value = (value * 1_000_003 + part) & 0xFFFFFFFFFFFF
    return value


def halving(pool: Sequence[X], run: Callable[[X, int], Sequence[float]], mover: int,
            budget: int, seed: int, lone: int = 0, deadline: float | None = None
            ) -> tuple[list[tuple[X, float, int]], int]:
    """Every option of ``pool`` ranked, with its mean result for ``mover`` and its playouts:
    the winner first, then those dropped in the last round (best mean first), then the
    earlier ones.  ``run(option, draw)`` plays one playout.  A pool of one gets ``lone``
    playouts (a seat still says its chance).  Returns the ranking and the playouts spent.

    ``deadline`` (a ``time.monotonic()`` value): past it, the search stops after the
    draw it is playing and ranks the options still in by their means so far.  WHY: a
    computer seat must not keep the players waiting on a slow box, whatever a turn's
    number of options; the same seed then plays the same on a fast machine."""
    alive = list(pool)
    totals = dict.fromkeys(alive, 0.0)
    counts = dict.fromkeys(alive, 0)
    dropped: list[list[X]] = []
    spent = 0
    if len(alive) == 1 and lone:
        for k in range(lone):
            totals[alive[0]] += run(alive[0], draw_seed(seed, 77, k))[mover]
        counts[alive[0]] = spent = lone
    rounds = max(1, (len(alive) - 1).bit_length())
    round_no = 0
    late = False
    while len(alive) > 1 and not late:
        per = max(1, budget // (rounds * len(alive)))
        for k in range(per):
            draw = draw_seed(seed, round_no, k)
            for t in alive:
                totals[t] += run(t, draw)[mover]
                counts[t] += 1
                spent += 1
            if deadline is not None and time.monotonic() > deadline:
                late = True
                break
        alive.sort(key=lambda t: totals[t] / counts[t], reverse=True)
        if late:
            break
        keep = max(1, (len(alive) + 1) // 2)
        dropped.append(alive[keep:])
        alive = alive[:keep]
        round_no += 1
    order = alive + [t for group in reversed(dropped) for t in group]
    return [(t, totals[t] / max(1, counts[t]), counts[t]) for t in order], spent
