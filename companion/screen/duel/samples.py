"""Sample views of Splendor Duel, from seeded games: goldens, previews, layout checks.

As :mod:`companion.screen.splendor.samples` for Splendor: real seeded games of
:func:`companion.rules.duel.play_game` (greedy players, long names), so what
the golden tests check and what ``python -m companion.screen --game duel``
shows are the same screens.  Seed 0 ends on 20 prestige points, seed 5 on
10 crowns (listed by ``play_game`` over seeds 0-39); seed 0's game is the
one shown mid-game; seed 41 ends on 10 points in one colour (the first
such seed of 0-300).  The views are built through the same
:class:`ScreenView` constructors the referee uses, with the turns' words as
the rules say them.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import N_, _
from companion.i18n.reasons import translate_reason
from companion.rules import duel
from companion.rules.errors import RulesError
from companion.screen.view import ScreenView

#: Long names: the layout must fit them at 800×480.
LONG_NAMES = ("Maximilian-Alexander", "Catherine-Elisabeth")
#: Seeds of greedy games ending on points, on crowns and on one colour.
SEED_POINTS = 0
SEED_CROWNS = 5
SEED_COLOUR = 41

#: What a Duel player can enter by hand (the optional actions, then the mandatory ones).
MANUAL_MENU = (
    N_("Use a privilege"),
    N_("Replenish the board"),
    N_("Take up to 3 tokens in a line"),
    N_("Take a gold and reserve a card"),
    N_("Buy a card"),
)


def duel_sample_views(names: Sequence[str] = LONG_NAMES) -> dict[str, ScreenView]:
    """Every kind of Duel screen, by name."""
    pair = (names[0], names[1])
    record, states = duel.play_game(SEED_POINTS, pair, "greedy")
    turns = list(record.turns)
    mid = len(turns) // 2
    views: dict[str, ScreenView] = {}
    views["setup"] = ScreenView.setup(states[0])
    views["waiting"] = ScreenView.waiting(states[mid], confirm=_("Turn not seen"))
    views["proposal"] = ScreenView.proposal(
        states[mid], duel.describe_turn(states[mid], turns[mid]), 2, 3
    )
    views["error"] = ScreenView.error(states[mid + 1], _refusal(states[mid + 1], turns[mid]))
    views["royal_choice"] = ScreenView.choice(
        states[mid],
        _("Which royal card?"),
        [royal.describe() for royal in states[mid].royals[:2]],
        1,
        text=_("{name} chooses one; the other stays on the table.").format(
            name=states[mid].player.name
        ),
    )
    views["manual_entry"] = ScreenView.choice(
        states[mid],
        _("Enter {name}'s turn").format(name=states[mid].player.name),
        [_(item) for item in MANUAL_MENU],
        selected=2,
    )
    late = len(turns) - 2
    views["late"] = ScreenView.proposal(
        states[late], duel.describe_turn(states[late], turns[late])
    )
    views["end_points"] = ScreenView.end(states[-1])
    crowns = duel.play_game(SEED_CROWNS, pair, "greedy")[1]
    views["end_crowns"] = ScreenView.end(crowns[-1])
    colour = duel.play_game(SEED_COLOUR, pair, "greedy")[1]
    views["late_colour"] = ScreenView.waiting(colour[-2])
    views["end_colour"] = ScreenView.end(colour[-1])
    return views


def _refusal(state: duel.GameState, turn: duel.Turn) -> str:
    """The rules' own refusal of ``turn`` (played by the wrong player, on a changed table)."""
    try:
        state.apply(turn)
    except RulesError as exc:
        return translate_reason(str(exc))
    return _("{name}'s change matches no legal turn.").format(name=state.player.name)
