"""The training scripts' worker pools, which end with the script that started them.

WHY: killed (SIGTERM, an out-of-memory kill, a closed terminal), a script left its
pool's workers running: each went on with the table it held and then waited for
ever, a core apiece (two workers of ``join --nobles`` ran on 30 min after their
script was killed and halved the next run's speed).  Each worker here watches the
script's process (``vision.slot_jobs._exit_with``) and exits when it ends.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

# the vision workers' own watcher (private to the reader, which must not change for this)
from vision.slot_jobs import _exit_with as exit_with


def pool(workers: int, spawn: bool = True) -> ProcessPoolExecutor:
    """``workers`` processes that exit when this process ends; spawned unless ``spawn``
    is False (a fork of a process that has run OpenCV's threads can inherit one of
    their locks held, and wait on it for ever)."""
    context = get_context("spawn" if spawn else "fork")
    return ProcessPoolExecutor(workers, mp_context=context, initializer=exit_with,
                               initargs=(os.getpid(),))
