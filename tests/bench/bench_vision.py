"""Vision speed: the time to read a full-table frame beside the time to decode its JPEG.

Renders seeded full tables (2 players at 3.5 px/mm, about the 12 MP still of
the DESIGN; 4 players at 2.4 px/mm, the same size, since our mats make a
4-player table 1.8 × 1.4 m), encodes each as JPEG, then measures in the same
run: decoding the JPEG, a plain full-frame ``warpPerspective`` (what
rectifying the whole table would cost), and ``read_frame`` (median of a few
runs) on every core and in one process, with the time per slot.  The DESIGN's
aim: a read costs at most about three decodes.
"""

from __future__ import annotations

import os
import statistics
import time

import cv2
import numpy as np

from vision.layout import build_layout
from vision.read import read_frame
from vision.slot_jobs import worker_count
from vision.synth import Camera, random_scene, render

RUNS = 5


def _median_ms(fn, runs: int = RUNS) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


TABLES = ((2, 3.5), (4, 2.4))


def main() -> None:
    # WHY: the read uses every core and the decode one, so another busy process
    # slows the read far more; a figure taken under load says little
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for players, px_per_mm in TABLES:
        bench(players, px_per_mm)


def bench(players: int, px_per_mm: float) -> None:
    layout = build_layout(players)
    scene = random_scene(players, 1, 0.5)
    print(f"rendering a {players}-player table at {px_per_mm} px/mm ...", flush=True)
    cam = Camera(px_per_mm=px_per_mm, tilt=5, noise=2, blur=0.5)
    frame = render(scene, layout, cam, seed=1).image
    _, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    h, w = frame.shape[:2]
    print(f"frame {w}x{h} ({w * h / 1e6:.1f} MP), JPEG {len(jpeg) / 1e6:.1f} MB")
    decode = _median_ms(lambda: cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    m = np.array([[1, 0.01, 0], [0.01, 1, 0], [0, 0, 1]])
    warp = _median_ms(lambda: cv2.warpPerspective(frame, m, (w, h)))
    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    obs = read_frame(image, layout)  # warm the template caches and start the workers
    read = _median_ms(lambda: read_frame(image, layout))
    read_frame(image, layout, workers=1)
    alone = _median_ms(lambda: read_frame(image, layout, workers=1))
    cards = sum(c.state == "card" for c in obs.cards)
    slots = len(obs.cards) + len(obs.decks) + len(obs.nobles) + len(obs.token_slots) + len(
        obs.reserved) + len(obs.tableau)
    print(f"baseline  decode JPEG            {decode:8.1f} ms")
    print(f"baseline  full-frame warp        {warp:8.1f} ms")
    print(f"read_frame (median of {RUNS})        {read:8.1f} ms  = {read / decode:.1f} decodes"
          f"  ({worker_count()} processes)")
    print(f"read_frame in one process        {alone:8.1f} ms  = {alone / decode:.1f} decodes")
    print(f"          per slot ({slots} slots)     {read / max(slots, 1):8.2f} ms")
    print(f"          cards read               {cards} of {len(obs.cards)}; markers "
          f"{len(obs.markers)}")
    detect = _median_ms(lambda: __import__("vision.calibrate", fromlist=["x"]).calibrate(
        image, layout))
    print(f"          of which calibration     {detect:8.1f} ms")


if __name__ == "__main__":
    main()
