"""Reading the slots of a frame on every core: each slot becomes a small job.

WHY processes, not threads: a card face is read through hundreds of small
numpy and OpenCV calls, so Python holds the GIL most of the time and a
thread pool gained only ~12% on two cores.  Processes scale with the cores
(a Pi 5 has four): the caller and ``n - 1`` worker processes read the slots
together (see ``read_jobs``: the caller first reads the bulky jobs alone, then
all claim the dense ones one by one from a shared counter).

WHY crops, not the frame: a job carries only the part of the frame its slot
can need (the slot plus ``CROP_MARGIN_MM`` round it) and the slot's
homography shifted to that crop, so nothing bigger than a card's
surroundings crosses to a worker.
The margin covers everything a reader may look at: the locate margin (6 mm),
the noble border band (6 mm) and a card found up to 5% larger and 3° turned.
Readers sample with ``BORDER_REPLICATE`` inside the crop exactly as inside the
frame, so a job read in a worker gives the same answer as read in place
(tested).

WHY the crops cross through shared memory: the workers' crops of a full table
are 13-18 MB.  Pickled onto the pool's pipe they were handled by the pool's
feeder thread, which needs the GIL for every array while the caller, reading
its own batch, holds it in 5 ms slices: the worker started its batch 100-180 ms
after the hand-over (measured on the bench's 2-player table), most of the
time the read was meant to save.  Now the caller copies the crops of the
shared jobs into one shared memory block it keeps (``_arena``, grown as
needed, freed at exit; 4-8 MB, ~3 ms) and sends only their places; a worker
starts within a few ms.  One caller at a time uses the arena
(``_arena_lock``); without ``/dev/shm`` the workers get batches of equal
estimated cost with their crops pickled (``_batches``).

The pool starts on first use with the ``forkserver`` method (safe when the
caller runs threads: camera, screen) and preloads this module so a new worker
is ready in a moment; it lives until the program ends.  When processes cannot
be started (a sandbox without ``/dev/shm``, ``workers=1``) or the work is too
small to be worth the hand-over, the jobs are read in the calling process.

WHY not on a process's first read (unless the number of processes was
chosen: ``workers=`` or ``$SPLENDOR_VISION_WORKERS``): starting the pool (the
fork server, a worker importing numpy, OpenCV and this module, its templates)
costs more than the read it would share: ``vision read`` of the bench's still took 1.6-2.4 s cold
with it, 1.2 without (2 cores).  A command that reads one frame never pays it;
a loop pays it at its second frame.

WHY not while the cores are busy (again unless the number was chosen): the
workers then take their time from other programs' share and the caller's
alike, and the hand-over is pure cost.  On the bench's 2 cores shared with two
busy programs (load 2.5), the 2-player read took 304 ms with a worker and 239
without, the 4-player one 370 and 292 (medians of 10, alternated).  A core
counts as free while the load average is under the cores less ``BUSY_MARGIN``.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import shared_memory
from typing import Any

import cv2
import numpy as np

from vision import card_reader, chip_net, noble_reader, readers
from vision.calibrate import Calibration
from vision.colours import ColourModel
from vision.layout import Slot

log = logging.getLogger(__name__)

#: Millimetres of frame kept around a slot for its job.
CROP_MARGIN_MM = 16.0
#: Relative CPU time of reading one slot of each kind (card = 30), measured on the
#: bench's two tables in one process (``tests/bench/bench_vision.py``, "CPU per
#: kind"; four runs): per card-time, a noble 0.30-0.65 (a bare slot a fifth of a
#: tile), a deck 0.06.  Not in the bench's view, measured earlier against a 13.5 ms
#: card: a tableau column ~1.8 ms, a reserved slot ~1.5, a pile ~1.0.  Token slots
#: are not shared out: the chips network reads them in one batch (``read_jobs``).
COST = {"card": 30.0, "noble": 13.0, "tableau": 4.0, "reserved": 3.3, "deck": 1.8,
        "pile": 2.2}
#: Below this total cost (about two cards) the hand-over costs more than it saves.
MIN_PARALLEL_COST = 60.0
#: Below this much memory (MB) slots are read in one process.
SMALL_MEMORY_MB = 1536
#: The pool is not used while the 1-minute load average is at least the cores less
#: this (the reading process itself counts about 1 while it reads).
BUSY_MARGIN = 0.5
#: Environment variable that sets the processes reading slots, this one included (1 = no workers).
WORKERS_ENV = "SPLENDOR_VISION_WORKERS"


@dataclass(frozen=True)
class SlotJob:
    """One slot to read: the frame crop round it and the homography table mm -> crop px."""

    slot: Slot
    crop: np.ndarray
    homography: np.ndarray
    gain: np.ndarray


def make_job(image: np.ndarray, cal: Calibration, slot: Slot) -> SlotJob:
    """The slot's job: a view of ``image`` (no copy) round the slot, and its homography."""
    return make_jobs(image, cal, [slot])[0]


