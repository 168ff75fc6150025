"""Generated misuse of every command: random and mutated files, names, numbers, paths.

Issue 41 asks for a generated test per command that throws random and mutated
inputs at it and checks three things: no traceback; a non-zero exit comes
with ONE line on stderr (progress lines aside); no input file changed (hashed
before and after).  This module is the generator and the checker; the pytest
walk (``test_generated.py``) runs a fixed number of seeded cases per command
under ``make test``, and ``tests/bench/bench_fuzz_commands.py`` runs fresh
seeds for as long as it is asked (``--minutes 10`` per command).

A case is made from one integer seed: ``case(command, seed, world)`` builds
its own folder (copies of the world's pristine inputs, some of them
mutated), its argv, and the files the command may change (its own log, its
outputs).  ``check(case)`` runs it in this process (``companion.cli.main``)
and returns the problems found, an empty list when the command behaved.  A
failure prints the command and the seed, which rebuilds the same case.

Values are drawn seeded-random rather than by hypothesis's shrinker: the
inputs are files and folders whose building dominates the cost, and a seed
is a reproducer the long run can print.  Sizes and counts are drawn either
invalid or small, so a valid draw finishes in a moment (``--dpi 1200`` or
``--budget 100000`` would be a memory or time test, not a misuse test).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import re
import shutil
import sqlite3
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
SCENES = ROOT / "tests" / "data" / "scenes"
DEMO = ROOT / "tests" / "data" / "demo"

#: Lines on stderr that are progress, not the failure's line.
PROGRESS = re.compile(r"^(\s*\r|\[\s*\d+/\d+\]|analysing \[|Rendering |\s+frame \d+|"
                      r"\s+page \d+|\[\d+/\d+\] drawing|.*: not a picture; skipped$)")

# ------------------------------------------------------------------ values
#: Characters that have meant something to some parser: record syntax, line
#: ends of every kind, a NUL, a BOM, right-to-left letters, an emoji, a
#: surrogate (undecodable argv bytes), a combining mark.
ODD = [";", '"', "[", "]", ",", "\r", "\n", "\u2028", "\u2029", "\x85", "\x00", "\ufeff",
       "\t", "\\", "%s", "{}", "{0}", "é", "ש", "م", "李", "🎲", "\u200f", "\udcff", "e\u0301",
       "~", "../", "*", "$HOME", "-", "--", " "]
INTS = ["-1", "0", "1", "2", "3", "4", "5", "7", "64", "2147483648", "9223372036854775808",
        "-9223372036854775809", "1" * 30, "x", "", "1.5", "nan", "inf", "٣", " 2", "0x10",
        "1e3", "+3", "-0"]
FLOATS = ["nan", "inf", "-inf", "1e308", "1e400", "-0", "0", "0.5", "1", "50", "99.9", "100",
          "150", "-3", "x", "", "1e-320", "٣"]


def odd_text(rng: random.Random, longest: int = 12) -> str:
    """A short string mixing letters with :data:`ODD` characters."""
    parts = [rng.choice(ODD) if rng.random() < 0.35 else rng.choice("AnBobCyzé ")
             for _ in range(rng.randint(0, longest))]
    if rng.random() < 0.05:
        parts.append("x" * rng.choice((41, 500, 5000)))
    return "".join(parts)


def names(rng: random.Random, players: int) -> str:
    """A ``--names`` value: mostly plausible, often with something odd in it."""
    plain = ["Ann", "Bob", "Cy", "Dee", "Renée", "דנה", "مريم", "李雷", "Bob 🎲"]
    out = []
    for _ in range(players + rng.choice((0, 0, 0, -1, 1))):
        out.append(rng.choice(plain) if rng.random() < 0.6 else odd_text(rng))
    return ",".join(out)


# --------------------------------------------------------------- mutations
def mutate_text(rng: random.Random, text: str) -> bytes:
    """``text`` with 1-3 random edits, encoded in a random (often wrong) way."""
    lines = text.splitlines(keepends=True) or [""]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        op = rng.randrange(6)
        if op == 0:
            del lines[i]
            lines = lines or [""]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            at = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:at] + odd_text(rng, 4) + lines[i][at:]
        elif op == 3:
            lines[i] = re.sub(r"\d+", lambda _m: rng.choice(INTS), lines[i], count=1)
        elif op == 4:
            lines = lines[: rng.randint(0, len(lines))] or [""]
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return encode(rng, "".join(lines))


def encode(rng: random.Random, text: str) -> bytes:
    how = rng.choices(["utf-8", "utf-8-sig", "latin-1", "utf-16", "cp1252"], [8, 2, 1, 1, 1])[0]
    return text.encode(how, "surrogatepass" if how.startswith("utf") else "replace")


def mutate_json(rng: random.Random, text: str) -> bytes:
    """A JSON document with one value replaced or removed, somewhere in its tree."""
    try:
        data = json.loads(text)
    except ValueError:
        return mutate_text(rng, text)
    holders: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = (node.items() if isinstance(node, dict)
                 else enumerate(node) if isinstance(node, list) else ())
        for key, value in items:
            holders.append((node, key))
            walk(value)

    walk(data)
    replacements = [None, -1, 0, 9, 2**63, 1e308, "x", "", [], {}, [[1, 2]], {"a": 1},
                    True, odd_text(rng, 4), float("nan")]
    for _ in range(rng.randint(1, 3)):
        if not holders:
            data = rng.choice(replacements)
            break
        node, key = rng.choice(holders)
        if isinstance(node, dict) and rng.random() < 0.3:
            node.pop(key, None)
        else:
            with contextlib.suppress(IndexError, KeyError, TypeError):
                node[key] = rng.choice(replacements)
    return encode(rng, json.dumps(data))


def mutate_bytes(rng: random.Random, raw: bytes) -> bytes:
    """``raw`` with flipped bytes, a cut, a zeroed block or garbage in front."""
    data = bytearray(raw)
    op = rng.randrange(4)
    if op == 0 and data:
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif op == 1:
        data = data[: rng.randint(0, len(data))]
    elif op == 2 and data:
        at = rng.randrange(len(data))
        data[at: at + 4096] = bytes(len(data[at: at + 4096]))
    else:
        data = bytearray(rng.randbytes(rng.randint(0, 64))) + data
    return bytes(data)


def mutate_log(rng: random.Random, path: Path) -> None:
    """A column of a game or turn row set to an odd value, as a hand edit or an older
    version might leave it; sometimes the file's bytes instead."""
    if rng.random() < 0.2:
        path.write_bytes(mutate_bytes(rng, path.read_bytes()))
        return
    column = rng.choice([("games", "players"), ("games", "headers"), ("games", "winners"),
                         ("games", "game_type"), ("games", "started_at"), ("games", "result"),
                         ("turns", "notation"), ("turns", "state_hash"), ("turns", "confidence"),
                         ("turns", "thumbnail"), ("games", "finished_at")])
    value: Any = rng.choice([None, -1, 1e308, "", odd_text(rng), b"\x00\xff",
                             json.dumps([odd_text(rng), "Bob"]), '{"Players": "A;B, C"}',
                             "not json", "2024-13-45"])
    if isinstance(value, str):  # SQLite stores UTF-8: a lone surrogate cannot be kept
        value = value.encode("utf-8", "replace").decode("utf-8")
    db = sqlite3.connect(path)
    try:
        db.execute(f"UPDATE {column[0]} SET {column[1]} = ? WHERE rowid = "
                   f"(SELECT rowid FROM {column[0]} ORDER BY random() LIMIT 1)", (value,))
        db.commit()
    except sqlite3.DatabaseError:
        pass
    finally:
        db.close()


