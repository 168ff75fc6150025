"""Regenerate the measured reports in tests/reports/ (``make reports``).

    python tests/reports/make_reports.py                  # every accuracy report
    python tests/reports/make_reports.py vision-eval-scenes   # one of them
    python tests/reports/make_reports.py --list           # names, inputs, minutes

Like the goldens, a report is never edited by hand: this script runs the
command each report names (``splendor-companion ... --report FILE``) and puts
a header above what the command wrote.  The header records the command and a
digest of everything the figures depend on in the repository (:func:`digest`);
``tests/reports/test_reports.py`` recomputes the digest without running
anything and fails, naming this script, when a report's inputs changed since
it was made.

The accuracy reports are deterministic (seeded frames, one worker): the same
inputs give the same file, byte for byte, so a regenerated report's diff
shows what a change did.  Timing lines are taken out of them ("Read time",
"latency": a timing depends on the machine and its load); timings are the
bench report's (``make bench ARGS="--report tests/reports/bench.md"``),
which records its machine and load and is not checked for staleness.

What a report's digest covers, and why:

* the command line;
* the reader's run-time package: every ``.py``, ``.json``, ``.toml`` and
  ``.onnx`` under ``vision/`` (so ``vision/learned/models/*`` and
  ``vision/learned/params.toml``), but not ``vision/training/`` (it only
  writes the models and params, which are hashed themselves; nothing at run
  time imports it) nor the ``.md`` notes;
* ``vision/synth/`` only for the reports whose frames it renders
  (``vision world``); ``vision eval`` reads recorded files, and the reader never
  imports the renderer (DESIGN: "no vision/synth at run time");
* the catalogues ``companion/data/*.csv`` (what a card or noble decodes to);
* ``companion/commands/vision.py``, the command that runs the frames and
  writes the tables;
* the recorded frames for ``vision eval`` (``tests/data/scenes``).

Not covered: the rest of ``companion`` (game rules; the world renderer plays
seeded games with them, but a change there that moves the figures is a rules
change the goldens catch first) and the publisher's faces in
``../shared/card-faces`` (outside the repository, absent from a clean clone:
their digest is recorded in the header for the record, never checked).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "reports"
FACES = ROOT.parent / "shared" / "card-faces"
#: What the reader is made of (see the module's docstring).
READER_SUFFIXES = (".py", ".json", ".toml", ".onnx")
CATALOGUES = "companion/data"
#: The command that measures and writes the tables.
COMMAND = "companion/commands/vision.py"
#: Lines of a command's report that are timings, not accuracy: left out.
TIMING_PREFIXES = ("Read time:", "latency:")
#: The header's line that carries the digest (the test reads it back).
DIGEST_MARK = "Inputs digest: `sha256:"


@dataclass(frozen=True)
class Report:
    """One accuracy report: ``tests/reports/<name>.md``."""

    name: str
    #: splendor-companion's arguments (``--report FILE`` is added)
    argv: tuple[str, ...]
    #: whether the frames are rendered by vision/synth (its code is then an input)
    rendered: bool = False
    #: folders of recorded inputs, relative to the repository
    data: tuple[str, ...] = ()
    #: running time on an idle two-core machine (minutes), for --list and the README
    minutes: float = 1.0

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.md"

    @property
    def command(self) -> str:
        return "splendor-companion " + " ".join(self.argv)

    def refresh(self) -> str:
        """The command that makes this report anew."""
        return f"python tests/reports/make_reports.py {self.name}"


REPORTS = (
    Report("vision-world-splendor-check",
           ("vision", "world", "--players", "2,4", "--difficulty", "easy,medium,hard",
            "--lens", "wide,standard", "--count", "6", "--seed", "55000", "--split", "check"),
           rendered=True, minutes=9.0),
    Report("vision-world-duel-check",
           ("vision", "world", "--game", "duel", "--split", "check", "--lens", "standard,wide",
            "--count", "12", "--seed", "62000"),
           rendered=True, minutes=3.0),
    Report("vision-eval-scenes", ("vision", "eval", "tests/data/scenes"),
           data=("tests/data/scenes",), minutes=1.0),
)
BY_NAME = {r.name: r for r in REPORTS}


def _files_under(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            yield path


def input_files(report: Report, root: Path = ROOT) -> list[Path]:
    """Every repository file the report's figures depend on, sorted."""
    files = []
    for path in _files_under(root / "vision"):
        rel = path.relative_to(root).as_posix()
        if path.suffix not in READER_SUFFIXES or rel.startswith("vision/training/"):
            continue
        if rel.startswith("vision/synth/") and not report.rendered:
            continue
        files.append(path)
    files += [p for p in _files_under(root / CATALOGUES) if p.suffix == ".csv"]
    if (root / COMMAND).exists():
        files.append(root / COMMAND)
    for folder in report.data:
        files += list(_files_under(root / folder))
    return sorted(set(files), key=lambda p: p.relative_to(root).as_posix())


