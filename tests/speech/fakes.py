"""A voice that makes no sound: its processes end when the test says so."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from companion.speech.voices import Voice


class FakeProcess:
    def __init__(self, text: str, hold: bool) -> None:
        self.text = text
        self.ended = False
        self._done = threading.Event()
        if not hold:
            self._done.set()

    def wait(self) -> int:
        self._done.wait(30)
        return 0

    def poll(self) -> int | None:
        return 0 if self._done.is_set() else None

    def terminate(self) -> None:
        self.ended = True
        self._done.set()

    def finish(self) -> None:
        self._done.set()


@dataclass(frozen=True)
class FakeVoice(Voice):
    """Records what it was asked to say; ``hold`` keeps each one "speaking" until finished."""

    hold: bool = False
    started: list[FakeProcess] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)

    @property
    def name(self) -> str:
        return "fake"

    def start(self, text: str, wav: Path | None = None) -> FakeProcess:  # type: ignore[override]
        process = FakeProcess(text, self.hold)
        if wav is not None:
            wav.write_bytes(b"RIFF")
        self.started.append(process)
        self.ready.set()
        return process
