"""Camera sources behind one interface: frames with timestamps, a still, close.

Sources, chosen by a spec string (:func:`parse_source` / :func:`open_source`):

==================  =========================================================
``picamera``        the Raspberry Pi camera (picamera2, imported only then)
``usb:N``           a webcam, OpenCV ``VideoCapture(N)``
``video:FILE``      a video file, OpenCV ``VideoCapture(FILE)``
``recorded:DIR``    the images of a folder in name order (the default off the Pi)
==================  =========================================================

``read()`` gives the frame to watch for motion (the Pi camera's low-resolution
stream); ``still()`` gives the frame to read cards from (the Pi camera's full
12 MP sensor: DESIGN.md "Resolution" -- the whole table at 2028x1520 is only
1.6 px/mm, the 4608x2592 still about 4 px/mm).  Other sources have a single
resolution and return the same kind of frame from both.

All images are BGR ``uint8`` arrays (OpenCV's order).  Timestamps are seconds
of the source's monotonic clock (``time.monotonic`` unless injected), taken
when the frame is handed over, so every source stamps the same way.

Failures are :class:`CameraError` with one line to act on.  Two kinds matter
to a caller: :class:`CameraUnavailable` (the camera is missing or stopped
answering; trying again later may work: see :class:`ResilientSource`) and
:class:`EndOfSource` (a folder or video file has been played to its end; not
a failure).

Recorded folders: files with an image suffix are played in natural name order
(``frame2`` before ``frame10``).  An image that cannot be decoded is *skipped
with a warning* (logged, and listed in ``skipped``), because one bad file in a
long recording should not end a demo; a folder where no image can be decoded
is an error.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import numpy as np

from firmware.closing import Closing
from firmware.errors import HardwareError

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], None]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")

#: What to do when picamera2 cannot be imported (it is not on PyPI for the Pi's libcamera).
PICAMERA_MISSING = (
    "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
    "and create the virtual environment with `python3 -m venv --system-site-packages` "
    "(make install-pi does both)"
)


class CameraError(HardwareError):
    """A camera problem; the message is one line."""


class CameraUnavailable(CameraError):
    """The camera is missing or stopped giving frames; it may come back."""


class EndOfSource(CameraError):
    """A recorded folder or video file has no more frames."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One image (BGR uint8, height x width x 3) and when it was taken."""

    image: np.ndarray
    timestamp: float
    #: Where it came from: a file name, or ``"frame N"``.
    name: str = ""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])


class FrameSource(Closing, ABC):
    """Open, read frames, close.  ``with source:`` opens and always closes.

    ``open`` and ``close`` may be called more than once.
    """

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.is_open = False

    #: A short human name for messages ("USB camera 0", "folder scenes/").
    description: str = "camera"

    def open(self) -> None:
        if not self.is_open:
            self._open()
            self.is_open = True

    def close(self) -> None:
        if self.is_open:
            self.is_open = False
            self._close()

    def read(self) -> Frame:
        """The next frame for motion watching."""
        self._check_open()
        return self._read()

    def still(self) -> Frame:
        """A frame at the best resolution, for reading cards (default: ``read``)."""
        self._check_open()
        return self._still()

    def frames(self) -> Iterator[Frame]:
        """Frames until the source ends (forever for cameras)."""
        while True:
            try:
                yield self.read()
            except EndOfSource:
                return

    def _check_open(self) -> None:
        if not self.is_open:
            raise CameraError(f"{self.description} is not open")

    @abstractmethod
    def _open(self) -> None: ...

    @abstractmethod
    def _read(self) -> Frame: ...

    def _still(self) -> Frame:
        return self._read()

    @abstractmethod
    def _close(self) -> None: ...

    def __enter__(self) -> Self:
        self.open()
        return self


