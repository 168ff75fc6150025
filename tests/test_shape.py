"""One shape for both games: the registry is the one place that tells them apart.

:mod:`companion.games` (pgx's ``make``) names every game; a command, the log
or the review looks a game up there (``by_key``, ``kind``,
``kind_of_state``, ``kind_of_record``) and never compares a game's name
itself.  Where a layer does different things for each game it keeps a table
keyed by the registry's entries (``_RUNS``, ``_DEMOS``...), and this test
checks that every such table covers every game, so a third game cannot be
half added.  Read with :mod:`ast` so a branch inside any function counts.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import companion
from companion import games

PACKAGE = Path(companion.__file__).parent
#: The registry, and the rules, where each game names itself (its record's header).
OWNERS = {"games.py"}
NAMES = frozenset({*games.keys(), *games.game_types()})


def _sources() -> list[Path]:
    return sorted(
        p for p in PACKAGE.rglob("*.py")
        if str(p.relative_to(PACKAGE)) not in OWNERS
        and not str(p.relative_to(PACKAGE)).startswith("rules/")
    )


def _name_branches(tree: ast.AST) -> list[int]:
    """Lines that compare with a game's name, key a dict by one, or list the names."""
    found = []

    def names_a_game(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and node.value in NAMES

    def in_a_list(node: ast.AST) -> bool:
        return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(
            names_a_game(e) for e in node.elts)

    for node in ast.walk(tree):
        compared = isinstance(node, ast.Compare) and any(
            names_a_game(n) or in_a_list(n) for n in [node.left, *node.comparators])
        keyed = isinstance(node, ast.Dict) and any(names_a_game(k) for k in node.keys)
        listed = isinstance(node, ast.Tuple | ast.List) and sum(
            names_a_game(e) for e in node.elts) >= 2
        if compared or keyed or listed:
            found.append(getattr(node, "lineno", 0))
    return found


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_branch_on_a_games_name_outside_the_registry(path: Path) -> None:
    lines = _name_branches(ast.parse(path.read_text(), str(path)))
    assert not lines, f"look the game up in companion.games instead (lines {lines})"


def test_the_check_sees_a_branch_on_a_name() -> None:
    for code in ('if args.game == "duel": pass',
                 'x = {"splendor": 1, "duel": 2}',
                 'p.add_argument("--game", choices=("splendor", "duel"))',
                 'ok = name in ("Splendor", "Splendor Duel")'):
        assert _name_branches(ast.parse(code)), code
    assert not _name_branches(ast.parse('print("duel")'))


#: The modules with a table keyed by the registry's games, and the table's name.
TABLES = (
    ("companion.commands.run", "_RUNS"),
    ("companion.commands.demo", "_DEMOS"),
    ("companion.commands._computer_demo", "PLAYS"),
    ("companion.commands._computer_demo", "OUT"),
    ("companion.commands.simulate", "_SIMULATIONS"),
    ("companion.commands.mats", "_MATS"),
    ("companion.commands.replay", "_REPLAYS"),
    ("companion.commands.vision", "_WORLDS"),
    ("companion.screen.__main__", "_SAMPLES"),
)


@pytest.mark.parametrize(("module", "table"), TABLES)
def test_every_table_by_game_covers_every_game(module: str, table: str) -> None:
    keys = getattr(importlib.import_module(module), table)
    assert list(keys) == list(games.GAMES)


def test_every_table_by_game_is_listed_here() -> None:
    """A table keyed by games somewhere else must join TABLES (so it is checked)."""
    found = set()
    for path in _sources():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if ast.unparse(node.annotation).startswith(("dict[AnyKind", "Mapping[AnyKind")):
                    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
                    found.add((module, node.target.id))
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and any(
                isinstance(k, ast.Name) and k.id in ("SPLENDOR_GAME", "DUEL_GAME")
                for k in node.value.keys
            ):
                module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
                found.update((module, t.id) for t in node.targets if isinstance(t, ast.Name))
    assert found == set(TABLES)


def test_the_registry_finds_each_game_every_way() -> None:
    for game in games.GAMES:
        assert games.by_key(game.key) is game
        assert games.kind(game.name) is game
        assert games.kind_of_record(f'[Game "{game.name}"]\n') is game
    assert games.kind_of_record("1. take rgb\n") is games.SPLENDOR_GAME  # no header
    with pytest.raises(games.UnknownGameType):
        games.by_key("chess")


#: Each layer where a game has code of its own: a folder per game (or a
#: module per game, for the demo harness), side by side.
LAYERS = ("rules", "rules/fast", "analysis", "referee", "screen", "demo")
#: Modules only one game has, with why; every other module has its twin of
#: the same name in the other game's folder.
OWN = {
    ("rules", "splendor"): {
        "actions",  # Duel's turns are composite (turns.py): several actions, one turn
        "catalogue",  # Duel's card list is cards.py, with its abilities
        "deck", "players", "describe",
    },
    ("rules", "duel"): {
        "board", "cards", "planner", "position", "table", "tokens", "turns", "view", "words",
    },
    ("referee", "splendor"): {"reading", "observe"},  # Splendor reads vision's Observation
    ("referee", "duel"): {"compare"},  # Duel's reading is the rules' DuelView
}
#: Old paths kept as re-exports for vision/ only, until its import lines move.
PENDING_SHIMS = {"companion/rules/catalogue.py", "companion/rules/simulate.py"}


def _names(folder: Path) -> set[str]:
    if folder.is_dir():
        return {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    return {folder.stem} if folder.with_suffix(".py").exists() else set()


@pytest.mark.parametrize("layer", LAYERS)
def test_both_games_have_the_same_module_names_per_layer(layer: str) -> None:
    base = PACKAGE / layer
    if (base / "splendor.py").exists():  # a module per game
        assert (base / "duel.py").exists()
        return
    splendor = _names(base / "splendor") - OWN.get((layer, "splendor"), set())
    duel = _names(base / "duel") - OWN.get((layer, "duel"), set())
    assert splendor, f"companion/{layer}/splendor is missing"
    assert splendor == duel, f"twins with different names in companion/{layer}"


def test_no_game_has_code_outside_its_folder_where_the_other_has_a_folder() -> None:
    """The root of each layer holds what both games share, not one game's modules."""
    for layer in LAYERS:
        root = {p.stem for p in (PACKAGE / layer).glob("*.py")}
        named = {n for n in root if n.startswith(("duel_", "splendor_"))}
        assert not named, f"companion/{layer}: {sorted(named)}"


def test_the_old_paths_kept_for_vision_are_used_by_vision_only() -> None:
    old = {p.removesuffix(".py").replace("/", ".") for p in PENDING_SHIMS}
    users = set()
    for path in [*PACKAGE.rglob("*.py"), *(PACKAGE.parent / "tests").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                named = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                named = {a.name for a in node.names}
            else:
                continue
            where = str(path.relative_to(PACKAGE.parent))
            if named & old and where not in PENDING_SHIMS:
                users.add(where)
    assert not users, f"import the new paths: {sorted(users)}"


def test_the_referee_interface_is_a_few_small_protocols() -> None:
    """Issue 40: one protocol of 27 hooks and 5 type parameters became six of
    at most 7 hooks and 4 type parameters; RefereeGame is their sum, no more."""
    from companion.referee import game

    parts = (game.Tolerances, game.Reads, game.SetsUp, game.BuildsTurns, game.Says, game.Shows)

    def own(cls: type) -> set[str]:
        return {n for n in vars(cls) if not n.startswith("_")}

    for part in parts:
        assert 1 <= len(own(part)) <= 7, part.__name__
        assert len(getattr(part, "__parameters__", ())) <= 4, part.__name__
    assert not own(game.RefereeGame)
    everything = set().union(*(own(p) for p in parts))
    assert sum(len(own(p)) for p in parts) == len(everything)  # no hook in two parts
