"""Every sub-command under misuse: a catalogue of bad arguments, files, images,
layouts, configs and logs, each of which must end with a non-zero exit, ONE
line on stderr naming the file or option, and no traceback (issue 14).

The commands run in this process (``companion.cli.main``), which is what
keeps ~200 cases quick; the cases that need real processes (signals, the
writer lock) are in ``tests/record/test_lock_and_stop.py``.  Every file a
case uses is made once by the ``world`` fixture, in a temporary folder; the
user's own log and config are never read (``XDG_*`` point into it).

Run it alone with ``.venv/bin/python -m pytest -q tests/cli/test_bad_inputs.py``.

The issue's table, row by row, and where each is tested:

* two ``run``s on one log: ``tests/record/test_lock_and_stop.py`` (real
  processes) and the ``locked.db`` case here;
* a damaged row (``headers='{not json'``, ``players='oops'``): the
  ``headers.db``/``players.db``/... cases here and ``tests/record/test_damage.py``
  (``run`` starts and resumes only a sound game);
* read-only commands on a damaged or foreign file: ``corrupt.db``,
  ``foreign.db``, ``zeros.db`` here (no file may change: ``_snapshot``) and
  ``test_damage.py`` (bytes unchanged, then ``run`` sets it aside);
* a config that is not UTF-8: ``config-latin1.toml`` for ``run``,
  ``buttons-test`` and ``camera-test``;
* ``--screen 100000x100000``, ``--screenshots FILE``: the ``RUN_CASES``;
* ``--camera video:notavideo.jpg`` / ``usb:99``: ``RUN_CASES`` and ``HARDWARE``;
* SIGTERM to ``run``: ``test_lock_and_stop.py`` (one line, no process left,
  no leaked shared memory, the log replays);
* a 60 MB line: ``huge-line.txt``/``huge-turn.txt`` (2 MB: the same code path);
* a set-up error at its header's line: ``setup-nobles.txt``, ``setup-market.txt``;
* layout errors and version 99: ``LAYOUTS``;
* ``vision eval --limit -3`` / ``--min-accuracy 150``: ``VISION``;
* BOM and Latin-1 records: ``latin1.txt``/``utf16.txt`` here, and the
  BOM-accepting tests at the end.
"""

from __future__ import annotations

import json
import re
import shlex
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import build_parser, main
from companion.record import GameLog, WriterLock
from tests.cli.invoke import isolate
from tests.review.logged import log_game

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
DEMO = ROOT / "tests" / "data" / "demo"


@dataclass(frozen=True)
class Case:
    """``argv`` (``{d}`` is the world's folder) and what the error line must name."""

    argv: str
    names: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    lock: str | None = None  # a log whose writer lock another holder keeps meanwhile

    def args(self, d: Path) -> list[str]:
        return [a.replace("{d}", str(d)) for a in shlex.split(self.argv)]


def C(argv: str, *names: str, env: dict[str, str] | None = None, lock: str | None = None
      ) -> Case:
    return Case(argv, names or ("",), env or {}, lock)


# ------------------------------------------------------------------ the catalogue
TOP = [
    C("bogus", "bogus"),
    C("--bogus-option", "--bogus-option"),
    C("run", "--players"),
    C("vision bogus", "bogus"),
]

REPLAY = [
    C("replay", "file"),
    C("replay {d}/missing.txt", "missing.txt"),
    C("replay {d}", "{d}"),
    C("replay {d}/latin1.txt", "latin1.txt", "UTF-8"),
    C("replay {d}/utf16.txt", "utf16.txt", "UTF-16"),
    C("replay {d}/binary.txt", "binary.txt"),
    C("replay {d}/image.png", "image.png"),
    C("replay {d}/huge-line.txt", "huge-line.txt"),
    C("replay {d}/huge-turn.txt", "huge-turn.txt"),
    C("replay {d}/empty.txt", "empty.txt"),
    C("replay {d}/comments.txt", "comments.txt"),
    C("replay {d}/setup-nobles.txt", "line 3"),
    C("replay {d}/setup-market.txt", "line 5"),
    C("replay {d}/setup-players.txt", "setup-players.txt"),
    C("replay {d}/no-market.txt", "Market3"),
    C("replay {d}/bad-turn.txt", "line 8"),
    C("replay {d}/illegal-turn.txt", "line 8"),
    C("replay {d}/header-after.txt", "line 9"),
    C("replay {d}/gap.txt", "line 9"),
    C("replay {d}/wrong-result.txt", "Result"),
    C("replay {d}/other-game.txt", "Chess"),
    C("replay {d}/duel-bad.txt", "duel-bad.txt"),
    C("replay {d}/duel-illegal.txt", "duel-illegal.txt"),
    C("replay {d}/not-a-header.txt", "line 1"),
    C("replay {d}/empty.db", "empty.db"),
]

