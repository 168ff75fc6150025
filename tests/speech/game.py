"""A whole game played through the real referee loop from a button script, with speech.

The table is read by a perfect camera (``predict`` of the true state), so the
referee proposes turns exactly as at a table; the buttons come from a script
first recorded by :class:`~companion.demo.splendor.Operator` (who knows the
true game) and then replayed as a player would press them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.demo.splendor import Operator, parse_steps
from companion.referee.driver import TableLoop
from companion.referee.splendor import Referee, TableRead
from companion.referee.splendor.reading import predict
from companion.rules.splendor.simulate import play_game
from companion.screen.view import Mode
from firmware.buttons import Button, ButtonEvent, Gesture

NAMES = ("Ann", "Bob")
SEED = 2  # a greedy 2-player game that ends in a tie broken by fewer cards


def game() -> tuple[Any, list[Any]]:
    return play_game(SEED, NAMES, "greedy")


def _show(loop: TableLoop, state: Any) -> None:
    for _ in range(2):  # the referee acts when two reads agree
        loop.dispatch(TableRead(predict(state)))


def record_script(path: Path, camera: bool = True) -> Path:
    """Play the game once with the operator; write the frames and presses as a script.

    Without ``camera`` no table is ever read: the set-up and every turn are
    entered with the three buttons through the menus.
    """
    record, states = game()
    ref = Referee(record.players, camera=camera)
    loop = TableLoop(ref, echo=lambda s: None)
    operator = Operator(states[0], record.turns)
    lines: list[str] = []
    for index, state in enumerate(states):
        if camera:
            lines.append(f"frame {index}")
            _show(loop, state)
        operator.saw_frame(index)
        while (press := operator.next_press(ref)) is not None:
            lines.append(press)
            loop.press(press)
    assert loop.confirmed == [str(t) for t in record.turns]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@dataclass
class Played:
    loop: TableLoop
    #: the text of every proposal the screen showed
    proposals: list[str] = field(default_factory=list)
    #: every menu question shown (title)
    menus: list[str] = field(default_factory=list)


def replay(script: Path, speech: Any, camera: bool = True) -> Played:
    """Replay ``script`` through a fresh loop with ``speech``; note what the screen proposed."""
    record, states = game()
    loop = TableLoop(Referee(record.players, camera=camera), echo=lambda s: None,
                     speech=speech)
    played = Played(loop)

    def note() -> None:
        view = loop.referee.view()
        if view.mode is Mode.PROPOSAL and view.text not in played.proposals:
            played.proposals.append(view.text)
        if view.mode is Mode.CHOICE and view.title not in played.menus:
            played.menus.append(view.title)

    for step in parse_steps(script.read_text(encoding="utf-8"), str(script)):
        if step.kind == "frame":
            _show(loop, states[int(step.value)])
        else:
            loop.press(ButtonEvent(Gesture.PRESS, Button(step.value), 0.0))
        note()
    return played
