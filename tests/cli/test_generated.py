"""Generated misuse of every command, a fixed number of seeded cases each (issue 41).

Each case (``tests/cli/generated.py``) copies pristine inputs into its own
folder, mutates some (records, layouts, logs, images, truths, scripts,
configs), draws names, numbers and paths, runs the command in this process
and checks: no traceback; a non-zero exit gives one line; no input changed.
The seeds are fixed, so a failure here is reproduced by its id; the long run
with fresh seeds is ``tests/bench/bench_fuzz_commands.py --minutes 10``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import generated
from tests.cli.invoke import isolate

#: Cases per command under ``make test``: a few seconds each, the whole walk ~1-2 min.
CASES = {"demo": 6, "vision world": 10, "vision eval": 10, "mats": 10, "run": 25,
         "analyse": 20}
DEFAULT_CASES = 25


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated.build_world(tmp_path_factory.mktemp("generated-world"))


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No case reads the user's log, config or colours; vision in one process."""
    isolate(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("command", sorted(generated.COMMANDS))
def test_generated_misuse_behaves(command: str, world: Path, tmp_path: Path) -> None:
    failures = []
    for seed in range(CASES.get(command, DEFAULT_CASES)):
        made = generated.case(command, seed, world, tmp_path / "case")
        problems = generated.check(made)
        if problems:
            failures.append(f"{made}\n    " + "\n    ".join(problems))
    assert not failures, "\n".join(failures[:5])


def test_every_command_has_a_generator() -> None:
    from companion.cli import build_parser

    parser = build_parser()
    names = set()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        names.update(action.choices)  # type: ignore[arg-type]
    names = (names - {"vision"}) | {"vision read", "vision eval", "vision world"}
    assert names == set(generated.COMMANDS)
