"""The card reader is a pipeline: for each place it reads, the stages run once, in
order, and no stage calls back into an earlier one (vision/card_reader.py)."""

from __future__ import annotations

from pathlib import Path

from tests.bench.card_path import trace_read
from tests.conftest import ROOT
from vision import slot_jobs
from vision.calibrate import calibrate, slots_visible
from vision.colours import ColourModel
from vision.layout import load_layout
from vision.read import load_image

#: The stages of reading one face, in order (the orchestrators card_reader and
#: card_places, and the helper modules they and the stages use, are left out).
STAGES = ("vision.card_find", "vision.face_cut", "vision.card_seen", "vision.card_features",
          "vision.card_decode", "vision.card_confidence")


def _passes(seq: list[str]) -> list[list[str]]:
    """The stage modules entered, cut into passes: a pass ends when the path enters
    an earlier stage than the one it is in (the next place, or the next card)."""
    passes: list[list[str]] = [[]]
    for mod in seq:
        if mod not in STAGES:
            continue
        if passes[-1] and STAGES.index(mod) < STAGES.index(passes[-1][-1]):
            passes.append([])
        if not passes[-1] or passes[-1][-1] != mod:
            passes[-1].append(mod)
    return passes


def test_each_face_goes_through_the_stages_once_in_order() -> None:
    scenes = ROOT / "tests" / "data" / "scenes"
    layout = load_layout(scenes / "layout.json")
    colours = ColourModel()
    checked = alone = 0
    for path in sorted(Path(scenes).glob("0*-market*.jpg"))[:6]:
        image = load_image(path)
        cal = calibrate(image, layout)
        assert cal is not None
        seen = slots_visible(cal, layout.slots, image.shape)
        slots = [s for s, v in zip(layout.slots, seen, strict=True) if v and s.kind == "card"]
        for job in slot_jobs.make_jobs(image, cal, slots):
            slot_jobs.read_job(job, colours)  # warm the caches: the steady path
            passes = _passes(trace_read(slot_jobs.read_job, job, colours))
            first, *more = passes
            assert first[0] == "vision.card_find", first
            # at most two passes here: the place found with the slot's own place, then
            # the card's other fits when that was not firm (a faint fit that abstains,
            # read again as a card with no outline, takes two more; none in these scenes)
            assert len(passes) <= 2, passes
            # after the find, each pass is one face read from its cut onwards, forwards
            # only (an unseen face skips to the confidence): a stage calling back into
            # an earlier one would start a pass elsewhere than at the cut.  The first
            # pass may end at "seen?" when the network named the card alone
            # (vision.card_net.alone); then it is the only one.
            for p in [first[1:], *more]:
                assert p[0] == "vision.face_cut", p
                order = [STAGES.index(m) for m in p]
                assert order == sorted(set(order)), p
                if p[-1] == "vision.card_seen":
                    assert not more, passes
                    alone += 1
                else:
                    assert p[-1] == "vision.card_confidence", p
            checked += 1
    assert checked >= 12
    assert 0 < alone < checked  # both ways occur in these scenes
