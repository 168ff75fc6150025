"""Regenerate ``vision/serif_digits.json``: the digits 1-7 of a free bold italic
serif font, as small glyph masks, for the numeral templates of the publisher's
print (:func:`vision.digits.serif_cost_templates`).

    python -m vision.make_serif_digits [FONT.ttf]

WHY a stored file: the Pi may not have the font; the masks (a few kB) are drawn
from DejaVu Serif Condensed Bold Italic (free licence, Bitstream Vera + public
domain), never from the publisher's scans.  Needs Pillow (installed with
matplotlib) only when regenerating.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import cv2
import numpy as np

DEFAULT_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed-BoldItalic.ttf"
OUT = Path(__file__).with_name("serif_digits.json")
#: Height of the stored masks, px (templates are at most ~40 px tall).
MASK_H = 64


def glyph(digit: int, font_path: str, size: int = 256) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, size)
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 4), str(digit), fill=255, font=font)
    a = np.array(img)
    ys, xs = np.nonzero(a > 0)
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    w = max(1, round(a.shape[1] * MASK_H / a.shape[0]))
    return cv2.resize(a, (w, MASK_H), interpolation=cv2.INTER_AREA)


def main(argv: list[str]) -> int:
    font = argv[0] if argv else DEFAULT_FONT
    glyphs = {}
    for d in range(1, 8):
        ok, png = cv2.imencode(".png", glyph(d, font))
        assert ok
        glyphs[str(d)] = base64.b64encode(png.tobytes()).decode("ascii")
    OUT.write_text(json.dumps({"font": Path(font).name, "mask_height": MASK_H,
                               "made_by": "python -m vision.make_serif_digits",
                               "png_base64": glyphs}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
