"""Numerals: drawing them (white with a dark outline, as printed on the cards)
and reading them by normalised cross-correlation against rendered templates.

Templates are drawn with several of OpenCV's Hershey fonts, upright and
italic, on the background the numeral sits on (the cost circle's colour or
the light top band), so one bank serves our own faces and, less well, the
publisher's serif numerals.  A tiny bank (a few hundred 28×28 images) is
enough: the reader knows where each numeral is and which colour surrounds it.
"""

from __future__ import annotations

import base64
import json
from functools import lru_cache
from pathlib import Path
from typing import cast

import cv2
import numpy as np

from vision import cardface as cf
from vision.colours import GEM_BGR

DIGIT_FONT = cv2.FONT_HERSHEY_DUPLEX | cv2.FONT_ITALIC
POINTS_FONT = cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC
TEMPLATE_FONTS = (
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)
#: (height mm, bold) of the cost numeral templates: ours, and the publisher's
#: taller, thinner numerals.
COST_STYLES = ((cf.COST_DIGIT_H, True), (6.8, False))
#: Slants of the templates (x shift per unit of height): the publisher's numerals lean.
SHEARS = (0.22,)
OUTLINE = (40, 40, 40)
BAND_GREY = 238
#: Half-size of a cost numeral's template, mm.
COST_HALF_MM = 3.4
#: How far the reader looks around the expected place, mm.
SLACK_MM = 1.3


def outlined_text(img: np.ndarray, text: str, center: tuple[float, float], height_px: float,
                  font: int, fill: tuple[int, int, int] = (250, 250, 250),
                  outline: tuple[int, int, int] = OUTLINE, bold: bool = True) -> None:
    """White numeral with a dark outline, centred, ``height_px`` tall (cap height).

    Drawn through masks (the glyph, then the glyph dilated for the outline)
    because OpenCV 5's ``putText`` ignores the stroke thickness.
    """
    scale = cv2.getFontScaleFromHeight(font & 0xF, max(4, round(height_px)), 1)
    (tw, tht), _ = cv2.getTextSize(text, font, scale, 1)
    org = (round(center[0] - tw / 2), round(center[1] + tht / 2))
    glyph: np.ndarray = np.zeros(img.shape[:2], np.uint8)
    cv2.putText(glyph, text, org, font, scale, 255, 1, cv2.LINE_AA)
    weight = max(1, round(height_px / 14)) if bold else 1
    if weight > 1:
        glyph = cv2.dilate(glyph, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (weight, weight)))
    ring = max(2, round(height_px / 9)) | 1
    edge = cv2.dilate(glyph, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ring, ring)))
    for mask, colour in ((edge, outline), (glyph, fill)):
        a = (mask.astype(np.float32) / 255)[:, :, None]
        img[:] = (img * (1 - a) + np.asarray(colour, np.float32) * a).astype(np.uint8)


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _variants(img: np.ndarray) -> list[np.ndarray]:
    """The template upright and slanted: the printed numerals are italic, and
    OpenCV 5 ignores its italic flag."""
    h, w = img.shape[:2]
    out = [_grey(img)]
    for shear in SHEARS:
        m = np.array([[1, -shear, shear * h / 2], [0, 1, 0]], dtype=np.float32)
        out.append(_grey(cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)))
    return out


@lru_cache(maxsize=64)
def cost_templates(colour: str, px_per_mm: float) -> dict[int, list[np.ndarray]]:
    """Digit -> grey templates of a cost numeral on a ``colour`` circle: our faces'
    numeral and the publisher's (taller, thinner, slanted)."""
    half = round(COST_HALF_MM * px_per_mm)
    out: dict[int, list[np.ndarray]] = {}
    for d in range(1, 8):
        out[d] = []
        for font in TEMPLATE_FONTS:
            for height, bold in COST_STYLES:
                img = np.full((2 * half, 2 * half, 3), GEM_BGR[colour], np.uint8)
                outlined_text(img, str(d), (half, half), height * px_per_mm, font, bold=bold)
                out[d].extend(_variants(img))
    return out


@lru_cache(maxsize=16)
def points_templates(px_per_mm: float, height_mm: float = cf.POINTS_DIGIT_H
                     ) -> dict[int, list[np.ndarray]]:
    """Digit -> grey templates of a points numeral on the light band."""
    hw, hh = round(5.0 * px_per_mm), round(6.5 * px_per_mm)
    out: dict[int, list[np.ndarray]] = {}
    for d in range(1, 6):
        out[d] = []
        for font in TEMPLATE_FONTS:
            for bold in (True, False):
                img = np.full((2 * hh, 2 * hw, 3), BAND_GREY, np.uint8)
                outlined_text(img, str(d), (hw, hh), height_mm * px_per_mm, font, bold=bold)
                out[d].extend(_variants(img))
    return out


