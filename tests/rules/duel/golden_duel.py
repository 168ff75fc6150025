"""Golden playthroughs of Splendor Duel: seeded games kept as record files.

Run ``python tests/rules/duel/golden_duel.py`` to regenerate them after a
deliberate rules change; ``test_duel_golden.py`` replays each file and
compares it line by line with a fresh simulation, so any change of behaviour
shows as a diff.  Each turn carries the state digest after it as a comment.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.rules.duel.simulate import play_game  # noqa: E402
from tests.rules.goldens import digested_text, write_goldens  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "golden" / "duel"
#: (seed, policy of the first player, policy of the second)
GAMES = [
    (1, "random", "random"),
    (2, "greedy", "greedy"),
    (3, "random", "greedy"),
    (4, "greedy", "random"),
]
NAMES = ("Ann", "Bob")


def golden_name(seed: int, first: str, second: str) -> str:
    return f"seed{seed}-{first}-{second}.txt"


def golden_text(seed: int, first: str, second: str) -> str:
    return digested_text(*play_game(seed, NAMES, (first, second)))


def main() -> int:
    return write_goldens(GOLDEN, GAMES, golden_name, golden_text, ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
