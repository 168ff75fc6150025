"""What lies on the table, as the renderer needs it: :class:`TableScene`.

A plain value independent of the rules engine's ``GameState`` so the renderer
can draw anything (a half-built table, impossible test positions);
:func:`scene_from_state` converts a game state.  Card and noble ids are the
catalogue's (``1w3``, ``n4``); a reserved card reserved blind is ``deck1`` …
``deck3`` (the engine's ``Hidden`` text) and is drawn face down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.rules import catalogue

TOKEN_LETTERS = "wugrky"


@dataclass(frozen=True)
class PlayerScene:
    """One player's area: tokens per colour (w u g r k y), reserved, tableau."""

    tokens: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)
    reserved: tuple[str, ...] = ()
    tableau: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableScene:
    """A table to draw.

    ``market[level - 1]`` holds the 4 slots of that level (card id or None);
    ``decks[level - 1]`` says whether that deck still has cards; ``nobles`` the
    noble ids left on the table in slot order (None: an empty slot between them);
    ``supply`` the tokens per colour in the order w u g r k y.
    """

    market: tuple[tuple[str | None, ...], ...]
    decks: tuple[bool, bool, bool]
    nobles: tuple[str | None, ...]
    supply: tuple[int, int, int, int, int, int]
    players: tuple[PlayerScene, ...]


def scene_from_state(state: Any) -> TableScene:
    """The table that shows ``state`` (a :class:`companion.rules.state.GameState`).

    Duck-typed on the engine's attributes (``market``, ``decks`` (cards left per level),
    ``nobles``, ``supply``, ``players``) so vision never depends on the engine's
    module layout.
    """

    def counts(tokens: Any) -> tuple[int, int, int, int, int, int]:
        return tuple(int(n) for n in tokens.counts)  # type: ignore[return-value]

    market = tuple(tuple(c.id if c is not None else None for c in row) for row in state.market)
    sizes = getattr(state, "decks", None)
    if sizes is None:
        sizes = state.deck_sizes
    decks = tuple(bool(sizes[i] if not isinstance(sizes, dict) else sizes[i + 1])
                  for i in range(3))
    players = tuple(
        PlayerScene(counts(p.tokens), tuple(str(r) for r in p.reserved),
                    tuple(c.id for c in p.cards))
        for p in state.players
    )
    return TableScene(market, decks, tuple(n.id for n in state.nobles),  # type: ignore[arg-type]
                      counts(state.supply), players)


def _draw(pool: dict[int, list[str]], level: int) -> str:
    """A card of ``level`` from ``pool``, or of the fullest level when that one is spent
    (four late-game tableaux can use up level 3: design seed 40000-40719 did)."""
    if not pool[level]:
        level = max(pool, key=lambda lv: len(pool[lv]))
    return pool[level].pop()


def random_scene(players: int, seed: int, progress: float | None = None) -> TableScene:
    """A plausible mid-game table from a seed: cards drawn without repeats,
    token counts that sum correctly (7/5/4 gems per colour by player count, 5 gold),
    nobles players + 1 minus those taken.  ``progress`` (0..1) moves it towards
    the end of the game: fewer cards left, longer tableaus.
    """
    rng = np.random.default_rng(seed)
    if progress is None:
        progress = float(rng.uniform(0, 1))
    gems_each = {2: 4, 3: 5, 4: 7}[players]
    pool = {lv: [c.id for c in catalogue.cards_of_level(lv)] for lv in (1, 2, 3)}
    for lv in pool:
        rng.shuffle(pool[lv])
    market = []
    decks = []
    for lv in (1, 2, 3):
        row: list[str | None] = [pool[lv].pop() for _ in range(4)]
        if progress > 0.8 and rng.uniform() < 0.3:
            row[int(rng.integers(4))] = None
        market.append(tuple(row))
        decks.append(not (progress > 0.85 and rng.uniform() < 0.4))
    all_nobles = [n.id for n in catalogue.nobles()]
    rng.shuffle(all_nobles)
    taken = int(rng.integers(0, 2)) if progress > 0.5 else 0
    nobles = tuple(all_nobles[: players + 1 - taken])
    supply = [gems_each] * 5 + [5]
    hands = [[0] * 6 for _ in range(players)]
    for p in range(players):
        want = int(rng.integers(0, 11))
        for _ in range(want):
            avail = [i for i in range(6) if supply[i] > 0 and (i < 5 or rng.uniform() < 0.3)]
            if not avail:
                break
            i = int(rng.choice(avail))
            supply[i] -= 1
            hands[p][i] += 1
    ps = []
    for p in range(players):
        nres = int(rng.integers(0, 4))
        reserved = []
        for _ in range(nres):
            lv = int(rng.integers(1, 4))
            reserved.append(f"deck{lv}" if rng.uniform() < 0.5 else _draw(pool, lv))
        ntab = int(rng.integers(0, 3 + int(12 * progress)))
        tableau = [_draw(pool, int(rng.choice([1, 1, 2, 3]))) for _ in range(ntab)]
        ps.append(PlayerScene(tuple(hands[p]), tuple(reserved), tuple(tableau)))  # type: ignore[arg-type]
    return TableScene(tuple(market), tuple(decks), nobles, tuple(supply),  # type: ignore[arg-type]
                      tuple(ps))
