"""Every view the real referee produces in a refereed game fits the screen.

The sample views cover each situation once; this walks a whole seeded
4-player game with long names through :class:`companion.referee.splendor.Referee`
(setup from a reading, each turn read, guessed, stepped through with NEXT,
confirmed; a manual-entry menu; undo; the end) and checks every view it
shows with ``layout_problems`` at 800×480.
"""

from __future__ import annotations

import pytest

from companion.rules.splendor.simulate import play_game
from companion.screen import Screen
from companion.screen.painter import layout_problems
from companion.screen.splendor.samples import LONG_NAMES

referee = pytest.importorskip("companion.referee.splendor")


def test_every_view_of_a_refereed_game_fits_at_800x480():
    record, states = play_game(10, LONG_NAMES, "greedy")
    screen = Screen((800, 480))
    ref = referee.Referee(LONG_NAMES)
    seen: set[str] = set()
    checked = 0

    def check() -> None:
        nonlocal checked
        view = ref.view()
        screen.draw(view)
        problems = layout_problems(screen.drawn, (800, 480))
        assert problems == [], f"{view.mode} {view.title!r}: {problems[:3]}"
        seen.add(view.mode.value)
        checked += 1

    def press(name: str) -> None:
        ref.handle(referee.Press(referee.Key[name]))
        check()

    def show(state) -> None:  # type: ignore[no-untyped-def]
        ref.handle(referee.Motion())
        for _ in range(2):
            ref.handle(referee.TableRead(referee.predict(state)))
        check()

    def referee_turn(turn, after) -> None:  # type: ignore[no-untyped-def]
        show(after)
        for _ in range(10):
            if ref.phase is not referee.Phase.PROPOSE or ref.candidates[ref.index].turn == turn:
                break
            press("NEXT")
        press("CONFIRM")
        while ref.phase is referee.Phase.ASK:
            press("CONFIRM")

    check()
    show(states[0])
    press("CONFIRM")
    opening = list(zip(record.turns, states[1:], strict=False))[:24]
    for i, (turn, after) in enumerate(opening):
        if i == 3:  # a manual entry menu, walked through and left
            for _ in range(5):
                press("NEXT")
            press("BACK")
        referee_turn(turn, after)
        if i == 20:  # undo the turn, then confirm it again from the same table
            ref.handle(referee.Undo())
            check()
            show(states[i])
            referee_turn(turn, after)
    # The closing turns (final round, then the standings), from a resumed game.
    start = len(record.turns) - 6
    ref = referee.Referee(LONG_NAMES, state=states[start])
    for turn, after in zip(record.turns[start:], states[start + 1 :], strict=True):
        referee_turn(turn, after)
    assert ref.phase is referee.Phase.OVER
    assert {"setup", "waiting", "proposal", "choice", "end"} <= seen
    assert checked > 60
