"""The realistic recorded game, turn by turn: tests/data/world-game through ``demo``.

A seeded 2-player game photographed by the realistic world's Pi camera
(``vision.synth.world``: the Wide lens, the room's light) with the
publisher's check-only faces and chips -- rendered at first use into
out/world-game/frames, never committed -- played through the real reader,
referee, screen and log with the button script an honest player pressed.
What matters at the table is the turn, not the item: a wrong turn confirmed
because it was the camera's first guess is the failure that must never
happen (issue 12: 0 silent wrong confirmations).  The first-guess rate
(issue 12 aims at >= 98 %) is printed, not asserted: see
tests/data/world-game/README.md for where it stands.

Only the first ``TURNS`` turns are played, so that a first run, which renders
their frames (seconds each), stays near two minutes on two busy cores; the
whole game is ``demo --recording tests/data/world-game``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT

RECORDING = ROOT / "tests" / "data" / "world-game"
#: The cache the demo renders the frames into (git-ignored: check-only faces).
CACHE = ROOT / "out" / "world-game" / "frames"
#: Turns played by the test (the recording holds the whole game).
TURNS = 16


@pytest.mark.slow
def test_the_realistic_game_has_no_silent_wrong_confirmation(tmp_path: Path) -> None:
    from companion.commands.demo import play_recording
    from vision.synth.facesets import shared_faces

    if shared_faces() is None:
        pytest.skip("needs the publisher's faces in ../shared/card-faces")
    result = play_recording(
        RECORDING, tmp_path / "play", cache=CACHE, turns=TURNS, echo=lambda line: None,
        script_to=tmp_path,  # a stale script is re-recorded here, never in the repository
    )
    print(
        f"world-game, first {TURNS} turns: {result.first_guess} at the first guess,"
        f" {result.later_guess} after NEXT, {result.manual} entered with the buttons,"
        f" {result.silent_wrong} silent wrong"
    )
    assert result.silent_wrong == 0
    assert len(result.expected) == TURNS
    assert result.confirmed == result.expected  # the honest player got every turn in
    assert result.first_guess + result.later_guess + result.manual == TURNS
    assert result.reads_ms  # the pixels really were read
