"""``demo --speech --lang fr``: one WAV per confirmed turn (and the standings), in French."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.cli import main
from companion.i18n import set_language
from tests.conftest import ROOT

RECORDING = ROOT / "tests" / "data" / "demo"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_demo_speaks_every_confirmed_turn_in_french(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    try:
        code = main(["demo", "--recording", str(RECORDING), "--out", str(out), "--headless",
                     "--quiet", "--speech", "--lang", "fr"])
    finally:
        set_language("en")
    assert code == 0
    record = (out / "record.txt").read_text(encoding="utf-8")
    turns = [line for line in record.splitlines() if line[:1].isdigit()]
    finished = '[Result "*"]' not in record
    wavs = sorted((out / "speech").glob("*.wav"))
    assert len(wavs) == len(turns) + finished  # one per confirmed turn, plus the standings
    log = (out / "speech" / "spoken.txt").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[1] for line in log] == [w.name for w in wavs]
    assert all(line.split("\t")[2].startswith("Validé :") for line in log[: len(turns)])
    assert sorted((out / "screens").glob("*.png"))  # and the screenshots


def test_speech_without_espeak_says_so_in_one_line_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    out = tmp_path / "demo"
    assert main(["demo", "--recording", str(RECORDING), "--out", str(out), "--headless",
                 "--quiet", "--speech"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("speech:")]
    assert err == [
        "speech: speech needs espeak-ng, which is not installed (sudo apt install espeak-ng);"
        " going on without speech"
    ]
    assert not (out / "speech").exists() or not list((out / "speech").glob("*.wav"))


def test_an_unknown_language_fails_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--recording", str(RECORDING), "--lang", "tlh"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "tlh" in err[0] and "en, fr" in err[0]
