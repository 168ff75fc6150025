"""Handing slot jobs to the workers: through the shared arena, or pickled without one,
the readings are those read in one process; the workers get the dense jobs."""

from __future__ import annotations

import logging

import pytest

from vision import slot_jobs
from vision.calibrate import calibrate, slot_visible
from vision.colours import ColourModel
from vision.synth import Camera, random_scene, render


@pytest.fixture(scope="module")
def jobs(layout2):
    scene = random_scene(2, 7, 0.5)
    r = render(scene, layout2, Camera(px_per_mm=3.0, tilt=6, rotation=2, noise=2, blur=0.6),
               seed=5)
    cal = calibrate(r.image, layout2)
    assert cal is not None
    return [slot_jobs.make_job(r.image, cal, s) for s in layout2.slots
            if slot_visible(cal.h_for(s.mat), s, r.image.shape)]


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
        handed = sum(jobs[i].crop.nbytes for b in slot_jobs._batches(jobs, 2)[1:] for i in b)
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


def test_workers_get_the_dense_jobs_and_an_equal_share(jobs) -> None:
    for n in (2, 3):
        batches = slot_jobs._batches(jobs, n)
        assert sorted(i for b in batches for i in b) == list(range(len(jobs)))
        cost = [slot_jobs.COST[j.slot.kind] for j in jobs]
        share = sum(cost) / n
        loads = [sum(cost[i] for i in b) for b in batches]
        # no worker goes past its share, and the caller is left at most one card over
        assert all(load <= share + 1e-9 for load in loads[1:])
        assert loads[0] - share <= max(slot_jobs.COST.values())
        caller_bytes = sum(jobs[i].crop.nbytes for i in batches[0])
        worker_bytes = sum(jobs[i].crop.nbytes for b in batches[1:] for i in b)
        assert worker_bytes < caller_bytes / 2  # the bulky token and tableau crops stay
