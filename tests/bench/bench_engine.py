"""Splendor engine speed: random-play turns per second, fast engine beside baselines.

Three engines play random games in the same run, so the ratios hold on any
machine:

* **reference** — a minimal pure-Python engine written below, shaped like the
  University of Melbourne course engine (dict-of-colour states, actions as
  dicts with their returns and noble enumerated flat, successor applied in
  place, no deepcopy).  It is the fixed baseline: it never changes.
* **readable** — :mod:`companion.rules` (``play_game``: checked turns,
  immutable states), what the referee uses.
* **fast** — :mod:`companion.rules.fast` (``random_turn``), what search uses.

Targets of issue 15: fast >= 38k turns/s in 2 players and >= 30k in 4 on a
2-core x86 machine, i.e. about 3x the course engine.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

from timing import ROOT  # noqa: F401  (puts the repository on sys.path)

from companion.rules.fast.splendor.state import FastState, random_turn
from companion.rules.splendor import catalogue
from companion.rules.splendor.simulate import play_game

COLOURS = ("white", "blue", "green", "red", "black")
GEMS = {2: 4, 3: 5, 4: 7}


class RefState:
    """A course-style state: dicts keyed by colour names, lists of card dicts."""

    def __init__(self, players: int, seed: int) -> None:
        rng = random.Random(seed)
        self.decks = []
        for level in (1, 2, 3):
            pile = [{"id": c.id, "colour": COLOURS[list(catalogue.COLOURS).index(c.bonus)],
                     "points": c.points,
                     "cost": {COLOURS[i]: n for i, n in enumerate(c.cost.counts[:5]) if n}}
                    for c in catalogue.cards_of_level(level)]
            rng.shuffle(pile)
            self.decks.append(pile)
        self.dealt = [[self.decks[lv].pop() for _ in range(4)] for lv in range(3)]
        nobles = list(catalogue.nobles())
        rng.shuffle(nobles)
        self.nobles = [{"id": n.id, "need": {COLOURS[i]: k for i, k in
                                             enumerate(n.requirement.counts[:5]) if k}}
                       for n in nobles[: players + 1]]
        self.gems = {c: GEMS[players] for c in COLOURS} | {"yellow": 5}
        self.agents = [{"gems": dict.fromkeys((*COLOURS, "yellow"), 0),
                        "cards": {c: [] for c in (*COLOURS, "yellow")},
                        "score": 0, "passed": False} for _ in range(players)]
        self.turn = 0


def _returns(held: dict[str, int], extra: dict[str, int]) -> list[dict[str, int]]:
    total = {c: held[c] + extra.get(c, 0) for c in held}
    over = sum(total.values()) - 10
    if over <= 0:
        return [{}]
    out = []
    for combo in itertools.combinations_with_replacement(list(total), over):
        back: dict[str, int] = {}
        for c in combo:
            back[c] = back.get(c, 0) + 1
        if all(total[c] >= n for c, n in back.items()):
            out.append(back)
    return out


def ref_actions(s: RefState, me: int) -> list[dict[str, object]]:
    agent = s.agents[me]
    actions: list[dict[str, object]] = []
    available = [c for c in COLOURS if s.gems[c] > 0]
    for combo in itertools.combinations(available, min(3, len(available))):
        take = dict.fromkeys(combo, 1)
        for back in _returns(agent["gems"], take):
            actions.append({"type": "collect_diff", "collected": take, "returned": back})
    for c in COLOURS:
        if s.gems[c] >= 4:
            for back in _returns(agent["gems"], {c: 2}):
                actions.append({"type": "collect_same", "collected": {c: 2}, "returned": back})
    if len(agent["cards"]["yellow"]) < 3:
        gold = {"yellow": 1} if s.gems["yellow"] else {}
        for row in s.dealt:
            for card in row:
                if card is not None:
                    for back in _returns(agent["gems"], gold):
                        actions.append({"type": "reserve", "card": card, "collected": gold,
                                        "returned": back})
    for card in [c for row in s.dealt for c in row if c] + agent["cards"]["yellow"]:
        short, pay = 0, {}
        for c, n in card["cost"].items():
            need = max(n - len(agent["cards"][c]), 0)
            use = min(need, agent["gems"][c])
            if use:
                pay[c] = use
            short += need - use
        if short <= agent["gems"]["yellow"]:
            if short:
                pay["yellow"] = short
            kind = "buy_reserve" if card in agent["cards"]["yellow"] else "buy_available"
            actions.append({"type": kind, "card": card, "returned": pay})
    return actions or [{"type": "pass"}]


def ref_apply(s: RefState, me: int, action: dict[str, object]) -> None:
    agent = s.agents[me]
    kind = action["type"]
    agent["passed"] = kind == "pass"
    if kind in ("collect_diff", "collect_same", "reserve"):
        for c, n in action["collected"].items():  # type: ignore[attr-defined]
            agent["gems"][c] += n
            s.gems[c] -= n
        for c, n in action["returned"].items():  # type: ignore[attr-defined]
            agent["gems"][c] -= n
            s.gems[c] += n
    if kind == "reserve" or kind == "buy_available":
        card = action["card"]
        for lv, row in enumerate(s.dealt):
            if card in row:
                i = row.index(card)
                row[i] = s.decks[lv].pop() if s.decks[lv] else None
    if kind == "reserve":
        agent["cards"]["yellow"].append(action["card"])
    if kind in ("buy_available", "buy_reserve"):
        card = action["card"]
        for c, n in action["returned"].items():  # type: ignore[attr-defined]
            agent["gems"][c] -= n
            s.gems[c] += n
        if kind == "buy_reserve":
            agent["cards"]["yellow"].remove(card)
        agent["cards"][card["colour"]].append(card)  # type: ignore[index]
        agent["score"] += card["points"]  # type: ignore[operator]
        for noble in s.nobles:
            if all(len(agent["cards"][c]) >= n for c, n in noble["need"].items()):
                s.nobles.remove(noble)
                agent["score"] += 3
                break
    s.turn += 1


def ref_game(seed: int, players: int) -> int:
    s, rng = RefState(players, seed), random.Random(seed)
    while True:
        for me in range(players):
            actions = ref_actions(s, me)
            buys = [a for a in actions if str(a["type"]).startswith("buy")]
            pick = rng.choice(buys) if buys and rng.random() < 0.5 else rng.choice(actions)
            ref_apply(s, me, pick)
        if any(a["score"] >= 15 for a in s.agents) or all(a["passed"] for a in s.agents):
            return s.turn


def readable_game(seed: int, players: int) -> int:
    _, states = play_game(seed, players, "random")
    return len(states) - 1


def fast_game(seed: int, players: int) -> int:
    s, rng = FastState.seeded(players, seed), random.Random(seed)
    while not s.is_over():
        random_turn(s, rng)
    return s.turn


def turns_per_second(game: Callable[[int, int], int], players: int, seconds: float) -> float:
    turns, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += game(seed, players)
        seed += 1
    return turns / (time.perf_counter() - start)


def main() -> None:
    print("random play, turns per second (2 s each; higher is better)")
    for players in (2, 4):
        ref = turns_per_second(ref_game, players, 2.0)
        readable = turns_per_second(readable_game, players, 2.0)
        fast = turns_per_second(fast_game, players, 2.0)
        target = 38000 if players == 2 else 30000
        print(f"{players} players: reference (course-style) {ref:9.0f}   readable {readable:9.0f}"
              f"   fast {fast:9.0f}  = {fast / ref:4.1f}x reference, {fast / readable:4.1f}x"
              f" readable  (target {target})")


if __name__ == "__main__":
    main()
