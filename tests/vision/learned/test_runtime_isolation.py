"""What ships reads nothing outside the package and the user's files (issue 38).

A Raspberry Pi has no ``../shared`` and must not need ``vision.synth`` (the
renderer) or ``vision.training`` to read a table.  These tests read frames in a
fresh interpreter that refuses those imports and records every file it opens,
and through a copy of the packages with no ``../shared`` beside it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared"

#: Run in a fresh interpreter: refuse the offline modules, record every open, read
#: a Splendor frame and a Duel frame, print the answers and the files opened.
SCRIPT = r'''
import json, sys
from importlib.abc import MetaPathFinder

class Refuse(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith(("vision.synth", "vision.training")):
            raise ImportError(f"run time imported {name}")
        return None

sys.meta_path.insert(0, Refuse())
opened = []
sys.addaudithook(lambda ev, args: opened.append(str(args[0])) if ev == "open"
                 and isinstance(args[0], str) else None)
import cv2
import vision
from vision.duel.read import read_duel_places
from vision.layout import build_layout
from vision.read import read_frame
splendor, duel = sys.argv[1], sys.argv[2]
obs = read_frame(cv2.imread(splendor), build_layout(2), workers=1)
cards = {c.slot: (c.card.id if c.card else c.state, round(c.confidence, 4)) for c in obs.cards}
places = read_duel_places(cv2.imread(duel)).places
named = {k: (r.value, round(r.confidence, 4)) for k, r in places.items()
         if k.startswith(("pyramid.", "royal."))}
print(json.dumps({"package": vision.__file__, "cards": cards, "duel": named,
                  "opened": opened}))
'''


def _run(cwd: Path, pythonpath: Path, frames: tuple[Path, Path]) -> dict[str, object]:
    env = {"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin", "HOME": str(cwd),
           "SPLENDOR_VISION_WORKERS": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, *map(str, frames)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A Splendor and a Duel frame rendered here (with the art when ``../shared`` has it)."""
    from vision.synth.duel import random_position, render_duel
    from vision.synth.world import world_frame

    out = tmp_path_factory.mktemp("frames")
    splendor = world_frame(2, "easy", 31, split="check").image
    duel = render_duel(random_position(8), 8, difficulty="easy", hand=False).image
    paths = (out / "splendor.png", out / "duel.png")
    cv2.imwrite(str(paths[0]), splendor)
    cv2.imwrite(str(paths[1]), duel)
    return paths


def _allowed(path: str, roots: list[Path]) -> bool:
    p = Path(path)
    if not p.is_absolute():
        return True  # relative to the cwd, which is the tmp folder
    return any(p.resolve().is_relative_to(r) for r in roots) or path.startswith(
        ("/dev/", "/proc/", "/sys/", "/etc/"))


@pytest.mark.slow
def test_reading_imports_no_renderer_and_opens_nothing_outside_the_package(
        frames: tuple[Path, Path], tmp_path: Path) -> None:
    out = _run(tmp_path, ROOT, frames)
    roots = [ROOT / "vision", ROOT / "companion", Path(sys.prefix).resolve(),
             Path(sys.base_prefix).resolve(), frames[0].parent.resolve(), tmp_path.resolve()]
    roots += [Path(p).resolve() for p in sys.path if p and "site-packages" in p]
    strays = [p for p in out["opened"] if not _allowed(p, roots)]
    assert not strays, strays[:10]
    assert not any("shared" in Path(p).parts for p in out["opened"])
    assert any(v[0] not in ("unknown", "empty") for v in out["cards"].values())
    assert any(v[0] for v in out["duel"].values())


