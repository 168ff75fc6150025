"""A queue in front of the voice, so that speaking never holds up the turn loop.

The referee's loop calls :meth:`Speaker.say` and goes on at once; one worker
thread speaks the queue in order.  Rules of the queue (where the issue was
silent):

* An utterance is ``keep`` (a confirmed turn, a refusal, the standings: news
  that must be heard) or not (a prompt, a menu item: only the latest
  matters).  A new utterance drops every *pending* prompt, and cuts short
  the prompt being spoken: newer replaces stale.  News is never dropped.
* :meth:`stop` (any button pressed) silences what is being said and drops
  what is pending: a player who acts has heard enough.
* Rendering to files (``out_dir``: tests, the demo) writes one WAV per
  utterance, ``0001-turn.wav``..., and drops nothing: a file is evidence.
* Every utterance started is written to the text log (``log``), one line:
  ``kind<TAB>wav or -<TAB>text``; it is what tests compare with the WAVs.

The worker owns the process; ``say`` and ``stop`` only touch the queue
under a lock, so they are safe from the main loop and from tests.
"""

from __future__ import annotations

import os
import signal
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from companion.speech.voices import Voice


@dataclass(frozen=True)
class Utterance:
    """One thing to say: ``kind`` names it in the log and the WAV's name."""

    text: str
    kind: str = "prompt"
    keep: bool = False


class Speaker:
    """Speaks :class:`Utterance` values on its own thread; see the module doc."""

    def __init__(
        self,
        voice: Voice,
        *,
        out_dir: Path | None = None,
        log: Path | None = None,
        kinds: frozenset[str] | None = None,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.voice = voice
        self.out_dir = out_dir
        #: only these kinds are spoken (None: all); the demo renders turns and standings
        self.kinds = kinds
        self.on_error = on_error
        self.spoken: list[Utterance] = []
        self.files: list[Path] = []
        self._pending: deque[Utterance] = deque()
        self._current: tuple[Utterance, Any] | None = None
        self._lock = threading.Condition()
        self._closed = False
        self._busy = False
        self._log: IO[str] | None = None
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
        if log is not None:
            log.parent.mkdir(parents=True, exist_ok=True)
            self._log = log.open("a", encoding="utf-8")
        self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------- the loop's side
    def say(self, utterance: Utterance | str, kind: str = "prompt", keep: bool = False) -> None:
        """Queue ``utterance``; never waits for sound."""
        if isinstance(utterance, str):
            utterance = Utterance(utterance, kind, keep)
        if not utterance.text.strip():
            return
        if self.kinds is not None and utterance.kind not in self.kinds:
            return
        with self._lock:
            if self.out_dir is None:  # aloud: the newest prompt replaces stale ones
                self._pending = deque(u for u in self._pending if u.keep)
                current = self._current
                if current is not None and not current[0].keep:
                    _end(current[1])
            self._pending.append(utterance)
            self._lock.notify_all()

    def stop(self) -> None:
        """Silence now: end what is said and drop what waits (a button was pressed)."""
        with self._lock:
            if self.out_dir is not None:
                return  # files are evidence: nothing is cut
            self._pending.clear()
            if self._current is not None:
                _end(self._current[1])

    def wait(self, timeout: float | None = 60.0) -> bool:
        """Block until everything queued is said (tests, the end of the demo)."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._pending and not self._busy, timeout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._pending.clear()
            if self._current is not None:
                _end(self._current[1])
            self._lock.notify_all()
        self._thread.join(timeout=5)
        if self._log is not None:
            self._log.close()

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- the worker
    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._pending or self._closed)
                if self._closed:
                    return
                utterance = self._pending.popleft()
                self._busy = True
                wav = None
                if self.out_dir is not None:
                    wav = self.out_dir / f"{len(self.files) + 1:04d}-{utterance.kind}.wav"
                try:
                    process = self.voice.start(utterance.text, wav)
                except OSError as exc:
                    process = None
                    if self.on_error is not None:
                        self.on_error(f"speech: {exc}")
                self._current = (utterance, process) if process is not None else None
                self.spoken.append(utterance)
                if wav is not None:
                    self.files.append(wav)
                if self._log is not None:
                    self._log.write(f"{utterance.kind}\t{wav.name if wav else '-'}\t"
                                    f"{utterance.text}\n")
                    self._log.flush()
            if process is not None:
                process.wait()
            with self._lock:
                self._current = None
                self._busy = False
                self._lock.notify_all()


def _end(process: Any) -> None:
    """End a speaking process (and a piper pipeline's group) if it still runs."""
    if process is None or process.poll() is not None:
        return
    try:
        if getattr(process, "group", False):  # a pipeline in its own session (piper | aplay)

            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.terminate()
    except (OSError, ProcessLookupError):
        pass
