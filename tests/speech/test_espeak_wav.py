"""Speech rendered by the real espeak-ng: one WAV per announcement, checked against the log.

CI installs espeak-ng (``.ci/run``); a machine without it skips these tests.
"""

from __future__ import annotations

import shutil
import wave
from array import array
from pathlib import Path

import pytest

from companion.i18n import set_language
from companion.speech import EspeakVoice, Speaker, open_speech
from tests.speech import game

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt install espeak-ng)"
)

#: Seconds of speech per character at espeak-ng's default 175 wpm: 0.05-0.07 measured on the 73
#: WAVs of `demo --speech --lang fr` (out/demo/speech); the bounds catch empty or runaway ones.
SECONDS_PER_CHAR = (0.02, 0.2)


def _duration_and_peak(path: Path) -> tuple[float, int]:
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    samples = array("h", frames)
    return seconds, max((abs(s) for s in samples), default=0)


def _check_log(folder: Path) -> list[tuple[str, str, str]]:
    rows = [
        tuple(line.split("\t"))
        for line in (folder / "spoken.txt").read_text(encoding="utf-8").splitlines()
    ]
    wavs = sorted(p.name for p in folder.glob("*.wav"))
    assert [r[1] for r in rows] == wavs  # one file per announcement, in order
    for kind, name, text in rows:
        assert name.endswith(f"-{kind}.wav")
        seconds, peak = _duration_and_peak(folder / name)
        low, high = SECONDS_PER_CHAR
        assert low * len(text) <= seconds <= high * len(text), (name, seconds, text)
        assert peak > 1000, f"{name} is silent"
    return rows  # type: ignore[return-value]


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return game.record_script(tmp_path_factory.mktemp("script") / "buttons.txt")


def test_every_turn_and_the_standings_become_a_wav(script: Path, tmp_path: Path) -> None:
    out = tmp_path / "speech"
    announcer = open_speech("en", out_dir=out, log=out / "spoken.txt",
                            kinds=frozenset({"turn", "standings", "proposal", "refusal"}))
    game.replay(script, announcer)
    assert announcer.speaker.wait(timeout=300)
    announcer.speaker.close()
    rows = _check_log(out)
    record, _states = game.game()
    kinds = [r[0] for r in rows]
    assert kinds.count("turn") == len(record.turns) and kinds.count("standings") == 1
    assert kinds.count("proposal") >= 1


def test_french_turns_and_standings(script: Path, tmp_path: Path) -> None:
    set_language("fr")
    try:
        out = tmp_path / "speech"
        announcer = open_speech("fr", out_dir=out, log=out / "spoken.txt",
                                kinds=frozenset({"turn", "standings"}))
        game.replay(script, announcer)
        assert announcer.speaker.wait(timeout=300)
        announcer.speaker.close()
    finally:
        set_language("en")
    rows = _check_log(out)
    record, _states = game.game()
    assert len(rows) == len(record.turns) + 1 and rows[-1][0] == "standings"
    assert all(text.startswith("Validé :") for kind, _n, text in rows if kind == "turn")


def test_rate_and_volume_change_the_sound(tmp_path: Path) -> None:
    text = "Ann takes 1 white, 1 blue and 1 green. Confirm or next."
    results = {}
    for name, voice in {
        "slow": EspeakVoice("en", rate=120), "fast": EspeakVoice("en", rate=300),
        "quiet": EspeakVoice("en", volume=20),
    }.items():
        with Speaker(voice, out_dir=tmp_path / name) as speaker:
            speaker.say(text)
            assert speaker.wait(timeout=60)
        results[name] = _duration_and_peak(speaker.files[0])
    assert results["fast"][0] < 0.7 * results["slow"][0]
    assert results["quiet"][1] < 0.5 * results["slow"][1]
