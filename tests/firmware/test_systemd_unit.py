"""The systemd unit: `systemd-analyze verify` passes and `security` rates it 4.0 or lower.

`verify` checks that ExecStart's program exists and is executable, and on a
development machine /opt/splendor-companion is not installed.  So the unit is
verified twice: a temporary copy whose ExecStart names an executable that
exists (this interpreter) must verify with no message at all, and the real
file must give exactly one message, the missing-program one.  Every other
problem (a misspelt directive, a bad value, an unknown device class) is
still caught by both.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "splendor-companion.service"
INSTALL = ROOT / "systemd" / "install-pi.sh"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def analyze(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run(
        [ANALYZE, *args], capture_output=True, text=True, timeout=60, cwd=cwd, check=False
    )


def exec_start(text: str) -> str:
    match = re.search(r"^ExecStart=(\S+)", text, re.MULTILINE)
    assert match, "the unit has no ExecStart="
    return match.group(1)


@needs_analyze
def test_unit_verifies_when_its_program_exists(tmp_path: Path):
    text = UNIT.read_text()
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace(exec_start(text), sys.executable, 1))
    result = analyze("verify", str(copy), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "" and result.stdout.strip() == ""


@needs_analyze
def test_unit_verifies_apart_from_the_program_not_installed_here(tmp_path: Path):
    program = exec_start(UNIT.read_text())
    result = analyze("verify", str(UNIT), cwd=tmp_path)
    if Path(program).exists():  # on an installed Pi: nothing to excuse
        assert result.returncode == 0, result.stderr
        return
    messages = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert messages == [
        f"{UNIT.name}: Command {program} is not executable: No such file or directory"
    ]


@needs_analyze
def test_security_exposure_is_at_most_4(tmp_path: Path):
    result = analyze("security", "--offline=true", str(UNIT), cwd=tmp_path)
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", result.stdout)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    assert exposure <= 4.0, f"exposure {exposure}:\n{result.stdout}"


def test_unit_has_what_the_companion_relies_on():
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    assert settings["Type"] == ["notify"]
    assert settings["NotifyAccess"] == ["main"]
    assert settings["Restart"] == ["on-failure"]
    assert settings["User"] == ["splendor"]
    assert set(settings["SupplementaryGroups"][0].split()) == {"gpio", "video", "render", "input"}
    assert "SDL_VIDEODRIVER=kmsdrm" in settings["Environment"]
    config = "SPLENDOR_COMPANION_CONFIG=/etc/splendor-companion/config.toml"
    assert config in settings["Environment"]
    assert settings["StateDirectory"] == ["splendor-companion"]
    assert int(settings["WatchdogSec"][0]) > 0


def test_install_script_is_valid_bash():
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_install_script_refuses_with_one_line_off_a_pi():
    """Run for real on this (non-Pi) machine it must refuse, before touching anything
    (a --dry-run shows the plan anywhere: tests/docs/test_install_pi.py)."""
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine has a device tree; the refusal test is for other machines")
    result = subprocess.run(
        ["bash", str(INSTALL)], capture_output=True, text=True, timeout=30
    )
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Raspberry Pi OS" in lines[0], result.stderr


def test_install_script_dry_run_lists_every_step(tmp_path: Path):
    """With the checks pointed at fake files, --dry-run prints the plan and changes nothing."""
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    os_release = tmp_path / "os-release"
    os_release.write_text('ID=debian\nVERSION_CODENAME=bookworm\nPRETTY_NAME="Raspberry Pi OS"\n')
    env = {
        "PATH": "/usr/bin:/bin",
        "SPLENDOR_MODEL_FILE": str(model),
        "SPLENDOR_OS_RELEASE": str(os_release),
    }
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run"],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    plan = result.stdout
    for step in (
        "apt-get install",
        "python3-picamera2",
        "python3-lgpio",
        "python3 -m venv --system-site-packages /opt/splendor-companion",
        "pip install",
        "[pi]",
        "useradd",
        "/etc/splendor-companion/config.toml",
        "/etc/splendor-companion/service.env",
        "/etc/systemd/system/splendor-companion.service",
        "systemctl enable",
    ):
        assert step in plan, f"{step!r} missing from the dry-run plan:\n{plan}"
    assert set(tmp_path.iterdir()) == {model, os_release}  # nothing written