SIMULATE = [
    C("simulate --players 5", "5"),
    C("simulate --players 1", "1"),
    C("simulate --players x", "--players"),
    C("simulate --games 0", "--games"),
    C("simulate --games -4", "--games"),
    C("simulate --games x", "--games"),
    C("simulate --seed x", "--seed"),
    C("simulate --policy clever", "clever"),
    C("simulate --game chess", "--game"),
    C("simulate --game duel --players 3", "3"),
    C("simulate --out {d}/file.txt", "file.txt"),
]

LOG_READERS = [
    C("games --db {d}/missing.db", "missing.db"),
    C("games --db {d}", "folder"),
    C("games --db {d}/corrupt.db", "corrupt.db"),
    C("games --db {d}/foreign.db", "foreign.db", "another program"),
    C("games --db {d}/newer.db", "newer.db", "newer"),
    C("games --db {d}/empty.db", "empty.db"),
    C("games --db {d}/zeros.db", "zeros.db"),
    C("games --db {d}/headers.db", "game 2", "headers"),
    C("games --db {d}/players.db", "game 2", "players"),
    C("games --db {d}/winners.db", "game 2", "winners"),
    C("games --db {d}/started.db", "game 2", "started_at"),
    C("games --db {d}/type.db", "game 2", "Backgammon"),
    C("games --db {d}/blob.db", "game 2", "headers"),
    C("games --db {d}/latin1.txt", "latin1.txt"),
    C("games --db", "--db"),
    C("review --db {d}/good.db", "game"),
    C("review abc --db {d}/good.db", "abc"),
    C("review 0 --db {d}/good.db", "0"),
    C("review --db {d}/good.db -- -1", "-1"),
    C("review 99 --db {d}/good.db", "99"),
    C("review 99999999999999999999999 --db {d}/good.db", "99999999999999999999999"),
    C("review last --db {d}/emptylog.db", "no games"),
    C("review 1 --db {d}/missing.db", "missing.db"),
    C("review 1 --db {d}/corrupt.db", "corrupt.db"),
    C("review 1 --db {d}/foreign.db", "foreign.db"),
    C("review 2 --db {d}/headers.db", "game 2", "headers"),
    C("review last --db {d}/headers.db", "game 2", "headers"),
    C("review 2 --db {d}/players.db", "game 2"),
    C("review 2 --db {d}/notation.db --html {d}/out.html", "game 2"),
    C("review 1 --db {d}/good.db --html {d}/nofolder/r.html", "nofolder"),
    C("review 1 --db {d}/good.db --html {d}/file.txt/r.html", "file.txt"),
    C("review 1 --db {d}/good.db --html {d}", "{d}"),
    C("export --db {d}/good.db", "game"),
    C("export 1 --db {d}/good.db --format pdf", "--format"),
    C("export x --db {d}/good.db", "'x'"),
    C("export 7 --db {d}/good.db", "7"),
    C("export 1 --db {d}/corrupt.db", "corrupt.db"),
    C("export 1 --db {d}/newer.db", "newer.db"),
    C("export 2 --db {d}/headers.db", "game 2"),
    C("export 2 --db {d}/winners.db --format json", "game 2"),
    C("export 2 --db {d}/notation.db", "game 2"),
    C("export 1 --db {d}/good.db --out {d}/nofolder/g.txt", "nofolder"),
    C("export 1 --db {d}/good.db --out {d}", "{d}"),
    C("export last --db {d}/emptylog.db", "no games"),
    C("analyse --db {d}/good.db", "game"),
    C("analyse x --db {d}/good.db", "'x'"),
    C("analyse 7 --db {d}/good.db", "7"),
    C("analyse 1 --db {d}/missing.db", "missing.db"),
    C("analyse 1 --db {d}/corrupt.db", "corrupt.db"),
    C("analyse 1 --db {d}/foreign.db", "foreign.db"),
    C("analyse 2 --db {d}/headers.db", "game 2"),
    C("analyse last --db {d}/emptylog.db", "no games"),
    C("analyse 1 --db {d}/good.db --budget -5", "--budget"),
    C("analyse 1 --db {d}/good.db --budget lots", "--budget"),
    C("analyse 1 --db {d}/good.db --jobs 0", "--jobs"),
    C("analyse --record {d}/missing.txt", "missing.txt"),
    C("analyse 1 --record {d}/missing.txt --db {d}/good.db", "--record"),
]

