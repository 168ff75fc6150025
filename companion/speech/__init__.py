"""Speech: the companion read aloud, offline, for players who do not see the screen.

* :mod:`~companion.speech.voices` -- espeak-ng (the default that always
  works) or a user-installed piper model;
* :mod:`~companion.speech.speaker` -- the queue and its worker thread:
  speaking never blocks the turn loop, newer prompts replace stale ones, a
  button silences it, WAV files and a text log for tests and the demo;
* :mod:`~companion.speech.announcer` -- what to say, from the referee's
  effects and views (the referee itself stays pure and silent).

:func:`open_speech` builds the three from the options; it fails with one
line when no voice is installed (the caller then goes on without speech).
"""

from __future__ import annotations

from pathlib import Path

from companion.speech.announcer import Announcer
from companion.speech.speaker import Speaker, Utterance
from companion.speech.voices import (
    DEFAULT_RATE,
    DEFAULT_VOLUME,
    EspeakVoice,
    PiperVoice,
    SpeechUnavailable,
    Voice,
    find_voice,
)


def open_speech(
    language: str,
    *,
    voice: str = "",
    rate: int = DEFAULT_RATE,
    volume: int = DEFAULT_VOLUME,
    out_dir: Path | None = None,
    log: Path | None = None,
    kinds: frozenset[str] | None = None,
) -> Announcer:
    """An :class:`Announcer` speaking ``language``; raises :class:`SpeechUnavailable`."""
    chosen = find_voice(voice, language, rate, volume)
    return Announcer(Speaker(chosen, out_dir=out_dir, log=log, kinds=kinds))


__all__ = [
    "DEFAULT_RATE",
    "DEFAULT_VOLUME",
    "Announcer",
    "EspeakVoice",
    "PiperVoice",
    "Speaker",
    "SpeechUnavailable",
    "Utterance",
    "Voice",
    "find_voice",
    "open_speech",
]
