"""The repository's commit-msg hook (``.githooks/commit-msg``) and its install.

A commit subject is at most 72 characters, the figures in the body.  The hook
is run as git runs it (a message file as its one argument), and ``make hooks``
is run in a folder without git (a tarball), in a fresh checkout, and inside
another repository (left alone).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOOK = ROOT / ".githooks" / "commit-msg"


def run_hook(tmp_path: Path, message: str) -> subprocess.CompletedProcess[str]:
    msg = tmp_path / "COMMIT_EDITMSG"
    msg.write_text(message, encoding="utf-8")
    return subprocess.run([sys.executable, str(HOOK), str(msg)], capture_output=True,
                          text=True, timeout=60, check=False)


@pytest.mark.parametrize("subject", ["Short subject", "x" * 72, "é" * 72 + "  "])
def test_a_subject_of_72_characters_or_fewer_passes(tmp_path: Path, subject: str) -> None:
    done = run_hook(tmp_path, f"{subject}\n\nA body line far longer than the subject may be: "
                    + "figures " * 30 + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_a_longer_subject_is_refused_with_one_line(tmp_path: Path) -> None:
    done = run_hook(tmp_path, "y" * 73 + "\n\nbody\n")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "73 characters, at most 72" in done.stderr


def test_characters_are_counted_not_bytes(tmp_path: Path) -> None:
    assert run_hook(tmp_path, "×" * 72 + "\n").returncode == 0
    assert run_hook(tmp_path, "×" * 73 + "\n").returncode == 1


def test_comments_and_blank_lines_before_the_subject_do_not_count(tmp_path: Path) -> None:
    message = "\n# Please enter the commit message\n\n   \nFix the thing\n# " + "z" * 90 + "\n"
    assert run_hook(tmp_path, message).returncode == 0
    assert run_hook(tmp_path, "# comment\n" + "w" * 80 + "\n").returncode == 1


def test_the_diff_below_git_commit_v_scissors_is_not_the_message(tmp_path: Path) -> None:
    message = ("Subject\n\n# ------------------------ >8 ------------------------\n"
               "diff --git a/" + "v" * 100 + "\n")
    assert run_hook(tmp_path, message).returncode == 0
    empty = "# ------------------------ >8 ------------------------\n" + "v" * 100 + "\n"
    assert run_hook(tmp_path, empty).returncode == 0  # git refuses the empty message itself


def test_an_empty_message_is_left_to_git(tmp_path: Path) -> None:
    assert run_hook(tmp_path, "").returncode == 0


def test_the_hook_is_executable() -> None:
    assert HOOK.stat().st_mode & 0o111, "chmod +x .githooks/commit-msg"


needs_make_and_git = pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("git") is None, reason="needs make and git")


def make_hooks(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "hooks"], cwd=folder,
                          capture_output=True, text=True, timeout=60, check=False)


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True,
                          timeout=60, check=False).stdout.strip()


@needs_make_and_git
def test_make_hooks_does_nothing_without_git(tmp_path: Path) -> None:
    done = make_hooks(tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / ".git").exists()


@needs_make_and_git
def test_make_hooks_installs_the_hook_in_a_checkout_once(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    first = make_hooks(tmp_path)
    assert first.returncode == 0, first.stderr
    assert git(tmp_path, "config", "core.hooksPath") == ".githooks"
    again = make_hooks(tmp_path)
    assert again.returncode == 0 and again.stdout == ""


@needs_make_and_git
def test_make_hooks_leaves_an_enclosing_repository_alone(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    inner = tmp_path / "unpacked"
    inner.mkdir()
    assert make_hooks(inner).returncode == 0
    assert git(tmp_path, "config", "core.hooksPath") == ""