CONFIGS = {
    "latin1": "config-latin1.toml",
    "badtoml": "config-bad.toml",
    "unknown-section": "config-section.toml",
    "unknown-key": "config-key.toml",
    "pin": "config-pin.toml",
    "pin-twice": "config-twice.toml",
    "type": "config-type.toml",
    "bounce": "config-bounce.toml",
    "source": "config-source.toml",
    "screen": "config-screen.toml",
    "utf16": "config-utf16.toml",
}

HARDWARE = [
    *[C(f"buttons-test --config {{d}}/{name}", name) for name in CONFIGS.values()],
    C("buttons-test --config {d}/missing.toml", "missing.toml"),
    C("buttons-test --config {d}", "{d}"),
    C("buttons-test --panel bogus", "bogus"),
    C("buttons-test --panel script:", "script:"),
    C("buttons-test --panel script:{d}/missing.txt", "missing.txt"),
    C("buttons-test --panel script:{d}/script-bad.txt", "script-bad.txt:2"),
    C("buttons-test --panel script:{d}/script-wait.txt", "script-wait.txt:1"),
    C("buttons-test --panel script:{d}/latin1.txt", "latin1.txt"),
    C("buttons-test --panel script:{d}", "{d}"),
    C("buttons-test --seconds -1 --panel script:{d}/script-ok.txt", "--seconds"),
    C("buttons-test --seconds nan --panel script:{d}/script-ok.txt", "--seconds"),
    C("buttons-test --count 0 --panel script:{d}/script-ok.txt", "--count"),
    C("buttons-test --count x", "--count"),
    *[C(f"camera-test --config {{d}}/{name}", name) for name in CONFIGS.values()],
    C("camera-test --camera bogus:1", "bogus:1"),
    C("camera-test --camera usb:99", "USB camera 99"),
    C("camera-test --camera usb:x", "usb:x"),
    C("camera-test --camera video:{d}/notavideo.jpg", "notavideo.jpg"),
    C("camera-test --camera video:{d}/text.mp4", "text.mp4"),
    C("camera-test --camera video:{d}/missing.mp4", "missing.mp4"),
    C("camera-test --camera recorded:{d}/missing", "missing"),
    C("camera-test --camera recorded:{d}/emptydir", "emptydir"),
    C("camera-test --camera recorded:{d}/junkdir", "junkdir"),
    C("camera-test --camera recorded:{d}/frames --frames 0", "--frames"),
    C("camera-test --camera recorded:{d}/frames --frames -2", "--frames"),
    C("camera-test --camera recorded:{d}/frames --out {d}/file.txt", "file.txt"),
    C("camera-test --camera picamera", "picamera"),
]

