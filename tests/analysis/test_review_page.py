"""The review page with an analysis, in headless Chromium (as tests/review/test_chromium.py)."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.analysis import analyse_record
from companion.record import GameLog
from companion.record.analyses import save_analysis
from companion.review import review_html
from companion.review.chart import SEAT_STYLES
from tests.review.logged import log_game
from tests.review.test_chromium import CHROMIUM, console_errors, run_chromium

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found: install Debian's"
                                " 'chromium' package to run the browser test")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    tmp = tmp_path_factory.mktemp("analysis-page")
    gid, record, _ = log_game(tmp / "games.db", seed=3, take_back=())
    analysis = analyse_record(record, budget=8, seed=1, jobs=1)  # type: ignore[arg-type]
    assert analysis.flagged(), "seed 1 at 8 playouts flags turns: the table must show them"
    with GameLog.open(tmp / "games.db") as log:
        save_analysis(log, gid, analysis.to_json(), analysis.budget, analysis.seed)
        html = review_html(log, gid)
    path = tmp / "review.html"
    path.write_text(html, encoding="utf-8")
    return path, len(analysis.flagged())


def test_the_page_shows_the_chances_the_flagged_turns_and_accuracy(page, tmp_path) -> None:
    path, flagged = page
    result = run_chromium(tmp_path, path, "--dump-dom")
    assert result.returncode == 0, result.stderr[-2000:]
    assert console_errors(result.stderr) == []
    dom = result.stdout
    chart = re.search(r'<img[^>]*id="win-chart"[^>]*>', dom)
    assert chart and 'src="data:image/png;base64,' in chart.group(0)
    assert dom.count('class="flagged"') == flagged
    assert "Better: " in dom and 'id="accuracy"' in dom and 'id="turning-points"' in dom
    assert dom.count('id="points-chart"') == 1  # the page's own chart is still there


def test_the_screenshot_shows_each_player_s_win_chance_line(page, tmp_path) -> None:
    path, _ = page
    shot = tmp_path / "shot.png"
    result = run_chromium(tmp_path, path, f"--screenshot={shot}", "--window-size=1200,2400")
    assert shot.exists(), result.stderr[-2000:]
    image = cv2.imread(str(shot), cv2.IMREAD_COLOR)
    assert image is not None
    # the win-chance chart is the second chart: look below the points chart
    lower = image[image.shape[0] // 3:]
    for colour, _ in SEAT_STYLES[:2]:
        bgr = np.array([int(colour[i : i + 2], 16) for i in (5, 3, 1)])
        near = np.abs(lower.astype(int) - bgr).sum(axis=2) < 30
        assert near.sum() > 100, f"the win-chance line {colour} is not on screen"
