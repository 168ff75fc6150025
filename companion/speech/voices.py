"""The programs that turn text into sound: espeak-ng always, piper when installed.

Why programs, not a Python binding: espeak-ng is one Debian / Raspberry Pi
OS package (``apt install espeak-ng``) whose command line plays to the
default ALSA device (the Pi's jack or HDMI) and writes WAV files with
``-w``; it speaks French and English offline, starts in a few milliseconds
and is interrupted by ending its process.  piper (a neural voice, much
nicer, heavier) is used only when the user installed it and named a model
(``voice = "piper:/path/fr_FR-siwis-medium.onnx"``); espeak-ng stays the
default that always works.  Nothing here is imported by the referee.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

#: espeak-ng's own default speed, in words per minute (``espeak-ng --help``).
DEFAULT_RATE = 175
#: Loudness in percent of espeak-ng's default amplitude (its ``-a 100``).
DEFAULT_VOLUME = 100

#: espeak-ng voice per language of the catalogs.
ESPEAK_VOICES = {"en": "en-gb", "fr": "fr-fr"}


class SpeechUnavailable(RuntimeError):
    """No voice can speak here; the message is one line saying what to install."""


@dataclass(frozen=True)
class Voice(ABC):
    """Speaks one text: :meth:`start` returns the running process (to wait on or end)."""

    language: str = "en"
    rate: int = DEFAULT_RATE
    volume: int = DEFAULT_VOLUME

    @abstractmethod
    def start(self, text: str, wav: Path | None = None) -> subprocess.Popen[bytes]:
        """Start speaking ``text`` aloud, or into the WAV file ``wav`` when given."""

    @property
    @abstractmethod
    def name(self) -> str: ...


@dataclass(frozen=True)
class EspeakVoice(Voice):
    """espeak-ng: ``-v`` voice, ``-s`` words per minute, ``-a`` amplitude (0-200)."""

    binary: str = "espeak-ng"

    @property
    def name(self) -> str:
        return f"espeak-ng ({ESPEAK_VOICES.get(self.language, self.language)})"

    def command(self, text: str, wav: Path | None = None) -> list[str]:
        amplitude = max(0, min(200, round(self.volume)))
        cmd = [
            self.binary, "-v", ESPEAK_VOICES.get(self.language, self.language),
            "-s", str(max(80, min(450, int(self.rate)))), "-a", str(amplitude),
        ]
        if wav is not None:
            cmd += ["-w", str(wav)]
        return [*cmd, "--", text]

    def start(self, text: str, wav: Path | None = None) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            self.command(text, wav), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


@dataclass(frozen=True)
class PiperVoice(Voice):
    """piper with a user-installed ``.onnx`` model; played with ``aplay`` when not to a file.

    The rate maps onto piper's ``--length_scale`` (175 wpm = 1.0); piper has
    no volume: the ALSA mixer sets it.
    """

    model: str = ""
    binary: str = "piper"
    player: str = "aplay"

    @property
    def name(self) -> str:
        return f"piper ({Path(self.model).name})"

    def start(self, text: str, wav: Path | None = None) -> subprocess.Popen[bytes]:
        scale = f"{DEFAULT_RATE / max(int(self.rate), 1):.2f}"
        piper = [self.binary, "--model", self.model, "--length_scale", scale]
        if wav is not None:
            cmd = [*piper, "--output_file", str(wav)]
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        else:
            line = shlex.join([*piper, "--output_raw"])
            play = shlex.join([self.player, "-q", "-r", "22050", "-f", "S16_LE", "-t", "raw", "-"])
            cmd = ["sh", "-c", f"{line} | {play}"]
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, start_new_session=True)
            proc.group = True  # type: ignore[attr-defined]  # ended with its whole group
        assert proc.stdin is not None
        proc.stdin.write(text.encode("utf-8") + b"\n")
        proc.stdin.close()
        return proc


def find_voice(spec: str = "", language: str = "en", rate: int = DEFAULT_RATE,
               volume: int = DEFAULT_VOLUME) -> Voice:
    """The voice named by ``spec`` ("" or "espeak-ng", or "piper:MODEL"), checked to exist.

    A piper that is named but missing falls back to espeak-ng (the default
    that always works); a missing espeak-ng is :class:`SpeechUnavailable`.
    """
    spec = spec.strip()
    if spec.startswith("piper:"):
        model = spec[len("piper:"):]
        if shutil.which("piper") and Path(model).is_file():
            return PiperVoice(language, rate, volume, model=model)
    elif spec not in ("", "espeak-ng", "espeak"):
        raise SpeechUnavailable(f"unknown voice {spec!r}: use espeak-ng or piper:MODEL.onnx")
    if shutil.which("espeak-ng") is None:
        raise SpeechUnavailable(
            "speech needs espeak-ng, which is not installed (sudo apt install espeak-ng)"
        )
    return EspeakVoice(language, rate, volume)
