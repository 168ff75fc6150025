"""Recorded scenes: seeded partial views of seeded tables, with their truth.

Each frame shows part of a 4-player table at the real px/mm (3.2–4.2), as
the DESIGN allows, so a few hundred frames stay small.  A view is a group of
slots (two market cards, a deck and a card, nobles, two supply rows, a
player's tokens, reserved slots or two tableau columns) widened to take in
the nearest marker.  One frame in four is *hard*: steep tilt, dim light,
glare with shadow, or a hand over part of the view (tagged in its truth).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

import cv2
import numpy as np

from vision.evaluate import truth_observation
from vision.layout import MARKER_QUIET_MM, Layout, Slot
from vision.synth.render import Camera, drawn, render
from vision.synth.scene import TableScene, random_scene, scene_from_state

HARD_EVERY = 4
PAD_MM = 8.0


@dataclass(frozen=True)
class Frame:
    """A recorded frame: its JPEG file's bytes, the decoded image, and the truth."""

    name: str
    image: np.ndarray
    truth: dict[str, Any]
    jpeg: bytes


def _views(layout: Layout) -> list[tuple[str, list[Slot]]]:
    s = layout.slot_index
    views: list[tuple[str, list[Slot]]] = []
    for lv in (1, 2, 3):
        row = [s[f"deck.{lv}"]] + [s[f"market.{lv}.{i}"] for i in range(4)]
        views.append((f"market{lv}", row))
        views.append((f"market{lv}-right", row[2:]))
    views.append(("nobles", [s[f"noble.{i}"] for i in range(5)]))
    for r in range(0, 6, 2):
        rows = [x for x in layout.slots_of("token", "supply")
                if cast(str, x.colour) in "wugrky"[r:r + 2]]
        views.append((f"supply-{r}", rows))
    for p in range(1, layout.players + 1):
        views.append((f"p{p}-tokens", list(layout.slots_of("token", f"player{p}.tokens"))))
        views.append((f"p{p}-reserved", list(layout.slots_of("reserved", f"player{p}.reserved"))))
    return views


def tableau_views(layout: Layout) -> list[tuple[str, list[Slot]]]:
    """Each player's tableau, two colour columns a view (white-blue, green-red, black)."""
    views = []
    for p in range(1, layout.players + 1):
        columns = {s.colour: s for s in layout.slots_of("tableau", f"player{p}.tableau")}
        for pair in ("wu", "gr", "k"):
            views.append((f"p{p}-tableau-{pair}", [columns[c] for c in pair]))
    return views


def pile_views(layout: Layout) -> list[tuple[str, list[Slot]]]:
    """Each player's token piles (a layout built with ``piles=True``), one view a player."""
    return [(f"p{p}-piles", list(layout.slots_of("pile", f"player{p}.tokens")))
            for p in range(1, layout.players + 1)]


def view_window(layout: Layout, slots: list[Slot]) -> tuple[float, float, float, float]:
    """The slots' bounding box widened to a marker of their mat at each end.

    One marker calibrates, but the homography is only right across the view
    when markers bracket it: the markers nearest to the view's two ends
    (along its longer side) are taken in.
    """
    pts = np.array([p for sl in slots for p in sl.corners()])
    lo, hi = pts.min(0), pts.max(0)
    axis = 0 if hi[0] - lo[0] >= hi[1] - lo[1] else 1
    mid = (lo + hi) / 2
    ends = []
    for v in (lo[axis], hi[axis]):
        e = mid.copy()
        e[axis] = v
        ends.append(e)
    mats = {sl.mat for sl in slots}
    centres = [np.mean(m.corners, 0) for m in layout.markers if m.mat in mats]
    chosen = {min(range(len(centres)), key=lambda i: float(np.linalg.norm(centres[i] - e)))
              for e in ends}
    q = MARKER_QUIET_MM / 2
    pts = np.vstack([pts] + [np.array([centres[i] - q, centres[i] + q]) for i in chosen])
    x0, y0 = pts.min(0) - PAD_MM
    x1, y1 = pts.max(0) + PAD_MM
    return float(x0), float(y0), float(x1), float(y1)


