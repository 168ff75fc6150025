"""The tracebacks of issue 41 (defect 7), each now one line and a non-zero exit.

A layout whose card slot says ``"level": 9``; ``vision eval`` truth files
that are not JSON objects or not UTF-8; ``analyse --budget inf|nan``;
``analyse --record`` and ``run --camera game:FILE`` of Latin-1 or UTF-16
files (decoded as ``replay`` does, so a BOM is fine); ``vision world --seed
-1``; every command when the home folder cannot be told.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.cli.invoke import invoke, isolate

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
SPLENDOR = GOLDEN / "splendor" / "seed1-2p-random.txt"




def _one_line(code: int, err: str, *names: str) -> None:
    """A non-zero exit and one line naming ``names``; ``vision eval``'s progress
    (``[ 1/1] f1.png``, ``\r``-redrawn) and per-frame notes may come before it."""
    lines = [x for x in err.splitlines() if x.strip() and not x.startswith(("\r", "["))
             and not x.startswith("f1.png: ")]
    assert code not in (0, None), f"exit {code}: {lines}"
    assert "Traceback" not in err and len(lines) == 1, lines
    assert lines[0].startswith("splendor-companion"), lines
    assert all(n in lines[0] for n in names), (names, lines[0])


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from vision.layout import build_layout

    d = tmp_path_factory.mktemp("tracebacks")
    base = build_layout(3).to_dict()
    for name, kind, level in (("level9.json", "card", 9), ("level0.json", "deck", 0),
                              ("levelnone.json", "card", None)):
        data = json.loads(json.dumps(base))
        next(s for s in data["slots"] if s["kind"] == kind)["level"] = level
        (d / name).write_text(json.dumps(data), encoding="utf-8")
    data = json.loads(json.dumps(base))
    next(s for s in data["slots"] if s["player"] is not None)["player"] = 7
    (d / "player7.json").write_text(json.dumps(data), encoding="utf-8")
    text = SPLENDOR.read_text(encoding="utf-8").replace("Player 1", "Ren\u00e9e")
    (d / "latin1.txt").write_bytes(text.encode("latin-1"))
    (d / "utf16.txt").write_bytes(text.encode("utf-16"))
    (d / "bom.txt").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    duel = sorted((GOLDEN / "duel").glob("*.txt"))[0].read_text(encoding="utf-8")
    (d / "duel-latin1.txt").write_bytes(("; Ren\u00e9e\n" + duel).encode("latin-1"))
    (d / "duel-utf16.txt").write_bytes(duel.encode("utf-16"))
    (d / "duel-bom.txt").write_bytes(b"\xef\xbb\xbf" + duel.encode("utf-8"))
    table = np.random.default_rng(1).integers(60, 200, (480, 640, 3), dtype=np.uint8)
    cv2.imwrite(str(d / "table.png"), table)
    truths = {"list": b"[1, 2, 3]", "latin1": '{"cards": "caf\u00e9"}'.encode("latin-1"),
              "number": b"42", "notjson": b"{cards", "cards5": b'{"cards": 5}',
              "entry": json.dumps({k: [{"x": 1}] for k in ("cards", "nobles", "decks",
                                  "token_slots", "reserved", "tableau")}).encode()}
    for name, raw in truths.items():
        folder = d / f"eval-{name}"
        folder.mkdir()
        shutil.copy(d / "level9.json", folder / "layout.json")
        (folder / "layout.json").write_text(build_layout(3).to_json(), encoding="utf-8")
        cv2.imwrite(str(folder / "f1.png"), table)
        (folder / "f1.json").write_bytes(raw)
    rec = d / "rec-nonobles"
    rec.mkdir()
    game = (ROOT / "tests" / "data" / "demo" / "game.txt").read_text(encoding="utf-8")
    (rec / "game.txt").write_text("".join(line for line in game.splitlines(keepends=True)
                                          if not line.startswith("[Nobles")), encoding="utf-8")
    (rec / "buttons.txt").write_text("confirm\n", encoding="utf-8")
    from tests.review.logged import log_game

    log_game(d / "thumbs.db", upto=3, finish=False)
    db = sqlite3.connect(d / "thumbs.db")
    db.execute("UPDATE turns SET thumbnail = 'not a jpeg'")
    db.commit()
    db.close()
    (d / "junkframes").mkdir()
    (d / "junkframes" / "0000.png").write_bytes(b"\x89PNG not really")
    unread = d / "eval-unreadable"
    unread.mkdir()
    (unread / "layout.json").write_text(build_layout(3).to_json(), encoding="utf-8")
    (unread / "f1.png").write_bytes(b"not a picture")
    (unread / "f1.json").write_text("{}", encoding="utf-8")
    return d


@pytest.fixture(autouse=True)
def _isolated(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(world, monkeypatch)


CASES = [
    ("vision read {d}/table.png --layout {d}/level9.json", ("level9.json", "level")),
    ("calibrate {d}/table.png --layout {d}/level0.json", ("level0.json", "level")),
    ("vision read {d}/table.png --layout {d}/levelnone.json", ("levelnone.json", "level")),
    ("vision read {d}/table.png --layout {d}/player7.json", ("player7.json", "player 7")),
    *[(f"vision eval {{d}}/eval-{name}", ("f1.json",))
      for name in ("list", "latin1", "number", "notjson", "cards5", "entry")],
    ("vision eval {d}/eval-unreadable --min-accuracy 50", ("--min-accuracy", "could be read")),
    *[(f"analyse --record {SPLENDOR} --budget {b}", ("--budget",))
      for b in ("inf", "nan", "infs", "nans", "-infs", "1e400s", "0s", "99999999999999999999")],
    ("analyse --record {d}/latin1.txt --budget 4", ("latin1.txt", "UTF-8")),
    ("analyse --record {d}/utf16.txt --budget 4", ("utf16.txt", "UTF-16")),
    ("run --game duel --players 2 --camera game:{d}/duel-latin1.txt --buttons script:/dev/null"
     " --db {d}/duel.db", ("duel-latin1.txt", "UTF-8")),
    ("run --game duel --players 2 --camera game:{d}/duel-utf16.txt --buttons script:/dev/null"
     " --db {d}/duel.db", ("duel-utf16.txt", "UTF-16")),
    ("vision world --seed -1 --count 1", ("--seed",)),
    ("vision world --seed 4294967296 --count 1", ("--seed",)),
    ("vision world --game duel --seed -1 --count 1", ("--seed",)),
    ("vision world --count 99999999", ("--count",)),
    # found by the generated run: a warning per unreadable picture, then the error
    ("camera-test --camera recorded:{d}/junkframes --frames 1", ("can be read", "0000.png")),
    ("games --db {d}/" + "x" * 300, ("cannot use the game log",)),
    ("vision eval {d}/" + "z" * 300, ("File name too long",)),
    ("export 1 --db {d}/" + "y" * 300, ("cannot use the game log",)),
    ("demo --headless --recording {d}/rec-nonobles --out {d}/demo-out", ("Nobles",)),
    ("review 1 --db {d}/thumbs.db --html {d}/review.html", ("thumbnail",)),
]


@pytest.mark.parametrize(("argv", "names"), CASES, ids=[a[:70] for a, _ in CASES])
def test_what_was_a_traceback_is_one_line(argv: str, names: tuple[str, ...], world: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = invoke(argv.replace("{d}", str(world)).split(), capsys)
    _one_line(code, err, *names)


def test_a_record_with_a_bom_is_analysed_as_replay_reads_it(
        world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = invoke(["analyse", "--record", str(world / "bom.txt"), "--budget", "4",
                              "--jobs", "1"], capsys)
    assert code == 0, err
    assert "Ren\u00e9e" in out


def test_a_duel_record_with_a_bom_plays_as_a_camera(
        world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = invoke(["run", "--game", "duel", "--players", "2", "--camera",
                               f"game:{world / 'duel-bom.txt'}", "--buttons", "script:/dev/null",
                               "--db", str(world / "bom.db")], capsys)
    assert code == 0, err
    assert "Traceback" not in err


# ------------------------------------------------------------ no home folder
NO_HOME = [
    "games", "export last", "review last", "analyse last", "run --players 2 --no-camera"
    " --buttons script:/dev/null", "calibrate {d}/table.png --layout {d}/lay.json --out"
    " {d}/c.json", "vision read {d}/table.png --layout {d}/lay.json",
]


@pytest.fixture
def homeless(monkeypatch: pytest.MonkeyPatch) -> None:
    """No HOME and no passwd entry: ``Path.home()`` raises as it does then."""
    def no_home(cls: type[Path]) -> Path:
        raise RuntimeError("Could not determine home directory.")

    for variable in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(Path, "home", classmethod(no_home))


@pytest.mark.parametrize("argv", NO_HOME)
def test_no_home_folder_is_one_line_or_works(argv: str, world: Path, homeless: None,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from vision.layout import build_layout

    (world / "lay.json").write_text(build_layout(2).to_json(), encoding="utf-8")
    code, _out, err = invoke(argv.replace("{d}", str(world)).split(), capsys)
    assert "Traceback" not in err
    if code != 0:
        _one_line(code, err)
        assert "HOME" in err or "marker" in err, err


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to run as a user with no passwd entry")
def test_every_command_runs_as_a_user_without_a_home(tmp_path: Path) -> None:
    """The real thing: a uid with no passwd entry and no HOME (``Path.home()`` raises)."""
    tmp_path.chmod(0o777)
    record = tmp_path / "g.txt"
    shutil.copy(SPLENDOR, record)
    record.chmod(0o644)
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_DATA_HOME",
                                                           "XDG_CONFIG_HOME")}
    env.update(PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    for argv in (["games"], ["replay", str(record)], ["simulate", "--out", "sim"],
                 ["run", "--players", "2", "--no-camera", "--buttons", "script:/dev/null"]):
        done = subprocess.run(["setpriv", "--reuid=54321", "--regid=54321", "--clear-groups",
                               sys.executable, "-m", "companion", *argv], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr, (argv, done.stderr)
        lines = [x for x in done.stderr.splitlines() if x.strip()]
        assert done.returncode == 0 or len(lines) == 1, (argv, lines)