RUN = "run --no-camera --buttons script:{d}/script-ok.txt --db {d}/run.db"
RUN_CASES = [
    C("run --players 1 --no-camera", "--players 1"),
    C("run --players 5 --no-camera", "--players 5"),
    C("run --players x", "--players"),
    C("run --players 2 --names Ann", "--names"),
    C("run --players 2 --names Ann,Ann --no-camera", "--names"),
    C("run --players 2 --names Ann, --no-camera", "--names"),
    C('run --players 2 --names "A,B,C" --no-camera', "--names"),
    C(f"{RUN} --players 2 --names 'A\"n,Bob'", "A\"n"),
    C(f"{RUN} --players 2 --screen 100000x100000", "--screen"),
    C(f"{RUN} --players 2 --screen 0x0", "--screen"),
    C(f"{RUN} --players 2 --screen -800x480", "--screen"),
    C(f"{RUN} --players 2 --screen big", "--screen"),
    C(f"{RUN} --players 2 --screen 800", "--screen"),
    C(f"{RUN} --players 2 --screen 800x480x3", "--screen"),
    C(f"{RUN} --players 2 --screen {'9' * 5000}x480", "--screen"),
    C(f"{RUN} --players 2 --screenshots {{d}}/file.txt", "--screenshots"),
    C(f"{RUN} --players 2 --screenshots {{d}}/file.txt/shots", "--screenshots"),
    C(f"{RUN} --players 2 --resume maybe", "--resume"),
    C(f"{RUN} --players 2 --layout {{d}}/missing.json", "missing.json"),
    C(f"{RUN} --players 3 --layout {{d}}/layout2.json", "layout2.json"),
    C(f"{RUN} --players 2 --layout {{d}}/layout-v99.json", "layout-v99.json", "99"),
    C(f"{RUN} --players 2 --layout {{d}}/layout-nomarkers.json", "layout-nomarkers.json"),
    C(f"{RUN} --players 2 --layout {{d}}", "{d}"),
    C("run --players 2 --no-camera --buttons bogus --db {d}/run.db", "bogus"),
    C("run --players 2 --no-camera --buttons script:{d}/missing.txt --db {d}/run.db",
      "missing.txt"),
    C("run --players 2 --no-camera --buttons script:{d}/script-bad.txt --db {d}/run.db",
      "script-bad.txt:2"),
    C(f"{RUN} --players 2 --db {{d}}", "{d}"),
    C(f"{RUN} --players 2 --db {{d}}/file.txt/g.db", "file.txt"),
    C(f"{RUN} --players 2 --db {{d}}/locked.db", "locked.db", "process", lock="locked.db"),
    C("run --players 2 --buttons script:{d}/script-ok.txt --db {d}/run.db",
      "--camera", env={"SPLENDOR_COMPANION_CONFIG": ""}),
    C("run --players 2 --camera bogus --buttons script:{d}/script-ok.txt --db {d}/run.db",
      "bogus"),
    C("run --players 2 --camera usb:99 --buttons script:{d}/script-ok.txt --db {d}/run.db",
      "usb:99"),
    C("run --players 2 --camera video:{d}/notavideo.jpg --buttons script:{d}/script-ok.txt"
      " --db {d}/run.db", "notavideo.jpg"),
    C("run --players 2 --camera video:{d}/text.mp4 --buttons script:{d}/script-ok.txt"
      " --db {d}/run.db", "text.mp4"),
    C("run --players 2 --camera recorded:{d}/missing --buttons script:{d}/script-ok.txt"
      " --db {d}/run.db", "missing"),
    C("run --players 2 --camera recorded:{d}/emptydir --buttons script:{d}/script-ok.txt"
      " --db {d}/run.db", "emptydir"),
    *[C(f"{RUN} --players 2", name, env={"SPLENDOR_COMPANION_CONFIG": f"{{d}}/{name}"})
      for name in CONFIGS.values()],
    C(f"{RUN} --players 2", "missing.toml",
      env={"SPLENDOR_COMPANION_CONFIG": "{d}/missing.toml"}),
    C("run --players 2 --camera recorded:{d}/frames --buttons script:{d}/script-ok.txt"
      " --db {d}/run.db", "lens.json", env={"SPLENDOR_COMPANION_CONFIG": "{d}/config-lens.toml"}),
]

DEMO_CASES = [
    C("demo --screen 100000x100000", "--screen"),
    C("demo --screen tiny", "--screen"),
    C("demo --turns -1", "--turns"),
    C("demo --turns x", "--turns"),
    C("demo --recording {d}/missing --out {d}/demo-out", "missing"),
    C("demo --recording {d}/emptydir --out {d}/demo-out", "emptydir"),
    C("demo --recording {d}/rec-badgame --out {d}/demo-out", "rec-badgame"),
    C("demo --recording {d}/rec-badbuttons --out {d}/demo-out", "buttons.txt"),
    C("demo --recording {d}/rec-latin1 --out {d}/demo-out", "rec-latin1"),
]

MATS = [
    C("mats --players 5 --out {d}/mats", "5"),
    C("mats --players 1 --out {d}/mats", "1"),
    C("mats --players x", "--players"),
    C("mats --dpi 10 --out {d}/mats", "--dpi"),
    C("mats --dpi 5000 --out {d}/mats", "--dpi"),
    C("mats --dpi x", "--dpi"),
    C("mats --paper b5", "--paper"),
    C("mats --out {d}/file.txt", "file.txt"),
    C("mats --out {d}/file.txt/sub", "file.txt"),
]

LAYOUTS = [
    "layout-nomarkers.json", "layout-noslots.json", "layout-nomats.json", "layout-v99.json",
    "layout-v0.json", "layout-noversion.json", "layout-schema.json", "layout-players.json",
    "layout-slotsize.json", "layout-slotkind.json", "layout-slotmat.json", "layout-markerid.json",
    "layout-corners.json", "layout-dict.json", "layout-list.json", "layout-dupslot.json",
    "layout-nan.json", "layout-slotnotdict.json", "layout-truncated.json", "layout-latin1.json",
    "layout-deep.json",
]

CALIBRATE = [
    C("calibrate {d}/table.png", "--layout"),
    C("calibrate --layout {d}/layout3.json", "IMAGE", "--lens"),
    C("calibrate {d}/table.png --layout {d}/missing.json", "missing.json"),
    *[C(f"calibrate {{d}}/table.png --layout {{d}}/{name}", name) for name in LAYOUTS],
    C("calibrate {d}/missing.png --layout {d}/layout3.json", "missing.png"),
    C("calibrate {d}/latin1.txt --layout {d}/layout3.json", "latin1.txt"),
    C("calibrate {d}/empty.png --layout {d}/layout3.json", "empty.png"),
    C("calibrate {d}/truncated.jpg --layout {d}/layout3.json", "truncated.jpg"),
    C("calibrate {d}/tiny.png --layout {d}/layout3.json", "frame size"),
    C("calibrate {d}/black.png --layout {d}/layout3.json", "black"),
    C("calibrate {d} --layout {d}/layout3.json", "{d}"),
    C("calibrate --lens {d}/missing.png --layout {d}/layout3.json", "missing.png"),
    C("calibrate --lens {d}/text.mp4 --layout {d}/layout3.json", "text.mp4"),
]

