"""The review page in a real browser: headless Chromium renders it without errors.

Skipped, saying why, when no Chromium is installed (``.ci/run`` installs
Debian's ``chromium`` package).  A page with a deliberate script error is
opened first, to prove that console errors do reach the log this test reads.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.record import GameLog
from companion.review import game_story, render_html
from companion.review.chart import SEAT_STYLES
from tests.review.logged import log_duel_game, log_game

CANDIDATES = ("chromium", "chromium-browser", "/usr/bin/chromium", "google-chrome")
#: Console errors and failed loads, as Chromium logs them to stderr.
ERRORS = re.compile(r"Uncaught|CONSOLE.*(error|Error)|Failed to load resource|net::ERR_")


def find_chromium() -> str | None:
    wanted = os.environ.get("CHROMIUM")
    for name in ([wanted] if wanted else []) + list(CANDIDATES):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium found (looked for chromium, chromium-browser, google-chrome, $CHROMIUM);"
    " install Debian's 'chromium' package to run the browser test",
)


def run_chromium(tmp: Path, page: Path, *action: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    argv = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
        "--hide-scrollbars", *action, page.as_uri(),
    ]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def console_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ERRORS.search(line)]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("chromium")
    gid, _, _ = log_game(tmp / "games.db", take_back=(4,))
    with GameLog.open(tmp / "games.db") as log:
        html = render_html(game_story(log, gid))
    path = tmp / "review.html"
    path.write_text(html, encoding="utf-8")
    return path


def test_console_errors_are_seen_by_this_test(tmp_path: Path) -> None:
    broken = tmp_path / "broken.html"
    broken.write_text("<!DOCTYPE html><html><body><p>x</p>"
                      "<script>notDefinedAnywhere();</script></body></html>")
    result = run_chromium(tmp_path, broken, "--dump-dom")
    assert console_errors(result.stderr), "a script error did not show in Chromium's log"


def test_the_page_renders_with_the_chart_and_no_console_error(page: Path, tmp_path: Path) -> None:
    result = run_chromium(tmp_path, page, "--dump-dom")
    assert result.returncode == 0, result.stderr[-2000:]
    assert console_errors(result.stderr) == []
    dom = result.stdout
    chart = re.search(r'<img[^>]*id="points-chart"[^>]*>', dom)
    assert chart and 'src="data:image/png;base64,' in chart.group(0)
    assert "Final standings" in dom and "Who bought what" in dom
    assert dom.count('class="thumb"') > 50


def test_the_screenshot_shows_the_chart_lines(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    result = run_chromium(tmp_path, page, f"--screenshot={shot}", "--window-size=1200,1000")
    assert shot.exists(), result.stderr[-2000:]
    assert console_errors(result.stderr) == []
    image = cv2.imread(str(shot), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[1] == 1200
    for colour, _ in SEAT_STYLES[:2]:  # the two players' lines
        bgr = np.array([int(colour[i : i + 2], 16) for i in (5, 3, 1)])
        near = np.abs(image.astype(int) - bgr).sum(axis=2) < 30
        assert near.sum() > 100, f"the chart's {colour} line is not on screen"


@pytest.fixture(scope="module")
def duel_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("chromium-duel")
    gid, _, _ = log_duel_game(tmp / "games.db", take_back=(4,))
    with GameLog.open(tmp / "games.db") as log:
        html = render_html(game_story(log, gid))
    path = tmp / "duel-review.html"
    path.write_text(html, encoding="utf-8")
    return path


def test_the_duel_page_renders_both_charts_and_no_console_error(
    duel_page: Path, tmp_path: Path
) -> None:
    result = run_chromium(tmp_path, duel_page, "--dump-dom")
    assert result.returncode == 0, result.stderr[-2000:]
    assert console_errors(result.stderr) == []
    dom = result.stdout
    for chart in ("points-chart", "crowns-chart"):
        tag = re.search(rf'<img[^>]*id="{chart}"[^>]*>', dom)
        assert tag and 'src="data:image/png;base64,' in tag.group(0), chart
    assert "Crowns by round" in dom and "Royal cards" in dom and "Best colour" in dom


def test_the_duel_screenshot_shows_the_lines_of_both_charts(
    duel_page: Path, tmp_path: Path
) -> None:
    shot = tmp_path / "duel.png"
    result = run_chromium(tmp_path, duel_page, f"--screenshot={shot}", "--window-size=1200,1400")
    assert shot.exists(), result.stderr[-2000:]
    assert console_errors(result.stderr) == []
    image = cv2.imread(str(shot), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[1] == 1200
    for colour, _ in SEAT_STYLES[:2]:
        bgr = np.array([int(colour[i : i + 2], 16) for i in (5, 3, 1)])
        near = np.abs(image.astype(int) - bgr).sum(axis=2) < 30
        rows = np.flatnonzero(near.sum(axis=1))
        assert near.sum() > 100, f"the charts' {colour} line is not on screen"
        # one chart is 360 px tall (3.6 in at 100 dpi): a colour spanning more rows
        # than that is in both charts, one under the other
        assert rows.max() - rows.min() > 400, f"{colour} is in one chart only"
