"""The docs equal the behaviour: every shell command in README.md and hardware.md.

Every line of a fenced ``sh`` block is a command.  Each is, by a written rule:

* **run** here, in a scratch folder, and must exit 0 (the pictures the docs name,
  ``still.jpg`` and ``frame.jpg``, are rendered tables of the mats' own layout;
  a ``run`` of recorded pictures with scripted buttons needs nobody, so it runs);
* **parsed** when it needs the Pi's pins or camera, a webcam, or a person at the
  table (``sudo``, ``/opt/splendor-companion``, ``buttons-test``, ``camera-test``,
  ``run``), or is long (``vision world --count 6``: over 8 minutes here, run with
  ``--count 1`` by tests/vision/test_world_eval.py): the real argument parser must
  accept it, so no option is misnamed;
* **matched** for ``make demo`` and ``splendor-companion demo`` (2-4 minutes here):
  the Makefile recipe must be the ``splendor-companion demo`` that
  ``tests/referee/test_demo.py`` plays end to end on the committed recording;
* **left** when it is not ours to run: ``make test`` (this suite), ``git clone``,
  ``apt``, ``systemctl``, ``systemd/arm64-check.sh`` (20-60 minutes; its
  options are checked below); each with its reason in :func:`classify`.

A command the rules do not know fails the test, so a new command in the docs
must be placed by a rule.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHARED

DOCS = ("README.md", "hardware.md")
BIN = Path(sys.executable).parent
#: Longest a documented command may take here before it is only parsed (seconds);
#: `vision eval tests/data/scenes` (200 frames) takes about 60 s on two shared cores.
TIMEOUT_S = 300


def fenced_commands(text: str) -> list[str]:
    """The command lines of every ```sh block (indented blocks too), comments cut."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        fence = re.match(r"\s*```(\S*)", line)
        if fence:
            inside = not inside and fence.group(1) == "sh"
            continue
        if inside:
            command = re.sub(r"\s+#\s.*$", "", line).strip()
            if command:
                out.append(command)
    return out


def all_commands() -> list[tuple[str, str]]:
    return [(doc, c) for doc in DOCS
            for c in fenced_commands((ROOT / doc).read_text(encoding="utf-8"))]


def classify(command: str) -> tuple[str, str]:
    """(what to do, why): run, parse, match or leave."""
    words = shlex.split(command)
    if words[:2] == ["make", "test"]:
        return "leave", "make test is this very suite"
    if words[:2] == ["make", "demo"] or _program(words)[1:] == ["demo"]:
        return "match", "2-4 minutes here; tests/referee/test_demo.py plays the same command"
    if words[:3] == ["sudo", "make", "install-pi"]:
        return "leave", "changes the machine; `make install-pi ARGS=--dry-run` is run"
    if words[0] == "git" or words[:2] in (["sudo", "apt"], ["sudo", "apt-get"]):
        return "leave", "installs the machine: not ours to run"
    if any(w.endswith("arm64-check.sh") for w in words):
        return "leave", "the arm64 check takes 20-60 minutes: by hand, not in CI"
    if "systemctl" in words or "journalctl" in words or words[0] == "rpicam-hello":
        return "leave", "the Pi's own tools"
    if words[0] == "sudo" or any(w.startswith("/opt/splendor-companion") for w in words):
        return "parse", "needs the Pi (root, the installed service user and venv)"
    program = _program(words)
    scripted = (any(w.startswith("recorded:") for w in program)
                and any(w.startswith("script:") for w in program)
                and not ({"recorded:DIR", "script:FILE"} & set(program)))
    if program[1:2] == ["run"] and scripted:
        return "run", "recorded pictures and scripted buttons: no camera, pins or person"
    if program and program[1:2] and program[1] in ("buttons-test", "camera-test", "run"):
        return "parse", "needs the Pi's pins or camera, a webcam, or a person at the table"
    if program[1:3] == ["vision", "world"] and "--count" in program:
        return "parse", ("renders and reads a dozen tables (over 8 minutes on two shared"
                         " cores); tests/vision/test_world_eval.py runs it with --count 1")
    if words[0] == "make" or program:
        return "run", "runs anywhere"
    return "unknown", ""


def _program(words: list[str]) -> list[str]:
    """The ``splendor-companion ...`` part of a command line, or []."""
    for i, w in enumerate(words):
        if w.endswith("splendor-companion"):
            return ["splendor-companion", *words[i + 1:]]
    return []


COMMANDS = all_commands()