def script(rng: random.Random) -> str:
    """A button script: presses, holds, frames, short or invalid waits, junk."""
    lines = ["confirm", "next", "back", "undo", "hold next", "hold confirm", "press confirm",
             "frame 2", "wait 0.001", "# a comment", "", "wait -1", "wait nan", "wait inf",
             "smash", odd_text(rng, 5)]
    weights = [10, 6, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0.2, 0.2, 0.2, 0.2, 0.5]
    return "\n".join(rng.choices(lines, weights, k=rng.randint(0, 30))) + "\n"


# ------------------------------------------------------------------- world
def build_world(root: Path) -> Path:
    """The pristine inputs every case copies from (made once per session)."""
    import cv2
    import numpy as np

    from tests.review.logged import log_duel_game, log_game
    from vision.duel.layout import build_duel_layout
    from vision.layout import build_layout

    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(GOLDEN / "splendor" / "seed1-2p-random.txt", root / "splendor.txt")
    shutil.copy(sorted((GOLDEN / "duel").glob("*.txt"))[0], root / "duel.txt")
    log_game(root / "log.db", upto=8, finish=False)
    log_game(root / "log.db", seed=3, upto=20)
    log_duel_game(root / "log.db", take_back=())
    (root / "layout2.json").write_text(build_layout(2).to_json(), encoding="utf-8")
    (root / "layout3.json").write_text(build_layout(3).to_json(), encoding="utf-8")
    (root / "duel-layout.json").write_text(build_duel_layout().to_json(), encoding="utf-8")
    table = np.random.default_rng(7).integers(40, 220, (360, 480, 3), dtype=np.uint8)
    cv2.imwrite(str(root / "table.png"), table)
    _ok, jpeg = cv2.imencode(".jpg", table)
    (root / "table.jpg").write_bytes(jpeg.tobytes())
    (root / "config.toml").write_text("[screen]\nwidth = 800\nheight = 480\n", encoding="utf-8")
    (root / "colours.json").write_text("{}", encoding="utf-8")
    scene = sorted(SCENES.glob("*.json"))[0]
    (root / "scene.jpg").write_bytes(scene.with_suffix(".jpg").read_bytes())
    shutil.copy(scene, root / "scene.json")
    shutil.copy(SCENES / "layout.json", root / "scene-layout.json")
    shutil.copy(DEMO / "game.txt", root / "demo-game.txt")
    shutil.copy(DEMO / "buttons.txt", root / "demo-buttons.txt")
    return root