def _hash_files(files: Iterable[Path], root: Path) -> str:
    h = hashlib.sha256()
    for path in files:
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def digest(report: Report, root: Path = ROOT) -> str:
    """The sha256 of the command line and of every input file (its path and its bytes)."""
    h = hashlib.sha256(report.command.encode() + b"\0")
    h.update(_hash_files(input_files(report, root), root).encode())
    return h.hexdigest()


def faces_digest() -> str:
    """The publisher's faces beside the checkout: their digest, or why there is none."""
    if not FACES.is_dir():
        return "absent"
    return "sha256:" + _hash_files(_files_under(FACES), FACES.parent)[:16]


def recorded_digest(text: str) -> str | None:
    """The digest a report's header records (None: no header)."""
    for line in text.splitlines()[:8]:
        if DIGEST_MARK in line:
            return line.split(DIGEST_MARK, 1)[1].split("`", 1)[0]
    return None


def header(report: Report) -> list[str]:
    n = len(input_files(report))
    covered = "vision/ but training/" + ("" if report.rendered else " and synth/")
    covered += ", companion/data/*.csv, the command" + "".join(f", {d}/" for d in report.data)
    return [
        f"> Generated by `{report.refresh()}` (all of them: `make reports`); do not edit.",
        f"> Command: `{report.command}`.",
        f"> {DIGEST_MARK}{digest(report)}` over the command and {n} files ({covered});",
        f"> faces in ../shared/card-faces: {faces_digest()} (outside the repository: not"
        " checked). Timing lines are left out: see bench.md.",
        "",
    ]


def body(text: str) -> str:
    """The command's report without its timing lines (and no doubled blank line)."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith(TIMING_PREFIXES):
            continue
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out) + "\n"


def make(report: Report) -> float:
    """Run the report's command and write its file; the minutes it took."""
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.md"
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run([sys.executable, "-m", "companion", *report.argv,
                               "--report", str(out)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, check=False)
        if done.returncode != 0 or not out.exists():
            raise SystemExit(f"{report.command} failed (exit {done.returncode})")
        text = out.read_text(encoding="utf-8")
    report.path.write_text("\n".join(header(report)) + "\n" + body(text), encoding="utf-8")
    return (time.monotonic() - t0) / 60


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"reports to make (default: all): {', '.join(BY_NAME)}")
    parser.add_argument("--list", action="store_true",
                        help="list the reports, their inputs and whether each is current")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in BY_NAME]
    if unknown:
        parser.error(f"unknown report {', '.join(unknown)}: choose from {', '.join(BY_NAME)}")
    chosen = [BY_NAME[n] for n in args.names] or list(REPORTS)
    if args.list:
        for r in chosen:
            text = r.path.read_text(encoding="utf-8") if r.path.exists() else ""
            state = "current" if recorded_digest(text) == digest(r) else "STALE"
            print(f"{r.name:<30} {state:<8} ~{r.minutes:g} min, {len(input_files(r))} input"
                  f" files: {r.command}")
        return 0
    for r in chosen:
        print(f"{r.name}: {r.command} (about {r.minutes:g} min)", file=sys.stderr, flush=True)
        took = make(r)
        print(f"{r.name}: written {r.path.relative_to(ROOT)} in {took:.1f} min",
              file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
