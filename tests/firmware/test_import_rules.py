"""firmware imports nothing of the project (DESIGN.md: arrows only point down)."""

from __future__ import annotations

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_firmware_imports_neither_companion_nor_vision():
    files = sorted(FIRMWARE.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top not in {"companion", "vision"}, f"{path.name} imports {name}"
