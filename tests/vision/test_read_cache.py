"""The read cache: slots whose pixels have not changed are not read again."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.rules.splendor import catalogue
from vision.read import read_frame
from vision.read_cache import ReadCache
from vision.synth import Camera, random_scene, render

CAMERA = Camera(px_per_mm=3.0, tilt=4, noise=2, blur=0.5)


def _decisions(obs) -> object:
    """The observation without timings and confidences (a slot read again may differ
    in those but must come to the same answer)."""
    def strip(v: object) -> object:
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()
                    if k not in ("elapsed_ms", "confidence", "distance")}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return strip(obs.to_dict())


@pytest.fixture(scope="module")
def scenes():
    first = random_scene(2, 21, 0.3)
    row = list(first.market[0])
    taken = set(row)
    row[0] = next(c.id for c in catalogue.cards_of_level(1) if c.id not in taken)
    second = replace(first, market=(tuple(row), *first.market[1:]))
    return first, second


def test_an_unchanged_frame_is_not_read_again(layout2, scenes) -> None:
    frame = render(scenes[0], layout2, CAMERA, seed=4).image
    cache = ReadCache()
    first = read_frame(frame, layout2, cache=cache)
    slots = cache.misses
    assert cache.hits == 0 and slots > 50
    # the same table photographed again: sensor noise, nothing moved
    rng = np.random.default_rng(1)
    again = np.clip(frame + rng.normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
    second = read_frame(again, layout2, cache=cache)
    assert cache.hits >= slots - 2
    assert _decisions(second) == _decisions(first)


def test_a_changed_card_is_read_again_and_only_it(layout2, scenes) -> None:
    before = render(scenes[0], layout2, CAMERA, seed=4).image
    after = render(scenes[1], layout2, CAMERA, seed=4).image
    cache = ReadCache()
    read_frame(before, layout2, cache=cache)
    misses = cache.misses
    obs = read_frame(after, layout2, cache=cache)
    reread = cache.misses - misses
    assert 1 <= reread <= 4  # the card's slot (and neighbours whose margin shows it)
    fresh = read_frame(after, layout2)
    assert _decisions(obs) == _decisions(fresh)
    card = obs.card_at("market.1.0")
    assert card is not None and card.card is not None
    assert card.card.id == scenes[1].market[0][0]


def test_new_colour_classes_empty_the_cache(layout2, scenes) -> None:
    from vision.colours import ColourModel

    frame = render(scenes[0], layout2, CAMERA, seed=4).image
    cache = ReadCache()
    read_frame(frame, layout2, cache=cache)
    learnt = ColourModel(source="learnt")
    read_frame(frame, layout2, learnt, cache=cache)
    assert cache.hits == 0
