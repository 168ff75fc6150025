"""Every output goes through :mod:`companion.output` (issue 41, defect 3).

``export 1 --db g.db --out g.db`` replaced the log by text, exit 0; so did
``review --html`` and ``analyse --json`` onto the log and ``calibrate ...
--out`` onto the layout.  Outputs were created 0600 whatever the umask, and
``--out`` onto a symlink replaced the link.  Each case here fails with one
line, a non-zero exit and every input byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import output
from tests.cli.invoke import invoke, isolate
from tests.review.logged import log_game

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "splendor"


def _hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}




@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from vision.layout import build_layout

    d = tmp_path_factory.mktemp("outputs")
    log_game(d / "g.db", upto=6, finish=False)
    (d / "game.txt").write_text((GOLDEN / "seed1-2p-random.txt").read_text(encoding="utf-8"),
                                encoding="utf-8")
    (d / "layout.json").write_text(build_layout(2).to_json(), encoding="utf-8")
    rng = np.random.default_rng(2)
    cv2.imwrite(str(d / "table.png"), rng.integers(60, 200, (480, 640, 3), dtype=np.uint8))
    os.symlink(d / "g.db", d / "link-to-log")
    return d


@pytest.fixture(autouse=True)
def _isolated(world: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    isolate(world, monkeypatch)
    yield


ONTO_INPUTS = [
    ("export 1 --db {d}/g.db --out {d}/g.db", "g.db"),
    ("export 1 --db {d}/g.db --format json --out {d}/g.db", "g.db"),
    ("export 1 --db {d}/g.db --out {d}/link-to-log", "link-to-log"),
    ("review 1 --db {d}/g.db --html {d}/g.db", "g.db"),
    ("analyse 1 --db {d}/g.db --budget 4 --json {d}/g.db", "g.db"),
    ("analyse --record {d}/game.txt --budget 4 --json {d}/game.txt", "game.txt"),
    ("calibrate {d}/table.png --layout {d}/layout.json --out {d}/layout.json", "layout.json"),
    ("calibrate {d}/table.png --layout {d}/layout.json --out {d}/table.png", "table.png"),
    ("calibrate --lens {d}/table.png --layout {d}/layout.json --lens-out {d}/layout.json",
     "layout.json"),
    ("calibrate {d}/table.png --layout {d}/layout.json --out {d}/c.json --lens {d}/table.png"
     " --lens-out {d}/c.json", "same file"),
    ("review 1 --db {d}/link-to-log --html {d}/g.db", "g.db"),
]


@pytest.mark.parametrize(("argv", "named"), ONTO_INPUTS, ids=[a for a, _ in ONTO_INPUTS])
def test_an_output_onto_an_input_is_refused_and_the_input_kept(
    argv: str, named: str, world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _hashes(world)
    code, _out, err = invoke(argv.replace("{d}", str(world)).split(), capsys)
    lines = err.strip().splitlines()
    assert code not in (0, None) and len(lines) == 1, (code, lines)
    assert named in lines[0] and "Traceback" not in err
    assert _hashes(world) == before
    assert (world / "link-to-log").is_symlink()


def test_an_output_onto_the_default_log_is_refused(
    world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    default = world / "xdg-data" / "splendor-companion" / "games.db"
    default.parent.mkdir(parents=True, exist_ok=True)
    default.write_bytes((world / "g.db").read_bytes())
    before = default.read_bytes()
    code, _out, err = invoke(["export", "1", "--out", str(default)], capsys)
    assert code == 1 and "input" in err
    assert default.read_bytes() == before


def test_out_onto_a_symlink_writes_its_target_and_keeps_the_link(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n", encoding="utf-8")
    os.symlink(real, tmp_path / "link.txt")
    code, _out, err = invoke(["export", "1", "--db", str(world / "g.db"), "--out",
                               str(tmp_path / "link.txt")], capsys)
    assert code == 0, err
    assert (tmp_path / "link.txt").is_symlink()
    assert real.read_text(encoding="utf-8").startswith('[Game "Splendor"]')


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_output_honours_the_umask(
    world: Path, tmp_path: Path, mask: int, mode: int, capsys: pytest.CaptureFixture[str]
) -> None:
    old = os.umask(mask)
    try:
        code, _out, err = invoke(["export", "1", "--db", str(world / "g.db"), "--out",
                                   str(tmp_path / "g.txt")], capsys)
    finally:
        os.umask(old)
    assert code == 0, err
    assert stat.S_IMODE((tmp_path / "g.txt").stat().st_mode) == mode


def test_a_file_written_over_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "r.txt"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    output.begin()
    output.write_text(path, "new")
    assert path.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "r.txt"
    path.write_text("old", encoding="utf-8")
    output.begin()
    with pytest.raises(RuntimeError), output.open_output(path) as out:
        out.write(b"half a page")
        raise RuntimeError("the disk filled up")
    assert path.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.txt"]


def test_a_file_the_command_names_replaces_a_planted_link_not_its_target(tmp_path: Path) -> None:
    """``mats --out DIR`` writes DIR/layout.json: a link planted there is not followed."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (tmp_path / "mats").mkdir()
    os.symlink(victim, tmp_path / "mats" / "layout.json")
    output.begin()
    output.write_text(tmp_path / "mats" / "layout.json", "{}", named=False)
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not (tmp_path / "mats" / "layout.json").is_symlink()


def test_two_commands_in_one_process_do_not_share_inputs(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``begin`` forgets the previous command's inputs (the tests run many in one process)."""
    out = tmp_path / "g.txt"
    assert invoke(["export", "1", "--db", str(world / "g.db"), "--out", str(out)], capsys)[0] == 0
    code, _o, err = invoke(["export", "1", "--db", str(world / "g.db"), "--out", str(out)],
                            capsys)
    assert code == 0, err