VISION = [
    C("vision read {d}/table.png", "--layout"),
    C("vision read {d}/table.png --layout {d}/missing.json", "missing.json"),
    *[C(f"vision read {{d}}/table.png --layout {{d}}/{name}", name) for name in LAYOUTS],
    C("vision read {d}/missing.png --layout {d}/layout3.json", "missing.png"),
    C("vision read {d}/latin1.txt --layout {d}/layout3.json", "latin1.txt"),
    C("vision read {d}/empty.png --layout {d}/layout3.json", "empty.png"),
    C("vision read {d}/truncated.png --layout {d}/layout3.json", "truncated.png"),
    C("vision read {d}/table.png --layout {d}/layout3.json --colours {d}/missing.json",
      "missing.json"),
    C("vision read {d}/table.png --layout {d}/layout3.json --colours {d}/latin1.txt",
      "latin1.txt"),
    C("vision read {d}/table.png --layout {d}/layout3.json --colours {d}/colours-bad.json",
      "colours-bad.json"),
    C("vision read {d}/table.png --layout {d}/layout3.json --colours {d}/layout3.json",
      "layout3.json"),
    C("vision eval {d}/missing", "missing"),
    C("vision eval {d}/file.txt", "file.txt"),
    C("vision eval {d}/emptydir", "emptydir"),
    C("vision eval {d}/scenes-nolayout", "scenes-nolayout"),
    C("vision eval {d}/scenes-badlayout", "scenes-badlayout"),
    C("vision eval {d}/scenes-noframes", "scenes-noframes"),
    C("vision eval {d}/scenes-noframes --limit -3", "--limit"),
    C("vision eval {d}/scenes-noframes --limit 0", "--limit"),
    C("vision eval {d}/scenes-noframes --min-accuracy 150", "--min-accuracy"),
    C("vision eval {d}/scenes-noframes --min-accuracy -1", "--min-accuracy"),
    C("vision eval {d}/scenes-noframes --min-accuracy nan", "--min-accuracy"),
    C("vision eval {d}/scenes-noframes --min-accuracy x", "--min-accuracy"),
    C("vision eval {d}/scenes-noframes --official-faces {d} --count 0", "--count"),
    C("vision eval {d}/scenes-noframes --layout {d}/layout-v99.json", "layout-v99.json"),
    C("vision world --players 5", "--players"),
    C("vision world --players x", "--players"),
    C("vision world --difficulty insane", "--difficulty"),
    C("vision world --split train", "--split"),
    C("vision world --framing sideways", "--framing"),
    C("vision world --lens fisheye", "--lens"),
    C("vision world --count 0", "--count"),
    C("vision world --workers 0", "--workers"),
    C("vision world --choose", "--choose"),
    C("vision world --seed x", "--seed"),
]

CATALOGUE = [*TOP, *REPLAY, *SIMULATE, *LOG_READERS, *HARDWARE, *RUN_CASES, *DEMO_CASES,
             *MATS, *CALIBRATE, *VISION]