@contextlib.contextmanager
def _quiet_opencv() -> Iterator[None]:
    """Silence OpenCV's own WARN lines while opening: our error says it in one line."""
    # lazy: OpenCV loads only when pixels are read
    import cv2

    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(level)


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send file descriptor 2 to /dev/null for a moment: FFmpeg writes its own
    lines ("moov atom not found") straight to it, past OpenCV's log level.
    Only around opening a capture, where our own error says it in one line."""
    try:
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no stderr to silence
        yield
        return
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _natural_key(path: Path) -> list[Any]:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class RecordedSource(FrameSource):
    """The images of a folder in natural name order; ``loop`` starts over at the end."""

    def __init__(self, directory: str | Path, loop: bool = False, clock: Clock = time.monotonic):
        super().__init__(clock)
        self.directory = Path(directory)
        self.loop = loop
        self.description = f"recorded folder {self.directory}"
        self.files: list[Path] = []
        self.skipped: list[Path] = []
        self._index = 0

    def _open(self) -> None:
        if not self.directory.is_dir():
            raise CameraError(f"recorded folder {self.directory} does not exist")
        self.files = sorted(
            (p for p in self.directory.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES),
            key=_natural_key,
        )
        if not self.files:
            raise CameraError(
                f"recorded folder {self.directory} has no images ({', '.join(IMAGE_SUFFIXES)})"
            )
        self._index = 0
        self.skipped = []

    def _read(self) -> Frame:
        # lazy: OpenCV loads only when pixels are read
        import cv2

        failures_in_a_row = 0
        unread: list[Path] = []  # warned about once a readable one shows the folder is good
        while True:
            if self._index >= len(self.files):
                if not self.loop:
                    raise EndOfSource(f"{self.description}: no more images")
                self._index = 0
            path = self.files[self._index]
            self._index += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                for skipped in unread:
                    log.warning("skipping %s: not a readable image", skipped)
                return Frame(image, self.clock(), path.name)
            if path not in self.skipped:
                unread.append(path)
                self.skipped.append(path)
            failures_in_a_row += 1
            if failures_in_a_row >= len(self.files):
                # one line: the warnings would only repeat it file by file
                raise CameraError(
                    f"none of the {len(self.files)} images in {self.directory} can be read"
                    f" ({self.files[0].name} is not a readable image)"
                )

    def _close(self) -> None:
        self._index = 0


class OpenCVSource(FrameSource):
    """A USB webcam (``target`` an int) or a video file (a path), via OpenCV.

    A video file ends with :class:`EndOfSource` (or starts over with ``loop``);
    a webcam that stops giving frames raises :class:`CameraUnavailable`.
    ``size`` asks a webcam for a resolution (it may pick the nearest it has).
    """

    def __init__(
        self,
        target: int | str | Path,
        loop: bool = False,
        size: tuple[int, int] | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(clock)
        self.target = target if isinstance(target, int) else Path(target)
        self.loop = loop
        self.size = size
        self.description = (
            f"USB camera {target}" if isinstance(target, int) else f"video file {target}"
        )
        self._capture: Any = None
        self._count = 0
        self._first: Any = None

    @property
    def is_file(self) -> bool:
        return not isinstance(self.target, int)

    def _open(self) -> None:
        """Open the capture and read its first frame (kept for the first ``read``).

        A source that cannot deliver a frame at start is an error now, in one
        line, not a silent end or an endless retry later: a picture given as
        a video (OpenCV would play it as a one-frame "video"), a file FFmpeg
        cannot decode, a webcam that opens but sends nothing.  FFmpeg's own
        complaints on stderr are hidden while trying (:func:`_quiet_stderr`).
        """
        # lazy: OpenCV loads only when pixels are read
        import cv2

        if isinstance(self.target, Path):
            if not self.target.is_file():
                raise CameraError(f"video file {self.target} does not exist")
            if cv2.haveImageReader(str(self.target)):
                raise CameraError(
                    f"{self.target} is a picture, not a video (use recorded:DIR for a folder"
                    " of pictures)"
                )
        target = self.target if isinstance(self.target, int) else str(self.target)
        with _quiet_opencv(), _quiet_stderr():
            capture = cv2.VideoCapture(target)
            opened = capture.isOpened()
            ok, image = capture.read() if opened else (False, None)
        if not opened:
            capture.release()
            if self.is_file:
                raise CameraError(f"cannot decode video file {self.target}")
            raise CameraUnavailable(
                f"cannot open USB camera {self.target}: is it plugged in? (ls /dev/video*)"
            )
        if not ok or image is None:
            capture.release()
            if self.is_file:
                raise CameraError(f"video file {self.target} holds no frame that can be decoded")
            raise CameraUnavailable(f"USB camera {self.target} opened but gives no frames")
        if self.size is not None and not self.is_file:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
            image = None  # the first frame was of the old size
        self._capture = capture
        self._count = 0
        self._first = image

    def _read(self) -> Frame:
        # lazy: OpenCV loads only when pixels are read
        import cv2

        if self._first is not None:
            ok, image, self._first = True, self._first, None
        else:
            ok, image = self._capture.read()
        if not ok and self.is_file and self.loop and self._count > 0:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._capture.read()
        if not ok or image is None:
            if self.is_file:
                raise EndOfSource(f"{self.description}: no more frames")
            raise CameraUnavailable(f"{self.description} stopped giving frames")
        self._count += 1
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        return Frame(image, self.clock(), f"frame {self._count}")

    def _close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera (Camera Module 3 Wide) through picamera2.

    One configuration serves both uses, so no mode switch (which takes about
    a second and resets the sensor) happens mid-game: the *main* stream is the
    full sensor (4608x2592 on a Camera Module 3, BGR -- picamera2's "RGB888"
    is B, G, R in memory) for :meth:`still`, and the *lores* stream
    (``motion_size``, YUV420, converted to BGR) for :meth:`read`.

    Colours must not drift during a game (the card reader learns them once at
    calibration), so after ``settle_time`` seconds of automatic exposure and
    white balance, one autofocus cycle runs (on modules that focus) and the
    exposure time, analogue gain and colour gains the camera settled on are
    fixed with ``AeEnable``/``AwbEnable`` off (:func:`lock_exposure`).
    """

    description = "Raspberry Pi camera"

    def __init__(
        self,
        motion_size: tuple[int, int] = (640, 360),
        settle_time: float = 1.5,
        camera_num: int = 0,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        super().__init__(clock)
        self.motion_size = motion_size
        self.settle_time = settle_time
        self.camera_num = camera_num
        self.sleep = sleep
        self._camera: Any = None
        self.locked_controls: dict[str, Any] = {}

    def _open(self) -> None:
        try:
            # lazy: picamera2 exists only on a Pi
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError(PICAMERA_MISSING) from None
        try:
            camera = Picamera2(self.camera_num)
        except Exception as exc:  # picamera2 raises IndexError/RuntimeError when none is found
            raise CameraUnavailable(
                f"no Raspberry Pi camera found ({exc}): check the ribbon cable, then "
                "`rpicam-hello --list-cameras`"
            ) from None
        try:
            config = camera.create_still_configuration(
                main={"size": tuple(camera.sensor_resolution), "format": "RGB888"},
                lores={"size": tuple(self.motion_size), "format": "YUV420"},
                buffer_count=2,
            )
            camera.configure(config)
            camera.start()
            focuses = "AfMode" in getattr(camera, "camera_controls", {})
            if focuses and not camera.autofocus_cycle():
                log.warning("the camera's autofocus did not converge; check the focus")
            self.sleep(self.settle_time)
            self.locked_controls = lock_exposure(camera)
        except Exception as exc:
            camera.close()
            raise CameraUnavailable(f"the Raspberry Pi camera failed to start: {exc}") from None
        self._camera = camera

    def _capture(self, stream: str) -> np.ndarray:
        try:
            with self._camera.captured_request() as request:
                return np.array(request.make_array(stream), copy=True)
        except Exception as exc:
            raise CameraUnavailable(
                f"the Raspberry Pi camera stopped giving frames: {exc}"
            ) from None

    def _read(self) -> Frame:
        # lazy: OpenCV loads only when pixels are read
        import cv2

        yuv = self._capture("lores")
        return Frame(cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420), self.clock(), "lores")

    def _still(self) -> Frame:
        return Frame(self._capture("main")[:, :, :3], self.clock(), "still")

    def _close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
            finally:
                self._camera.close()
                self._camera = None


