"""``read_frame``: one still frame of the table -> :class:`Observation`.

Also ``load_image``, which turns any bad file into a one-line ``VisionError``.

Design decisions
----------------
* Only the slots are rectified (one small ``warpPerspective`` each), never
  the whole frame: at 4 px/mm a full table is ~14 MP, a card 250×350 px.
* A slot is read only when all of it lies inside the frame; the others are
  listed in ``unseen`` rather than guessed.
* A frame with no marker of the layout is not an error: it gives an
  observation with ``calibrated=False`` (the camera may be blocked for a moment).
  A frame that cannot be a camera picture (black, tiny, absurd shape) is a
  ``VisionError``.
* Slots are read as independent jobs on worker processes (``vision.slot_jobs``);
  the answer does not depend on how many.  Token slots are read by the chips
  network (``vision.chip_net``), all of a still's in one batch.
"""

from __future__ import annotations

import struct
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import slot_jobs
from vision.calibrate import calibrate, slots_visible
from vision.colours import ColourModel
from vision.errors import VisionError
from vision.layout import Layout, Slot
from vision.lens import LensModel
from vision.observation import (
    CardReading,
    DeckReading,
    NobleReading,
    Observation,
    PileReading,
    ReservedReading,
    TableauReading,
    TokenSlotReading,
    ZoneTokens,
)
from vision.read_cache import ReadCache

MIN_SIDE = 64
MAX_SIDE = 20000
#: The most pixels ``load_image`` decodes: 100 MP is 300 MB as BGR, eight times a
#: Camera Module 3 still (12 MP); a file beyond it is refused from its header.
MAX_PIXELS = 100_000_000
MAX_ASPECT = 8.0
#: A frame darker and flatter than this is "black" (lens covered, light off).
BLACK_MEAN = 12.0
BLACK_STD = 4.0
TOKEN_LETTERS = "wugrky"


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR; a one-line ``VisionError`` for anything unusable."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise VisionError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise VisionError(f"{p} is a folder, not an image") from None
    except OSError as exc:
        raise VisionError(f"{p}: cannot read ({exc.strerror})") from None
    if not data:
        raise VisionError(f"{p} is empty")
    if data[:3] == b"\xff\xd8\xff" and b"\xff\xd9" not in data[-64:]:
        raise VisionError(f"{p} is a truncated JPEG (no end marker)")
    if data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-16:]:
        raise VisionError(f"{p} is a truncated PNG (no IEND chunk)")
    size = header_size(data)
    if size is not None:
        w, h = size
        if w * h > MAX_PIXELS or max(w, h) > MAX_SIDE:
            raise VisionError(
                f"{p} is {w}x{h} pixels: beyond the {MAX_PIXELS // 1_000_000} MP (at most"
                f" {MAX_SIDE} px a side) a frame may have; scale it down")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise VisionError(f"{p} is not an image OpenCV can read")
    return img


#: JPEG start-of-frame markers (every coding but DHT C4, JPG C8 and DAC CC).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, JPEG or BMP header without decoding it; None for
    another format or a header it cannot parse (OpenCV then decides).

    WHY: decoding first is what a bad file costs -- a 25000 x 25000 PNG of a
    few megabytes is 1.9 GB decoded -- so the size is checked before."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(int(w)), abs(int(h))
    if data[:2] != b"\xff\xd8":
        return None
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:  # no length
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2:pos + 4])
        if marker in _SOF and pos + 9 <= len(data):
            h, w = struct.unpack(">HH", data[pos + 5:pos + 9])
            return int(w), int(h)
        pos += 2 + length
    return None