# ------------------------------------------------------------------- cases
@dataclass
class Case:
    """One generated run: ``argv``; ``folder`` holds its files; ``may_change`` are the
    paths (relative to ``folder``, ``*`` a wildcard) the command may write."""

    command: str
    seed: int
    folder: Path
    argv: list[str] = field(default_factory=list)
    may_change: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.command} seed {self.seed}: {' '.join(map(repr, self.argv))}"


class Maker:
    """What a command's generator draws from: the seeded rng and the case's folder."""

    def __init__(self, case: Case, world: Path) -> None:
        self.case = case
        self.rng = random.Random(f"{case.command}:{case.seed}")
        self.world = world
        self.d = case.folder

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, *options: Any) -> Any:
        return self.rng.choice(options)

    def int_text(self, valid: list[int]) -> str:
        """A valid value three times in four, else one of :data:`INTS`."""
        return str(self.rng.choice(valid)) if self.chance(0.75) else self.rng.choice(INTS)

    def copy(self, name: str, as_name: str | None = None, mutate: float = 0.5,
             kind: str = "text") -> Path:
        """A copy of the world's ``name`` in the case's folder, mutated with chance
        ``mutate`` (``kind``: text, json, bytes or log)."""
        target = self.d / (as_name or name)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.world / name, target)
        if self.chance(mutate):
            if kind == "log":
                mutate_log(self.rng, target)
            elif kind == "bytes":
                target.write_bytes(mutate_bytes(self.rng, target.read_bytes()))
            elif kind == "json":
                target.write_bytes(mutate_json(self.rng, target.read_text(encoding="utf-8")))
            else:
                target.write_bytes(mutate_text(self.rng, target.read_text(encoding="utf-8")))
        return target

    def input_path(self, good: Path) -> str:
        """``good`` most of the time; else a missing file, a folder, an odd name."""
        if self.chance(0.85):
            return str(good)
        (self.d / "a-folder").mkdir(exist_ok=True)
        return self.pick(str(self.d / "missing.txt"), str(self.d / "a-folder"),
                         str(self.d / odd_text(self.rng, 6).replace("/", "_").replace("\0", "")
                             or "x"), "", "-")

    def output_path(self, *inputs: Path, suffix: str = ".txt") -> str:
        """Where a command is told to write: a fresh file mostly; else onto an input,
        into a missing folder, onto a folder, onto a link to an input or to a new file."""
        fresh = self.d / f"out{suffix}"
        self.case.may_change.append(fresh.name)
        roll = self.rng.random()
        if roll < 0.55 or not inputs:
            return str(fresh)
        if roll < 0.7:
            return str(self.rng.choice(inputs))
        if roll < 0.8:
            return str(self.d / "no-such-folder" / fresh.name)
        if roll < 0.85:
            return str(self.d)
        link = self.d / "link-out"
        with contextlib.suppress(FileExistsError):
            if roll < 0.93:
                link.symlink_to(self.rng.choice(inputs))
            else:
                link.symlink_to(fresh)
        return str(link)