def lock_exposure(camera: Any) -> dict[str, Any]:
    """Fix exposure and white balance at the values the camera settled on.

    Reads the metadata of the next frame and sets ``AeEnable``/``AwbEnable``
    off with its ``ExposureTime``, ``AnalogueGain`` and ``ColourGains``.
    Returns the controls that were set.
    """
    metadata = camera.capture_metadata()
    controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
    if "ExposureTime" in metadata:
        controls["ExposureTime"] = int(metadata["ExposureTime"])
    if "AnalogueGain" in metadata:
        controls["AnalogueGain"] = float(metadata["AnalogueGain"])
    if "ColourGains" in metadata:
        red, blue = metadata["ColourGains"]
        controls["ColourGains"] = (float(red), float(blue))
    camera.set_controls(controls)
    return controls


SPEC_HELP = "use picamera, usb:N, video:FILE or recorded:DIR"


def parse_source(
    spec: str,
    loop: bool = False,
    motion_size: tuple[int, int] = (640, 360),
    settle_time: float = 1.5,
    clock: Clock = time.monotonic,
) -> FrameSource:
    """The (unopened) source a spec names; raises CameraError for a bad spec."""
    kind, _, arg = spec.partition(":")
    if kind == "picamera" and (not arg or arg.isdigit()):
        return PiCameraSource(motion_size, settle_time, int(arg or 0), clock=clock)
    if kind == "usb" and arg.isdigit():
        return OpenCVSource(int(arg), clock=clock)
    if kind == "video" and arg:
        return OpenCVSource(arg, loop=loop, clock=clock)
    if kind == "recorded" and arg:
        return RecordedSource(arg, loop=loop, clock=clock)
    raise CameraError(f"unknown camera {spec!r}: {SPEC_HELP}")