def check_frame(image: np.ndarray) -> np.ndarray:
    """The frame as 8-bit BGR, or ``VisionError`` if it cannot be a picture of a table."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise VisionError("frame is not an image array")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif image.shape[2] != 3:
        raise VisionError(f"frame has {image.shape[2]} channels; expected colour (3)")
    if image.dtype != np.uint8:
        raise VisionError(f"frame is {image.dtype}; expected 8-bit")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE or max(h, w) > MAX_SIDE or max(h, w) / min(h, w) > MAX_ASPECT:
        raise VisionError(f"frame size {w}x{h} is not a camera picture of a table")
    step = max(1, min(h, w) // 64)
    small = image[::step, ::step]  # a sample is enough to tell a black frame
    if small.mean() < BLACK_MEAN and small.std() < BLACK_STD:
        raise VisionError("frame is black: is the lens covered or the light off?")
    return image


def read_frame(image: np.ndarray, layout: Layout, colours: ColourModel | None = None,
               workers: int | None = None, cache: ReadCache | None = None,
               lens: LensModel | None = None) -> Observation:
    """Read every slot of ``layout`` visible in ``image`` (BGR uint8).

    ``workers``: processes reading slots (default: ``$SPLENDOR_VISION_WORKERS`` or
    the cores); 1 reads everything in this process.  ``cache``: a
    :class:`~vision.read_cache.ReadCache` kept between frames of a fixed camera;
    slots whose pixels have not changed since it last read them are not read again.
    ``lens``: the camera's stored lens (``calibrate --lens``); without it a lens
    is fitted from the frame's markers when they show one (see ``vision.calibrate``).

    Returns an uncalibrated :class:`Observation` when no marker is visible;
    raises :class:`VisionError` for a frame that is not a usable picture.
    """
    t0 = time.perf_counter()
    image = check_frame(image)
    colours = colours or ColourModel()
    size = (image.shape[1], image.shape[0])
    cal = calibrate(image, layout, lens=lens)
    if cal is None:
        return Observation(False, size, reason="no marker of the layout is visible",
                           colours=colours.source,
                           elapsed_ms=(time.perf_counter() - t0) * 1000)
    cards: list[CardReading] = []
    decks: list[DeckReading] = []
    nobles: list[NobleReading] = []
    tokens: list[TokenSlotReading] = []
    reserved: list[ReservedReading] = []
    tableau: list[TableauReading] = []
    unseen: list[str] = []
    piles: list[PileReading] = []
    visible: list[Slot] = []
    for slot, seen in zip(layout.slots, slots_visible(cal, layout.slots, image.shape),
                          strict=True):
        if seen:
            visible.append(slot)
        else:
            unseen.append(slot.id)
    # slots are independent: read them on every core (see vision.slot_jobs)
    jobs = slot_jobs.make_jobs(image, cal, visible)
    if cache is None:
        results = slot_jobs.read_jobs(jobs, colours, workers)
    else:
        looked = [cache.lookup(job, colours) for job in jobs]
        todo = [i for i, (found, _, _) in enumerate(looked) if not found]
        fresh = slot_jobs.read_jobs([jobs[i] for i in todo], colours, workers)
        results = [reading for _, reading, _ in looked]
        for i, reading in zip(todo, fresh, strict=True):
            results[i] = reading
            cache.store(jobs[i], looked[i][2], reading)
    lists: dict[str, list[Any]] = {"card": cards, "deck": decks, "noble": nobles, "token": tokens,
             "reserved": reserved, "tableau": tableau, "pile": piles}
    for slot, result in zip(visible, results, strict=True):
        if result is not None:
            lists[slot.kind].append(result)
    zones = []
    unseen_set = set(unseen)
    for zone in dict.fromkeys(s.zone for s in layout.slots if s.kind == "pile"):
        # estimates only: never exact, so the referee leans on the rules for the count
        readings = [p for p in piles if p.zone == zone]
        if readings:
            counts = Counter({p.colour: p.count for p in readings if p.colour and p.count})
            zones.append(ZoneTokens(zone, {k: counts.get(k, 0) for k in TOKEN_LETTERS},
                                    len(readings), False))
    for zone in dict.fromkeys(s.zone for s in layout.slots if s.kind == "token"):
        in_zone = [t for t in tokens if t.zone == zone]
        if not in_zone:
            continue
        chips = Counter(t.colour for t in in_zone if t.state == "token")
        unknown = sum(t.state == "unknown" for t in in_zone)
        missing = any(s.id in unseen_set for s in layout.slots_of("token", zone))
        zones.append(ZoneTokens(zone, {k: chips.get(k, 0) for k in TOKEN_LETTERS}, unknown,
                                unknown == 0 and not missing))
    return Observation(
        True, size, cal.markers, tuple(cards), tuple(decks), tuple(nobles), tuple(tokens),
        tuple(zones), tuple(reserved), tuple(tableau), tuple(piles), tuple(unseen), "",
        colours.source, (time.perf_counter() - t0) * 1000,
    )
