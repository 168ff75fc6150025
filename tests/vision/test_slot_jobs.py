"""Slot jobs: a slot read from its crop is read as from the whole frame, on any process."""

from __future__ import annotations

import dataclasses
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.vision.conftest import calibrated_table
from vision import slot_jobs
from vision.calibrate import slot_visible
from vision.colours import ColourModel


@pytest.fixture(scope="module")
def table(layout2):
    return calibrated_table(layout2, 5, dict(px_per_mm=3.0, tilt=8, rotation=3, noise=2,
                                             blur=0.6), 3)


def _assert_same(a: object, b: object) -> None:
    """Same decisions (state, card, noble, colour, count, presence).  Confidences may
    differ: the crop's homography is the frame's shifted, OpenCV's fixed-point sample
    positions may differ in the last bit, and a card's fit can then settle a pixel
    off.  (Reading does not depend on the number of workers: every path reads crops.)"""
    assert type(a) is type(b)
    for f in dataclasses.fields(a):  # type: ignore[arg-type]
        x, y = getattr(a, f.name), getattr(b, f.name)
        if not isinstance(x, float):
            assert x == y, (a, b)


def test_a_crop_reads_like_the_whole_frame(layout2, table) -> None:
    image, cal = table
    colours = ColourModel()
    kinds = set()
    for slot in layout2.slots:
        if not slot_visible(cal.h_for(slot.mat), slot, image.shape):
            continue
        whole = slot_jobs.SlotJob(slot, image, cal.h_for(slot.mat), cal.gain_at(slot.center))
        job = slot_jobs.make_job(image, cal, slot)
        assert job.crop.size < image.size / 20  # a crop, not the frame
        _assert_same(slot_jobs.read_job(job, colours), slot_jobs.read_job(whole, colours))
        kinds.add(slot.kind)
    assert {"card", "noble", "token", "deck", "reserved", "tableau"} <= kinds


def test_worker_processes_give_the_same_readings_in_order(layout2, table) -> None:
    image, cal = table
    jobs = [slot_jobs.make_job(image, cal, s) for s in layout2.slots
            if slot_visible(cal.h_for(s.mat), s, image.shape)]
    here = slot_jobs.read_jobs(jobs, ColourModel(), workers=1)
    there = slot_jobs.read_jobs(jobs, ColourModel(), workers=2)
    assert there == here
    assert len(here) == len(jobs) and all(r is not None for r in here)


def test_batches_share_the_cost_and_keep_every_job(layout2, table) -> None:
    image, cal = table
    # token slots are never shared out: the chips network reads them in one batch
    jobs = [slot_jobs.make_job(image, cal, s) for s in layout2.slots[:40] if s.kind != "token"]
    batches = slot_jobs._batches(jobs, 3)
    assert sorted(i for b in batches for i in b) == list(range(len(jobs)))
    loads = [sum(slot_jobs.COST[jobs[i].slot.kind] for i in b) for b in batches]
    assert max(loads) - min(loads) <= max(slot_jobs.COST.values())


def test_no_processes_means_reading_in_place(layout2, table, monkeypatch, caplog) -> None:
    """A sandbox that cannot start processes still gets every slot read, and one warning."""
    image, cal = table

    def refuse(*args, **kwargs):
        raise OSError("no /dev/shm here")

    monkeypatch.setattr(slot_jobs, "_pool", None)
    monkeypatch.setattr(slot_jobs, "_pool_failed", False)
    monkeypatch.setattr(slot_jobs.multiprocessing, "get_context", refuse)
    jobs = [slot_jobs.make_job(image, cal, s) for s in layout2.slots_of("card")]
    with caplog.at_level(logging.WARNING, logger="vision.slot_jobs"):
        got = slot_jobs.read_jobs(jobs, ColourModel(), workers=2)
    assert got == slot_jobs.read_jobs(jobs, ColourModel(), workers=1)
    assert "one process" in caplog.text and "no /dev/shm" in caplog.text


def test_a_small_pi_reads_in_one_process(monkeypatch) -> None:
    monkeypatch.delenv(slot_jobs.WORKERS_ENV, raising=False)
    monkeypatch.setattr(slot_jobs, "_memory_mb", lambda: 1024.0)
    assert slot_jobs.worker_count() == 1
    monkeypatch.setattr(slot_jobs, "_memory_mb", lambda: 8192.0)
    assert slot_jobs.worker_count() == min(4, __import__("os").cpu_count() or 1)


@pytest.mark.parametrize(("value", "expected"), [("1", 1), ("3", 3), ("0", 1), ("", None),
                                                  ("many", None)])