# ---------------------------------------------------------------- the world
def _record(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


SETUP = ('[Game "Splendor"]\n[Players "Ann, Bob"]\n[Nobles "n1 n2 n3"]\n'
         '[Market1 "1w3 1u1 1k6 1r2"]\n[Market2 "2g1 2r4 2w6 2k2"]\n'
         '[Market3 "3u2 3g4 3k1 3w3"]\n\n')


def _records(d: Path) -> None:
    good = (GOLDEN / "splendor" / "seed1-2p-random.txt").read_text(encoding="utf-8")
    duel = sorted((GOLDEN / "duel").glob("*.txt"))[0].read_text(encoding="utf-8")
    (d / "latin1.txt").write_bytes(good.replace("Player 1", "Ren\u00e9e").encode("latin-1"))
    (d / "utf16.txt").write_bytes(good.encode("utf-16"))
    (d / "binary.txt").write_bytes(b"\x00\x01\x02\xff" * 100)
    (d / "huge-line.txt").write_text("x" * 2_000_000, encoding="utf-8")
    _record(d / "huge-turn.txt", SETUP + "1. take " + "w" * 2_000_000 + "\n")
    _record(d / "empty.txt", "")
    _record(d / "comments.txt", "; nothing but a comment\n\n")
    _record(d / "setup-nobles.txt", SETUP.replace('"n1 n2 n3"', '"n1 n2 n3 n4"') + "1. take wug\n")
    _record(d / "setup-market.txt", SETUP.replace("2g1 2r4", "2g1 9z9") + "1. take wug\n")
    _record(d / "setup-players.txt", SETUP.replace("Ann, Bob", "Ann") + "1. take wug\n")
    _record(d / "no-market.txt", SETUP.replace('[Market3 "3u2 3g4 3k1 3w3"]\n', ""))
    _record(d / "bad-turn.txt", SETUP + "1. grab everything\n")
    _record(d / "illegal-turn.txt", SETUP + "1. take wwu\n")
    _record(d / "header-after.txt", SETUP + "1. take wug\n" + '[Event "late"]\n')
    _record(d / "gap.txt", SETUP + "1. take wug\n3. take wug\n")
    _record(d / "wrong-result.txt",
            good.replace(re.search(r'\[Result "[^"]*"\]', good).group(0),  # type: ignore[union-attr]
                         '[Result "Nobody 0 (0 cards)"]'))
    _record(d / "other-game.txt", '[Game "Chess"]\n\n1. e4\n')
    _record(d / "duel-bad.txt", duel.split("\n1. ")[0] + "\n1. juggle\n")
    _record(d / "duel-illegal.txt", re.sub(r'\[Board "[^"]*"\]', '[Board "nonsense"]', duel))
    _record(d / "not-a-header.txt", "Hello, this is a letter, not a game.\n")


def _logs(d: Path) -> None:
    log_game(d / "good.db", upto=6, finish=False)
    with GameLog.open(d / "emptylog.db"):
        pass
    damaged = {
        "headers": "UPDATE games SET headers = '{not json' WHERE id = 2",
        "players": "UPDATE games SET players = 'oops' WHERE id = 2",
        "winners": "UPDATE games SET winners = '[1, 2' WHERE id = 2",
        "started": "UPDATE games SET started_at = 'yesterday' WHERE id = 2",
        "type": "UPDATE games SET game_type = 'Backgammon' WHERE id = 2",
        "blob": "UPDATE games SET headers = x'00ff' WHERE id = 2",
        "notation": "UPDATE turns SET notation = 'juggle' WHERE game_id = 2 AND seq = 2",
    }
    for name, sql in damaged.items():
        path = d / f"{name}.db"
        log_game(path, upto=4, finish=False)
        log_game(path, seed=3, upto=4)  # game 2, finished
        db = sqlite3.connect(path)
        db.execute(sql)
        db.commit()
        db.close()
    (d / "corrupt.db").write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)
    (d / "zeros.db").write_bytes(bytes(8192))
    (d / "empty.db").write_bytes(b"")
    foreign = sqlite3.connect(d / "foreign.db")
    foreign.execute("CREATE TABLE recipes (name TEXT)")
    foreign.commit()
    foreign.close()
    log_game(d / "newer.db", upto=2, finish=False)
    newer = sqlite3.connect(d / "newer.db")
    newer.execute("PRAGMA user_version = 99")
    newer.commit()
    newer.close()


def _configs(d: Path) -> None:
    texts = {
        "config-bad.toml": "[buttons\nconfirm_pin = 17\n",
        "config-section.toml": "[lights]\nred = 1\n",
        "config-key.toml": "[buttons]\nhold_tme = 2.0\n",
        "config-pin.toml": "[buttons]\nconfirm_pin = 40\n",
        "config-twice.toml": "[buttons]\nconfirm_pin = 27\n",
        "config-type.toml": "[screen]\nwidth = \"wide\"\n",
        "config-bounce.toml": "[buttons]\nbounce_time = 3.0\n",
        "config-source.toml": "[camera]\nsource = \"webcam\"\n",
        "config-screen.toml": "[screen]\nwidth = -5\n",
        "config-lens.toml": f"[camera]\nlens = \"{d / 'lens.json'}\"\n",
    }
    for name, text in texts.items():
        _record(d / name, text)
    (d / "config-latin1.toml").write_bytes("# caf\u00e9 du coin\n[screen]\nwidth = 800\n"
                                           .encode("latin-1"))
    (d / "config-utf16.toml").write_bytes("[screen]\nwidth = 800\n".encode("utf-16"))
    _record(d / "lens.json", '{"focal": "long"}')


