"""Handing slot jobs to the workers: through the shared arena, or pickled without one,
the readings are those read in one process; only the dense jobs are shared."""

from __future__ import annotations

import logging

import pytest

from tests.vision.conftest import calibrated_table
from vision import slot_jobs
from vision.calibrate import calibrate, slot_visible
from vision.colours import ColourModel
from vision.synth import Camera, random_scene, render


@pytest.fixture(scope="module")
def jobs(layout2):
    image, cal = calibrated_table(layout2, 7, dict(px_per_mm=3.0, tilt=6, rotation=2, noise=2,
                                                   blur=0.6), 5)
    return [slot_jobs.make_job(image, cal, s) for s in layout2.slots
            if slot_visible(cal.h_for(s.mat), s, image.shape)]


def test_make_jobs_is_make_job_for_each_slot(layout2) -> None:
    scene = random_scene(2, 8, 0.5)
    image = render(scene, layout2, Camera(px_per_mm=2.5, tilt=10, rotation=4), seed=2).image
    cal = calibrate(image, layout2)
    assert cal is not None
    slots = list(layout2.slots)
    for one, many in zip((slot_jobs.make_job(image, cal, s) for s in slots),
                         slot_jobs.make_jobs(image, cal, slots), strict=True):
        assert one.slot == many.slot and one.crop.shape == many.crop.shape
        assert (one.crop == many.crop).all()
        assert (one.homography == many.homography).all() and (one.gain == many.gain).all()


def test_the_arena_grows_and_readings_stay_those_of_one_process(jobs) -> None:
    colours = ColourModel()
    here = slot_jobs.read_jobs(jobs, colours, workers=1)
    slot_jobs._free_arena()
    few = [j for j in jobs if j.slot.kind == "card"][:4]
    # a small hand-over first: the arena is made small, then must grow for the table
    assert slot_jobs.read_jobs(few, colours, workers=2) == [here[jobs.index(j)] for j in few]
    small = slot_jobs._arena.size if slot_jobs._arena is not None else 0
    assert slot_jobs.read_jobs(jobs, colours, workers=2) == here
    if not slot_jobs._pool_failed and not slot_jobs._arena_failed:
        assert slot_jobs._arena is not None and slot_jobs._arena.size > small
        handed = sum(jobs[i].crop.nbytes for i in slot_jobs._split(jobs, 2)[1])
        assert slot_jobs._arena.size >= handed


def test_without_shared_memory_the_crops_go_pickled(jobs, monkeypatch, caplog) -> None:
    def refuse(*args, **kwargs):
        raise OSError("no /dev/shm here")

    colours = ColourModel()
    here = slot_jobs.read_jobs(jobs, colours, workers=1)
    slot_jobs._free_arena()
    monkeypatch.setattr(slot_jobs, "_arena_failed", False)
    monkeypatch.setattr(slot_jobs.shared_memory, "SharedMemory", refuse)
    with caplog.at_level(logging.WARNING, logger="vision.slot_jobs"):
        assert slot_jobs.read_jobs(jobs, colours, workers=2) == here
    if not slot_jobs._pool_failed:
        assert "no shared memory" in caplog.text
        assert slot_jobs._arena_failed


def _slot_by_slot(jobs: list[slot_jobs.SlotJob]) -> list[slot_jobs.SlotJob]:
    """The jobs read slot by slot (``read_slots``): token slots are read by the chips
    network in one batch, never shared out."""
    return [j for j in jobs if j.slot.kind != "token"]


def test_only_the_dense_jobs_are_shared_dearest_first(jobs) -> None:
    jobs = _slot_by_slot(jobs)
    cost = [slot_jobs.COST[j.slot.kind] for j in jobs]
    for n in (2, 3, 4):
        mine, shared = slot_jobs._split(jobs, n)
        assert sorted(mine + shared) == list(range(len(jobs)))
        assert sum(cost[i] for i in mine) <= slot_jobs.ALONE_SHARE * sum(cost) / n
        assert [cost[i] for i in shared] == sorted((cost[i] for i in shared), reverse=True)
        # the bulky tableau crops stay with the caller as far as its share
        # goes: what is copied for the workers carries the most reading per byte
        # (the nobles too once the caller's share is spent; without the token slots,
        # read apart by the chips network, one worker's caller has room for them)
        assert "card" in {jobs[i].slot.kind for i in shared}
        assert {"tableau", "reserved", "deck"} <= {jobs[i].slot.kind for i in mine}

        def per_byte(part: list[int]) -> float:
            return sum(cost[i] for i in part) / sum(jobs[i].crop.nbytes for i in part)

        assert per_byte(shared) > 3 * per_byte(mine)
        if n == 2:  # one worker: the caller keeps most of the bytes
            assert sum(jobs[i].crop.nbytes for i in shared) < sum(jobs[i].crop.nbytes
                                                                   for i in mine) / 2


def test_fallback_batches_share_the_cost(jobs) -> None:
    """Without shared memory the workers get batches of equal estimated cost."""
    jobs = _slot_by_slot(jobs)
    cost = [slot_jobs.COST[j.slot.kind] for j in jobs]
    for n in (2, 3):
        batches = slot_jobs._batches(jobs, n)
        assert sorted(i for b in batches for i in b) == list(range(len(jobs)))
        share = sum(cost) / n
        loads = [sum(cost[i] for i in b) for b in batches]
        assert all(load <= share + 1e-9 for load in loads[1:])
        assert loads[0] - share <= max(slot_jobs.COST.values())


def test_a_stale_round_claims_nothing() -> None:
    claims = slot_jobs.multiprocessing.get_context("spawn").Array("q", 2)
    claims[0], claims[1] = 7, 0
    assert [slot_jobs._claim(claims, 7) for _ in range(3)] == [0, 1, 2]
    assert slot_jobs._claim(claims, 6) == -1