def _replay(m: Maker) -> None:
    record = m.copy(m.pick("splendor.txt", "duel.txt", "demo-game.txt"), "r.txt", 0.8)
    m.case.argv = ["replay", m.input_path(record), *(["-q"] if m.chance(0.5) else [])]


def _simulate(m: Maker) -> None:
    out = m.d / "sim"
    m.case.may_change.append("sim/*")
    m.case.argv = ["simulate", "--game", m.pick("splendor", "duel", "chess"),
                   "--players", m.int_text([2, 3, 4]), "--games", m.int_text([1, 2]),
                   "--seed", m.int_text([0, 5, 2**40]), "--policy",
                   m.pick("random", "greedy", odd_text(m.rng, 4)),
                   "--out", m.pick(str(out), str(out), str(m.d / "file.txt"))]
    (m.d / "file.txt").write_text("a file\n", encoding="utf-8")


def _log(m: Maker) -> Path:
    return m.copy("log.db", "g.db", 0.6, "log")


def _game(m: Maker) -> str:
    return m.pick("1", "2", "3", "last", "last", "0", "-1", "99", "x", "1" * 25, "٢")


def _games(m: Maker) -> None:
    m.case.argv = ["games", "--db", m.input_path(_log(m))]


def _review(m: Maker) -> None:
    db = _log(m)
    m.case.argv = ["review", _game(m), "--db", m.input_path(db)]
    if m.chance(0.6):
        m.case.argv += ["--html", m.output_path(db, suffix=".html")]


def _export(m: Maker) -> None:
    db = _log(m)
    m.case.argv = ["export", _game(m), "--db", m.input_path(db), "--format",
                   m.pick("text", "json", "pdf")]
    if m.chance(0.6):
        m.case.argv += ["--out", m.output_path(db)]


def _analyse(m: Maker) -> None:
    budget = m.pick("4", "6", "0.01s", "inf", "nan", "nans", "-5", "3", "1e400s", "x", "")
    common = ["--budget", budget, "--jobs", m.pick("1", "1", "1", "0", "-2", "x"),
              "--seed", m.int_text([0, 3])]
    if m.chance(0.5):
        record = m.copy(m.pick("splendor.txt", "duel.txt"), "r.txt", 0.7)
        text = record.read_bytes()
        cut = text.split(b"\n")
        record.write_bytes(b"\n".join(cut[: 8 + m.rng.randint(0, 12)]) + b"\n")  # few turns
        m.case.argv = ["analyse", "--record", m.input_path(record), *common]
        inputs = [record]
    else:
        db = _log(m)
        m.case.may_change += ["g.db", "g.db-wal", "g.db-shm", "g.db.lock"]
        m.case.argv = ["analyse", m.pick("1", "2", "last", "x", "7"), "--db",
                       m.input_path(db), *common, *(["--force"] if m.chance(0.3) else [])]
        inputs = [db]
    if m.chance(0.4):
        m.case.argv += ["--json", m.output_path(*inputs, suffix=".json")]


def _run(m: Maker) -> None:
    buttons = m.d / "buttons.txt"
    buttons.write_bytes(script(m.rng).encode("utf-8", "surrogateescape"))
    db = m.d / "run.db"
    if m.chance(0.4):
        shutil.copy(m.world / "log.db", db)
        if m.chance(0.5):
            mutate_log(m.rng, db)
    m.case.may_change += ["run.db", "run.db-wal", "run.db-shm", "run.db.lock", "shots/*",
                          "run.db.*"]
    duel = m.chance(0.3)
    players = m.int_text([2] if duel else [2, 3, 4])
    argv = ["run", "--players", players, "--buttons", f"script:{buttons}", "--db", str(db),
            "--resume", m.pick("no", "yes", "ask", "maybe")]
    if duel:
        record = m.copy("duel.txt", "camera.txt", 0.5)
        argv += ["--game", "duel"]
        argv += (["--no-camera"] if m.chance(0.5) else ["--camera", f"game:{record}"])
    else:
        argv += ["--no-camera"]
    if m.chance(0.5):
        count = min(int(players), 5) if players.isdigit() else 2  # 2**63 names: no
        argv += ["--names", names(m.rng, count)]
    if m.chance(0.2):
        argv += ["--screen", m.pick("800x480", "0x0", "100000x480", "x", "320x200")]
    if m.chance(0.2):
        argv += ["--lang", m.pick("fr", "en", "xx", "")]
    if m.chance(0.2):
        layout = m.copy(m.pick("layout2.json", "layout3.json", "duel-layout.json"), "lay.json",
                        0.6, "json")
        argv += ["--layout", m.input_path(layout)]
    if m.chance(0.15):
        argv += ["--screenshots", str(m.d / "shots")]
    m.case.argv = argv


