"""Sample views of every situation, from seeded games: goldens, previews, benchmarks.

The golden PNG tests, ``python -m companion.screen`` (a gallery of
screenshots) and ``tests/bench/bench_screen.py`` all draw these, so what is
checked, what is looked at and what is timed are the same screens.  The
games are real seeded games of :func:`companion.rules.splendor.simulate.play_game`
(greedy players) with long names, chosen so the end is a tie decided by the
fewer-cards rule, which is the hardest end screen to fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import N_, _, words
from companion.i18n.reasons import translate_reason
from companion.i18n.words import describe_noble, describe_tokens, describe_turn
from companion.rules.errors import IllegalAction
from companion.rules.gems import COLOURS, Tokens
from companion.rules.splendor.actions import Buy, Take, Turn
from companion.rules.splendor.catalogue import Card
from companion.rules.splendor.simulate import play_game
from companion.rules.splendor.state import GameState
from companion.screen.view import ScreenView

#: Long names: the layout must fit them at 800×480 with 4 players.
LONG_NAMES = ("Maximilian-Alexander", "Bob", "Catherine-Elisabeth", "Dmitri")
#: Seeds whose greedy games end in a tie broken by fewer cards (see the module doc).
SEEDS = {2: 2, 3: 21, 4: 10}

#: What a player can enter by hand; the referee's real menu may differ.
MANUAL_MENU = (
    N_("Take 3 different gems"),
    N_("Take 2 gems of one colour"),
    N_("Reserve a market card"),
    N_("Reserve from a deck"),
    N_("Buy a card"),
    N_("Pass (no action possible)"),
)


def describe_candidate(card: Card) -> str:
    """A menu line for a card the reader is unsure of: "2g5 · green, 1 point, costs ..."."""
    points = words.points(card.points) if card.points else _("no points")
    return _("{id} · {gem}, {points}, costs {cost}").format(
        id=card.id, gem=words.gem_name(card.bonus), points=points,
        cost=describe_tokens(card.cost),
    )


def sample_views(
    players: int = 4, names: Sequence[str] = LONG_NAMES
) -> dict[str, ScreenView]:
    """Every kind of screen for one seeded game of ``players`` players, by name."""
    seed = SEEDS[players]
    record, states = play_game(seed, tuple(names[:players]), "greedy")
    turns = list(record.turns)
    mid = len(turns) // 2
    views: dict[str, ScreenView] = {}
    views["setup"] = ScreenView.setup(states[0])
    views["waiting"] = ScreenView.waiting(states[mid], text="", confirm=_("Turn not seen"))
    views["waiting_note"] = ScreenView(
        states[mid + 1],
        views["waiting"].mode,
        _("Waiting for a still table"),
        _("{name}, play your turn, then take your hands off the table.").format(
            name=states[mid + 1].player.name
        ),
        hints=views["waiting"].hints,
        note=_("Last turn: {turn}").format(turn=describe_turn(states[mid], turns[mid])),
    )
    views["proposal"] = ScreenView.proposal(states[mid], turns[mid], 1, 1)
    buy = _first(
        states, turns, lambda s, t: isinstance(t.action, Buy) and t.action.payment.total() > 2
    )
    views["candidate"] = ScreenView.proposal(states[buy], turns[buy], 2, 3)
    # An error needs a colour with fewer than 4 left, so that taking 2 is illegal.
    low = mid + _first(
        states[mid:], turns[mid:], lambda s, t: min(s.supply[g] for g in COLOURS) < 4
    )
    views["error"] = ScreenView.error(states[low], _illegal_pair_reason(states[low]))
    ret = _first(states, turns, lambda s, t: bool(t.returned))
    views["return_tokens"] = _return_menu(states[ret], turns[ret])
    views["noble_choice"] = _noble_menu(states[mid])
    views["unsure_card"] = _unsure_menu(states[mid])
    views["manual_entry"] = ScreenView.choice(
        states[mid],
        _("Enter {name}'s turn").format(name=states[mid].player.name),
        [_(item) for item in MANUAL_MENU],
        selected=3,
        text=_("Choose what was done; the next menus ask for the gems or the card."),
    )
    final = _first(states, turns, lambda s, t: s.final_round)
    views["final_round"] = ScreenView.proposal(states[final], turns[final], 1, 2)
    views["end"] = ScreenView.end(states[-1])
    return views


def _first(states: list[GameState], turns: list[Turn], test: object) -> int:
    assert callable(test)
    for i, (state, turn) in enumerate(zip(states, turns, strict=False)):
        if test(state, turn):
            return i
    return len(turns) // 2


def _illegal_pair_reason(state: GameState) -> str:
    """The engine's own message for taking 2 of a colour that has fewer than 4 left."""
    gem = min(COLOURS, key=lambda g: state.supply[g])
    try:
        state.check_action(Take(Tokens.of(gem, gem)))
    except IllegalAction as exc:
        return _("{name} took {gems}: {reason}. Put them back or enter the turn.").format(
            name=state.player.name, gems=words.gem_count(gem, 2),
            reason=translate_reason(str(exc)),
        )
    return _("{name}'s change matches no legal turn.").format(name=state.player.name)


def _return_menu(state: GameState, turn: Turn) -> ScreenView:
    after = state.after_action(turn.action, turn.reveal)
    options = state.return_options(after)
    need = state.tokens_to_return(after)
    items = [_("Return {tokens}").format(tokens=describe_tokens(o)) for o in options]
    selected = options.index(turn.returned) if turn.returned in options else 0
    held = after.player.tokens.total()
    # The scoreboard shows the mid-turn position: the tokens now on the table.
    return ScreenView.choice(
        after,
        _("{name}: return {tokens}").format(name=state.player.name, tokens=words.tokens(need)),
        items,
        selected,
        text=_("{n} tokens held; 10 is the most at the end of a turn.").format(n=held),
    )


def _noble_menu(state: GameState) -> ScreenView:
    nobles = state.nobles[:2]
    return ScreenView.choice(
        state,
        _("Two nobles can visit: which one?"),
        [f"{describe_noble(n)}, {words.points(3)}" for n in nobles],
        1,
        text=_("{name} chooses one; the other stays on the table.").format(
            name=state.player.name
        ),
    )


def _unsure_menu(state: GameState) -> ScreenView:
    cards = sorted(state.unseen(2), key=lambda c: c.id)[:3]
    return ScreenView.choice(
        state,
        _("Which level {level} card was revealed?").format(level=2),
        [describe_candidate(c) for c in cards],
        0,
        text=_("The new card in the level {level} row could not be read for sure.").format(
            level=2
        ),
    )
