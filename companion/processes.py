"""The one owner of the process tree a command starts.

WHY: ``kill`` (SIGTERM to the main process only) during ``analyse`` ended it
with status 143 and no word, and left two workers waiting for ever on a
pipe they held open themselves (a ``fork`` worker inherits the write end of
its own task queue, so it never sees end-of-file); during ``demo`` the
forkserver, the resource tracker and a worker stayed, kept alive by the
fork workers' inherited pipes.  systemd's ``KillMode=control-group`` would
have cleaned up after a service, but a command run from a shell, cron or a
test has no such help.

So:

* every pool of worker processes a command starts comes from :func:`pool`,
  whose workers (a) ask Linux to kill them when their parent dies
  (``PR_SET_PDEATHSIG``: the main process killed by SIGKILL takes them
  along) and (b) ignore Ctrl-C, which the terminal sends to the whole
  group: the main process alone decides, and no worker prints a traceback;
* :func:`owner` wraps a whole command (``companion.cli.main``): SIGTERM
  raises :class:`Terminated` so the command unwinds through its ``finally``
  blocks as Ctrl-C does, and on *every* way out (return, exception, signal)
  :func:`reap` stops the pools' workers (terminate, then kill after a
  grace), every other child process ``multiprocessing`` started, the vision
  workers, the forkserver and the resource tracker.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import forkserver
from multiprocessing.process import BaseProcess
from types import FrameType, TracebackType
from typing import Any

#: How long a worker has to end after SIGTERM before it is killed (seconds).
GRACE_S = 2.0
#: How long after a dropped stop it is asked for again (seconds): the callback that
#: dropped it has long returned by then; a person never notices.
ASK_AGAIN_S = 0.05
#: ``prctl`` option: the signal the kernel sends a process when its parent dies.
_PR_SET_PDEATHSIG = 1

_pools: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()


class Terminated(BaseException):
    """SIGTERM arrived (``kill``, ``systemctl stop``): unwind like Ctrl-C.

    A ``BaseException``, like ``KeyboardInterrupt``, so that no
    ``except Exception`` on the way swallows the request to stop."""


def die_with_parent() -> None:
    """In a worker: be killed when the parent dies; ignore Ctrl-C (the parent decides).

    Linux only (``prctl``); elsewhere the owner's :func:`reap` is the only net.
    If the parent died before the request took effect, exit at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a fork inherits the owner's SIGTERM handler: terminate() must end a worker
    # quietly, not raise Terminated in it (a traceback from multiprocessing)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        parent = os.getppid()
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)


def _start_worker(initializer: Callable[..., object] | None, args: tuple[Any, ...]) -> None:
    die_with_parent()
    if initializer is not None:
        initializer(*args)


class _OwnedPool(ProcessPoolExecutor):
    """A pool whose ``with`` block, left by an exception (SIGTERM, Ctrl-C, a bug),
    stops its workers at once instead of waiting for every queued task."""

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool | None:
        if exc_type is None:
            return super().__exit__(exc_type, exc, tb)
        _stop_pool(self, GRACE_S)
        return None