def _demo(m: Maker) -> None:
    out = m.d / "demo-out"
    m.case.may_change += ["demo-out/*"]
    argv = ["demo", "--headless", "--quiet", "--out", str(out), "--turns",
            m.pick("0", "-1", "x", "0", "1")]
    if m.chance(0.5):
        rec = m.d / "rec"
        rec.mkdir()
        (rec / "frames").symlink_to(DEMO / "frames")
        m.copy("demo-game.txt", "rec/game.txt", 0.7)
        m.copy("demo-buttons.txt", "rec/buttons.txt", 0.7)
        argv += ["--recording", m.input_path(rec)]
    elif m.chance(0.7):  # without a recording the demo renders frames: keep it to misuse
        argv += ["--screen", m.pick("0x0", "x", "9x9")]
    if m.chance(0.3):
        argv += ["--lang", m.pick("fr", "xx")]
    if m.chance(0.2):
        argv += ["--screen", m.pick("800x480", "100000x100000", "tiny")]
    if m.chance(0.1):
        argv += ["--game", "duel", "--reader", "unsure"]
    m.case.argv = argv


def _mats(m: Maker) -> None:
    m.case.may_change += ["mats/*"]
    argv = ["mats", "--players", m.int_text([2, 3, 4]), "--dpi",
            m.pick("50", "55", "49", "1201", "-3", "x", "nan"), "--out",
            m.pick(str(m.d / "mats"), str(m.d / "mats"), str(m.d / "file.txt"))]
    (m.d / "file.txt").write_text("a file\n", encoding="utf-8")
    if m.chance(0.7):
        argv.append("--no-pdf")
    if m.chance(0.2):
        argv += ["--game", "duel"]
    if m.chance(0.2):
        argv.append("--piles")
    m.case.argv = argv


def _image(m: Maker, name: str = "img.png") -> Path:
    return m.copy(m.pick("table.png", "table.jpg", "scene.jpg"), name, 0.5, "bytes")


def _calibrate(m: Maker) -> None:
    layout = m.copy(m.pick("layout2.json", "layout3.json", "scene-layout.json"), "lay.json",
                    0.5, "json")
    image = _image(m)
    argv = ["calibrate"]
    if m.chance(0.8):
        argv.append(m.input_path(image))
    argv += ["--layout", m.input_path(layout)]
    if m.chance(0.5):
        argv += ["--out", m.output_path(layout, image, suffix=".json")]
    if m.chance(0.2):
        argv += ["--lens", m.input_path(image)]
        if m.chance(0.5):
            argv += ["--lens-out", m.output_path(layout, image, suffix=".lens.json")]
    m.case.env["XDG_CONFIG_HOME"] = str(m.d / "xdg-config")
    m.case.may_change += ["xdg-config/*"]
    m.case.argv = argv


def _vision_read(m: Maker) -> None:
    layout = m.copy(m.pick("layout2.json", "layout3.json", "scene-layout.json"), "lay.json",
                    0.5, "json")
    argv = ["vision", "read", m.input_path(_image(m)), "--layout", m.input_path(layout)]
    if m.chance(0.3):
        argv += ["--colours", m.input_path(m.copy("colours.json", "c.json", 0.7, "json"))]
    if m.chance(0.3):
        argv.append("--json")
    m.case.argv = argv


def _vision_eval(m: Maker) -> None:
    folder = m.d / "scenes"
    folder.mkdir()
    m.copy("scene-layout.json", "scenes/layout.json", 0.3, "json")
    m.copy("scene.jpg", "scenes/f1.jpg", 0.3, "bytes")
    m.copy("scene.json", "scenes/f1.json", 0.6, "json")
    argv = ["vision", "eval", m.input_path(folder)]
    if m.chance(0.4):
        argv += ["--min-accuracy", m.rng.choice(FLOATS)]
    if m.chance(0.2):
        argv += ["--limit", m.int_text([1])]
    m.case.argv = argv


