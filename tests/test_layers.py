"""The whole house's imports: no circle, no arrow up, a reason beside every lazy import.

tests/rules/test_imports.py keeps the rules free of circles; this test holds
DESIGN.md's arrows over every package (companion, vision, firmware), read
with :mod:`ast` by :mod:`tests.import_graph` so imports inside functions
and under ``TYPE_CHECKING`` count too (a circle hidden in a function is
still a circle: it only moves the failure to call time).

An import inside a function is allowed where it is lazy on purpose (a heavy
or platform-bound library that a command or a test may never need:
picamera2, pygame, OpenCV, matplotlib, gpiozero, the training stack) and
says so in a ``# lazy: <reason>`` comment on it or above its block.
vision/ is the learned reader's work in progress: its function-level
imports are listed in :data:`VISION_PENDING`, which may only shrink.
"""

from __future__ import annotations

import pytest

from tests import import_graph as g

#: vision's function-level imports without a reason yet: (module, statement).
#: Remove an entry when its import gets a ``# lazy:`` reason or moves to the top.
VISION_PENDING = frozenset({
    ("vision.layout", "import cv2"),
    ("vision.lens", "from vision.colours import config_home"),
    ("vision.make_serif_digits", "from PIL import Image, ImageDraw, ImageFont"),
    ("vision.readers", "from vision.layout import TABLEAU_STEP_MM"),
    ("vision.readers", "from vision.layout import PILE_STEP_MM, TOKEN_MM"),
    ("vision.slot_jobs", "import select"),
    ("vision.slot_jobs", "from multiprocessing import forkserver"),
    ("vision.synth.duel_faces", "from companion.rules.duel.tokens import KINDS"),
    ("vision.synth.recorded", "from vision.calibrate import slot_visible"),
    ("vision.synth.recorded", "from companion.rules.simulate import play_game"),
    ("vision.training.train", "import jax  # the training stack: only in the [train] extra"),
    ("vision.training.train", "import jax.numpy as jnp"),
    ("vision.training.train", "import optax"),
    ("vision.training.train", "from vision.training import net"),
    ("vision.training.train", "from vision.training.export import to_onnx"),
    ("vision.world_eval", "from vision.colours import ColourModel"),
    ("vision.world_eval", "from vision.errors import VisionError"),
    ("vision.world_eval", "from vision.learn import learn_colours"),
    ("vision.world_eval", "from vision.read import read_frame"),
    ("vision.world_eval", "from vision.synth.world import world_frame as world"),
})


#: Arrows up to be fixed by their owner, (module, target), each with why it waits;
#: none today (vision.training.sure's import of companion.processes is gone).
PENDING_UPWARD: frozenset[tuple[str, str]] = frozenset()


@pytest.fixture(scope="module")
def imports() -> list[g.Import]:
    return g.all_imports()


@pytest.fixture(scope="module")
def modules() -> set[str]:
    return set(g.module_paths())


def test_no_import_circle_anywhere(imports: list[g.Import], modules: set[str]) -> None:
    found = g.circles(g.graph(imports, modules))
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_every_module_has_a_layer(modules: set[str]) -> None:
    assert not {m for m in modules if g.layer_of(m) is None}


def test_no_arrow_points_up(imports: list[g.Import], modules: set[str]) -> None:
    up = g.upward(imports, modules)
    found = [f"{i.source}:{i.line} imports {i.target}" for i in up
             if (i.source, i.target) not in PENDING_UPWARD]
    assert not found, "\n".join(found)
    stale = PENDING_UPWARD - {(i.source, i.target) for i in up}
    assert not stale, f"fixed: remove from PENDING_UPWARD: {sorted(stale)}"


@pytest.mark.parametrize("island", g.ISLANDS, ids=lambda i: i[0])
def test_the_rules_and_firmware_use_nothing_else(
    island: tuple[str, ...], imports: list[g.Import]
) -> None:
    def inside(module: str) -> bool:
        return any(module == p or module.startswith(p + ".") for p in island)

    found = {f"{i.source} -> {i.target}" for i in imports
             if inside(i.source) and not inside(i.target)}
    assert not found


def test_vision_uses_only_the_rules_of_the_companion(imports: list[g.Import]) -> None:
    found = {f"{i.source} -> {i.target}" for i in imports
             if i.source.startswith("vision") and i.target.startswith("companion")
             and not i.target.startswith("companion.rules")
             and (i.source, i.target) not in PENDING_UPWARD}
    assert not found


def test_every_import_inside_a_function_says_why_it_is_lazy() -> None:
    found = [i for i in g.function_imports() if not i.explained]
    unexplained = {f"{i.module}:{i.line}: {i.text}" for i in found
                   if (i.module, i.text) not in VISION_PENDING}
    assert not unexplained, "add `# lazy: <reason>` or import at the top:\n" + "\n".join(
        sorted(unexplained))
    # the list only shrinks: an entry whose import was fixed must go
    stale = VISION_PENDING - {(i.module, i.text) for i in found}
    assert not stale, f"remove from VISION_PENDING: {sorted(stale)}"


def test_the_checks_see_a_circle_an_upward_arrow_and_a_silent_lazy_import() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert g.circles(edges) == [["a", "b", "c"]]
    names = {"companion.rules.splendor.state", "companion.screen.draw"}
    up = g.Import("companion.rules.splendor.state", "companion.screen.draw", 1, False, False, "")
    down = g.Import("companion.screen.draw", "companion.rules.splendor.state", 1, False, False, "")
    assert g.upward([up, down], names) == [up]
    code = (
        "def f():\n"
        "    from companion.rules import state\n"
        "\n"
        "def g():\n"
        "    # lazy: OpenCV and numpy load only when pixels are read\n"
        "    import cv2\n"
        "    import numpy\n"
    )
    said = {i.text: i.explained for i in g.inner_imports_of("m", code)}
    assert said == {"from companion.rules import state": False, "import cv2": True,
                    "import numpy": True}


#: The modules outside the renderer that may import it (vision.synth): each renders
#: tables for a command that shows or measures them (demo, vision world/eval, the
#: Duel table's drawn frames) or for training, never for reading a photograph
#: (tests/vision/learned/test_runtime_isolation.py reads with both refused).
RENDERER_USERS = frozenset({
    "companion.commands._duel_table", "companion.commands.vision", "companion.demo.splendor",
    "vision.duel.evaluate", "vision.world_eval",
})


def _importers(imports: list[g.Import], package: str) -> set[str]:
    return {i.source for i in imports if (i.target == package or i.target.startswith(
        package + ".")) and not (i.source == package or i.source.startswith(package + "."))}


def test_the_training_stack_is_offline_and_not_installed(imports: list[g.Import]) -> None:
    """vision.training reads ../shared and renders through vision.synth: nothing else
    imports it, and an installed box (pyproject's package list) does not carry it."""
    import tomllib

    from setuptools import find_packages

    assert not _importers(imports, "vision.training")
    find = tomllib.loads((g.ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["packages"]["find"]
    shipped = find_packages(str(g.ROOT), include=find["include"], exclude=find["exclude"])
    assert "vision" in shipped and "vision.learned" in shipped
    assert not [p for p in shipped if p.startswith("vision.training")]


def test_only_commands_that_show_or_measure_tables_import_the_renderer(
        imports: list[g.Import]) -> None:
    users = {s for s in _importers(imports, "vision.synth")
             if not s.startswith("vision.training")}
    assert users <= RENDERER_USERS, sorted(users - RENDERER_USERS)
    assert not RENDERER_USERS - users, f"no longer a user: {sorted(RENDERER_USERS - users)}"
