"""Choosing the voice and its settings: options over config over defaults, espeak-ng as fallback."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import pytest

from companion.commands._speech import add_options, apply_language, open_from_options
from companion.speech import voices
from companion.speech.voices import EspeakVoice, SpeechUnavailable, find_voice
from firmware.config import load


def test_espeak_gets_the_language_rate_and_volume() -> None:
    cmd = EspeakVoice("fr", rate=220, volume=150).command("Bonjour", Path("x.wav"))
    assert cmd == ["espeak-ng", "-v", "fr-fr", "-s", "220", "-a", "150", "-w", "x.wav", "--",
                   "Bonjour"]
    wild = EspeakVoice("en", rate=5000, volume=-3).command("Hi")
    assert wild[wild.index("-s") + 1] == "450" and wild[wild.index("-a") + 1] == "0"
    assert "-w" not in wild  # aloud


def test_a_named_piper_that_is_missing_falls_back_to_espeak(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(voices.shutil, "which", lambda n: "/usr/bin/espeak-ng"
                        if n == "espeak-ng" else None)
    assert isinstance(find_voice(f"piper:{tmp_path / 'none.onnx'}", "fr"), EspeakVoice)
    model = tmp_path / "fr.onnx"
    model.write_bytes(b"")
    monkeypatch.setattr(voices.shutil, "which", lambda n: f"/usr/bin/{n}")
    chosen = find_voice(f"piper:{model}", "fr", rate=350)
    assert isinstance(chosen, voices.PiperVoice) and chosen.model == str(model)
    with pytest.raises(SpeechUnavailable, match="unknown voice"):
        find_voice("festival")
    monkeypatch.setattr(voices.shutil, "which", lambda n: None)
    with pytest.raises(SpeechUnavailable, match="apt install espeak-ng"):
        find_voice("")


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_options(parser)
    return parser.parse_args(argv)


def test_the_config_turns_speech_on_and_the_options_win(tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    config_file = tmp_path / "config.toml"
    config_file.write_text(
        '[screen]\nlanguage = "fr"\n[speech]\nenabled = true\nrate = 140\nvolume = 60\n',
        encoding="utf-8",
    )
    config = load(config_file)
    try:
        assert apply_language(_args([]), config) == "fr"
        assert apply_language(_args(["--lang", "en"]), config) == "en"
        quiet = open_from_options(_args([]), config)
        louder = open_from_options(_args(["--volume", "180", "--rate", "200"]), config)
    finally:
        apply_language(_args(["--lang", "en"]))
    assert quiet is not None and louder is not None
    assert (quiet.speaker.voice.rate, quiet.speaker.voice.volume) == (140, 60)
    assert (louder.speaker.voice.rate, louder.speaker.voice.volume) == (200, 180)
    quiet.speaker.close()
    louder.speaker.close()
    assert open_from_options(_args([]), None) is None  # off unless asked for