def open_source(spec: str, loop: bool = False, **kwargs: Any) -> FrameSource:
    """:func:`parse_source`, opened.  Use as ``with open_source("usb:0") as camera:``."""
    source = parse_source(spec, loop=loop, **kwargs)
    source.open()
    return source


class ResilientSource(Closing):
    """A camera that may disappear mid-game without stopping the program.

    ``read()`` and ``still()`` return a Frame, or None while the camera is
    away: they never block, so the main loop keeps drawing and reading the
    buttons.  The loss is reported once (a warning and ``on_change(False,
    message)``); reopening is then tried no sooner than ``first_delay``
    seconds later, the delay doubling after each failed try up to
    ``max_delay``; the return is reported once too (``on_change(True, ...)``).
    Only :class:`CameraUnavailable` on the first open is tolerated this way;
    other errors at the first open (picamera2 missing, a folder that does not
    exist) are raised, since waiting will not fix them.  :class:`EndOfSource`
    passes through.

    ``factory`` makes a fresh, unopened source (e.g. ``lambda:
    parse_source(spec)``); ``clock`` is injectable so tests need no waiting.
    """

    def __init__(
        self,
        factory: Callable[[], FrameSource],
        first_delay: float = 0.5,
        max_delay: float = 30.0,
        clock: Clock = time.monotonic,
        on_change: Callable[[bool, str], None] | None = None,
    ) -> None:
        self.factory = factory
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.clock = clock
        self.on_change = on_change
        self.source: FrameSource | None = None
        self.available = False
        self.message = "not opened"
        self.attempts = 0  # reopening attempts since the loss
        self.retry_at = 0.0
        self._delay = first_delay

    def open(self) -> None:
        source = self.factory()
        try:
            source.open()
        except CameraUnavailable as exc:
            # not "lost": the caller says what is missing at start (``available``)
            self._lost(str(exc), warn=False)
            return
        self.source = source
        self.available = True
        self.message = "ok"

    def read(self) -> Frame | None:
        return self._get("read")

    def still(self) -> Frame | None:
        return self._get("still")

    def _get(self, method: str) -> Frame | None:
        if not self.available and not self._reopen():
            return None
        assert self.source is not None
        try:
            frame: Frame = getattr(self.source, method)()
        except EndOfSource:
            raise
        except CameraError as exc:
            self._lost(str(exc))
            return None
        return frame

    def _reopen(self) -> bool:
        now = self.clock()
        if now < self.retry_at:
            return False
        self.attempts += 1
        source = self.factory()
        try:
            source.open()
        except CameraError as exc:
            source.close()
            self._delay = min(self._delay * 2, self.max_delay)
            self.retry_at = now + self._delay
            log.debug("camera still unavailable (try %d): %s", self.attempts, exc)
            return False
        self.source = source
        self.available = True
        self.message = f"camera is back after {self.attempts} tries"
        log.warning("%s", self.message)
        if self.on_change is not None:
            self.on_change(True, self.message)
        return True

    def _lost(self, message: str, warn: bool = True) -> None:
        if self.source is not None:
            try:
                self.source.close()
            except Exception as exc:  # a dead camera may fail to close; it is gone anyway
                log.debug("closing the lost camera failed: %s", exc)
            self.source = None
        self.available = False
        self.message = message
        self.attempts = 0
        self._delay = self.first_delay
        self.retry_at = self.clock() + self.first_delay
        if warn:
            log.warning("camera lost: %s; retrying in the background", message)
        if self.on_change is not None:
            self.on_change(False, message)

    def close(self) -> None:
        if self.source is not None:
            self.source.close()
            self.source = None
        self.available = False

    def __enter__(self) -> Self:
        self.open()
        return self
