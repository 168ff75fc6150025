"""The referee, screen, log and reviews are written once against the engine contract.

Issue 13's bar: they import no game's state class, and the review page does
not guess the game with ``hasattr``/``getattr``.  Read with :mod:`ast` (so
imports under ``TYPE_CHECKING`` or inside functions count too).  The
exceptions are named, with why: :mod:`companion.games` is the one
place that names each game's engine, and the screen's sample modules build
seeded games of one game on purpose (goldens and previews).

The referee is one state machine (:mod:`companion.referee.machine`) over
each game's hooks (:class:`companion.referee.game.RefereeGame`).  Every
referee module is checked, however deep, except the two hook packages
:mod:`companion.referee.splendor` and :mod:`companion.referee.duel`: a hook
answers in its own game's terms (reads its table, builds its turns, applies
them to its state), so naming its state class is its job, as naming the
engines is :mod:`companion.games`'s.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion

PACKAGE = Path(companion.__file__).parent
#: Modules that hold a game's state class.
STATE_MODULES = {"companion.rules.splendor.state", "companion.rules.duel.state"}
#: Packages that re-export a state class under the name ``GameState``.
REEXPORTS = {"companion.rules", "companion.rules.splendor", "companion.rules.duel"}
ALLOWED = {
    "companion/screen/splendor/samples.py",  # Splendor's seeded sample games
    "companion/screen/duel/samples.py",  # Duel's seeded sample games
}
#: The referee's per-game hook packages (see the module's docstring).
HOOK_PACKAGES = ("companion/referee/splendor/", "companion/referee/duel/")
#: The game-neutral referee: every module below companion/referee but the hooks.
REFEREE = sorted(
    p
    for p in (PACKAGE / "referee").rglob("*.py")
    if not str(p.relative_to(PACKAGE.parent)).startswith(HOOK_PACKAGES)
)
SEAMS = sorted(
    [
        p
        for folder in ("screen", "record", "review")
        for p in (PACKAGE / folder).glob("*.py")
        if str(p.relative_to(PACKAGE.parent)) not in ALLOWED
    ]
    + REFEREE
)


def _state_imports(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name in STATE_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module in STATE_MODULES:
                found.append(node.module)
            elif node.module in REEXPORTS:
                found += [f"{node.module}.{a.name}" for a in node.names
                          if a.name == "GameState" or f"{node.module}.{a.name}" in STATE_MODULES]
    return found


@pytest.mark.parametrize("path", SEAMS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_seam_imports_no_games_state_class(path: Path) -> None:
    assert _state_imports(ast.parse(path.read_text(), str(path))) == []


def test_the_generic_referee_is_among_the_seams_and_the_hooks_are_not() -> None:
    checked = {str(p.relative_to(PACKAGE)) for p in SEAMS}
    for name in ("__init__.py", "machine.py", "game.py", "menu.py", "driver.py"):
        assert f"referee/{name}" in checked
    assert not {c for c in checked if c.startswith(("referee/splendor/", "referee/duel/"))}
    # the hook packages do name their state: the exemption is needed, not idle
    for package in HOOK_PACKAGES:
        assert any(
            _state_imports(ast.parse(p.read_text()))
            for p in (PACKAGE.parent / package).glob("*.py")
        ), package


def test_the_check_sees_a_state_import() -> None:
    for code in ("from companion.rules.splendor.state import GameState",
                 "from companion.rules.duel import GameState",
                 "import companion.rules.duel.state",
                 "from companion.rules.splendor import state"):
        assert _state_imports(ast.parse(code)), code


def test_the_review_page_does_not_guess_the_game() -> None:
    source = (PACKAGE / "review" / "html.py").read_text()
    calls = {
        node.func.id
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not calls & {"hasattr", "getattr"}
    assert "Any" not in {
        a.name for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) for a in node.names
    }


def test_each_games_referee_is_the_one_machine_with_its_hooks() -> None:
    from companion.referee.duel.hooks import DUEL, DuelReferee
    from companion.referee.machine import Referee
    from companion.referee.splendor.hooks import SPLENDOR, SplendorReferee

    for cls, hooks in ((SplendorReferee, SPLENDOR), (DuelReferee, DUEL)):
        assert issubclass(cls, Referee)
        own = {name for name in vars(cls) if not name.startswith("__")}
        assert own == {"hooks"}, f"{cls.__name__} adds {own - {'hooks'}} to the machine"
        assert cls(("Ann", "Bob")).game is hooks
