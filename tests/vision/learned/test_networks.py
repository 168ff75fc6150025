"""The shipped networks: what the package holds, what OpenCV makes of it, and that they
name cards they were not shown in that form (randomised crops of new seeds)."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from companion.rules.duel import cards as duel_cards
from companion.rules.splendor import catalogue
from vision.learned.prep import SPECS
from vision.learned.recognizer import recognizer
from vision.training import augment
from vision.training.faces import card_mm

#: The layer types OpenCV builds from the plain operators the issue allows (OpenCV 4's
#: names, then OpenCV 5's new engine's).
PLAIN = {"Convolution", "ReLU", "Pooling", "Flatten", "InnerProduct", "Identity",
         "Reshape", "Permute", "Conv2", "MaxPool", "Gemm", "TransformLayout"}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_each_network_ships_with_its_classes_and_loads_in_opencv(name: str) -> None:
    folder = resources.files("vision.learned") / "models"
    info = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    expected = {"splendor_cards": [c.id for c in catalogue.cards()],
                "splendor_nobles": [n.id for n in catalogue.nobles()],
                "duel_cards": [c.id for c in duel_cards.cards()]
                + [r.id for r in duel_cards.royals()],
                "splendor_chips": ["empty", "w", "u", "g", "r", "k", "y", "hidden"],
                "splendor_slots": ["empty", "occupied", "hidden"],
                "duel_chips": ["empty", "w", "u", "g", "r", "k", "p", "y", "hidden"],
                "duel_slots": ["empty", "present", "hidden"]}[name]
    assert info["classes"] == expected
    assert info["check"]["top1"] is not None and info["commit"]
    rec = recognizer(name)
    assert set(rec.net.getLayerTypes()) <= PLAIN
    spec = SPECS[name]
    crops = [np.full((round(spec.crop_mm[1] * 4), round(spec.crop_mm[0] * 4), 3), v, np.uint8)
             for v in (40, 200, 255)]
    ids, p = rec.probabilities(crops)
    assert p.shape == (3, len(expected)) and np.allclose(p.sum(1), 1, atol=1e-5)
    assert ids == tuple(expected)
    assert rec.probabilities([])[1].shape == (0, len(expected))


def test_probabilities_over_allowed_ids_sum_to_one_and_keep_their_order() -> None:
    rec = recognizer("splendor_cards")
    crop = np.full((352, 252, 3), 180, np.uint8)
    level2 = tuple(c.id for c in catalogue.cards_of_level(2))
    ids, p = rec.probabilities([crop, crop], level2)
    assert ids == level2 and p.shape == (2, len(level2))
    assert np.allclose(p.sum(1), 1, atol=1e-5)
    g = rec.guess([crop], level2)
    assert g.best in level2 and g.second in level2 and g.best != g.second
    assert g.p >= g.p_second


def test_of_several_cuts_the_surest_speaks_not_their_average() -> None:
    """A drawn card cut well and cut half off its place (a strip of mat): the guess is
    the well-cut face's, not dragged towards a coin toss by the misplaced one."""
    from vision.synth import faces

    card = catalogue.card("2u2")
    face = faces.card_face(card, 4.0)
    mat = np.full_like(face, 235)
    off = np.hstack([mat, face])[:, face.shape[1] // 2: face.shape[1] // 2 + face.shape[1]]
    rec = recognizer("splendor_cards")
    level2 = tuple(c.id for c in catalogue.cards_of_level(2))
    alone = rec.guess([face], level2)
    both = rec.surest([off, face], level2)
    assert alone.best == "2u2" and both == alone
    assert rec.surest([face, off], level2) == alone
    assert rec.guess([off, face], level2).p < alone.p


def _drawn_faces(name: str) -> dict[str, np.ndarray]:
    from vision.synth import faces
    from vision.synth.duel_faces import drawn_faces

    if name == "splendor_cards":
        return {c.id: faces.card_face(c, 8.0) for c in catalogue.cards()}
    if name == "splendor_nobles":
        return {n.id: faces.noble_face(n, 8.0) for n in catalogue.nobles()}
    d = drawn_faces()
    return {**d.cards, **d.royals}


@pytest.mark.parametrize("name", ["duel_cards", "splendor_cards", "splendor_nobles"])
def test_drawn_faces_in_new_crops_are_named(name: str) -> None:
    """Our own drawn faces (no art needed), in crops of a seed the training never used:
    nearly all named right by the shipped network through OpenCV."""
    rng = np.random.default_rng(424242)
    faces = _drawn_faces(name)
    rec = recognizer(name)
    ids = sorted(faces)
    crops = [augment.crop(faces[i], card_mm(name, i), SPECS[name], rng, hard=0.6) for i in ids]
    _, p = rec.probabilities(crops)
    named = [rec.classes[k] for k in p.argmax(1)]
    right = sum(a == b for a, b in zip(named, ids, strict=True))
    assert right >= 0.9 * len(ids), f"{right} of {len(ids)}"


def test_drawn_chips_of_a_table_never_trained_on_are_named(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A rendered table with our own drawn chips (no art needed), of a seed outside the
    training frames (vision.training.train.TABLE_FRAMES): the token slots the reader
    cuts are named right, and none a person can read is called hidden."""
    from vision import chip_net, slot_jobs
    from vision.calibrate import calibrate, slots_visible
    from vision.synth import world

    monkeypatch.setattr(world, "_faces", lambda split: ([], {}))
    frame = world.world_frame(4, "easy", 91_001, split="design", lens="wide")
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None
    seen = slots_visible(cal, frame.layout.slots, frame.image.shape)
    slots = [s for s, v in zip(frame.layout.slots, seen, strict=True)
             if v and s.kind == "token" and s.id not in frame.hidden]
    jobs = slot_jobs.make_jobs(frame.image, cal, slots)
    rec = recognizer("splendor_chips")
    _, p = rec.probabilities([chip_net.crop(j.crop, j.homography, j.slot, j.gain)
                              for j in jobs])
    named = [rec.classes[k] for k in p.argmax(1)]
    truth = [frame.contents.get(s.id) or "empty" for s in slots]
    right = sum(a == b for a, b in zip(named, truth, strict=True))
    assert len(slots) >= 20 and right >= len(slots) - 1, list(zip(named, truth, strict=True))


@pytest.mark.parametrize("seed", [91_002, 91_003])
def test_market_and_noble_slots_of_a_drawn_table_are_told_empty_or_occupied(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """A rendered table with our own drawn faces (no art needed), of a seed outside the
    training frames, a third of its cards and nobles taken away: the slots network
    tells every market and noble slot a person can read empty or occupied, all but
    one at most, and never calls an occupied slot empty for sure."""
    from vision import slot_jobs, slot_net
    from vision.calibrate import calibrate, slots_visible
    from vision.synth import world
    from vision.synth.scene import TableScene, random_scene

    monkeypatch.setattr(world, "_faces", lambda split: ([], {}))
    rng = np.random.default_rng(seed)
    full = random_scene(4, seed)
    scene = TableScene(tuple(tuple(None if rng.random() < 0.34 else c for c in row)
                             for row in full.market), full.decks,
                       tuple(None if rng.random() < 0.34 else n for n in full.nobles),
                       full.supply, full.players)
    frame = world.world_frame(4, "medium", seed, split="design", lens="standard",
                              scene=scene, hand=False)
    cal = calibrate(frame.image, frame.layout)
    assert cal is not None
    seen = slots_visible(cal, frame.layout.slots, frame.image.shape)
    slots = [s for s, v in zip(frame.layout.slots, seen, strict=True)
             if v and s.kind in ("card", "noble") and s.id not in frame.hidden]
    guesses = [slot_net.guess(j.crop, j.homography, j.slot, j.gain)
               for j in slot_jobs.make_jobs(frame.image, cal, slots)]
    truth = ["occupied" if frame.contents.get(s.id) else "empty" for s in slots]
    named = [g.best for g in guesses]
    right = sum(a == b for a, b in zip(named, truth, strict=True))
    assert "empty" in truth and "occupied" in truth
    assert len(slots) >= 14 and right >= len(slots) - 1, list(zip(named, truth, strict=True))
    assert not [s.id for s, g, t in zip(slots, guesses, truth, strict=True)
                if t == "occupied" and slot_net.empty_sure(g)]
