"""Seeded Duel games between computer players, written as records.

Used by ``splendor-companion simulate --game duel``, the property tests, the
golden playthroughs and the benchmark.  Everything is determined by the seed:
the decks, the board at setup and every bag draw come from a :class:`DuelDeck`
and the players' choices from a ``random.Random`` seeded from it.

Policies (``"random"`` and ``"greedy"``) are deliberately simple: they exist
to exercise the rules, not to play well.  Both build their turn with the
:class:`~companion.rules.duel.planner.TurnPlanner`, so every turn is legal by
construction; :func:`play_game` still replays each one through
:meth:`GameState.apply` when ``check`` is set (the tests do).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.rules.duel import cards as catalogue
from companion.rules.duel.cards import LEVELS, JewelCard
from companion.rules.duel.planner import TurnPlanner
from companion.rules.duel.record import DuelRecord, new_record
from companion.rules.duel.state import ALL_TOKENS, PYRAMID_WIDTH, GameState, player_names
from companion.rules.duel.tokens import DuelTokens, Token
from companion.rules.duel.turns import Action, Buy, ReserveCard, ReserveDeck, Take, Turn

#: A safety net: no real or simulated game needs this many turns.
MAX_TURNS = 600


class DuelDeck:
    """The hand-shuffled parts of a real table: three decks and the bag.

    Mutable on purpose (drawing consumes it) and kept outside the state: it
    plays the part of chance, supplying reveals and the truth behind blind
    reserves, as the physical table does for the referee.
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(f"duel-deck-{seed}")
        self.cards: dict[int, list[JewelCard]] = {}
        for level in LEVELS:
            pile = list(catalogue.cards_of_level(level))
            self.rng.shuffle(pile)
            self.cards[level] = pile

    def draw(self, level: int) -> JewelCard | None:
        pile = self.cards[level]
        return pile.pop() if pile else None

    def draw_bag(self, bag: DuelTokens) -> tuple[Token, ...]:
        """The bag's tokens in a random drawing order."""
        tokens = list(bag.kinds())
        self.rng.shuffle(tokens)
        return tuple(tokens)

    def deal(self, names: Sequence[str]) -> GameState:
        """Set up: all 25 tokens along the spiral and the 5/4/3 pyramid."""
        board = self.draw_bag(ALL_TOKENS)
        pyramid = []
        for level in LEVELS:
            row = []
            for _ in range(PYRAMID_WIDTH[level]):
                card = self.draw(level)
                assert card is not None
                row.append(card.id)
            pyramid.append(row)
        return GameState.new(list(names), board, pyramid)


#: A planner for a playable state (the class the policies see).
Planner = TurnPlanner[GameState]
Policy = Callable[[Planner, list[Action], random.Random], Action]


def random_policy(planner: Planner, actions: list[Action], rng: random.Random) -> Action:
    """A random action, buying half of the time it can (so games end)."""
    buys = [a for a in actions if isinstance(a, Buy)]
    if buys and rng.random() < 0.5:
        return rng.choice(buys)
    groups = [
        g
        for g in (
            [a for a in actions if isinstance(a, Take)],
            [a for a in actions if isinstance(a, ReserveCard | ReserveDeck)],
            buys,
        )
        if g
    ]
    return rng.choice(rng.choice(groups))


def _value(planner: Planner, card: JewelCard) -> tuple[int, int]:
    player = planner.state.player
    colour_bonus = 0
    if card.colour is not None:
        colour_bonus = player.colour_points(card.colour)
    return (2 * card.points + card.crowns + (1 if card.points and colour_bonus else 0), card.bonus)


def greedy_policy(planner: Planner, actions: list[Action], rng: random.Random) -> Action:
    """Buy the most valuable card it can; else take the line most useful for the
    cheapest valuable pyramid card; else reserve; else anything."""
    buys = [a for a in actions if isinstance(a, Buy)]
    if buys:
        best = max(buys, key=lambda a: (_value(planner, catalogue.card(a.card)), rng.random()))
        return best
    takes = [a for a in actions if isinstance(a, Take)]
    state = planner.state
    targets = sorted(
        state.pyramid_cards(),
        key=lambda c: (state.price(c).total() - 2 * c.points - c.crowns, c.id),
    )
    if takes and targets:
        want = state.price(targets[0]) - _clip(state.player.tokens, state.price(targets[0]))

        def useful(a: Take) -> tuple[int, int, float]:
            got = DuelTokens.of(*(k for c in a.cells if (k := planner.table.board[c])))
            hit = sum(min(got[k], want[k]) for k in Token)
            return (hit, len(a.cells), rng.random())

        best_take = max(takes, key=useful)
        if useful(best_take)[0] > 0 or not [a for a in actions if not isinstance(a, Take)]:
            return best_take
    reserves = [a for a in actions if isinstance(a, ReserveCard)]
    if reserves and targets:
        for card in targets:
            for a in reserves:
                if a.card == card.id:
                    return a
    return rng.choice(takes or actions)


