"""Scripted tables and buttons for the referee's state-machine tests (no pixels)."""

from __future__ import annotations

from dataclasses import replace

from companion.referee.machine import Effect
from companion.referee.splendor import Key, Motion, Press, Referee, TableRead, TableReading, predict
from companion.rules.gems import Tokens
from companion.rules.splendor import catalogue
from companion.rules.splendor.state import GameState

NAMES = ("Ann", "Bob", "Cy")
MARKET = (
    ("1w1", "1u1", "1g1", "1r1"),
    ("2w1", "2u1", "2g1", "2r1"),
    ("3w1", "3u1", "3g1", "3r1"),
)
NOBLES = ("n1", "n2", "n3", "n4")


def new_state(names: tuple[str, ...] = NAMES) -> GameState:
    return GameState.new(list(names), list(NOBLES[: len(names) + 1]), [list(r) for r in MARKET])


def with_player(state: GameState, index: int, **changes: object) -> GameState:
    """``state`` with player ``index`` changed (tokens move from/to the supply)."""
    players = list(state.players)
    old = players[index]
    new = replace(old, **changes)  # type: ignore[arg-type]
    players[index] = new
    supply = state.supply + old.tokens - new.tokens
    return replace(state, players=tuple(players), supply=supply)


def cards(*ids: str) -> tuple[catalogue.Card, ...]:
    return tuple(catalogue.card(i) for i in ids)


def tokens(text: str) -> Tokens:
    return Tokens.parse(text)


def show(ref: Referee, reading: TableReading | GameState, source: object = None) -> list[Effect]:
    """Hands pass, then the table is read twice (the settled-table rule)."""
    if isinstance(reading, GameState):
        reading = predict(reading)
    effects = ref.handle(Motion())
    for _ in range(2):
        effects += ref.handle(TableRead(reading, source))
    return effects


def press(ref: Referee, *keys: str) -> list[Effect]:
    effects: list[Effect] = []
    for key in keys:
        effects += ref.handle(Press(Key[key.upper()]))
    return effects


def choose(ref: Referee, label_part: str) -> list[Effect]:
    """Press NEXT until the menu item containing ``label_part`` is selected, then CONFIRM."""
    question = ref.question()
    assert question is not None, f"no menu is shown (phase {ref.phase})"
    labels = question.labels()
    matches = [i for i, label in enumerate(labels) if label_part in label]
    assert matches, f"{label_part!r} is not in the menu {labels}"
    while ref.asking is not None and ref.asking.selected != matches[0]:
        press(ref, "next")
    return press(ref, "confirm")


def referee_at(state: GameState) -> Referee:
    """A referee already watching ``state`` (as after setup or resume)."""
    return Referee([p.name for p in state.players], state=state)
