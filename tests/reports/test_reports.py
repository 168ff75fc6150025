"""The reports in tests/reports/ are current, and hardware.md copies none of them.

Nothing is re-run here: each accuracy report records the digest of its inputs
(its command and the files its figures depend on, see
:mod:`tests.reports.make_reports`), and the test recomputes that digest from
the files as they are.  A report made before a change to the reader, its
models, its parameters, the renderer or the recorded frames is stale, and the
failure names the command that makes it anew.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.reports import make_reports as mr

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("report", mr.REPORTS, ids=lambda r: r.name)
def test_each_accuracy_report_is_current(report: mr.Report) -> None:
    assert report.path.exists(), (
        f"{report.path.relative_to(ROOT)} is missing: make it with `{report.refresh()}`"
        f" (about {report.minutes:g} min)")
    recorded = mr.recorded_digest(report.path.read_text(encoding="utf-8"))
    assert recorded is not None, (
        f"{report.path.relative_to(ROOT)} has no inputs digest (edited by hand?): make it"
        f" with `{report.refresh()}`")
    assert recorded == mr.digest(report), (
        f"{report.path.relative_to(ROOT)} is stale: its inputs changed since it was made."
        f" Refresh it with `{report.refresh()}` (about {report.minutes:g} min under no"
        " other load), or all of them with `make reports`")


def test_the_digest_moves_with_each_kind_of_input(tmp_path: Path) -> None:
    """A change to the reader, a model, the params or a recorded frame makes a report
    stale; a change to vision/training or a note does not."""
    files = {
        "vision/read.py": b"x = 1\n",
        "vision/learned/params.toml": b"[cards]\n",
        "vision/learned/models/cards.onnx": b"\x00\x01",
        "vision/synth/world.py": b"y = 2\n",
        "vision/training/train.py": b"z = 3\n",
        "vision/SCHEMA.md": b"notes\n",
        "companion/data/cards.csv": b"id\n",
        "tests/data/scenes/0000.json": b"{}\n",
        "companion/commands/vision.py": b"w = 4\n",
    }
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    read = mr.Report("eval", ("vision", "eval", "tests/data/scenes"),
                     data=("tests/data/scenes",))
    world = mr.Report("world", ("vision", "world"), rendered=True)
    listed = {p.relative_to(tmp_path).as_posix() for p in mr.input_files(read, tmp_path)}
    assert listed == {"vision/read.py", "vision/learned/params.toml",
                      "vision/learned/models/cards.onnx", "companion/data/cards.csv",
                      "tests/data/scenes/0000.json", "companion/commands/vision.py"}
    assert "vision/synth/world.py" in {
        p.relative_to(tmp_path).as_posix() for p in mr.input_files(world, tmp_path)}

    def moves(rel: str, report: mr.Report) -> bool:
        before = mr.digest(report, tmp_path)
        path = tmp_path / rel
        old = path.read_bytes()
        path.write_bytes(old + b"#")
        after = mr.digest(report, tmp_path)
        path.write_bytes(old)
        return before != after

    for rel in ("vision/read.py", "vision/learned/params.toml",
                "vision/learned/models/cards.onnx", "companion/data/cards.csv",
                "tests/data/scenes/0000.json", "companion/commands/vision.py"):
        assert moves(rel, read), rel
    assert moves("vision/synth/world.py", world)
    assert not moves("vision/synth/world.py", read)
    assert not moves("vision/training/train.py", world)
    assert not moves("vision/SCHEMA.md", world)
    other = mr.Report("eval", ("vision", "eval", "tests/data/scenes", "--limit", "5"),
                      data=("tests/data/scenes",))
    assert mr.digest(other, tmp_path) != mr.digest(read, tmp_path)  # the command counts


def test_a_regenerated_report_keeps_no_timing_line() -> None:
    text = "# T\n\n| a |\n\nRead time: median 140 ms, max 300 ms over 3 frames.\n"
    assert mr.body(text) == "# T\n\n| a |\n"
    assert "latency" not in mr.body("x\nlatency: median 1 ms, max 2 ms over 3 frames\n")


#: A table cell that holds a measured figure: a share ("0.39 %", "(hard 98.7 %)"),
#: a right / **wrong** / unsure triple, or a count of wrong answers ("2 of 3198").
MEASURED_CELL = re.compile(r"\d\s*%|\d / \*\*\d|^\d+ of \d+$")
#: A figure stamped with the commit it was measured at ("at d2590ef", "(a1b2c3d)").
STAMPED = re.compile(r"\b(at|on|since) [0-9a-f]{7,40}\b")


def evaluation_rows(text: str) -> list[str]:
    """The Markdown table rows of ``text`` that hold a measured figure."""
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if any(MEASURED_CELL.search(c) for c in cells):
            rows.append(f"line {n}: {line[:80]}")
    return rows


def test_hardware_md_holds_no_evaluation_table_by_hand() -> None:
    """hardware.md is the builder's guide: measured figures live in tests/reports/ (made
    by a script) and the guide links to them, so no table of rates and no figure
    stamped with a commit.  (Its geometry tables, px/mm worked out from the lenses,
    are arithmetic a builder needs, not measurements.)"""
    text = (ROOT / "hardware.md").read_text(encoding="utf-8")
    rows = evaluation_rows(text)
    assert not rows, ("hardware.md has a table of measured figures; put it in a report"
                      " (tests/reports/make_reports.py) and link to it: " + "; ".join(rows[:3]))
    stamped = [m.group(0) for m in STAMPED.finditer(text)]
    assert not stamped, f"hardware.md has figures stamped with a commit: {stamped[:5]}"


def test_the_check_would_have_caught_the_tables_typed_by_hand() -> None:
    """The Duel seeds' table, the sure answers' table and the Splendor table stamped
    with a commit that hardware.md held before issue 40 (kept in reader-notes.md)."""
    notes = (ROOT / "tests" / "reports" / "reader-notes.md").read_text(encoding="utf-8")
    rows = " ".join(evaluation_rows(notes))
    assert "Camera Module 3, 9000, design" in rows  # "(hard 98.7 %)"
    assert "design 9000 + 9100" in rows  # "2 of 3198"
    assert "market cards | 97.8 / **0.12**" in rows  # right / **wrong** / unsure
    assert STAMPED.search(notes)


def test_hardware_md_links_to_the_reports() -> None:
    text = (ROOT / "hardware.md").read_text(encoding="utf-8")
    for report in mr.REPORTS:
        assert f"tests/reports/{report.name}.md" in text, report.name


def test_make_writes_a_current_deterministic_report(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The script end to end on a small report: `vision eval --report` of three recorded
    frames, made twice: the same bytes, its digest current, no timing line."""
    monkeypatch.setattr(mr, "HERE", tmp_path)
    small = mr.Report("eval-three", ("vision", "eval", "tests/data/scenes", "--limit", "3"),
                      data=("tests/data/scenes",))
    mr.make(small)
    first = small.path.read_bytes()
    mr.make(small)
    assert small.path.read_bytes() == first
    text = first.decode("utf-8")
    assert mr.recorded_digest(text) == mr.digest(small)
    assert "`splendor-companion vision eval tests/data/scenes --limit 3`" in text
    assert "| token slots |" in text and "3 frames" in text
    assert "latency" not in text and "ms" not in text.split()


def test_the_bench_report_names_its_machine_and_load() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_all", ROOT / "tests/bench/run_all.py")
    assert spec is not None and spec.loader is not None
    run_all = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_all)
    header = "\n".join(run_all._machine(["--only", "bench_rules"], "0.10 / 0.20 / 0.30", "1.00"))
    assert "cores" in header and "Python" in header and "OpenCV" in header
    assert "0.10 / 0.20 / 0.30 before, 1.00 after" in header
    assert "not checked for staleness" in header