def _layouts(d: Path) -> None:
    from vision.layout import build_layout

    base = build_layout(2).to_dict()
    _record(d / "layout2.json", json.dumps(base))
    _record(d / "layout3.json", build_layout(3).to_json())

    def variant(name: str, change) -> None:  # type: ignore[no-untyped-def]
        data = json.loads(json.dumps(base))
        change(data)
        _record(d / name, json.dumps(data))

    variant("layout-nomarkers.json", lambda x: x.pop("markers"))
    variant("layout-noslots.json", lambda x: x.pop("slots"))
    variant("layout-nomats.json", lambda x: x.__setitem__("mats", []))
    variant("layout-v99.json", lambda x: x.__setitem__("version", 99))
    variant("layout-v0.json", lambda x: x.__setitem__("version", 0))
    variant("layout-noversion.json", lambda x: x.pop("version"))
    variant("layout-schema.json", lambda x: x.__setitem__("schema", "something/else"))
    variant("layout-players.json", lambda x: x.__setitem__("players", 7))
    variant("layout-slotsize.json", lambda x: x["slots"][3].__setitem__("size", "big"))
    variant("layout-slotkind.json", lambda x: x["slots"][3].__setitem__("kind", "teapot"))
    variant("layout-slotmat.json", lambda x: x["slots"][3].__setitem__("mat", "kitchen"))
    variant("layout-markerid.json", lambda x: x["markers"][0].__setitem__("id", "one"))
    variant("layout-corners.json", lambda x: x["markers"][0].__setitem__("corners", [[0, 0]]))
    variant("layout-dict.json", lambda x: x.__setitem__("aruco_dictionary", "DICT_NOPE"))
    variant("layout-dupslot.json", lambda x: x["slots"].append(dict(x["slots"][0])))
    variant("layout-slotnotdict.json", lambda x: x["slots"].__setitem__(0, 5))
    _record(d / "layout-list.json", "[1, 2, 3]")
    _record(d / "layout-nan.json", json.dumps(base).replace('"center": [', '"center": [NaN, ', 1)
            .replace("NaN, ", "NaN, 1], \"x\": [", 1))
    _record(d / "layout-truncated.json", json.dumps(base)[:500])
    (d / "layout-latin1.json").write_bytes(json.dumps(base).replace("DICT", "D\u00c9CT")
                                           .encode("latin-1"))
    _record(d / "layout-deep.json", "[" * 100_000 + "]" * 100_000)


def _images(d: Path) -> None:
    rng = np.random.default_rng(1)
    table = rng.integers(60, 200, (720, 1280, 3), dtype=np.uint8)
    cv2.imwrite(str(d / "table.png"), table)
    cv2.imwrite(str(d / "tiny.png"), table[:20, :20])
    cv2.imwrite(str(d / "black.png"), np.zeros((720, 1280, 3), np.uint8))
    cv2.imwrite(str(d / "image.png"), table[:50, :50])
    (d / "empty.png").write_bytes(b"")
    _ok, jpeg = cv2.imencode(".jpg", table)
    (d / "truncated.jpg").write_bytes(jpeg.tobytes()[:2000])
    (d / "truncated.png").write_bytes((d / "table.png").read_bytes()[:3000])
    cv2.imwrite(str(d / "notavideo.jpg"), table)
    (d / "text.mp4").write_text("not a video at all\n" * 20, encoding="utf-8")
    (d / "emptydir").mkdir()
    (d / "junkdir").mkdir()
    (d / "junkdir" / "0001.jpg").write_text("not a picture", encoding="utf-8")
    (d / "frames").mkdir()
    cv2.imwrite(str(d / "frames" / "0001.png"), table)
    _record(d / "colours-bad.json", '{"tokens": 5}')
    for name, layout in (("scenes-nolayout", None), ("scenes-badlayout", "[1]"),
                         ("scenes-noframes", (d / "layout3.json").read_text(encoding="utf-8"))):
        (d / name).mkdir()
        if layout is not None:
            _record(d / name / "layout.json", layout)


def _scripts_and_recordings(d: Path) -> None:
    _record(d / "script-ok.txt", "confirm\n")
    _record(d / "script-bad.txt", "confirm\nsmash the table\n")
    _record(d / "script-wait.txt", "wait forever\n")
    _record(d / "file.txt", "just a file\n")
    for name, game, buttons in (
        ("rec-badgame", "not a game record\n", "confirm\n"),
        ("rec-badbuttons", (DEMO / "game.txt").read_text(encoding="utf-8"), "frame x\n"),
        ("rec-latin1", None, "confirm\n"),
    ):
        folder = d / name
        folder.mkdir()
        if game is None:
            (folder / "game.txt").write_bytes("; Ren\u00e9e\n".encode("latin-1"))
        else:
            _record(folder / "game.txt", game)
        _record(folder / "buttons.txt", buttons)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("misuse")
    _records(d)
    _logs(d)
    _configs(d)
    _layouts(d)
    _images(d)
    _scripts_and_recordings(d)
    return d


