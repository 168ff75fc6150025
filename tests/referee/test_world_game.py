"""The realistic recorded game, turn by turn: tests/data/world-game through ``demo``.

A seeded 4-player game photographed by the realistic world's Pi camera
(``vision.synth.world``: the Wide lens framing the central mat, the room's
light) with the publisher's check-only faces and chips -- rendered at first
use into out/world-game/frames, never committed -- played through the real
reader (colours learned from the set-up frame, as ``run`` does), referee,
screen and log with the button script an honest player pressed.  What
matters at the table is the turn, not the item: a wrong turn confirmed
because it was the camera's first guess is the failure that must never
happen (issue 12: 0 silent wrong confirmations).  The first-guess rate
(issue 12 aims at >= 98 %) is printed, not asserted: see
tests/data/world-game/README.md for where it stands.

The whole game is played: ~50 s once its 105 frames are cached; the first
run renders them (~2.5 s each on two workers, a few minutes on busy cores).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT

RECORDING = ROOT / "tests" / "data" / "world-game"
#: The cache the demo renders the frames into (git-ignored: check-only faces).
CACHE = ROOT / "out" / "world-game" / "frames"
#: Turns played by the test: None, the whole recorded game.
TURNS: int | None = None


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
        f"world-game, {len(result.expected)} turns: {result.first_guess} at the first guess,"
        f" {result.later_guess} after NEXT, {result.manual} entered with the buttons,"
        f" {result.silent_wrong} silent wrong"
    )
    assert result.silent_wrong == 0
    assert len(result.expected) == (TURNS or len(read_record_turns()))
    assert result.confirmed == result.expected  # the honest player got every turn in
    assert (result.first_guess + result.later_guess + result.on_confirm + result.manual
            == len(result.expected))
    assert result.reads_ms  # the pixels really were read


def read_record_turns() -> list[object]:
    from companion.rules.splendor.record import read_record

    return list(read_record((RECORDING / "game.txt").read_text(encoding="utf-8")).turns)


class _Frames:
    """Stand-in frames: frame i is a flat image carrying its number (the reader looks it up)."""

    def get(self, index: int) -> object:
        import numpy as np

        image = np.full((48, 64, 3), (index * 53) % 256, np.uint8)
        image[0, 0] = (index % 256, index // 256, 0)
        return image


def test_a_script_confirming_a_wrong_first_guess_is_counted_silent() -> None:
    """The count itself, without pixels: the table shows another turn than the one played.

    The script was pressed on the true frames (every turn the first guess);
    replayed on frames where turn 3 shows a different take, it confirms the
    camera's first guess, which is not the turn played: one silent wrong.
    """
    from companion.commands.demo import silent_wrong
    from companion.demo.splendor import Operator, demo_game, play
    from companion.referee.driver import TableLoop
    from companion.referee.splendor import Referee, predict
    from companion.rules.splendor.actions import Take, Turn

    record, states = demo_game()
    turns = 4
    expected = [str(t) for t in record.turns[:turns]]
    truth = states[: turns + 1]
    other = next(a for a in truth[2].legal_actions()
                 if isinstance(a, Take) and a != record.turns[2].action)
    tampered = [*truth[:3], truth[2].apply(Turn(other)), *truth[4:]]

    def loop_over(shown: list[object]) -> TableLoop:
        return TableLoop(Referee(record.players), echo=lambda s: None,
                         reader=lambda image: predict(shown[int(image[0, 0, 0])]))

    honest = loop_over(truth)
    script = play(honest, _Frames(), turns + 1, None, Operator(truth[0], record.turns))
    assert honest.confirmed == expected and silent_wrong(honest, truth, expected) == 0

    trusting = loop_over(tampered)
    play(trusting, _Frames(), turns + 1, script, None, expected=expected)
    assert trusting.confirmed[:2] == expected[:2]
    assert trusting.confirmed[2] == str(Turn(other)) != expected[2]
    assert trusting.via[2] == "first guess"
    assert silent_wrong(trusting, truth, expected) == 1


def test_the_set_up_frame_is_read_whole_and_without_hands() -> None:
    """The colours are learned from the first frame read, so it must be the set-up still.

    A motion detector takes its first picture as still: were hands shown
    before frame 0, the loop would read that small, hand-covered picture.
    """
    import numpy as np

    from companion.demo.splendor import show_frame

    class Loop:
        def __init__(self) -> None:
            self.fed: list[tuple[tuple[int, ...], bool]] = []

        def feed_frame(self, image: np.ndarray, still: object = None) -> None:
            self.fed.append((image.shape, still is not None))

    image = np.full((96, 128, 3), 120, np.uint8)
    loop = Loop()
    show_frame(loop, image, 0)
    assert loop.fed and all(has_still for _, has_still in loop.fed)
    show_frame(loop, image, 1)
    assert loop.fed[len(loop.fed) - 4] == ((24, 32, 3), False)  # hands pass: motion, no still