def _crop_corners(slot: Slot) -> list[list[float]]:
    hw, hh_mm = slot.size[0] / 2 + CROP_MARGIN_MM, slot.size[1] / 2 + CROP_MARGIN_MM
    a = math.radians(slot.angle)
    c, s = math.cos(a), math.sin(a)
    cx, cy = slot.center
    return [[cx + u * c - v * s, cy + u * s + v * c]
            for u, v in ((-hw, -hh_mm), (hw, -hh_mm), (hw, hh_mm), (-hw, hh_mm))]


def make_jobs(image: np.ndarray, cal: Calibration, slots: list[Slot]) -> list[SlotJob]:
    """``make_job`` for every slot, the crops' corners projected in one call per mat
    and their gains in one array operation (the same values as slot by slot:
    ``perspectiveTransform`` maps each point on its own), in under half the time:
    this runs before any worker can start."""
    by_mat: dict[str, list[int]] = {}
    for i, slot in enumerate(slots):
        by_mat.setdefault(slot.mat, []).append(i)
    hh, ww = image.shape[:2]
    jobs: list[SlotJob | None] = [None] * len(slots)
    for mat, idx in by_mat.items():
        # one homography per mat, or per slot when the lens bends the table
        cal.prepare_slots([slots[i] for i in idx])
        hs = [cal.h_for(mat)] * len(idx) if cal.lens is None else \
            [cal.h_for_slot(slots[i]) for i in idx]
        pts = np.array([p for i in idx for p in _crop_corners(slots[i])], np.float64)
        if cal.lens is None:
            px = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hs[0]).reshape(-1, 4, 2)
        else:
            px = np.stack([cv2.perspectiveTransform(pts[4 * k:4 * k + 4].reshape(-1, 1, 2), hk)
                           .reshape(4, 2) for k, hk in enumerate(hs)])
        lo, hi = px.min(1).tolist(), px.max(1).tolist()
        gains = cal.gains_at([slots[i].center for i in idx])
        for k, i in enumerate(idx):
            x0 = min(max(math.floor(lo[k][0]) - 2, 0), ww)
            y0 = min(max(math.floor(lo[k][1]) - 2, 0), hh)
            x1 = min(max(math.ceil(hi[k][0]) + 3, 0), ww)
            y1 = min(max(math.ceil(hi[k][1]) + 3, 0), hh)
            shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
            jobs[i] = SlotJob(slots[i], image[y0:y1, x0:x1], shift @ hs[k], gains[k])
    return jobs  # type: ignore[return-value]


def read_job(job: SlotJob, colours: ColourModel) -> object:
    """Read one slot of any kind; None for a kind no reader knows."""
    image, h, slot, gain = job.crop, job.homography, job.slot, job.gain
    if slot.kind == "card":
        return card_reader.read_card(image, h, slot, gain, colours)
    if slot.kind == "deck":
        return readers.read_deck(image, h, slot, gain)
    if slot.kind == "noble":
        return noble_reader.read_noble(image, h, slot, gain, colours)
    if slot.kind == "token":  # a batch of one: ``read_jobs`` reads them all in one
        return chip_net.read_tokens([job])[0]
    if slot.kind == "reserved":
        return readers.read_reserved(image, h, slot, gain)
    if slot.kind == "tableau":
        return readers.read_tableau(image, h, slot, gain)
    if slot.kind == "pile":
        return readers.read_pile(image, h, slot, gain, colours)
    return None


def _read_batch(jobs: list[SlotJob], colours: ColourModel) -> list[object]:
    return [read_job(j, colours) for j in jobs]


