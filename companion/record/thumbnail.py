"""Small JPEG thumbnails of the frame each turn was read from.

Why JPEG at 160 px wide and quality 70: about 4-8 kB a turn, so a 100-turn
game adds well under a megabyte to the log, yet the thumbnail still shows
which cards and tokens lay where when a turn is argued about.  cv2 is
imported only when a thumbnail is made, so the log itself never needs it.
"""

from __future__ import annotations

from typing import Any

THUMBNAIL_WIDTH = 160
JPEG_QUALITY = 70


def make_thumbnail(
    bgr_image: Any, width: int = THUMBNAIL_WIDTH, quality: int = JPEG_QUALITY
) -> bytes:
    """A JPEG of ``bgr_image`` (an OpenCV BGR or grey array) scaled to ``width`` pixels."""
    # lazy: OpenCV loads only when pixels are read
    import cv2
    import numpy as np

    image = np.asarray(bgr_image)
    if image.ndim not in (2, 3) or image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError(f"not an image: array of shape {image.shape}")
    h, w = image.shape[:2]
    if w > width:
        height = max(1, round(h * width / w))
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("OpenCV could not encode the thumbnail as JPEG")
    return bytes(data.tobytes())