@pytest.mark.slow
def test_a_copy_without_shared_beside_it_reads_as_the_checkout(
        frames: tuple[Path, Path], tmp_path: Path) -> None:
    """The packages copied where no ``../shared`` is: the same answers, to the digit."""
    copy = tmp_path / "site"
    for pkg in ("vision", "companion", "firmware"):
        shutil.copytree(ROOT / pkg, copy / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    assert not (copy.parent / "shared").exists()
    installed = _run(tmp_path, copy, frames)
    checkout = _run(tmp_path, ROOT, frames)
    assert Path(installed["package"]).resolve().is_relative_to(copy.resolve())
    assert installed["cards"] == checkout["cards"]
    assert installed["duel"] == checkout["duel"]
    named = [v for v in installed["duel"].values() if v[0]]
    assert len(named) >= 0.8 * len(installed["duel"])


#: The modules `run` loads to referee a table (both games, the computer seat, the
#: camera's reader, the screen and speech): none may pull in the renderer or the
#: training stack.  The demos draw their frames and may (companion.demo, vision.synth).
RUN_PATH = ("companion.cli", "companion.commands.run", "companion.commands._duel_table",
            "companion.commands._computer", "companion.referee.splendor.loop",
            "companion.referee.duel", "vision.read", "vision.duel.read", "vision.learn")


def test_the_run_command_loads_no_renderer_and_no_training() -> None:
    code = ("import importlib, sys\n"
            f"for m in {RUN_PATH!r}:\n"
            "    importlib.import_module(m)\n"
            "print(sorted(n for n in sys.modules if n.startswith("
            "('vision.synth', 'vision.training', 'companion.demo'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == "[]", out


#: ``run`` itself, as on a box: refuses the offline modules (and records any attempt,
#: so a lazy import caught by an ``except ImportError`` cannot hide), then referees the
#: recorded demo game (Splendor, its own button script) and a rendered Duel table.
RUN_SCRIPT = r'''
import json, sys
from importlib.abc import MetaPathFinder
from pathlib import Path

OFFLINE = ("vision.synth", "vision.training", "companion.demo")
tried = []

class Refuse(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith(OFFLINE):
            tried.append(name)
            raise ImportError(f"run time imported {name}")
        return None

sys.meta_path.insert(0, Refuse())
from companion.cli import main
from companion.record.log import GameLog
demo, duel, out = map(Path, sys.argv[1:4])
codes = [main(["run", "--players", "3", "--camera", f"recorded:{demo / 'frames'}",
               "--buttons", f"script:{demo / 'buttons.txt'}", "--db", str(out / "s.db"),
               "--resume", "no"]),
         main(["run", "--game", "duel", "--players", "2", "--names", "Ann,Bob",
               "--camera", f"recorded:{duel}", "--buttons", "script:/dev/null",
               "--db", str(out / "d.db"), "--resume", "no"])]
with GameLog.open_readonly(out / "s.db") as log:
    turns = len(log.turns(1))
print(json.dumps({"codes": codes, "turns": turns, "tried": tried,
                  "loaded": sorted(n for n in sys.modules if n.startswith(OFFLINE))}))
'''


@pytest.mark.slow
def test_run_referees_recorded_tables_without_renderer_training_or_demo(
        frames: tuple[Path, Path], tmp_path: Path) -> None:
    """The modules the house check lists (vision.training.*, companion.demo.splendor's
    use of vision.synth) are off the reading path: ``run`` plays the recorded demo game
    to its end and reads a Duel photo with every one of them refused."""
    duel = tmp_path / "duel"
    duel.mkdir()
    shutil.copy(frames[1], duel / "0000.png")
    demo = ROOT / "tests" / "data" / "demo"
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "SDL_VIDEODRIVER": "dummy", "SPLENDOR_VISION_WORKERS": "1"}
    done = subprocess.run([sys.executable, "-c", RUN_SCRIPT, str(demo), str(duel),
                           str(tmp_path)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["tried"] == [] and got["loaded"] == []
    assert got["codes"] == [0, 0]
    recorded = [line for line in (demo / "game.txt").read_text(encoding="utf-8").splitlines()
                if line[:1].isdigit()]
    assert got["turns"] == len(recorded) > 0