@contextlib.contextmanager
def _one_opencv_thread() -> Iterator[None]:
    """OpenCV on one thread meanwhile, as in the workers.  WHY: every core has a
    process reading slots, so OpenCV's own threads could only contend; and on
    images this small they cost more than they give even alone (a full table's
    slots in one process: 320 -> 301 ms CPU, bench frames).  Other threads of the
    program see OpenCV on one thread for that time."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(threads)


def _init_worker(claims: Any, caller: int | None = None) -> None:
    global _claims
    # Ctrl-C belongs to the main process, which shuts the pool down
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the processes share the cores already: OpenCV's own threads would only contend
    cv2.setNumThreads(1)
    _claims = claims
    if caller is not None:
        _exit_with(caller)


def _exit_with(pid: int) -> None:
    """End this worker when process ``pid`` (the caller that owns the pool) ends.

    WHY: a worker's parent is the forkserver, not the caller, and the worker
    holds both ends of its own task queue and the forkserver's "alive" pipe:
    when the caller was killed (SIGKILL, an out-of-memory kill) nothing ever
    reached end-of-file, and the worker, the forkserver and the resource
    tracker stayed for ever.  A daemon thread waits on the caller's pidfd
    (polls once a second where there is none) and exits the worker."""
    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            fd = None
        if fd is not None:
            import select

            select.select([fd], [], [])  # readable once the process has ended
            os._exit(0)
        while True:
            time.sleep(1.0)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass

    if _alive(pid):
        threading.Thread(target=watch, name="exit-with-caller", daemon=True).start()
    else:
        os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def worker_count() -> int:
    """Processes reading slots, this one included: ``$SPLENDOR_VISION_WORKERS``, else
    every core (at most 4), else 1 on a machine with under ``SMALL_MEMORY_MB`` of memory
    (a worker costs ~40 MB: a 1 GB Pi keeps it for the screen and the log)."""
    env = os.environ.get(WORKERS_ENV, "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            log.warning("%s=%r is not a number; using the cores", WORKERS_ENV, env)
    if _memory_mb() < SMALL_MEMORY_MB:
        return 1
    return min(4, os.cpu_count() or 1)


def cores_busy() -> bool:
    """Whether no core is free for a worker (the load average; False where unknown)."""
    try:
        return os.getloadavg()[0] >= (os.cpu_count() or 1) - BUSY_MARGIN
    except (OSError, AttributeError):  # no load average (Windows has no getloadavg)
        return False


def _memory_mb() -> float:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (ValueError, OSError, AttributeError):  # not a POSIX system: assume plenty
        return float("inf")


_pool: Executor | None = None
_pool_size = 0
_pool_failed = False
#: Whether this process has read slots before (the pool waits for the second read).
_read_before = False
#: Shared with the workers: [round, next job to claim] (see ``read_jobs``).
_claims: Any = None
_round = 0


#: OpenCV's variable for its default number of threads (read once, at its first use).
OPENCV_THREADS_ENV = "OPENCV_FOR_THREADS_NUM"


def _start_forkserver() -> None:
    """Start the process the workers are forked from with OpenCV on one thread.

    WHY: preloading ``vision.slot_jobs`` runs OpenCV there (``vision.pixels``'
    constants), which starts OpenCV's thread pool; a worker forked from it holds
    that pool without its threads, and its first ``cv2.setNumThreads`` waited for
    ever (OpenCV 5.1: every pool started from a bare script hung; a ``run`` with
    workers froze mid-game and ignored Ctrl-C).  One thread there starts no pool."""
    from multiprocessing import forkserver

    old = os.environ.get(OPENCV_THREADS_ENV)
    os.environ[OPENCV_THREADS_ENV] = "1"
    try:
        forkserver.ensure_running()
    finally:
        if old is None:
            os.environ.pop(OPENCV_THREADS_ENV, None)
        else:
            os.environ[OPENCV_THREADS_ENV] = old


def _get_pool(workers: int) -> Executor | None:
    global _pool, _pool_size, _pool_failed, _claims
    if workers < 1 or _pool_failed:
        return None
    if _pool is not None and _pool_size == workers:
        return _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
    try:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["vision.slot_jobs"])
        _start_forkserver()
        claims = ctx.Array("q", 2)
        _pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker,
                                    initargs=(claims, os.getpid()))
        _claims = claims
        _pool_size = workers
    except (OSError, ValueError, ImportError) as exc:  # no /dev/shm, no semaphores ...
        log.warning("vision: reading in one process (%s)", exc)
        _pool_failed = True
        _pool = None
    return _pool


def _batches(jobs: list[SlotJob], n: int) -> list[list[int]]:
    """Split job indices into ``n`` batches of about equal cost; the first is the caller's
    (the hand-over without shared memory).

    WHY not simply longest first: a worker's crops must be pickled to it, and
    they cost the caller's time.  The workers take the jobs with the most
    reading per byte of crop first (cards, nobles), each job going to the least
    loaded worker that it does not take past its share, the small jobs at the
    end topping them up; the caller reads what is left (the bulky pile and
    tableau crops among it).  On the bench's 2-player table the workers' crops
    are then about 5 MB instead of 21."""
    cost = [COST.get(j.slot.kind, 1.0) for j in jobs]
    share = sum(cost) / n
    loads = [0.0] * (n - 1)
    out: list[list[int]] = [[] for _ in range(n)]
    for i in sorted(range(len(jobs)), key=_density(jobs)):
        k = loads.index(min(loads)) if loads else -1
        if k >= 0 and loads[k] + cost[i] <= share:
            out[k + 1].append(i)
            loads[k] += cost[i]
        else:
            out[0].append(i)
    return [b for b in out if b]


def read_jobs(jobs: list[SlotJob], colours: ColourModel, workers: int | None = None
              ) -> list[object]:
    """Read every job, results in the jobs' order: the token slots in one batch of
    the chips network in this process (:func:`vision.chip_net.read_tokens`), the
    others with :func:`read_slots`.

    WHY not the tokens slot by slot on the workers: the network reads all of a
    still's token slots in one ``forward`` call; shared out, each worker would load
    the network and run it on a few crops, and their crops would cross to it.
    """
    at = [i for i, j in enumerate(jobs) if j.slot.kind == "token"]
    if not at:
        return read_slots(jobs, colours, workers)
    chips = set(at)
    rest = [i for i in range(len(jobs)) if i not in chips]
    results: list[object] = [None] * len(jobs)
    done = False

    def tokens() -> None:
        nonlocal done
        if not done:
            done = True
            for i, r in zip(at, chip_net.read_tokens([jobs[i] for i in at]), strict=True):
                results[i] = r

    for i, r in zip(rest, read_slots([jobs[i] for i in rest], colours, workers, tokens),
                    strict=True):
        results[i] = r
    tokens()  # read in one process: after the others, with OpenCV's own threads
    return results


def read_slots(jobs: list[SlotJob], colours: ColourModel, workers: int | None = None,
               meanwhile: Callable[[], None] | None = None) -> list[object]:
    """Read every job slot by slot, results in the jobs' order; ``meanwhile`` is
    called while the workers read theirs (when there are workers).

    With ``workers`` = n > 1, n - 1 worker processes and this one read them
    together (one process fewer to keep in memory than n workers and an idle
    caller): this process first reads the bulky jobs alone (``_split``), then
    joins the workers in claiming the others one by one, dearest first, from a
    shared counter.  WHY claimed, not shared out in advance: the cost of a slot
    is known only on average (a card that reads poorly is cut out and decoded
    again, a pair is told apart by its numerals), and batches of equal estimated
    cost still ended 20-60 ms apart on the bench's tables.  Unless the processes
    are chosen (``workers``, or ``$SPLENDOR_VISION_WORKERS``), a process's first
    read, and any read while the cores are busy (``cores_busy``), is read here alone.
    """
    global _pool_failed, _round, _read_before
    n = worker_count() if workers is None else workers
    cost = sum(COST.get(j.slot.kind, 1.0) for j in jobs)
    first, _read_before = not _read_before, True
    chosen = workers is not None or bool(os.environ.get(WORKERS_ENV, "").strip())
    if not chosen and n > 1 and ((first and _pool is None) or cores_busy()):
        n = 1  # a first read, or no free core: see the module's docstring
    pool = _get_pool(n - 1) if n > 1 and cost >= MIN_PARALLEL_COST else None
    if pool is None:
        with _one_opencv_thread():  # see _one_opencv_thread: cheaper alone too
            return _read_batch(jobs, colours)
    try:
        with _arena_lock, _one_opencv_thread():
            mine, shared = _split(jobs, n)
            _round += 1
            futures = _hand_over(pool, jobs, shared, colours, n - 1, _round)
            if futures is None:  # no shared memory: batches of equal cost, pickled
                return _read_in_batches(pool, jobs, colours, n)
            if meanwhile is not None:
                meanwhile()
            results: list[object] = [None] * len(jobs)
            for i, r in zip(mine, _read_batch([jobs[i] for i in mine], colours), strict=True):
                results[i] = r
            while 0 <= (k := _claim(_claims, _round)) < len(shared):
                results[shared[k]] = read_job(jobs[shared[k]], colours)
            for f in futures:
                for k, r in f.result().items():
                    results[shared[k]] = r
        return results
    except (BrokenProcessPool, OSError) as exc:
        log.warning("vision: worker processes failed (%s); reading in one process", exc)
        _pool_failed = True
        with _one_opencv_thread():
            return _read_batch(jobs, colours)


#: The caller reads alone bulky jobs of at most this share of its part (see ``_split``).
ALONE_SHARE = 0.75


def _split(jobs: list[SlotJob], n: int) -> tuple[list[int], list[int]]:
    """(the jobs this process reads alone, the jobs all n processes claim, dearest
    first).  The caller alone reads the bulkiest jobs for their cost (piles,
    tableau columns: big crops, little reading) up to ``ALONE_SHARE`` of its
    share, so that only the dense ones (cards, nobles) need copying for the
    workers, and it is free to claim some of those too."""
    cost = [COST.get(j.slot.kind, 1.0) for j in jobs]
    room = ALONE_SHARE * sum(cost) / n
    mine: list[int] = []
    for i in sorted(range(len(jobs)), key=_density(jobs), reverse=True):
        if cost[i] <= room:
            mine.append(i)
            room -= cost[i]
    taken = set(mine)
    shared = sorted((i for i in range(len(jobs)) if i not in taken),
                    key=lambda i: (-cost[i], _density(jobs)(i)))
    return mine, shared


def _claim(claims: Any, round_id: int) -> int:
    """The next job of round ``round_id`` to read, or -1 once another round began."""
    with claims.get_lock():
        if claims[0] != round_id:
            return -1
        k = int(claims[1])
        claims[1] = k + 1
    return k


def _read_in_batches(pool: Executor, jobs: list[SlotJob], colours: ColourModel, n: int
                     ) -> list[object]:
    """Without shared memory: n batches of equal estimated cost, the workers' crops
    pickled, this process reading the first."""
    batches = _batches(jobs, n)
    futures = [pool.submit(_read_batch, [SlotJob(jobs[i].slot, np.ascontiguousarray(
        jobs[i].crop), jobs[i].homography, jobs[i].gain) for i in b], colours)
        for b in batches[1:]]
    results: list[object] = [None] * len(jobs)
    for i, r in zip(batches[0], _read_batch([jobs[i] for i in batches[0]], colours),
                    strict=True):
        results[i] = r
    for b, f in zip(batches[1:], futures, strict=True):
        for i, r in zip(b, f.result(), strict=True):
            results[i] = r
    return results


def _density(jobs: list[SlotJob]) -> Callable[[int], float]:
    """Sort key: crop bytes per unit of reading cost (low for cards and nobles)."""
    return lambda i: jobs[i].crop.size / COST.get(jobs[i].slot.kind, 1.0)


# -- handing the crops over through shared memory -------------------------------------
@dataclass(frozen=True)
class _SharedJob:
    """A job whose crop waits in the shared arena: ``shape`` bytes at ``offset``."""

    slot: Slot
    offset: int
    shape: tuple[int, ...]
    homography: np.ndarray
    gain: np.ndarray


#: Crops start on this byte boundary in the arena.
_ALIGN = 64
_arena: shared_memory.SharedMemory | None = None
#: the process that made the arena: only it may unlink it (a forked child must not)
_arena_pid = 0
_arena_lock = threading.Lock()
_arena_failed = False


def _arena_for(size: int) -> shared_memory.SharedMemory | None:
    """The caller's arena, grown to hold ``size`` bytes; None when shared memory cannot
    be had (the crops then go pickled)."""
    global _arena, _arena_failed, _arena_pid
    if _arena is not None and _arena_pid != os.getpid():
        _arena = None  # a forked child: the parent's arena is the parent's
    if _arena_failed:
        return None
    if _arena is not None and _arena.size >= size:
        return _arena
    _free_arena()
    try:
        _arena = shared_memory.SharedMemory(create=True, size=int(size * 1.25) + _ALIGN)
        _arena_pid = os.getpid()
    except OSError as exc:
        log.warning("vision: no shared memory (%s); handing crops over by pipe", exc)
        _arena_failed = True
        return None
    return _arena


def _free_arena() -> None:
    global _arena
    if _arena is None:
        return
    try:
        _arena.close()
        if _arena_pid == os.getpid():
            _arena.unlink()
    except (OSError, BufferError):  # already gone, or a view still open: the OS frees it
        pass
    _arena = None


atexit.register(_free_arena)


#: How long a stop lets the workers finish the slot they are reading (s): a card's
#: decode takes tens of ms, a 16 MP frame's whole read ~1 s on a Pi.
SHUTDOWN_GRACE_S = 5.0


def shutdown(grace: float = SHUTDOWN_GRACE_S) -> None:
    """Stop the worker processes and free the shared arena now (``run`` calls it
    when stopped by a signal, so no worker outlives it); the next read starts a
    new pool.

    Workers still busy after ``grace`` seconds are terminated, then killed.  WHY not
    ``shutdown(wait=True)`` alone: a signal that interrupts the caller mid-read can
    leave a worker waiting for ever (on the claims' lock, on a round that never
    ends), and the stop then hung past the test's 240 s under ``make test``."""
    global _pool, _pool_size
    pool, _pool, _pool_size = _pool, None, 0
    if pool is not None:
        # the executor's own list (Python 3.14 has ``terminate_workers`` for this)
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        end = time.monotonic() + grace
        for p in workers:
            p.join(max(0.0, end - time.monotonic()))
        for stop in ("terminate", "kill"):
            alive = [p for p in workers if p.is_alive()]
            for p in alive:
                getattr(p, stop)()
            for p in alive:
                p.join(1.0)
        pool.shutdown(wait=True)  # the executor's manager thread, once they are gone
    _free_arena()


