"""Shared test set-up: everything runs headless (no display, sound, camera or pins)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

#: The repository's root and the shared folder beside it (card scans, rulebooks).
ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
