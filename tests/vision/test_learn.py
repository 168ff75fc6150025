"""Colour calibration: learn the classes from a laid-out table, store and reuse them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.colours import ColourModel, distances, load_colours, save_colours
from vision.errors import VisionError
from vision.learn import SetupColours, learn_colours
from vision.synth import Camera, PlayerScene, TableScene, random_scene, render

CENTRE = (-400.0, -224.0, 400.0, 224.0)


def _setup_scene() -> TableScene:
    base = random_scene(4, 1, 0.0)
    return TableScene(base.market, (True, True, True), base.nobles, (7, 7, 7, 7, 7, 5),
                      (PlayerScene(),) * 4)


def test_learned_classes_follow_the_light(layout4) -> None:
    # a strongly coloured light that the white balance only partly removes; 3 px/mm, the
    # least the chips' rims (2-3 mm) are read at (at 1.5 px/mm black chips abstain)
    cam = Camera(px_per_mm=3.0, window=CENTRE, colour_temperature=0.9, exposure=0.7, noise=2)
    frame = render(_setup_scene(), layout4, cam, seed=1).image
    learned = learn_colours(frame, layout4)
    default = ColourModel()
    assert learned.source == "calibrate"
    assert set(learned.tokens) == set(default.tokens)
    # one centre per letter, learned under this light (the stored ones are lists),
    # nearer its own letter's stored centres than any other's
    for k in "wugrky":
        rim = np.asarray(learned.tokens[k])
        assert rim.shape == (3,)
        d = distances(rim, default.tokens)
        assert min(d, key=d.__getitem__) == k, (k, d)


def test_learning_needs_markers(layout4) -> None:
    with pytest.raises(VisionError, match="no marker"):
        learn_colours(np.full((300, 400, 3), 120, np.uint8), layout4)


def test_store_and_load(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert load_colours().source == "built-in defaults"
    model = ColourModel(source="test")
    path = save_colours(model)
    assert path == tmp_path / "splendor-companion" / "colours.json"
    again = load_colours()
    assert again.source == "test" and again.tokens == model.tokens
    assert np.allclose(np.asarray(again.gems["u"]), np.asarray(model.gems["u"]))
    path.write_text("{nonsense")
    with pytest.raises(VisionError):
        load_colours()
    with pytest.raises(VisionError, match="not found"):
        load_colours(tmp_path / "missing.json")


def test_calibrate_command(tmp_path, layout4, capsys) -> None:
    frame = render(_setup_scene(), layout4, Camera(px_per_mm=1.5, window=CENTRE), seed=2).image
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), frame)
    layout = tmp_path / "layout.json"
    layout.write_text(layout4.to_json())
    out = tmp_path / "colours.json"
    assert main(["calibrate", str(image), "--layout", str(layout), "--out", str(out)]) == 0
    assert out.exists() and "stored in" in capsys.readouterr().out
    assert load_colours(out).source.startswith("calibrate")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 120, np.uint8))
    assert main(["calibrate", str(blank), "--layout", str(layout), "--out", str(out)]) == 1
    assert "no marker" in capsys.readouterr().err


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def test_a_frame_that_is_no_set_up_is_not_learned_from(layout4) -> None:
    """Issue 41, defect 6: a grey picture of the laid-out table (its markers seen) and
    a table with no chip out were learned from; now refused, saying why."""
    cam = Camera(px_per_mm=2.0, window=CENTRE)
    frame = render(_setup_scene(), layout4, cam, seed=3).image
    with pytest.raises(VisionError, match="not told apart"):
        learn_colours(_grey(frame), layout4)
    base = _setup_scene()
    bare = TableScene(base.market, (True, True, True), base.nobles, (0,) * 6,
                      (PlayerScene(),) * 4)
    with pytest.raises(VisionError, match="only 0 of the 6 chip colours"):
        learn_colours(render(bare, layout4, cam, seed=3).image, layout4)
    assert learn_colours(frame, layout4).source == "calibrate"  # the real set-up still is


def test_calibrate_refuses_a_grey_set_up_and_keeps_the_stored_colours(
        tmp_path, layout4, capsys) -> None:
    frame = render(_setup_scene(), layout4, Camera(px_per_mm=1.5, window=CENTRE), seed=2).image
    image = tmp_path / "grey.png"
    cv2.imwrite(str(image), _grey(frame))
    layout = tmp_path / "layout.json"
    layout.write_text(layout4.to_json())
    out = tmp_path / "colours.json"
    out.write_text(ColourModel(source="mine").to_json())
    kept = out.read_bytes()
    assert main(["calibrate", str(image), "--layout", str(layout), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not told apart" in err[0]
    assert out.read_bytes() == kept


def test_run_keeps_the_colours_until_a_frame_shows_the_set_up(layout4) -> None:
    """`run` learns from the set-up's frames: a grey one is refused once, said on the
    screen (``refused``), and the next, real, set-up frame is learned from."""
    cam = Camera(px_per_mm=1.5, window=CENTRE)
    frame = render(_setup_scene(), layout4, cam, seed=4).image
    stored = ColourModel(source="built-in defaults")
    said: list[str] = []
    shown: list[str] = []
    setup = SetupColours(layout4, stored, said.append, shown.append)
    for _ in range(3):
        assert setup.see(_grey(frame)) is stored
    assert len(shown) == 1 and "not told apart" in shown[0] and "built-in" in shown[0]
    assert setup.see(frame).source == "set-up frame" and setup.done
    assert said[-1].startswith("Colours learned")
