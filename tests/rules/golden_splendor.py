"""Golden playthroughs of Splendor: seeded games kept as record files.

Run ``python tests/rules/golden_splendor.py`` to regenerate them after a
deliberate rules change; ``test_golden.py`` replays each file and compares it
line by line with a fresh simulation, so any behaviour change shows as a diff.
Each turn carries the state digest after it as a comment.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.rules.splendor.simulate import play_game  # noqa: E402
from tests.rules.goldens import digested_text, write_goldens  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "golden" / "splendor"
#: (seed, players, policy)
GAMES = [(1, 2, "random"), (2, 3, "greedy"), (3, 4, "random"), (4, 4, "greedy")]


def golden_name(seed: int, players: int, policy: str) -> str:
    return f"seed{seed}-{players}p-{policy}.txt"


def golden_text(seed: int, players: int, policy: str) -> str:
    return digested_text(*play_game(seed, players, policy))


def main() -> int:
    return write_goldens(GOLDEN, GAMES, golden_name, golden_text, ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
