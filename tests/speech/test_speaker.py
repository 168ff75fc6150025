"""The speech queue: never blocks the loop, newer prompts replace stale ones, a button silences."""

from __future__ import annotations

import threading
from pathlib import Path

from companion.speech.speaker import Speaker, Utterance
from tests.speech.fakes import FakeVoice


def _wait_for(condition, what: str) -> None:
    for _ in range(3000):
        if condition():
            return
        threading.Event().wait(0.01)
    raise AssertionError(f"never happened: {what}")


def _drain(voice: FakeVoice, speaker: Speaker) -> None:
    """Let every queued utterance finish speaking."""
    for _ in range(1000):
        for process in list(voice.started):
            process.finish()
        if speaker.wait(timeout=0.01):
            return
    raise AssertionError("the queue never emptied")


def test_saying_returns_while_the_voice_is_still_speaking() -> None:
    voice = FakeVoice(hold=True)
    with Speaker(voice) as speaker:
        speaker.say(Utterance("first", "turn", keep=True))
        _wait_for(lambda: len(voice.started) == 1, "the first utterance starts")
        for i in range(20):  # the voice is busy: these only queue
            speaker.say(Utterance(f"news {i}", "turn", keep=True))
        assert len(voice.started) == 1 and not voice.started[0].ended
        voice.started[0].finish()
        _wait_for(lambda: len(voice.started) == 2, "the queue moves on")
        voice.started[-1].finish()


def test_a_newer_prompt_replaces_stale_prompts_but_never_news() -> None:
    voice = FakeVoice(hold=True)
    with Speaker(voice) as speaker:
        speaker.say(Utterance("old prompt", "proposal"))
        _wait_for(lambda: len(voice.started) == 1, "the prompt starts")
        speaker.say(Utterance("stale menu", "menu"))
        speaker.say(Utterance("Ann takes 2 red", "turn", keep=True))
        assert voice.started[0].ended  # the stale prompt was cut short
        speaker.say(Utterance("new prompt", "proposal"))
        _drain(voice, speaker)
        said = [u.text for u in speaker.spoken]
        assert said == ["old prompt", "Ann takes 2 red", "new prompt"]
        assert "stale menu" not in said


def test_news_being_spoken_is_not_cut_by_a_prompt() -> None:
    voice = FakeVoice(hold=True)
    with Speaker(voice) as speaker:
        speaker.say(Utterance("Confirmed: Ann takes 2 red", "turn", keep=True))
        _wait_for(lambda: len(voice.started) == 1, "the news starts")
        speaker.say(Utterance("Is this what happened?", "proposal"))
        assert not voice.started[0].ended
        voice.started[0].finish()
        _wait_for(lambda: len(voice.started) == 2, "the prompt follows")
        voice.started[1].finish()


def test_a_button_silences_what_is_said_and_what_waits() -> None:
    voice = FakeVoice(hold=True)
    with Speaker(voice) as speaker:
        speaker.say(Utterance("the standings", "standings", keep=True))
        _wait_for(lambda: len(voice.started) == 1, "speaking")
        speaker.say(Utterance("more news", "turn", keep=True))
        speaker.stop()
        assert voice.started[0].ended
        assert speaker.wait(timeout=10)
        assert [u.text for u in speaker.spoken] == ["the standings"]


def test_rendering_to_files_keeps_everything_and_logs_it(tmp_path: Path) -> None:
    voice = FakeVoice()
    log = tmp_path / "spoken.txt"
    with Speaker(voice, out_dir=tmp_path / "wav", log=log) as speaker:
        for text, kind in (("one", "proposal"), ("two", "menu"), ("three", "turn")):
            speaker.say(Utterance(text, kind))
        speaker.stop()  # files are evidence: a button does not drop them
        assert speaker.wait(timeout=10)
    names = sorted(p.name for p in (tmp_path / "wav").iterdir())
    assert names == ["0001-proposal.wav", "0002-menu.wav", "0003-turn.wav"]
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [line.split("\t") for line in lines] == [
        ["proposal", "0001-proposal.wav", "one"],
        ["menu", "0002-menu.wav", "two"],
        ["turn", "0003-turn.wav", "three"],
    ]


def test_only_the_kinds_asked_for_are_spoken(tmp_path: Path) -> None:
    voice = FakeVoice()
    with Speaker(voice, out_dir=tmp_path, kinds=frozenset({"turn"})) as speaker:
        speaker.say(Utterance("a prompt", "proposal"))
        speaker.say(Utterance("a turn", "turn"))
        assert speaker.wait(timeout=10)
    assert [p.text for p in voice.started] == ["a turn"]
