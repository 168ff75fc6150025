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

from companion.rules.simulate import play_game  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "golden" / "splendor"
#: (seed, players, policy)
GAMES = [(1, 2, "random"), (2, 3, "greedy"), (3, 4, "random"), (4, 4, "greedy")]


def golden_name(seed: int, players: int, policy: str) -> str:
    return f"seed{seed}-{players}p-{policy}.txt"


def golden_text(seed: int, players: int, policy: str) -> str:
    record, states = play_game(seed, players, policy)
    for i, state in enumerate(states[1:], start=1):
        record.comments[i] = state.digest()
    return record.text()


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        path = GOLDEN / golden_name(*game)
        path.write_text(golden_text(*game), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
