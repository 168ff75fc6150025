"""Regenerate the screen's golden PNGs: ``python tests/screen/regenerate_golden.py``.

Run it after a deliberate change to the screen, look at every PNG it wrote
(they are the review), and commit them with the change.  Goldens are never
edited by hand.  ``REGENERATE_GOLDEN=1 pytest tests/screen`` does the same
from the test.  Arguments keep only the goldens whose names start with one
of them (``python tests/screen/regenerate_golden.py duel_`` redraws Duel's).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.screen.window import save_screenshot
from tests.screen.golden_cases import CASES, golden_path, render


def main() -> int:
    prefixes = tuple(sys.argv[1:]) or ("",)
    names = [n for n in CASES if n.startswith(prefixes)]
    for i, name in enumerate(names, start=1):
        path = save_screenshot(render(name), golden_path(name))
        print(f"[{i}/{len(names)}] {path}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