def _vision_world(m: Maker) -> None:
    argv = ["vision", "world", "--count", m.pick("0", "-1", "x", "99999999", "1"),
            "--seed", m.int_text([0, 4]), "--players", m.pick("2", "4", "5", "2,9", "x"),
            "--difficulty", m.pick("easy", "insane", ""), "--workers",
            m.pick("1", "0", "x"), "--framing", m.pick("centre", "sideways"), "--lens",
            m.pick("wide", "fisheye"), "--split", m.pick("check", "train")]
    if m.chance(0.2):
        argv += ["--game", "duel"]
    if m.chance(0.3):
        argv += ["--report", m.output_path(suffix=".md")]
    m.case.argv = argv


def _buttons_test(m: Maker) -> None:
    buttons = m.d / "buttons.txt"
    buttons.write_bytes(script(m.rng).encode("utf-8", "surrogateescape"))
    argv = ["buttons-test", "--panel", m.pick(f"script:{buttons}", f"script:{buttons}",
                                               "bogus", "script:", f"script:{m.d}")]
    if m.chance(0.5):
        argv += ["--seconds", m.pick("0.01", "-1", "nan", "inf", "x", "0")]
    if m.chance(0.5):
        argv += ["--count", m.int_text([1, 3])]
    if m.chance(0.3):
        argv += ["--config", m.input_path(m.copy("config.toml", "c.toml", 0.8))]
    m.case.argv = argv


def _camera_test(m: Maker) -> None:
    frames = m.d / "frames"
    frames.mkdir()
    for i in range(m.rng.randint(0, 2)):
        m.copy(m.pick("table.png", "table.jpg"), f"frames/{i:04d}.png", 0.4, "bytes")
    argv = ["camera-test", "--camera", m.pick(f"recorded:{frames}", f"recorded:{frames}",
                                              f"video:{m.d / 'frames' / '0000.png'}",
                                              "usb:x", "bogus:1"),
            "--frames", m.int_text([1, 2])]
    if m.chance(0.3):
        m.case.may_change.append("shots/*")
        argv += ["--out", m.pick(str(m.d / "shots"), str(m.d / "frames" / "0000.png"))]
    if m.chance(0.2):
        argv += ["--config", m.input_path(m.copy("config.toml", "c.toml", 0.8))]
    m.case.argv = argv


#: Every command and its generator.
COMMANDS: dict[str, Callable[[Maker], None]] = {
    "replay": _replay, "simulate": _simulate, "games": _games, "review": _review,
    "export": _export, "analyse": _analyse, "run": _run, "demo": _demo, "mats": _mats,
    "calibrate": _calibrate, "vision read": _vision_read, "vision eval": _vision_eval,
    "vision world": _vision_world, "buttons-test": _buttons_test,
    "camera-test": _camera_test,
}


def case(command: str, seed: int, world: Path, folder: Path) -> Case:
    """Build case ``seed`` of ``command`` in ``folder`` (made afresh)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    made = Case(command, seed, folder)
    COMMANDS[command](Maker(made, world))
    return made


# ------------------------------------------------------------------- check
def _hashes(folder: Path) -> dict[str, str]:
    out = {}
    for p in folder.rglob("*"):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _allowed(name: str, patterns: list[str]) -> bool:
    return any(name == p or (p.endswith("*") and name.startswith(p[:-1])) for p in patterns)


def check(made: Case) -> list[str]:
    """Run ``made`` in this process; the problems found (empty: it behaved)."""
    from companion.cli import main

    before = _hashes(made.folder)
    err, out = io.StringIO(), io.StringIO()
    saved = {k: os.environ.get(k) for k in made.env}
    os.environ.update(made.env)
    problems = []
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code = main(made.argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:  # a traceback: what the issue forbids
        if isinstance(exc, KeyboardInterrupt):
            raise
        problems.append("traceback: " + "".join(traceback.format_exception(exc))[-3000:])
        code = None
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    text = err.getvalue()
    if "Traceback (most recent call last)" in text:
        problems.append(f"traceback on stderr: {text[-3000:]}")
    if code not in (0, None):
        lines = [x for x in text.splitlines() if x.strip() and not PROGRESS.match(x)]
        if len(lines) != 1 or not lines[0].startswith("splendor-companion"):
            problems.append(f"exit {code} without one line: {lines[:6]}")
        elif len(lines[0]) > 500:
            problems.append(f"a line of {len(lines[0])} characters")
    after = _hashes(made.folder)
    changed = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
    gone = sorted(before.keys() - after.keys())
    bad = [k for k in changed + gone if not _allowed(k, made.may_change)]
    if bad:
        problems.append(f"inputs changed or removed: {bad}")
    return problems