def frames(layout: Layout, count: int, seed: int = 0,
           face_images: Mapping[str, np.ndarray] | None = None,
           scenes: Callable[[int, np.random.Generator], TableScene] | None = None,
           views: list[tuple[str, list[Slot]]] | None = None, start: int = 0
           ) -> Iterator[Frame]:
    """``count`` frames of seeded tables; the view weights favour the market.

    ``scenes(i, rng)`` gives the table of frame ``i`` (e.g. a state of a seeded
    game); by default a :func:`random_scene`.  ``views`` replaces the usual ones
    (then all weigh the same); frames are numbered from ``start``.
    """
    if views is None:
        views = _views(layout)
        weights = np.array([3.0 if v[0].startswith("market") else 1.0 for v in views])
    else:
        weights = np.ones(len(views))
    weights /= weights.sum()
    for i in range(start, start + count):
        rng = np.random.default_rng([seed, i])
        if scenes is None:
            scene = random_scene(int(rng.integers(2, 5)), int(rng.integers(1 << 30)))
        else:
            scene = scenes(i, rng)
        players = len(scene.players)
        name, slots = views[int(rng.choice(len(views), p=weights))]
        hard = i % HARD_EVERY == HARD_EVERY - 1
        cam = Camera.random(rng, hard=hard, window=view_window(layout, slots))
        # 3.0-3.5 px/mm: the DESIGN's robust reading resolution, and small files;
        # the camera's JPEG is the stored file (compressed once)
        quality = int(rng.integers(65, 81))
        cam = replace(cam, px_per_mm=float(rng.uniform(3.0, 3.5)), jpeg_quality=None)
        r = render(scene, layout, cam, seed=int(rng.integers(1 << 30)), face_images=face_images)
        _, buf = cv2.imencode(".jpg", r.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        image = cast(np.ndarray, cv2.imdecode(buf, cv2.IMREAD_COLOR))  # just encoded
        from vision.calibrate import slot_visible

        # a steep view can take in more than the drawn canvas: slots off it are unseen
        unseen = frozenset(sl.id for sl in layout.slots
                           if not slot_visible(r.homography, sl, r.image.shape, margin_px=-1e9)
                           or not _inside(r.homography, sl, r.image.shape)
                           or not drawn(cast("tuple[float, float, float, float]", cam.window), sl))
        truth = truth_observation(layout, r.contents, r.covered, unseen,
                                  (r.image.shape[1], r.image.shape[0]))
        truth["frame"] = {"view": name, "hard": hard, "tags": list(cam.tags),
                          "players": players, "px_per_mm": round(cam.px_per_mm, 2),
                          "tilt": round(cam.tilt, 1), "jpeg_quality": quality}
        yield Frame(f"{i:04d}-{name}{'-hard' if hard else ''}", image, truth, buf.tobytes())


#: Seed of the committed recorded scenes (tests/data/scenes/generate.py).
RECORDED_SEED = 2026


def game_scene(i: int, rng: np.random.Generator) -> TableScene:
    """A position from a seeded game between computer players (2-4 of them):
    the tables of the recorded scenes."""
    from companion.rules.simulate import play_game

    players = int(rng.integers(2, 5))
    _, states = play_game(RECORDED_SEED * 1000 + i, players, "greedy")
    return scene_from_state(states[int(rng.integers(len(states)))])


def recorded_frames(layout: Layout, count: int = 200,
                    face_images: Mapping[str, np.ndarray] | None = None) -> Iterator[Frame]:
    """The recorded scenes, frame for frame (``face_images`` redraws them with other faces)."""
    return frames(layout, count, RECORDED_SEED, face_images=face_images, scenes=game_scene)


#: Tableau frames follow the first 200 (a later addition: the first 200 stay as they were).
TABLEAU_START = 200


def recorded_tableau_frames(layout: Layout, count: int = 40,
                            face_images: Mapping[str, np.ndarray] | None = None
                            ) -> Iterator[Frame]:
    """Frames of the players' tableau columns, numbered from ``TABLEAU_START``."""
    return frames(layout, count, RECORDED_SEED, face_images=face_images, scenes=game_scene,
                  views=tableau_views(layout), start=TABLEAU_START)


def recorded_pile_frames(layout: Layout, count: int = 24,
                         face_images: Mapping[str, np.ndarray] | None = None
                         ) -> Iterator[Frame]:
    """Frames of players' token piles, on a layout with pile zones (``piles=True``)."""
    return frames(layout, count, RECORDED_SEED + 1, face_images=face_images,
                  scenes=game_scene, views=pile_views(layout))


def _inside(h: np.ndarray, slot: Slot, shape: tuple[int, ...]) -> bool:
    """Fully inside the frame with a margin of 2 % (the reader's own test is stricter)."""
    from vision.calibrate import slot_visible

    m = 0.02 * max(shape[:2])
    return slot_visible(h, slot, shape, margin_px=m)
