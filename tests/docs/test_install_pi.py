"""`make install-pi ARGS=--dry-run` shows the plan on any machine, right for each release."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

INSTALL = ROOT / "systemd" / "install-pi.sh"


def _dry_run(tmp_path: Path, *args: str, model: bytes | None = None,
             os_release: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin"}
    if model is not None:
        (tmp_path / "model").write_bytes(model)
        env["SPLENDOR_MODEL_FILE"] = str(tmp_path / "model")
    else:
        env["SPLENDOR_MODEL_FILE"] = str(tmp_path / "no-such-model")
    if os_release is not None:
        (tmp_path / "os-release").write_text(os_release)
        env["SPLENDOR_OS_RELEASE"] = str(tmp_path / "os-release")
    return subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True,
                          text=True, timeout=30, env=env, cwd=tmp_path)


def test_make_install_pi_dry_run_shows_the_plan_off_a_pi(tmp_path: Path) -> None:
    before = set(tmp_path.iterdir())
    result = subprocess.run(["make", "-s", "install-pi", "ARGS=--dry-run"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin",
                                 "SPLENDOR_MODEL_FILE": str(tmp_path / "none")})
    assert result.returncode == 0, result.stderr
    assert "not a Raspberry Pi" in result.stderr and len(result.stderr.splitlines()) == 1
    for step in ("apt-get install", "python3-picamera2", "venv --system-site-packages",
                 "pip install", "systemctl enable", "(dry run: nothing was changed)"):
        assert step in result.stdout, step
    # a stale build/lib (modules deleted since an earlier install) is dropped first
    lines = result.stdout.splitlines()
    drop = next(i for i, line in enumerate(lines) if line.startswith("+ rm -rf") and
                line.rstrip().endswith("/build"))
    assert drop < next(i for i, line in enumerate(lines) if "pip install" in line)
    assert set(tmp_path.iterdir()) == before


@pytest.mark.parametrize(("release", "constraints", "python"), [
    ("bookworm", "systemd/pi-constraints.txt", "3.11"),
    ("trixie", "systemd/pi-constraints-trixie.txt", "3.13"),
])
def test_each_release_gets_its_numpy_constraint(tmp_path: Path, release: str,
                                                constraints: str, python: str) -> None:
    """On a Pi the release comes from os-release; picamera2's numpy ABI decides."""
    result = _dry_run(tmp_path, model=b"Raspberry Pi 5 Model B Rev 1.0\0",
                      os_release=f"ID=debian\nVERSION_CODENAME={release}\n")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert f"--constraint {ROOT / constraints} " in result.stdout
    assert f"Raspberry Pi OS {release}, Python {python}" in result.stdout
    pins = [ln for ln in (ROOT / constraints).read_text().splitlines()
            if ln and not ln.startswith("#")]
    assert pins == (["numpy<2"] if release == "bookworm" else ["numpy>=2"])


def test_release_can_be_chosen_for_a_dry_run_and_unknown_ones_are_refused(
        tmp_path: Path) -> None:
    shown = _dry_run(tmp_path, "--release", "trixie")
    assert shown.returncode == 0 and "pi-constraints-trixie.txt" in shown.stdout
    old = _dry_run(tmp_path, model=b"Raspberry Pi 4 Model B\0",
                   os_release="ID=debian\nVERSION_CODENAME=bullseye\n")
    assert old.returncode == 1
    assert old.stderr.strip().splitlines() == [
        "install-pi: Raspberry Pi OS bullseye is not supported: Bookworm or Trixie (2025)"
        " is; nothing done"]


def test_release_is_for_dry_runs_only(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(INSTALL), "--release", "trixie"], capture_output=True,
                            text=True, timeout=30,
                            env={"PATH": "/usr/bin:/bin",
                                 "SPLENDOR_MODEL_FILE": str(tmp_path / "none")})
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1
