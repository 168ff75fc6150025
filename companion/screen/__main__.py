"""Preview the screen: ``python -m companion.screen --out shots/ [--size 800x480] [--players 4]``.

``--game duel`` draws Splendor Duel's screens instead (2 players).

Draws every sample situation (setup, waiting, proposals, error, menus, final
round, end) of a seeded game with long names and saves one PNG each; with
``--show`` and a display, also shows them one by one in a window (any key or
click: next; Esc: quit).  Used to look at the screen without a game.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from companion.games import DUEL_GAME, SPLENDOR_GAME, AnyKind, by_key, keys
from companion.screen.duel.samples import duel_sample_views
from companion.screen.splendor.samples import sample_views
from companion.screen.view import ScreenView


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size like 800x480") from None
    if w < 160 or h < 96:
        raise argparse.ArgumentTypeError(f"{w}x{h} is too small; the least is 160x96")
    return w, h


#: Each game's sample screens for a number of players, and their files' prefix.
_SAMPLES: dict[AnyKind, Callable[[int], tuple[dict[str, ScreenView], str]]] = {
    SPLENDOR_GAME: lambda players: (sample_views(players), f"{players}p"),
    DUEL_GAME: lambda players: (duel_sample_views(), "duel"),  # always 2 players
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.screen",
        description="Draw every kind of companion screen for a seeded game and save PNGs.",
    )
    parser.add_argument("--out", type=Path, default=Path("screenshots"), help="folder for PNGs")
    parser.add_argument("--size", type=_size, default=(800, 480), help="WIDTHxHEIGHT (800x480)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--game", choices=keys(), default=keys()[0],
                        help="which game's screens (duel: always 2 players)")
    parser.add_argument("--show", action="store_true", help="also show them in a window")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not args.show:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

    # lazy: pygame (SDL) loads only when something is drawn
    from companion.screen.draw import Screen
    from companion.screen.window import open_window

    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: cannot create {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    screen = Screen(args.size)
    views, prefix = _SAMPLES[by_key(args.game)](args.players)
    window = open_window(args.size) if args.show else None
    if args.show and window is None:
        print("no display: saving the PNGs only", file=sys.stderr)
    for i, (name, view) in enumerate(views.items(), start=1):
        surface = screen.draw(view)
        path = screen.save(args.out / f"{prefix}_{name}.png")
        print(f"[{i}/{len(views)}] {path}", flush=True)
        if window is not None and not _wait_for_key(window, surface):
            break
    if window is not None:
        window.close()
    return 0


def _wait_for_key(window: object, surface: object) -> bool:
    """Show ``surface`` until a key or click; False when the user quits."""
    # lazy: pygame (SDL) loads only when something is drawn
    import pygame

    from companion.screen.window import Window

    assert isinstance(window, Window) and isinstance(surface, pygame.Surface)
    clock = pygame.time.Clock()
    while True:
        window.show(surface)
        for event in window.events():
            if event.type == pygame.QUIT or (
                event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
            ):
                return False
            if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                return True
        clock.tick(30)


if __name__ == "__main__":
    raise SystemExit(main())