def test_the_docs_have_commands_and_every_one_is_placed_by_a_rule() -> None:
    assert len(COMMANDS) >= 15
    unknown = [c for _, c in COMMANDS if classify(c)[0] == "unknown"]
    assert not unknown, f"commands no rule places (add one to classify): {unknown}"
    kinds = {classify(c)[0] for _, c in COMMANDS}
    assert {"run", "parse", "match", "leave"} <= kinds


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder laid out as the docs assume: the pictures they name, the recorded
    scenes, ../shared when this machine has it."""
    import cv2

    from vision.layout import build_layout
    from vision.synth import Camera, random_scene, render

    base = tmp_path_factory.mktemp("docs")
    work = base / "work"
    (work / "tests" / "data").mkdir(parents=True)
    for data in ("scenes", "demo"):
        (work / "tests" / "data" / data).symlink_to(ROOT / "tests" / "data" / data)
    if SHARED.exists():
        (base / "shared").symlink_to(SHARED)
    # the README's mats are for 4 players: a still of that table, set up for a new game
    layout = build_layout(4)
    scene = random_scene(4, 5, 0.0)
    whole = render(scene, layout, Camera(px_per_mm=3.2, window=(-420.0, -244.0, 420.0, 244.0)),
                   seed=3)
    cv2.imwrite(str(work / "still.jpg"), whole.image)
    cv2.imwrite(str(work / "frame.jpg"), whole.image)
    return work


def _env(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PATH=f"{BIN}:{env.get('PATH', '/usr/bin:/bin')}", HOME=str(work / "home"),
               XDG_CONFIG_HOME=str(work / "config"), XDG_DATA_HOME=str(work / "data"),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return env


def _unique(commands: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each command once (``mats/`` and ``mats`` are the same folder)."""
    seen: dict[tuple[str, ...], tuple[str, str]] = {}
    for doc, c in commands:
        seen.setdefault(tuple(w.rstrip("/") for w in shlex.split(c)), (doc, c))
    return list(seen.values())


RUN = _unique([(d, c) for d, c in COMMANDS if classify(c)[0] == "run"])


@pytest.mark.slow
@pytest.mark.parametrize(("doc", "command"), RUN, ids=[c for _, c in RUN])
def test_documented_command_runs(doc: str, command: str, scratch: Path) -> None:
    words = shlex.split(command)
    if "../shared/card-faces/splendor" in command and not (scratch.parent / "shared").exists():
        pytest.skip("../shared (the publisher's card faces) is not on this machine")
    if "mats/layout.json" in command and not (scratch / "mats" / "layout.json").exists():
        _run(["splendor-companion", "mats", "--players", "4", "--out", "mats", "--no-pdf",
              "--dpi", "50"], scratch)
    cwd = ROOT if words[0] == "make" else scratch
    result = _run(words, cwd)
    assert result.returncode == 0, (
        f"{doc}: `{command}` exited {result.returncode}:\n{result.stderr[-2000:]}")
    assert "Traceback" not in result.stderr


def _run(words: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(words, cwd=cwd, env=_env(cwd), capture_output=True, text=True,
                          timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)


PARSE = [(d, c) for d, c in COMMANDS if classify(c)[0] == "parse"]


@pytest.mark.parametrize(("doc", "command"), PARSE, ids=[c for _, c in PARSE])
def test_documented_pi_command_is_accepted_by_the_parser(doc: str, command: str) -> None:
    """Not run here (it needs the Pi), but every option it names must exist."""
    from companion.cli import build_parser

    words = _program(shlex.split(command))
    assert words, f"{doc}: `{command}` runs no splendor-companion command"
    args = build_parser().parse_args(words[1:])
    assert callable(args.func)


def test_make_demo_is_the_command_the_demo_test_plays() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^demo:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe is not None
    assert recipe.group(1).strip() == "$(BIN)/splendor-companion demo"
    demo_test = (ROOT / "tests" / "referee" / "test_demo.py").read_text(encoding="utf-8")
    assert "def test_the_recorded_game_end_to_end" in demo_test


def test_hardware_md_calibrate_is_the_command_that_prints_px_per_mm(
        scratch: Path, tmp_path: Path) -> None:
    """hardware.md says calibrate checks the scale: it must print the px/mm it measured."""
    text = (ROOT / "hardware.md").read_text(encoding="utf-8")
    assert "px/mm" in text.split("## Calibration", 1)[1].split("##", 1)[0]
    layout = tmp_path / "layout.json"
    from vision.layout import build_layout

    layout.write_text(build_layout(4).to_json(), encoding="utf-8")
    result = _run(["splendor-companion", "calibrate", str(scratch / "still.jpg"),
                   "--layout", str(layout), "--out", str(tmp_path / "colours.json")], scratch)
    assert result.returncode == 0, result.stderr
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("scale:"))
    centre = float(re.search(r"([\d.]+) px/mm at the central mat's centre", line).group(1))
    assert abs(centre - 3.2) < 0.15  # the still was rendered at 3.2 px/mm


def test_the_arm64_check_explains_itself_and_refuses_bad_options() -> None:
    script = ROOT / "systemd" / "arm64-check.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    shown = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True)
    assert shown.returncode == 0 and "proot -q qemu-aarch64-static" in shown.stdout
    bad = subprocess.run(["bash", str(script), "--suite", "buster"], capture_output=True,
                         text=True)
    assert bad.returncode == 1
    assert bad.stderr.strip().splitlines() == [
        "arm64-check: --suite must be bookworm or trixie, not buster"]