def _hand_over(pool: Executor, jobs: list[SlotJob], shared: list[int],
               colours: ColourModel, workers: int, round_id: int) -> list[Future[Any]] | None:
    """Copy the crops of the ``shared`` jobs into the arena, open round ``round_id``
    and start each worker claiming; None without shared memory.  (The caller holds
    ``_arena_lock`` until every worker is done: the arena is reused.)"""
    total = sum(-(-jobs[i].crop.nbytes // _ALIGN) * _ALIGN for i in shared)
    arena = _arena_for(total)
    if arena is None:
        return None
    described, offset = [], 0
    for i in shared:
        crop = jobs[i].crop
        np.copyto(np.ndarray(crop.shape, crop.dtype, arena.buf, offset), crop)
        described.append(_SharedJob(jobs[i].slot, offset, crop.shape, jobs[i].homography,
                                    jobs[i].gain))
        offset += -(-crop.nbytes // _ALIGN) * _ALIGN
    with _claims.get_lock():
        _claims[0], _claims[1] = round_id, 0
    return [pool.submit(_read_claimed, arena.name, round_id, described, colours)
            for _ in range(workers)]


_attached: dict[str, shared_memory.SharedMemory] = {}


def _read_claimed(name: str, round_id: int, shared: list[_SharedJob], colours: ColourModel
                  ) -> dict[int, object]:
    """In a worker: claim and read jobs of round ``round_id`` (crops in the caller's
    arena ``name``) until none is left; their readings by place in ``shared``."""
    shm = _attached.get(name)
    if shm is None:
        for old in list(_attached):  # the caller grew its arena: let the old one go
            with contextlib.suppress(BufferError):  # a view still open: the OS frees it
                _attached.pop(old).close()
        shm = _attached[name] = shared_memory.SharedMemory(name)
    out: dict[int, object] = {}
    while 0 <= (k := _claim(_claims, round_id)) < len(shared):
        j = shared[k]
        crop = np.ndarray(j.shape, np.uint8, shm.buf, j.offset)
        out[k] = read_job(SlotJob(j.slot, crop, j.homography, j.gain), colours)
        del crop  # no view may outlive the job: the arena can then be closed
    return out