def test_worker_count_from_the_environment(monkeypatch, value, expected) -> None:
    monkeypatch.setenv(slot_jobs.WORKERS_ENV, value)
    monkeypatch.setattr(slot_jobs, "_memory_mb", lambda: 8192.0)
    got = slot_jobs.worker_count()
    assert got == (expected if expected is not None else min(4, __import__("os").cpu_count()
                                                              or 1))
    assert isinstance(got, int) and np.isscalar(got)


def test_a_first_read_starts_no_pool_the_second_does(layout2, table, monkeypatch) -> None:
    """``vision read`` of one frame must not pay the workers' start-up; a loop pays it
    at its second frame, and an explicit ``workers`` is obeyed from the first."""
    image, cal = table
    jobs = [slot_jobs.make_job(image, cal, s) for s in layout2.slots_of("card")]
    asked: list[int] = []
    monkeypatch.delenv(slot_jobs.WORKERS_ENV, raising=False)
    monkeypatch.setattr(slot_jobs, "_pool", None)
    monkeypatch.setattr(slot_jobs, "_read_before", False)
    monkeypatch.setattr(slot_jobs, "worker_count", lambda: 2)
    monkeypatch.setattr(slot_jobs, "cores_busy", lambda: False)
    monkeypatch.setattr(slot_jobs, "_get_pool", lambda n: asked.append(n))  # None: in place
    here = slot_jobs.read_jobs(jobs, ColourModel())
    assert asked == []
    assert slot_jobs.read_jobs(jobs, ColourModel()) == here and asked == [1]
    monkeypatch.setattr(slot_jobs, "_read_before", False)
    slot_jobs.read_jobs(jobs, ColourModel(), workers=2)
    assert asked == [1, 1]


def test_busy_cores_read_in_place_unless_workers_are_asked_for(layout2, table,
                                                              monkeypatch) -> None:
    image, cal = table
    jobs = [slot_jobs.make_job(image, cal, s) for s in layout2.slots_of("card")]
    asked: list[int] = []
    monkeypatch.delenv(slot_jobs.WORKERS_ENV, raising=False)
    monkeypatch.setattr(slot_jobs, "_read_before", True)
    monkeypatch.setattr(slot_jobs, "worker_count", lambda: 2)
    monkeypatch.setattr(slot_jobs, "_get_pool", lambda n: asked.append(n))
    monkeypatch.setattr(slot_jobs, "cores_busy", lambda: True)
    slot_jobs.read_jobs(jobs, ColourModel())
    assert asked == []
    slot_jobs.read_jobs(jobs, ColourModel(), workers=2)
    assert asked == [1]
    monkeypatch.setattr(slot_jobs, "cores_busy", lambda: False)
    slot_jobs.read_jobs(jobs, ColourModel())
    assert asked == [1, 1]
    # the environment's choice is obeyed like workers= (run's own tests rely on it)
    monkeypatch.setattr(slot_jobs, "cores_busy", lambda: True)
    monkeypatch.setenv(slot_jobs.WORKERS_ENV, "2")
    slot_jobs.read_jobs(jobs, ColourModel())
    assert asked == [1, 1, 1]


def test_cores_busy_follows_the_load_average(monkeypatch) -> None:
    monkeypatch.setattr(slot_jobs.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(slot_jobs.os, "getloadavg", lambda: (3.6, 0.0, 0.0))
    assert slot_jobs.cores_busy()
    monkeypatch.setattr(slot_jobs.os, "getloadavg", lambda: (1.2, 0.0, 0.0))
    assert not slot_jobs.cores_busy()


def test_shutdown_ends_a_worker_stuck_in_a_job() -> None:
    """A stop must not wait for ever on a worker that never finishes (a signal can
    interrupt the caller mid-round, leaving a worker waiting): it is terminated."""
    pool = slot_jobs._get_pool(1)
    assert pool is not None
    stuck = pool.submit(time.sleep, 3600)
    deadline = time.monotonic() + 60
    while not stuck.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = list(pool._processes.values())  # type: ignore[attr-defined]
    assert workers and all(p.is_alive() for p in workers)
    slot_jobs.shutdown(grace=0.2)
    assert not any(p.is_alive() for p in workers)
    assert slot_jobs._pool is None


def test_a_pool_started_from_a_bare_script_reads(tmp_path: Path) -> None:
    """The workers are forked from a process that preloaded OpenCV: its thread pool
    must not come with them (OpenCV 5.1: every worker hung in its first call)."""
    script = tmp_path / "pool.py"
    script.write_text(
        "from vision import slot_jobs\n"
        "if __name__ == '__main__':\n"
        "    pool = slot_jobs._get_pool(1)\n"
        "    try:\n"
        "        print(pool.submit(int, '7').result(timeout=60))\n"
        "    finally:\n"
        "        slot_jobs.shutdown(grace=1.0)\n", encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=180, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["7"]
