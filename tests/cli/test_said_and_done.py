"""What the options and the config say is what the commands do (issue 41, defect 8).

``vision eval --min-accuracy`` passed when no frame could be read (see
``test_tracebacks.py``); ``run --game duel`` ignored ``--lang`` (``xx``
exited 0, ``fr`` showed English) and ``--layout`` (a missing file exited
0); ``[screen] width/height`` were ignored; ``database = "~/g.db"`` made a
folder named ``~``; ``demo --lang fr`` printed its summary in English.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion import i18n
from companion.commands import CommandError
from companion.commands._table import screen_size
from firmware.config import load
from tests.cli.invoke import invoke, isolate

DUEL = "run --game duel --players 2 --no-camera --buttons script:/dev/null --db {d}/duel.db"




@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(tmp_path, monkeypatch)
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("extra", "named"), [
    ("--lang xx", "--lang"),
    ("--layout {d}/missing.json", "missing.json"),
    ("--layout {d}/splendor-layout.json", "not a Splendor Duel layout"),
])
def test_run_duel_refuses_what_it_cannot_do(extra: str, named: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from vision.layout import build_layout

    (tmp_path / "splendor-layout.json").write_text(build_layout(2).to_json(), encoding="utf-8")
    argv = f"{DUEL} {extra}".replace("{d}", str(tmp_path)).split()
    code, _out, err = invoke(argv, capsys)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and named in lines[0], lines


def test_run_duel_takes_a_duel_layout_and_the_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.duel.layout import build_duel_layout

    (tmp_path / "duel.json").write_text(build_duel_layout().to_json(), encoding="utf-8")
    argv = f"{DUEL} --layout {{d}}/duel.json --lang fr".replace("{d}", str(tmp_path)).split()
    code, _out, err = invoke(argv, capsys)
    assert code == 0, err
    assert i18n.language() == "fr"  # what the Duel screens were drawn in


def _args(screen: str | None) -> argparse.Namespace:
    return argparse.Namespace(screen=screen)


def test_the_configs_screen_size_is_used_unless_screen_is_given(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[screen]\nwidth = 1024\nheight = 600\n", encoding="utf-8")
    config = load(path)
    assert screen_size(_args(None), config) == (1024, 600)
    assert screen_size(_args("640x400"), config) == (640, 400)
    path.write_text("[screen]\nwidth = 100\nheight = 600\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"config \[screen\] 100x600"):
        screen_size(_args(None), load(path))


def test_a_database_under_the_home_folder_is_not_a_folder_named_tilde(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    config = tmp_path / "config.toml"
    config.write_text('[storage]\ndatabase = "~/g.db"\n', encoding="utf-8")
    monkeypatch.setenv("SPLENDOR_COMPANION_CONFIG", str(config))
    code, _out, err = invoke(["run", "--players", "2", "--no-camera", "--buttons",
                               "script:/dev/null"], capsys)
    assert code == 0, err
    assert (home / "g.db").is_file()
    assert not (work / "~").exists()


def test_demo_speaks_french_to_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    code, out, err = invoke(["demo", "--lang", "fr", "--turns", "0", "--headless", "--quiet",
                              "--out", str(tmp_path / "out")], capsys)
    assert code == 0, err
    assert "Arrêt après 0 tours" in out and "Confirmations fausses" in out, out
    assert "Stopped after" not in out and "Silent wrong" not in out


def test_the_duel_screens_speak_french() -> None:
    """``run --game duel --lang fr`` drew the Duel referee's own screens in English."""
    from companion.referee.duel.hooks import DUEL

    i18n.set_language("fr")
    view = DUEL.new_game_view("", camera=False)
    assert view.title.startswith("Nouvelle partie"), view.title
    assert "VALIDER" in view.text
    assert DUEL.abstain_note().startswith("La caméra")