def _clip(held: DuelTokens, price: DuelTokens) -> DuelTokens:
    return DuelTokens(min(a, b) for a, b in zip(held.counts, price.counts, strict=True))


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def choose_turn(
    state: GameState,
    policy: Policy,
    rng: random.Random,
    deck: DuelDeck,
    hidden: list[JewelCard],
    use_privileges: bool = True,
) -> tuple[Turn, GameState]:
    """Build one complete legal turn step by step; return it and the next state.

    ``hidden`` holds the cards behind the mover's blind reserves; it is
    updated when one is reserved or bought.
    """
    planner = TurnPlanner(state)
    if use_privileges:
        while planner.privilege_cells() and rng.random() < 0.3:
            planner.use_privilege(rng.choice(planner.privilege_cells()))
    if planner.must_replenish() or (planner.can_replenish() and rng.random() < 0.15):
        planner.replenish(deck.draw_bag(planner.bag()))
    actions = planner.actions(hidden)
    if not actions:
        # The privileges took the last gems and pearls: play the turn without them.
        return choose_turn(state, policy, rng, deck, hidden, use_privileges=False)
    action = policy(planner, actions, rng)
    if isinstance(action, Buy):
        card = catalogue.card(action.card)
        options = planner.payments(card)
        payment = options[0] if rng.random() < 0.8 else rng.choice(options)
        action = rng.choice(planner.buy_options(Buy(action.card, payment), card))
    planner.play(action)
    if isinstance(action, ReserveDeck):
        drawn = deck.draw(action.level)
        assert drawn is not None
        hidden.append(drawn)
    elif isinstance(action, Buy):
        hidden[:] = [c for c in hidden if c.id != action.card]
    level = planner.reveal_level()
    if level is not None:
        revealed = deck.draw(level)
        assert revealed is not None
        planner.reveal(revealed.id)
    while planner.royals_due():
        planner.take_royal(rng.choice(planner.royal_options()))
    returned = rng.choice(planner.return_options())
    return planner.finish(returned)


def play_game(
    seed: int,
    players: int | Sequence[str] = ("A", "B"),
    policy: str | Sequence[str] = "random",
    check: bool = False,
) -> tuple[DuelRecord, list[GameState]]:
    """Play one seeded game; return its record and every state from the start.

    ``players`` are the two names, first player first (or ``2`` for
    "Player 1" and "Player 2", as Splendor's ``play_game``); ``policy`` one
    name of :data:`POLICIES` or one per player.  With ``check`` every planned
    turn is also played through :meth:`GameState.apply` and must give the
    same state.
    """
    if isinstance(players, int):
        if players != 2:
            raise ValueError(f"Splendor Duel is for 2 players, not {players}")
        names = player_names(2)
    else:
        names = tuple(players)
    policies = [policy, policy] if isinstance(policy, str) else list(policy)
    chosen = [POLICIES[p] for p in policies]
    deck = DuelDeck(seed)
    rng = random.Random(f"duel-players-{seed}")
    state = deck.deal(names)
    record = new_record(state, Seed=str(seed), Policies=", ".join(policies))
    states = [state]
    hidden: list[list[JewelCard]] = [[], []]
    while not state.is_over():
        if state.turn >= MAX_TURNS:
            raise RuntimeError(f"Duel game {seed} did not end within {MAX_TURNS} turns")
        mover = state.current
        turn, after = choose_turn(state, chosen[mover], rng, deck, hidden[mover])
        if check:
            replayed = state.apply(turn)
            if replayed != after:
                raise AssertionError(f"turn {state.turn + 1} '{turn}': planned != applied")
        state = after
        record.turns.append(turn)
        states.append(state)
    outcome = state.outcome()
    assert outcome is not None
    record.headers["Result"] = outcome.summary()
    record.headers["Winner"] = outcome.winner
    return record, states


def simulate_game(
    seed: int, players: int | Sequence[str] = ("A", "B"), policy: str = "random"
) -> str:
    """One seeded game as record text (what ``simulate --game duel`` prints)."""
    record, _ = play_game(seed, players, policy)
    return record.text()
