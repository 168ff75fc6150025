"""A whole game followed and confirmed with speech and the three buttons alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import set_language, words
from companion.speech.announcer import SECTIONS, Announcer
from companion.speech.speaker import Speaker
from firmware.buttons import Button, ButtonEvent, Gesture
from tests.speech import game
from tests.speech.fakes import FakeVoice


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return game.record_script(tmp_path_factory.mktemp("script") / "buttons.txt")


@pytest.fixture
def french():
    set_language("fr")
    yield
    set_language("en")


def _log(path: Path) -> list[tuple[str, str]]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    return [(kind, text) for kind, _wav, text in rows]


def _play(
    script: Path, tmp_path: Path, camera: bool = True
) -> tuple[game.Played, list[tuple[str, str]]]:
    log = tmp_path / "spoken.txt"
    speaker = Speaker(FakeVoice(), out_dir=tmp_path / "wav", log=log)
    played = game.replay(script, Announcer(speaker), camera)
    assert speaker.wait(timeout=60)
    speaker.close()
    return played, _log(log)


def _check_coverage(played: game.Played, spoken: list[tuple[str, str]]) -> None:
    record, states = game.game()
    loop = played.loop
    assert loop.confirmed == [str(t) for t in record.turns]  # the whole game, to the end
    said = "\n".join(text for _kind, text in spoken)
    for proposal in played.proposals:  # every proposal shown was read out
        assert any(kind == "proposal" and text.startswith(proposal) for kind, text in spoken), (
            proposal
        )
    for title in played.menus:  # and every menu's question
        assert title in said
    turns = [text for kind, text in spoken if kind == "turn"]
    assert len(turns) == len(record.turns)
    for before, turn, text in zip(states, record.turns, turns, strict=False):
        assert words.describe_turn(before, turn) in text
    standings = [text for kind, text in spoken if kind == "standings"]
    outcome = states[-1].outcome()
    assert outcome is not None and len(standings) == 1
    assert words.outcome_reason(outcome) in standings[0]
    for standing in outcome.standings:
        assert words.ordinal(standing.rank) in standings[0] and standing.name in standings[0]
    assert spoken[-1][0] == "standings"


def test_the_spoken_log_covers_every_proposal_turn_and_the_standings(
    script: Path, tmp_path: Path
) -> None:
    played, spoken = _play(script, tmp_path)
    _check_coverage(played, spoken)
    assert played.proposals, "the camera proposed turns"
    assert any(text.endswith(("Confirm or next.", "Confirm or back.")) for _k, text in spoken)


def test_a_game_entered_with_the_buttons_alone_is_heard_whole(tmp_path: Path) -> None:
    """No camera: the set-up and every turn through the menus, each question read out."""
    script = game.record_script(tmp_path / "buttons.txt", camera=False)
    assert "frame" not in script.read_text(encoding="utf-8")
    played, spoken = _play(script, tmp_path, camera=False)
    _check_coverage(played, spoken)
    assert not played.proposals and len(played.menus) > 10
    kinds = {kind for kind, _text in spoken}
    assert {"setup", "menu", "choice", "turn", "standings"} <= kinds


def test_the_same_game_in_french(script: Path, tmp_path: Path, french: None) -> None:
    played, spoken = _play(script, tmp_path)
    _check_coverage(played, spoken)
    said = " ".join(text for _kind, text in spoken)
    assert "Validé :" in said and "Valider ou" in said and "1er" in said
    assert "Confirmed" not in said and " takes " not in said


def test_holding_next_reads_the_table_and_holding_confirm_repeats(
    script: Path, tmp_path: Path
) -> None:
    speaker = Speaker(FakeVoice(), out_dir=tmp_path)
    announcer = Announcer(speaker)
    played = game.replay(script, announcer)
    loop = played.loop
    phase, history = loop.referee.phase, len(loop.referee.history)
    assert speaker.wait(timeout=60)
    before = len(speaker.spoken)
    last_prompt = [u.text for u in speaker.spoken if u.kind in ("proposal", "menu")][-1]
    for _ in range(len(SECTIONS) + 1):
        loop.press(ButtonEvent(Gesture.HOLD, Button.NEXT, 0.0))
    loop.press(ButtonEvent(Gesture.HOLD, Button.CONFIRM, 0.0))
    assert speaker.wait(timeout=30)
    new = speaker.spoken[before:]
    assert [u.kind for u in new] == ["table"] * (len(SECTIONS) + 1) + ["repeat"]
    state = loop.referee.state
    assert state is not None
    texts = [u.text for u in new]
    assert texts[0].startswith("Level 1 market") and texts[2].startswith("Level 3 market")
    assert all(c.id in texts[0] for c in state.market[0] if c is not None)
    assert texts[3].startswith("Nobles:") and texts[4].startswith(f"{state.player.name}: tokens")
    assert texts[5].startswith("Scores:") and texts[6] == texts[0]  # round and round
    assert texts[7] == last_prompt  # the last prompt again
    # the gestures are speech's: the referee saw none of them
    assert (loop.referee.phase, len(loop.referee.history)) == (phase, history)
    speaker.close()
