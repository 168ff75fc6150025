"""Colour classes: what each token and gem looks like under the current light.

Colours are compared in CIE Lab (OpenCV's 8-bit Lab) *after* the frame is
white-balanced against the white squares printed around the markers, so the
built-in defaults already survive most changes of light; ``splendor-companion
calibrate`` learns the chips' classes from a frame of the freshly laid-out
table (a full supply; see :mod:`vision.learn`) and stores
them as JSON in the XDG config folder.

Design decisions
----------------
* Lightness counts half as much as hue (``L_WEIGHT``): light falls unevenly
  across a table, hue much less so.
* Gems on cards (bonus gems, cost circles, noble squares) have their own
  classes, separate from tokens: the printed card colours are not the tokens'.
* Class names are the gem letters of :mod:`companion.rules.gems`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError, read_text

L_WEIGHT = 0.5

#: Nominal printed/moulded colours, BGR (the renderer draws with these).
TOKEN_BGR: dict[str, tuple[int, int, int]] = {
    "w": (228, 232, 234),
    "u": (170, 80, 30),
    "g": (70, 140, 30),
    "r": (40, 35, 190),
    "k": (40, 36, 34),
    "y": (40, 180, 225),
}
#: Our drawn chips' sticker ground and gems, BGR (:func:`vision.synth.faces.token`).
STICKER_BGR: tuple[int, int, int] = (135, 180, 215)
CHIP_GEM_BGR: dict[str, tuple[int, int, int]] = {
    "w": (215, 215, 210),
    "u": (160, 60, 20),
    "g": (60, 140, 30),
    "r": (40, 30, 180),
    "k": (45, 45, 50),
    "y": (20, 120, 215),
}
GEM_BGR: dict[str, tuple[int, int, int]] = {
    "w": (226, 226, 222),
    "u": (190, 110, 40),
    "g": (70, 160, 60),
    "r": (50, 70, 215),
    "k": (60, 55, 55),
}
#: The publisher's printed colours, measured on its cards (median Lab, 8-bit, of the
#: cost circles and of the bonus gems over the 90 cards): lighter and less
#: saturated than ours.  The reader accepts either look.
PRINTED_CIRCLE_LAB: dict[str, tuple[float, float, float]] = {
    "w": (254.0, 128.0, 128.0), "u": (173.0, 125.0, 105.0), "g": (179.0, 91.0, 170.0),
    "r": (155.0, 162.0, 166.0), "k": (99.0, 130.0, 130.0),
}
PRINTED_GEM_LAB: dict[str, tuple[float, float, float]] = {
    "w": (193.0, 129.0, 128.0), "u": (96.0, 139.0, 103.0), "g": (199.0, 112.0, 147.0),
    "r": (103.0, 151.0, 142.0), "k": (88.0, 134.0, 135.0),
}
#: Chips measured on clean renders at 5 px/mm (median Lab of the rim annulus): the
#: publisher's DESIGN chips (``splendor/gems/circle``; never the check set).  A real
#: chip is coloured plastic under a pale round sticker: sticker to 17.6 mm, rim
#: 17.8-20 mm (radial Lab profile).
CHIP_RIM_LAB: dict[str, tuple[float, float, float]] = {
    "w": (254.0, 128.0, 128.0), "u": (127.0, 130.0, 86.0), "g": (144.0, 83.0, 154.0),
    "r": (120.0, 182.0, 148.0), "k": (61.0, 129.0, 130.0), "y": (227.0, 119.0, 196.0),
}
#: The chips' sticker ground, Lab: the design chips' and ours (medians, as above).
STICKER_LAB: tuple[tuple[float, float, float], ...] = ((195.0, 132.0, 154.0),
                                                      (192.0, 134.0, 156.0))
#: Our drawn deck backs per level (:mod:`vision.synth.faces`), and the mat's paper.
BACK_BGR: dict[str, tuple[int, int, int]] = {
    "1": (50, 110, 45),
    "2": (40, 150, 205),
    "3": (150, 80, 30),
    "empty": (214, 222, 226),
}


def to_lab(bgr: tuple[int, int, int] | np.ndarray) -> np.ndarray:
    px = np.asarray(bgr, dtype=np.uint8).reshape(1, -1, 3)
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


Centre = tuple[float, float, float]
#: A class is one Lab centre or several (any of them may match).
Classes = dict[str, Centre | list[Centre]]


def _centres(table: dict[str, tuple[int, int, int]]) -> dict[str, Centre]:
    return {k: tuple(float(x) for x in to_lab(v)[0]) for k, v in table.items()}  # type: ignore[misc]


def _with(base: dict[str, Centre], extra: dict[str, Centre]) -> Classes:
    return {k: [v, extra[k]] if k in extra else v for k, v in base.items()}


@dataclass(frozen=True)
class ColourModel:
    """Lab centres per class for tokens and card gems."""

    #: the chips' rims (the pile reader's classes; token slots are read by the network)
    tokens: Classes = field(default_factory=lambda: _with(_centres(TOKEN_BGR), CHIP_RIM_LAB))
    #: cost circles and noble squares
    gems: Classes = field(
        default_factory=lambda: _with(_centres(GEM_BGR), PRINTED_CIRCLE_LAB))
    #: the bonus gem at a card's top right
    bonus: Classes = field(
        default_factory=lambda: _with(_centres(GEM_BGR), PRINTED_GEM_LAB))
    source: str = "built-in defaults"

    def to_json(self) -> str:
        return json.dumps({"schema": "splendor-companion/colours", "version": 1,
                           "source": self.source, "tokens": self.tokens, "gems": self.gems,
                           "bonus": self.bonus}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> ColourModel:
        try:
            d = json.loads(text)

            def classes(name: str) -> Classes:
                return {k: [tuple(c) for c in v] if v and isinstance(v[0], list) else tuple(v)
                        for k, v in d[name].items()}

            default = cls()
            # older files also hold the chips' gems (not read), an empty slot's fill
            # among the tokens ("empty": kept, no reader asks for it) and the deck
            # backs' colours (not read since the slots network reads decks)
            return cls(classes("tokens"), classes("gems"),
                       classes("bonus") if "bonus" in d else default.bonus,
                       d.get("source", "file"))
        except KeyError as exc:
            raise VisionError(f"malformed: it has no {exc.args[0]} classes") from None
        except ValueError:
            raise VisionError("not valid JSON (write it again with `calibrate`)") from None
        except (TypeError, AttributeError, IndexError):
            raise VisionError("malformed: the classes are not lists of colours") from None


def distances(lab: np.ndarray, classes: Classes) -> dict[str, float]:
    """Weighted Lab distance from one colour to each class (its nearest centre)."""
    out = {}
    for name, c in classes.items():
        centres = np.asarray(c, np.float32).reshape(-1, 3)
        d = np.asarray(lab, np.float32)[None, :] - centres
        out[name] = float(np.sqrt((L_WEIGHT * d[:, 0]) ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2).min())
    return out


def default_path() -> Path:
    """``$XDG_CONFIG_HOME/splendor-companion/colours.json``; ``VisionError`` when there is
    neither that variable nor a home folder to tell it (``HOME`` unset, no passwd entry)."""
    return config_home() / "splendor-companion" / "colours.json"


def config_home() -> Path:
    """``$XDG_CONFIG_HOME`` or ``~/.config``; a one-line ``VisionError`` without either."""
    base = os.environ.get("XDG_CONFIG_HOME")
    if base:
        return Path(base)
    try:
        return Path.home() / ".config"
    except RuntimeError:
        raise VisionError("cannot tell where your home folder is (HOME is not set) for the"
                          " stored colours and lens: set HOME or XDG_CONFIG_HOME, or give"
                          " the file") from None


def load_colours(path: str | Path | None = None) -> ColourModel:
    """The stored classes (``path`` or the XDG default), else the built-in defaults.

    A path given explicitly must exist; the default path may be absent (and so
    may a home folder to find it in).
    """
    if not path:
        try:
            p = default_path()
        except VisionError:
            return ColourModel()
    else:
        p = Path(path)
    if not p.exists():
        if path:
            raise VisionError(f"colour file {p} not found")
        return ColourModel()
    text = read_text(p, "colour file")
    try:
        return ColourModel.from_json(text)
    except VisionError as exc:
        raise VisionError(f"colour file {p}: {exc}") from None


def save_colours(model: ColourModel, path: str | Path | None = None,
                 write: Callable[[Path, str], object] | None = None) -> Path:
    """Store ``model`` at ``path`` (default: the XDG config folder, created).

    ``write(path, text)`` writes the file: the CLI passes its one output
    writer (atomic, never over an input); plain ``Path.write_text`` otherwise.
    """
    p = Path(path) if path else default_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    text = model.to_json() + "\n"
    if write is None:
        p.write_text(text, encoding="utf-8")
    else:
        write(p, text)
    return p