@pytest.fixture(autouse=True)
def _isolated(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No case reads the user's log, config or colours, or a Pi's pins."""
    isolate(world, monkeypatch)


# ------------------------------------------------------------------ the walk
#: What a message must not show: a Python repr, an errno tuple, a codec's own words.
REPR = re.compile(r"\b[A-Z]\w*(Error|Exception)\(|<[a-z_.]+ object at 0x|\[Errno \d+\]"
                  r"|codec can't decode")


def invoke(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.argv[:70] for c in CATALOGUE])
def test_bad_input_gives_one_line_and_no_traceback(
    case: Case, world: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in case.env.items():
        monkeypatch.setenv(key, value.replace("{d}", str(world)))
    holder = None
    if case.lock:
        holder = WriterLock(world / case.lock)
        holder.acquire()
    before = _snapshot(world)
    try:
        code, out, err = invoke(case.args(world), capsys)
    finally:
        if holder is not None:
            holder.release()
    assert code not in (0, None), f"exit {code}; stdout {out[-300:]!r}"
    assert "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, f"stderr is not one line: {lines[:5]}"
    line = lines[0]
    assert len(line) <= 500, "a message longer than a line"
    names = [n.replace("{d}", str(world)) for n in case.names]
    assert any(n in line for n in names), f"{line!r} names none of {names}"
    assert not REPR.search(line), f"a Python repr in {line!r}"
    assert _changed(before, _snapshot(world)) <= _allowed(case), "a file was changed"


def _snapshot(d: Path) -> dict[str, tuple[int, int]]:
    """Every log file of the world and its size and mtime: read-only commands keep them."""
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns)
            for p in d.iterdir() if ".db" in p.name}


def _changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def _allowed(case: Case) -> set[str]:
    """``run`` may create and lock its own log (run.db); nothing else may change."""
    if case.argv.startswith("run"):
        return {"run.db", "run.db-wal", "run.db-shm", "run.db.lock", "locked.db.lock"}
    return {"locked.db.lock"} if case.lock else set()


def test_the_walk_covers_every_sub_command_with_150_cases() -> None:
    commands = set()
    parser = build_parser()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        commands.update(action.choices)  # type: ignore[arg-type]
    commands |= {"vision read", "vision eval", "vision world"}
    commands.discard("vision")
    walked = {c.argv.split()[0] for c in CATALOGUE}
    walked |= {" ".join(c.argv.split()[:2]) for c in CATALOGUE if c.argv.startswith("vision")}
    assert commands <= walked, f"not walked: {sorted(commands - walked)}"
    assert len(CATALOGUE) >= 150


# ------------------------------------------------- what must still be accepted
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_utf8_records_with_or_without_bom_replay(tmp_path: Path, bom: bytes,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = (GOLDEN / "splendor" / "seed1-2p-random.txt").read_text(encoding="utf-8")
    path = tmp_path / "game.txt"
    path.write_bytes(bom + text.replace("Player 1", "Ren\u00e9e").encode("utf-8"))
    code, out, err = invoke(["replay", "-q", str(path)], capsys)
    assert code == 0, err
    assert "\ufeff" not in out + err


def test_a_utf8_config_with_a_bom_and_accents_is_read(tmp_path: Path) -> None:
    from firmware.config import load

    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbf# caf\xc3\xa9\n[screen]\nwidth = 1024\n")
    assert load(path).screen.width == 1024


def test_a_layout_with_a_bom_loads(tmp_path: Path) -> None:
    from vision.layout import build_layout, load_layout

    path = tmp_path / "layout.json"
    path.write_bytes(b"\xef\xbb\xbf" + build_layout(2).to_json().encode())
    assert load_layout(path).players == 2


def test_the_demo_button_script_plays_under_run(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The README's `run --camera recorded:... --buttons script:tests/data/demo/buttons.txt`:
    the demo's own script (with its `frame N` lines) confirms the recorded turns."""
    db = tmp_path / "g.db"
    code, _out, err = invoke(["run", "--players", "3", "--camera", f"recorded:{DEMO / 'frames'}",
                             "--buttons", f"script:{DEMO / 'buttons.txt'}", "--db", str(db),
                             "--resume", "no"], capsys)
    assert code == 0, err
    with GameLog.open_readonly(db) as log:
        logged = [t.notation for t in log.turns(1)]
    recorded = [line.split(". ", 1)[1] for line in
                (DEMO / "game.txt").read_text(encoding="utf-8").splitlines()
                if re.match(r"^\d+\. ", line)]
    assert logged == recorded
