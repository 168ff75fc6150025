"""What the command-line tests share: calling ``main`` as a shell would, and a world
that reads nothing of the user's own (log, config, colours) and no Pi's pins."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main


def invoke(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``splendor-companion argv``, as a shell sees them:
    ``sys.exit(None)`` is 0, a message passed to ``sys.exit`` is 1."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


def isolate(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's data and config under ``root``; vision read in one process."""
    monkeypatch.setenv("XDG_DATA_HOME", str(root / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "xdg-config"))
    monkeypatch.delenv("SPLENDOR_COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("SPLENDOR_VISION_WORKERS", "1")