#: Glyph masks of a bold italic serif (``python -m vision.make_serif_digits``).
SERIF_GLYPHS = Path(__file__).with_name("serif_digits.json")
#: Height of the publisher's cost numerals, mm, and the scales tried around it.
SERIF_COST_H = 6.0
SERIF_POINTS_H = 13.0
#: Half width and half height (mm) of a points template, its band's grey and the
#: grey of the glyph's outline.  WHY: the publisher's points numeral is about 13 mm
#: tall (measured on its scans; it was taken for 10 mm and fit no better than any
#: other digit: the true value led on 28 of 55 faces read directly), white with a
#: mid-grey outline.  Measured on those 55 faces: height 12/13/14 mm, outline grey
#: 40/90/140, band 205/238: 13 mm, 90, 238 put the true value first on all 55
#: (median lead 0.14, was 0.0).
SERIF_POINTS_HALF = (6.5, 8.0)
SERIF_BAND = 238
SERIF_POINTS_OUTLINE = 90
SERIF_SCALES = (0.9, 1.0, 1.1)


@lru_cache(maxsize=1)
def _serif_masks() -> dict[int, np.ndarray]:
    d = json.loads(SERIF_GLYPHS.read_text(encoding="utf-8"))
    # the glyphs are PNGs the package ships: imdecode never gives None for them
    return {int(k): cast(np.ndarray, cv2.imdecode(np.frombuffer(base64.b64decode(v), np.uint8),
                                                  cv2.IMREAD_GRAYSCALE))
            for k, v in d["png_base64"].items()}


def _serif_template(digit: int, height_px: float, bg: tuple[int, int, int],
                    size: tuple[int, int], outline: tuple[int, int, int] = OUTLINE
                    ) -> np.ndarray:
    """Grey template: the serif glyph, white with a thin ``outline``, centred on ``bg``."""
    mask = _serif_masks()[digit]
    h = min(height_px, size[0] - 2)
    w = min(mask.shape[1] * h / mask.shape[0], size[1] - 2)
    m = cv2.resize(mask, (max(1, round(w)), max(1, round(h))), interpolation=cv2.INTER_AREA)
    glyph = np.zeros(size, np.uint8)
    y0, x0 = (size[0] - m.shape[0]) // 2, (size[1] - m.shape[1]) // 2
    glyph[y0:y0 + m.shape[0], x0:x0 + m.shape[1]] = m
    edge = cv2.dilate(glyph, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    img: np.ndarray = np.empty((*size, 3), np.float32)
    img[:] = bg
    for layer, colour in ((edge, outline), (glyph, (250, 250, 250))):
        a = (layer.astype(np.float32) / 255)[:, :, None]
        img = img * (1 - a) + np.asarray(colour, np.float32) * a
    return _grey(img.astype(np.uint8))


@lru_cache(maxsize=16)
def serif_cost_templates(colour: str, px_per_mm: float) -> dict[int, list[np.ndarray]]:
    """Digit -> grey templates of the publisher's cost numeral (bold italic serif)
    on a ``colour`` circle, at a few sizes around ``SERIF_COST_H``."""
    side = 2 * round(COST_HALF_MM * px_per_mm)
    return {d: [_serif_template(d, SERIF_COST_H * k * px_per_mm, GEM_BGR[colour], (side, side))
                for k in SERIF_SCALES] for d in range(1, 8)}


@lru_cache(maxsize=4)
def serif_points_templates(px_per_mm: float) -> dict[int, list[np.ndarray]]:
    """Digit -> grey templates of the publisher's points numeral on the light band."""
    half_w, half_h = SERIF_POINTS_HALF
    size = (2 * round(half_h * px_per_mm), 2 * round(half_w * px_per_mm))
    return {d: [_serif_template(d, SERIF_POINTS_H * k * px_per_mm, (SERIF_BAND,) * 3, size,
                                (SERIF_POINTS_OUTLINE,) * 3)
                for k in SERIF_SCALES] for d in range(1, 6)}


def best_match(grey: np.ndarray, templates: list[np.ndarray]) -> float:
    """Highest normalised correlation of any template anywhere in ``grey``."""
    best = -1.0
    for t in templates:
        if t.shape[0] > grey.shape[0] or t.shape[1] > grey.shape[1]:
            continue
        r = cv2.matchTemplate(grey, t, cv2.TM_CCOEFF_NORMED)
        best = max(best, cv2.minMaxLoc(r)[1])  # ndarray.max's value, less overhead
    return best