def pool(workers: int | None = None, initializer: Callable[..., object] | None = None,
         initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` whose workers die with this process and are reaped
    by :func:`reap`; use it as ``ProcessPoolExecutor`` (``with pool(n) as p:``)."""
    executor = _OwnedPool(workers, initializer=_start_worker, initargs=(initializer, initargs))
    _pools.add(executor)
    return executor


def _stop_pool(executor: ProcessPoolExecutor, grace: float) -> None:
    """Stop ``executor``'s workers without waiting for their tasks."""
    workers = list((getattr(executor, "_processes", None) or {}).values())
    with contextlib.suppress(Exception):
        executor.shutdown(wait=False, cancel_futures=True)
    _stop(workers, grace)
    with contextlib.suppress(Exception):
        executor.shutdown(wait=True)  # its manager thread, now that the workers are gone
    _pools.discard(executor)


def _stop(processes: list[BaseProcess], grace: float) -> None:
    """Terminate ``processes``, wait up to ``grace`` seconds, kill what is left."""
    for p in processes:
        with contextlib.suppress(Exception):
            p.terminate()
    end = time.monotonic() + grace
    for p in processes:
        with contextlib.suppress(Exception):
            p.join(max(0.0, end - time.monotonic()))
    for p in processes:
        with contextlib.suppress(Exception):
            if p.is_alive():
                p.kill()
                p.join(1.0)


def reap(grace: float = GRACE_S) -> None:
    """Stop every process this command started, now.  Safe to call twice.

    The pools' workers are stopped without waiting for their tasks (a
    ``with`` block's ``shutdown(wait=True)`` would wait for a whole
    analysis); then whatever else ``multiprocessing`` started; then the
    vision workers (:func:`vision.slot_jobs.shutdown`) and the forkserver.
    With them gone the resource tracker ends when this process does: they
    held its pipe open."""
    for executor in list(_pools):
        _stop_pool(executor, grace)
    jobs = sys.modules.get("vision.slot_jobs")
    if jobs is not None:
        with contextlib.suppress(Exception):
            jobs.shutdown()
    _stop(multiprocessing.active_children(), grace)

    server: Any = forkserver._forkserver  # private, as the standard library's tests use it
    if getattr(server, "_forkserver_pid", None) is not None:
        with contextlib.suppress(Exception):
            server._stop()
    # The resource tracker is left to end by itself: it does when this process
    # exits, now that no worker holds its pipe, after it has freed what is left
    # (stopping it here would free the vision workers' lock before its finalizer).


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    global _stopping
    if os.getpid() != _owner_pid:  # a worker forked before its initializer reset this
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    if _stopping:  # a second SIGTERM must not cut the clean-up short (SIGKILL still can)
        return
    _stopping = True
    raise Terminated


#: Set by the first SIGTERM; cleared when that stop was lost (:func:`_on_unraisable`).
_stopping = False


def _on_unraisable(unraisable: Any) -> None:
    """A stop raised where Python can only print it is asked for again.

    WHY: a signal handler runs wherever the main thread is, and an exception raised
    in an at-fork callback (``logging``'s lock release after each fork), a
    ``__del__`` or a weakref callback is printed as "Exception ignored" and
    dropped.  ``analyse`` stopped that way went on to the end, deaf to further
    SIGTERMs (seen once in a CI run and in 1 of 150 stops timed across a pool's
    start).  So the stop is asked for again a moment later, from a thread: asked
    from here, it would be raised inside this hook and dropped again."""
    global _stopping
    if isinstance(unraisable.exc_value, Terminated) and os.getpid() == _owner_pid:
        _stopping = False
        _ask_again(signal.SIGTERM)
        return
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        _ask_again(signal.SIGINT)
        return
    _default_unraisable(unraisable)


def _ask_again(signum: signal.Signals) -> None:
    """Send ``signum`` to the main thread again once the current callback is over.

    A real signal, to that thread: it wakes a main thread blocked in a wait (a pool's
    results), which ``_thread.interrupt_main`` would only mark for its next step."""
    main = threading.main_thread().ident

    def later() -> None:
        time.sleep(ASK_AGAIN_S)
        if main is not None:
            signal.pthread_kill(main, signum)

    threading.Thread(target=later, name="stop-again", daemon=True).start()


_default_unraisable = sys.unraisablehook


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGTERM and Ctrl-C until the block ends, then let them land.

    WHY: a C extension that clears whatever error its own import raised (pygame's
    ``image`` clears its ``imageext`` import's) also swallows the exception a
    signal handler raises in that moment: the stop is lost, the command goes on.
    Held, the signal is raised again when the block ends, where it stops the
    command as anywhere else.  The handlers are swapped rather than the signal
    mask set: a signal sent to the process reaches any thread that does not
    block it, and Python runs the handler in the main thread all the same.
    Outside the main thread (no handler can be set there) the block runs as is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    held = (signal.SIGTERM, signal.SIGINT)
    before = {sig: signal.signal(sig, lambda signum, _frame: arrived.append(signum))
              for sig in held}
    try:
        yield
    finally:
        for sig, handler in before.items():  # None: set outside Python; the default
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        for signum in dict.fromkeys(arrived):  # each once, in the order they came
            signal.raise_signal(signum)


#: The process that owns the tree (set by :func:`owner`).
_owner_pid = os.getpid()


@contextlib.contextmanager
def owner() -> Iterator[None]:
    """Own the command's processes: SIGTERM unwinds (:class:`Terminated`), and every
    way out of the block reaps them (:func:`reap`)."""
    global _owner_pid, _stopping
    _owner_pid = os.getpid()
    _stopping = False
    in_main = (multiprocessing.parent_process() is None
               and threading.current_thread() is threading.main_thread())
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if in_main else None
    hook = sys.unraisablehook
    if in_main:
        sys.unraisablehook = _on_unraisable
    try:
        yield
    finally:
        try:
            reap()
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
                sys.unraisablehook = hook
