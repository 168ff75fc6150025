"""The ``--speech`` and ``--lang`` options shared by ``run`` and ``demo``.

Command-line options win over the config file (``[speech]``, ``[screen]
language``), which wins over the defaults (no speech; the system locale's
language).  A missing espeak-ng is not an error that stops a game: the
command says so in one line and goes on silently.

Once ``companion/speech/options.py``: it raises the commands' ``CommandError``,
so it lives with the commands (the speech package, below them, imports no command).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.commands import CommandError
from companion.i18n import SUPPORTED, LanguageError, choose_language, language, set_language
from companion.speech import SpeechUnavailable, open_speech

if TYPE_CHECKING:  # the speech package loads only when speech is asked for
    from companion.speech.announcer import Announcer


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", default=None,
        help=f"language of the screen and the speech: {', '.join(SUPPORTED)}"
        " (default: the config's [screen] language, else the system locale)",
    )
    parser.add_argument(
        "--speech", action="store_true",
        help="speak proposals, turns, refusals and the standings (espeak-ng);"
        " hold NEXT to hear the table, hold CONFIRM to hear the prompt again",
    )
    parser.add_argument(
        "--voice", default=None, help="espeak-ng (default) or piper:MODEL.onnx"
    )
    parser.add_argument("--rate", type=int, default=None, help="words per minute (default 175)")
    parser.add_argument(
        "--volume", type=int, default=None, help="loudness in percent, 0-200 (default 100)"
    )


def apply_language(args: argparse.Namespace, config: Any = None) -> str:
    """Set the process's language from ``--lang``, the config, the locale; returns it."""
    configured = getattr(getattr(config, "screen", None), "language", "") or ""
    try:
        lang = choose_language(getattr(args, "lang", None), configured)
        set_language(lang)
    except LanguageError as exc:
        raise CommandError(f"--lang: {exc}") from None
    return lang


def open_from_options(
    args: argparse.Namespace,
    config: Any = None,
    *,
    out_dir: Path | None = None,
    log: Path | None = None,
    kinds: frozenset[str] | None = None,
) -> Announcer | None:
    """The :class:`~companion.speech.Announcer` the options ask for, or None.

    None when speech is off, or when no voice is installed (said in one line).
    """
    section = getattr(config, "speech", None)
    wanted = bool(getattr(args, "speech", False) or getattr(section, "enabled", False))
    if not wanted:
        return None
    voice = args.voice if getattr(args, "voice", None) else getattr(section, "voice", "")
    rate = args.rate if getattr(args, "rate", None) else getattr(section, "rate", 175)
    volume = args.volume if getattr(args, "volume", None) is not None else getattr(
        section, "volume", 100)
    try:
        return open_speech(language(), voice=voice, rate=rate, volume=volume,
                           out_dir=out_dir, log=log, kinds=kinds)
    except SpeechUnavailable as exc:
        print(f"speech: {exc}; going on without speech", file=sys.stderr)
        return None
