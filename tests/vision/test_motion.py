"""The stability detector: hands moving over the table, then stillness."""

from __future__ import annotations

import numpy as np

from vision.motion import STABLE_FRAMES, StabilityDetector
from vision.synth import Camera, random_scene, render

WINDOW = (-400.0, -224.0, 20.0, 224.0)


def test_settles_once_after_the_hand_leaves(layout2) -> None:
    scene = random_scene(2, 3)
    still = render(scene, layout2, Camera(px_per_mm=1.0, window=WINDOW), seed=1).image
    rng = np.random.default_rng(0)
    frames = [still] * 4
    for k in range(5):  # a hand moving over the table
        frames.append(render(scene, layout2, Camera(px_per_mm=1.0, window=WINDOW, hands=1),
                             seed=100 + k).image)
    frames += [still] * (STABLE_FRAMES + 3)
    det = StabilityDetector()
    states = []
    for f in frames:
        noisy = np.clip(f + rng.normal(0, 2, f.shape), 0, 255).astype(np.uint8)
        states.append(det.update(noisy))
    moving = [s.moving for s in states]
    assert not any(moving[1:4]) and all(moving[4:9])
    settled = [i for i, s in enumerate(states) if s.settled]
    # once at the start (the first frame counts as still), then STABLE_FRAMES still
    # frames after the hand left (the first still frame differs from the last hand frame)
    assert settled == [STABLE_FRAMES - 1, 9 + STABLE_FRAMES]
    assert not any(s.stable for s in states[4:9 + STABLE_FRAMES])


def test_camera_noise_alone_is_not_motion(layout2) -> None:
    still = render(random_scene(2, 4), layout2, Camera(px_per_mm=1.0, window=WINDOW), seed=2).image
    rng = np.random.default_rng(1)
    det = StabilityDetector()
    for _ in range(6):
        s = det.update(np.clip(still + rng.normal(0, 5, still.shape), 0, 255).astype(np.uint8))
    assert s.stable and not s.moving
