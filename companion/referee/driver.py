"""The loop around the pure referee: frames, buttons, screen, log, lights.

:class:`TableLoop` is the only place where the referee meets the world.  It
takes frames (``feed_frame``) and button events (``press``), turns them into
the referee's events, and carries out the effects that come back: it logs
confirmed turns, draws the screen, beeps and lights, saves screenshots, and
prints each confirmed turn.  ``splendor-companion run`` and the demo both
drive it; neither contains referee logic.

Motion.  :class:`vision.motion.StabilityDetector` compares each frame with
the previous one on a small grey copy; moving frames are never read: they
become :class:`~companion.referee.machine.Motion`.  A still frame is read,
and the referee acts once two reads agree.  Identical
frames (a recorded folder repeats a file) reuse the last reading instead of
reading the same pixels twice -- a real camera never gives identical frames.

Frames the reader cannot use.  The reader raises
:class:`~vision.errors.VisionError` for a frame nothing can be read from
(black: the lights are out; tiny; huge); the loop hands it to the referee as
:class:`~companion.referee.machine.Blind`, which says so once on the screen
(and so by speech) and keeps the game; ``echo`` gets the reason once per
spell.  WHY here: the reader of every game raises the same error, and a
camera that goes dark must never end a game (issue 41).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import time
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import numpy as np

from companion.games import kind_of_state, setup_headers
from companion.record import make_thumbnail
from companion.referee.game import C, Q, R, S, T
from companion.referee.machine import (
    Blind,
    Buzz,
    Effect,
    Event,
    GameOver,
    GameStarted,
    Key,
    Light,
    LogHeader,
    Motion,
    Notice,
    Phase,
    Press,
    Referee,
    Screenshot,
    SetLight,
    TableRead,
    TurnConfirmed,
    TurnUndone,
    Undo,
)
from companion.rules.contract import Outcome
from companion.screen.view import ScreenView
from firmware import indicators as hw
from vision.errors import VisionError

if TYPE_CHECKING:  # imported when used: pygame and the pins load only where needed
    import pygame

    from firmware import indicators as hw
    from firmware.buttons import ButtonEvent
    from vision.motion import StabilityDetector

#: Reads one frame: Splendor's reader gives a ``TableReading``.
Reader = Callable[[np.ndarray], R]


#: glibc's ``mallopt`` parameter number for M_MMAP_THRESHOLD.
_M_MMAP_THRESHOLD = -3


def tame_memory(threshold: int = 1 << 20) -> bool:
    """Make freed frame buffers go back to the system at once (glibc only).

    Every still is tens of megabytes, and the reader makes copies of parts of
    it.  glibc raises its mmap threshold after the first large free, so later
    buffers come from the heap, which fragments and keeps growing: the
    companion's peak RSS rose by a frame's worth every few frames.  A fixed
    1 MB threshold keeps large buffers mmapped and returned when freed.
    Returns False where it does not apply (not glibc).
    """
    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        libc = ctypes.CDLL(name)
        return bool(libc.mallopt(_M_MMAP_THRESHOLD, threshold))
    except (OSError, AttributeError):
        return False


def _detector() -> StabilityDetector:
    """Vision's motion detector, judging each frame against the previous one.

    ``stable_frames=1``: a frame that did not move is read at once; the
    referee itself waits for two agreeing reads before acting, which is the
    stability that matters (what the table *says*, not only its pixels).
    """
    # lazy: OpenCV loads only when pixels are read
    from vision.motion import StabilityDetector

    return StabilityDetector(stable_frames=1)


def button_event(event: ButtonEvent | str) -> Press | Undo | None:
    """A firmware ``ButtonEvent`` (or a key name) as the referee's event.

    The gesture and button are compared by their values, so the referee
    needs no import of the firmware at run time.
    """
    if isinstance(event, str):
        name = event.strip().lower()
        if name == "undo":
            return Undo()
        return Press(Key(name))
    if event.is_undo:
        return Undo()
    button = event.button.value
    if event.kind.value == "press" and button in {k.value for k in Key}:
        return Press(Key(button))
    return None  # other holds mean nothing to the referee


@dataclass
class Timings:
    """What the bench reports: read time per frame, still-frame-to-proposal time."""

    reads_ms: list[float] = field(default_factory=list)
    proposals_ms: list[float] = field(default_factory=list)


# ----------------------------------------------------------------- the world
# What the loop asks of each thing it drives, and no more.  ``run`` and the
# demo pass the real ones (each docstring names it); a test passes None, or
# its own.


class Canvas(Protocol):
    """Draws the referee's view and saves the last drawing
    (:class:`companion.screen.draw.Screen`)."""

    def draw(self, view: ScreenView) -> pygame.Surface: ...

    def save(self, path: Path) -> Path: ...


class Display(Protocol):
    """Shows a drawn surface to the players (:class:`companion.screen.window.Window`)."""

    def show(self, surface: pygame.Surface) -> None: ...


class TurnLog(Protocol):
    """Keeps every confirmed turn (:class:`companion.record.GameLog`)."""

    def start_game(
        self, game_type: str, players: Sequence[str], setup_headers: Mapping[str, str]
    ) -> int: ...

    def append_turn(
        self,
        game_id: int,
        turn: object,
        state_hash: str,
        thumbnail_jpeg: bytes | None = None,
        confidence: float | None = None,
    ) -> int: ...

    def undo_last(self, game_id: int) -> object: ...

    def finish_with(self, game_id: int, outcome: Outcome) -> None: ...

    def set_header(self, game_id: int, name: str, value: str) -> None: ...


class Lights(Protocol):
    """The LEDs and the buzzer (:class:`firmware.indicators.Indicators`)."""

    def beep(self, sound: hw.Sound, wait: bool = False) -> None: ...

    def show(self, *lights: hw.Light) -> None: ...


class Speech(Protocol[S, T]):
    """Says what happens (:class:`companion.speech.Announcer`, Splendor's).

    It hears every button event before the referee (:meth:`on_button` is
    True for its own gestures, which :meth:`on_hold` then carries out on the
    table read so far), and every view and effect after.  Generic in the
    game's state and turn because what it says is in the game's terms.
    """

    def view(self, view: ScreenView) -> None: ...

    def after(self, view: ScreenView, effects: list[Effect[S, T]]) -> None: ...

    def on_button(self, event: ButtonEvent | str) -> bool: ...

    def on_hold(self, event: ButtonEvent | str, state: S | None) -> None: ...


class _Referee(Protocol):
    """What :class:`ShowsReferee` asks of a game's referee."""

    @property
    def history(self) -> Sized: ...

    def view(self) -> ScreenView: ...


RefereeT = TypeVar("RefereeT", bound=_Referee)


class ShowsReferee(Generic[RefereeT]):
    """Drawing the referee's view and saving it as a screenshot: what the loop of
    every game does alike (Splendor's :class:`TableLoop`, Duel's ``DuelLoop``).

    The loop sets these attributes; ``screen`` is None when there is none."""

    screen: Canvas | None
    window: Display | None
    shots: Path | None
    screenshots: list[Path]
    referee: RefereeT
    _shot_count: int

    def redraw(self) -> None:
        if self.screen is None:
            return
        surface = self.screen.draw(self.referee.view())
        if self.window is not None:
            self.window.show(surface)

    def screenshot(self, label: str) -> Path | None:
        if self.screen is None or self.shots is None:
            return None
        self._shot_count += 1
        turn = len(self.referee.history)
        path = self.shots / f"{self._shot_count:04d}-turn{turn:03d}-{label}.png"
        self.screenshots.append(self.screen.save(path))
        return path


class TableLoop(ShowsReferee[Referee[S, T, R, C, Q]], Generic[S, T, R, C, Q]):
    """Feeds a :class:`Referee` and carries out its effects.

    ``reader`` turns a frame into the game's reading (None: no camera);
    ``screen`` draws each view (:class:`Canvas`) and ``window`` shows it
    (:class:`Display`); ``log`` keeps the confirmed turns (:class:`TurnLog`);
    ``indicators`` light and beep (:class:`Lights`); ``echo`` gets one line
    per confirmed turn, undo and result; ``speech`` (:class:`Speech`) hears
    every button event first and every effect and view after, and says what
    it must.  Any of them may be None: the loop then goes without.
    """

    def __init__(
        self,
        referee: Referee[S, T, R, C, Q],
        *,
        reader: Reader[R] | None = None,
        screen: Canvas | None = None,
        window: Display | None = None,
        log: TurnLog | None = None,
        game_id: int | None = None,
        indicators: Lights | None = None,
        shots: Path | None = None,
        echo: Callable[[str], None] = print,
        headers: dict[str, str] | None = None,
        speech: Speech[S, T] | None = None,
    ) -> None:
        self.referee = referee
        self.reader = reader
        self.screen = screen
        self.window = window
        self.log = log
        self.game_id = game_id
        self.indicators = indicators
        self.shots = shots
        self.echo = echo
        self.headers = headers or {}
        self.speech = speech
        self.detector = _detector()
        self.timings = Timings()
        self.confirmed: list[str] = []
        #: how each confirmed turn was found (see TurnConfirmed.via)
        self.via: list[str] = []
        self.screenshots: list[Path] = []
        self.outcome: Outcome | None = None
        self.finished_game_id: int | None = None
        self._last_digest: bytes | None = None
        self._last_reading: R | None = None
        self._last_read_ms = 0.0
        self._last_thumb: bytes | None = None
        self._shot_count = 0
        #: the reason of the last unusable frame, echoed once per spell ("": none)
        self._blind = ""
        self.redraw()
        if speech is not None:
            speech.view(referee.view())

    # --------------------------------------------------------------- inputs
    def feed_frame(
        self, image: np.ndarray, still: Callable[[], np.ndarray | None] | None = None
    ) -> list[Effect[S, T]]:
        """One camera frame: motion, or a still table to read.

        ``image`` is the (low-resolution) frame watched for motion; ``still``
        takes the full-resolution still to read when the table is still (the
        Pi camera); without it ``image`` itself is read.
        """
        start = time.perf_counter()
        if self.detector.update(image).moving:
            return self.dispatch(Motion())
        if self.reader is None:
            return []
        if still is not None:
            full = still()
            if full is None:
                return []
            image = full
        # Identical frames (a recorded folder) reuse the reading; a sparse grid
        # of pixels tells them apart (tokens and cards span tens of pixels).
        sample = np.ascontiguousarray(image[::8, ::8])
        digest = hashlib.blake2b(sample.data, digest_size=16).digest()
        if digest == self._last_digest and self._last_reading is not None:
            reading = self._last_reading
            reused = self._last_read_ms
        else:
            t0 = time.perf_counter()
            try:
                reading = self.reader(image)
            except VisionError as exc:
                return self._unusable(str(exc))
            self._last_read_ms = (time.perf_counter() - t0) * 1000
            self.timings.reads_ms.append(self._last_read_ms)
            self._last_digest, self._last_reading = digest, reading
            self._last_thumb = self._thumbnail(image)
            reused = 0.0
        self._blind = ""  # the picture is back
        before = self.referee.phase
        # The referee keeps a small JPEG of the frame for the log, never the
        # frame itself: a full-resolution still is 36-50 MB.
        effects = self.dispatch(TableRead(reading, self._last_thumb))
        if self.referee.phase is Phase.PROPOSE and (
            before is not Phase.PROPOSE or any(isinstance(e, Screenshot) for e in effects)
        ):
            # A reused reading stands for a fresh frame's read: count its time.
            elapsed = (time.perf_counter() - start) * 1000 + reused
            self.timings.proposals_ms.append(elapsed)
        return effects

    def notify(self, text: str) -> list[Effect[S, T]]:
        """Tell the players ``text`` on the screen (and so by speech): news of the
        loop, not of the game (the colours were not learned from the set-up frame)."""
        return self.dispatch(Notice(text))

    def _unusable(self, reason: str) -> list[Effect[S, T]]:
        """A frame the reader cannot use: the referee says why (once), the game goes on."""
        if reason != self._blind:
            self._blind = reason
            self.echo(f"camera: {reason} (the game goes on)")
        return self.dispatch(Blind(reason))

    @staticmethod
    def _thumbnail(image: np.ndarray) -> bytes | None:
        try:
            return make_thumbnail(image)
        except (ImportError, ValueError):
            return None

    def press(self, event: ButtonEvent | str) -> list[Effect[S, T]]:
        """A button event from a panel (or a name: confirm, next, back, undo)."""
        if self.speech is not None and self.speech.on_button(event):
            # a speech gesture, not the referee's; at set-up the table read so far is heard
            self.speech.on_hold(event, self.referee.state or self.referee.setup_state)
            return []
        mapped = button_event(event)
        return self.dispatch(mapped) if mapped is not None else []

    def dispatch(self, event: Event[R]) -> list[Effect[S, T]]:
        effects = self.referee.handle(event)
        for effect in effects:
            self._carry_out(effect)
        self.redraw()
        if self.speech is not None:
            self.speech.after(self.referee.view(), effects)
        for effect in effects:
            if isinstance(effect, Screenshot):
                self.screenshot(effect.label)
        return effects

    # -------------------------------------------------------------- effects
    def _carry_out(self, effect: Effect[S, T]) -> None:
        if isinstance(effect, TurnConfirmed):
            self._log_turn(effect)
            number = len(self.referee.history)
            self.confirmed.append(str(effect.turn))
            self.via.append(effect.via)
            self.echo(f"{number:3}. {effect.turn}    ({effect.before.player.name})")
        elif isinstance(effect, TurnUndone):
            game_id = self.game_id if self.game_id is not None else self.finished_game_id
            if self.log is not None and game_id is not None:
                try:
                    self.log.undo_last(game_id)
                except Exception as exc:  # the log refuses (a finished game): say so, go on
                    self.echo(f"     the log keeps the turn: {exc}")
                self.game_id = game_id
            if self.confirmed:
                self.confirmed.pop()
                self.via.pop()
            self.echo(f"     undone: {effect.turn}")
        elif isinstance(effect, GameStarted):
            self._start_log(effect)
        elif isinstance(effect, GameOver):
            self.outcome = effect.outcome
            if self.log is not None and self.game_id is not None:
                self.log.finish_with(self.game_id, effect.outcome)
                self.finished_game_id = self.game_id
                self.game_id = None  # a new game (CONFIRM on the standings) gets its own
        elif isinstance(effect, Buzz | SetLight):
            self._indicate(effect)
        elif isinstance(effect, LogHeader):
            if self.log is not None and self.game_id is not None:
                self.log.set_header(self.game_id, effect.name, effect.value)
            else:  # a game not logged yet keeps it for its start
                self.headers[effect.name] = effect.value

    def _start_log(self, effect: GameStarted[S]) -> None:
        if self.log is None or self.game_id is not None:
            return

        names = [p.name for p in effect.state.players]
        self.game_id = self.log.start_game(
            kind_of_state(effect.state).name, names, setup_headers(effect.state, **self.headers)
        )

    def _log_turn(self, effect: TurnConfirmed[S, T]) -> None:
        if self.log is None:
            return
        if self.game_id is None:
            self._start_log(GameStarted(effect.before))
        game_id = self.game_id
        assert game_id is not None  # _start_log gave the game its id
        thumb = effect.source if isinstance(effect.source, bytes) else None
        self.log.append_turn(
            game_id, str(effect.turn), effect.after.digest(), thumb, effect.confidence
        )

    def _indicate(self, effect: Buzz | SetLight) -> None:
        if self.indicators is None:
            return

        if isinstance(effect, Buzz):
            sound = hw.Sound.ERROR if effect.pattern == "error" else hw.Sound.ATTENTION
            self.indicators.beep(sound)
            return
        lights = {
            Light.TURN: (hw.Light.YOUR_TURN,),
            Light.ATTENTION: (hw.Light.ATTENTION,),
            Light.ERROR: (hw.Light.ERROR,),
            Light.OFF: (),
        }[effect.light]
        self.indicators.show(*lights)

    @property
    def waiting_for_table(self) -> bool:
        """True when only a change of the table (not a button) moves the game on."""
        ref = self.referee
        return ref.phase in (Phase.WATCH, Phase.PROBLEM) or (
            ref.phase is Phase.SETUP and ref.setup_state is None
        )

    @property
    def finished(self) -> bool:
        return self.referee.phase is Phase.OVER
