"""The screens kept as golden PNGs, and how each is drawn.

Shared by ``test_screen_golden.py`` and ``regenerate_golden.py`` so the test
and the script can never disagree about what a golden shows.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pygame

from companion.i18n import language, set_language
from companion.screen import Screen, ScreenView
from companion.screen.duel.samples import duel_sample_views
from companion.screen.splendor.samples import LONG_NAMES, sample_views

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

#: name -> (players, sample view, size)
CASES: dict[str, tuple[int, str, tuple[int, int]]] = {
    "4p_setup": (4, "setup", (800, 480)),
    "4p_waiting": (4, "waiting_note", (800, 480)),
    "4p_candidate": (4, "candidate", (800, 480)),
    "4p_error": (4, "error", (800, 480)),
    "4p_return_tokens": (4, "return_tokens", (800, 480)),
    "4p_noble_choice": (4, "noble_choice", (800, 480)),
    "4p_unsure_card": (4, "unsure_card", (800, 480)),
    "4p_manual_entry": (4, "manual_entry", (800, 480)),
    "4p_final_round": (4, "final_round", (800, 480)),
    "4p_end": (4, "end", (800, 480)),
    "3p_end_three_way_tie": (3, "end", (800, 480)),
    "2p_proposal": (2, "proposal", (800, 480)),
    "4p_final_round_1280x720": (4, "final_round", (1280, 720)),
    # French (the publisher's words), 4 players with long names: the layout must hold
    "fr_4p_setup": (4, "setup", (800, 480)),
    "fr_4p_candidate": (4, "candidate", (800, 480)),
    "fr_4p_error": (4, "error", (800, 480)),
    "fr_4p_return_tokens": (4, "return_tokens", (800, 480)),
    "fr_4p_noble_choice": (4, "noble_choice", (800, 480)),
    "fr_4p_final_round": (4, "final_round", (800, 480)),
    "fr_4p_end": (4, "end", (800, 480)),
    "fr_3p_end_three_way_tie": (3, "end", (800, 480)),
    # any script's names: Chinese drawn (CJK fallback face), an emoji as the placeholder,
    # a 46-character name shortened without cutting "to play"
    "4p_world_names": (4, "final_round", (800, 480)),
    # Splendor Duel ("duel:" + a view of companion.screen.duel.samples)
    "duel_setup": (2, "duel:setup", (800, 480)),
    "duel_waiting": (2, "duel:waiting", (800, 480)),
    "duel_proposal": (2, "duel:proposal", (800, 480)),
    "duel_error": (2, "duel:error", (800, 480)),
    "duel_royal_choice": (2, "duel:royal_choice", (800, 480)),
    "duel_late": (2, "duel:late", (800, 480)),
    "duel_end_points": (2, "duel:end_points", (800, 480)),
    "duel_end_crowns": (2, "duel:end_crowns", (800, 480)),
    "duel_end_colour": (2, "duel:end_colour", (800, 480)),
    "duel_late_1280x720": (2, "duel:late", (1280, 720)),
    "fr_duel_late": (2, "duel:late", (800, 480)),
}
#: Cases drawn in another language than English.
LANGUAGE = {name: "fr" for name in CASES if name.startswith("fr_")}
#: Cases drawn with other names than the long Latin ones.
WORLD_NAMES = ("王小明", "Alexandra-Maximiliane von Hohenzollern-Sigmarn", "Bob 😀", "Zoë")
NAMES = {"4p_world_names": WORLD_NAMES}


@cache
def _views(players: int, lang: str, names: tuple[str, ...]) -> dict[str, ScreenView]:
    return sample_views(players, names)


@cache
def _duel_views(lang: str) -> dict[str, ScreenView]:
    return duel_sample_views()


def render(name: str) -> pygame.Surface:
    """Draw golden ``name`` on a fresh screen (a copy: screens reuse their surface)."""
    players, kind, size = CASES[name]
    lang = LANGUAGE.get(name, "en")
    before = language()
    set_language(lang)
    try:
        if kind.startswith("duel:"):
            return Screen(size).draw(_duel_views(lang)[kind.removeprefix("duel:")]).copy()
        views = _views(players, lang, NAMES.get(name, LONG_NAMES))
        return Screen(size).draw(views[kind]).copy()
    finally:
        set_language(before)


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.png"
