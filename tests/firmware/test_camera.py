"""Camera sources: recorded folders, video files, the Pi camera (faked), failures."""

from __future__ import annotations

import logging
import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.camera import (
    PICAMERA_MISSING,
    CameraError,
    CameraUnavailable,
    EndOfSource,
    Frame,
    FrameSource,
    OpenCVSource,
    PiCameraSource,
    RecordedSource,
    ResilientSource,
    open_source,
    parse_source,
)


def solid(value: int, size=(32, 24)) -> np.ndarray:
    """A BGR image whose blue channel is ``value`` (to recognise it after a round trip)."""
    image = np.zeros((size[1], size[0], 3), np.uint8)
    image[:, :, 0] = value
    image[:, :, 2] = 255 - value
    return image


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for index in (1, 2, 10):  # natural order: 1, 2, 10 (name order would put 10 before 2)
        cv2.imwrite(str(tmp_path / f"frame{index}.png"), solid(index * 20))
    (tmp_path / "notes.txt").write_text("not an image, not a frame")
    return tmp_path


def blue(frame: Frame) -> int:
    return int(frame.image[0, 0, 0])


def test_recorded_folder_plays_images_in_natural_name_order(folder, clock):
    with RecordedSource(folder, clock=clock) as source:
        frames = list(source.frames())
    assert [f.name for f in frames] == ["frame1.png", "frame2.png", "frame10.png"]
    assert [blue(f) for f in frames] == [20, 40, 200]
    assert all(f.image.dtype == np.uint8 and f.image.shape == (24, 32, 3) for f in frames)
    assert frames[0].size == (32, 24)
    assert all(f.timestamp == clock.now for f in frames)
    assert not source.is_open


def test_recorded_folder_ends_or_loops(folder):
    with RecordedSource(folder) as source:
        for _ in range(3):
            source.read()
        with pytest.raises(EndOfSource):
            source.read()
    with RecordedSource(folder, loop=True) as source:
        names = [source.read().name for _ in range(7)]
    assert names == ["frame1.png", "frame2.png", "frame10.png"] * 2 + ["frame1.png"]


def test_unreadable_image_is_skipped_with_a_warning(folder, caplog):
    (folder / "frame3.png").write_bytes(b"\x89PNG this is not really a png")
    with caplog.at_level(logging.WARNING), RecordedSource(folder) as source:
        names = [f.name for f in source.frames()]
    assert names == ["frame1.png", "frame2.png", "frame10.png"]
    assert source.skipped == [folder / "frame3.png"]
    assert "frame3.png" in caplog.text


def test_folder_of_only_unreadable_images_is_an_error(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"nope")
    with pytest.raises(CameraError, match="none of the 1 images"), RecordedSource(tmp_path) as s:
        s.read()


def test_missing_or_empty_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        RecordedSource(tmp_path / "absent").open()
    with pytest.raises(CameraError, match="has no images"):
        RecordedSource(tmp_path).open()


def test_reading_a_closed_source_is_an_error(folder):
    with pytest.raises(CameraError, match="is not open"):
        RecordedSource(folder).read()


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    assert writer.isOpened(), "OpenCV cannot write MJPG here"
    for index in range(6):
        writer.write(solid(index * 40, (64, 48)))
    writer.release()
    return path


def test_video_file_gives_its_frames_then_ends(video):
    with open_source(f"video:{video}") as source:
        assert isinstance(source, OpenCVSource)
        frames = list(source.frames())
    assert len(frames) == 6
    assert frames[0].image.shape == (48, 64, 3)
    # MJPG is lossy: the colour survives within a tolerance
    assert [blue(f) for f in frames] == pytest.approx([0, 40, 80, 120, 160, 200], abs=12)
    assert source.still is not None


def test_video_file_loops(video):
    with OpenCVSource(video, loop=True) as source:
        values = [blue(source.read()) for _ in range(8)]
    assert values[6:] == pytest.approx(values[:2], abs=2)


def test_missing_or_broken_video_is_a_clear_error(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        open_source(f"video:{tmp_path / 'none.avi'}")
    broken = tmp_path / "broken.avi"
    broken.write_bytes(b"not a video at all" * 10)
    with pytest.raises(CameraError, match="cannot decode video file"):
        open_source(f"video:{broken}")


def test_absent_usb_camera_is_unavailable():
    with pytest.raises(CameraUnavailable, match="cannot open USB camera 63"):
        open_source("usb:63")


@pytest.mark.parametrize(
    "spec", ["", "usb", "usb:x", "recorded:", "video:", "webcam:0", "picamera:a"]
)
def test_bad_specs_name_the_accepted_forms(spec):
    with pytest.raises(CameraError, match="use picamera, usb:N, video:FILE or recorded:DIR"):
        parse_source(spec)


def test_specs_pick_their_sources(tmp_path):
    assert isinstance(parse_source("picamera"), PiCameraSource)
    assert parse_source("picamera:1").camera_num == 1
    assert parse_source("usb:2").target == 2
    recorded = parse_source(f"recorded:{tmp_path}", loop=True)
    assert isinstance(recorded, RecordedSource) and recorded.loop


# -- the Pi camera ----------------------------------------------------------------------------


def test_missing_picamera2_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import now raises ImportError
    with pytest.raises(CameraError) as info:
        open_source("picamera")
    assert str(info.value) == PICAMERA_MISSING
    assert "sudo apt install python3-picamera2" in PICAMERA_MISSING
    assert "--system-site-packages" in PICAMERA_MISSING


class FakeRequest:
    def __init__(self, camera: FakePicamera2) -> None:
        self.camera = camera

    def make_array(self, stream: str) -> np.ndarray:
        if self.camera.broken:
            raise RuntimeError("Camera frontend has timed out!")
        width, height = self.camera.config[stream]["size"]
        if stream == "lores":  # YUV420 planar: height * 3/2 rows of width bytes, mid grey
            return np.full((height * 3 // 2, width), 128, np.uint8)
        return np.full((height, width, 3), 77, np.uint8)

    def release(self) -> None:
        self.camera.released += 1


class FakePicamera2:
    """Just enough of picamera2.Picamera2 to drive PiCameraSource."""

    instances: list[FakePicamera2] = []  # noqa: RUF012 - a test spy

    def __init__(self, camera_num: int = 0) -> None:
        self.sensor_resolution = (4608, 2592)
        self.camera_controls = {"AfMode": (0, 2, 0)}
        self.controls: dict = {}
        self.calls: list[str] = []
        self.released = 0
        self.broken = False
        FakePicamera2.instances.append(self)

    def create_still_configuration(self, main, lores, buffer_count):
        return {"main": main, "lores": lores, "buffer_count": buffer_count}

    def configure(self, config):
        self.config = config

    def start(self):
        self.calls.append("start")

    def autofocus_cycle(self):
        self.calls.append("autofocus")
        return True

    def capture_metadata(self):
        self.calls.append("metadata")
        return {"ExposureTime": 16666, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "Lux": 300}

    def set_controls(self, controls):
        self.calls.append("set_controls")
        self.controls.update(controls)

    def captured_request(self):
        import contextlib

        @contextlib.contextmanager
        def manager():
            request = FakeRequest(self)
            try:
                yield request
            finally:
                request.release()

        return manager()

    def stop(self):
        self.calls.append("stop")

    def close(self):
        self.calls.append("close")


@pytest.fixture
def fake_picamera2(monkeypatch):
    FakePicamera2.instances = []
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_pi_camera_fixes_exposure_and_white_balance_after_settling(fake_picamera2, clock):
    source = PiCameraSource(settle_time=1.5, clock=clock, sleep=clock.sleep)
    with source:
        camera = fake_picamera2.instances[0]
        assert camera.calls[:4] == ["start", "autofocus", "metadata", "set_controls"]
        assert clock.sleeps == [1.5]  # metadata read after settling
        assert camera.controls == {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": 16666,
            "AnalogueGain": 2.5,
            "ColourGains": (1.9, 1.6),
        }
        assert camera.config["main"]["size"] == (4608, 2592)
        motion = source.read()
        still = source.still()
    assert motion.image.shape == (360, 640, 3)  # the low-resolution stream, as BGR
    assert motion.image.dtype == np.uint8 and abs(int(motion.image[0, 0, 1]) - 128) <= 2
    assert still.image.shape == (2592, 4608, 3)  # the full sensor for reading cards
    assert camera.released == 2  # every request handed back
    assert camera.calls[-2:] == ["stop", "close"]


def test_pi_camera_that_stops_answering_is_unavailable(fake_picamera2, clock):
    with PiCameraSource(clock=clock, sleep=clock.sleep) as source:
        fake_picamera2.instances[0].broken = True
        with pytest.raises(CameraUnavailable, match="stopped giving frames: Camera frontend"):
            source.read()
        assert fake_picamera2.instances[0].released == 1


def test_no_pi_camera_connected_is_unavailable(monkeypatch):
    module = types.ModuleType("picamera2")

    def no_camera(camera_num=0):
        raise IndexError("list index out of range")

    module.Picamera2 = no_camera
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with pytest.raises(CameraUnavailable, match=r"no Raspberry Pi camera found.*ribbon cable"):
        open_source("picamera")


# -- a camera disappearing mid-game ---------------------------------------------------------


class FlakyCamera(FrameSource):
    """A camera whose availability the test switches on and off (shared ``state``)."""

    description = "flaky camera"

    def __init__(self, state: dict, clock) -> None:
        super().__init__(clock)
        self.state = state

    def _open(self) -> None:
        self.state["opens"] += 1
        if not self.state["plugged"]:
            raise CameraUnavailable("flaky camera is unplugged")

    def _read(self) -> Frame:
        if not self.state["plugged"]:
            raise CameraUnavailable("flaky camera stopped giving frames")
        self.state["reads"] += 1
        return Frame(solid(1), self.clock(), f"frame {self.state['reads']}")

    def _close(self) -> None:
        self.state["closes"] += 1


@pytest.fixture
def flaky(clock):
    state = {"plugged": True, "opens": 0, "reads": 0, "closes": 0}
    changes: list[tuple[bool, str]] = []
    source = ResilientSource(
        lambda: FlakyCamera(state, clock),
        first_delay=0.5,
        max_delay=4.0,
        clock=clock,
        on_change=lambda ok, message: changes.append((ok, message)),
    )
    return source, state, changes


def test_lost_camera_is_reported_once_and_retried_with_back_off(flaky, clock, caplog):
    source, state, changes = flaky
    with source, caplog.at_level(logging.WARNING):
        assert source.read() is not None
        state["plugged"] = False
        lost_at = clock.now
        assert source.read() is None  # lost: reported, the loop goes on
        assert changes == [(False, "flaky camera stopped giving frames")]
        # Poll every 1/8 s (as a main loop would; exact in binary) for 20 s and record
        # when reopening was tried.
        tries = []
        for _ in range(160):
            clock.advance(0.125)
            opens = state["opens"]
            assert source.read() is None
            if state["opens"] > opens:
                tries.append(clock.now - lost_at)
        # first after 0.5 s, then the delay doubles (1, 2, 4) and stays at max_delay (4)
        assert tries == [0.5, 1.5, 3.5, 7.5, 11.5, 15.5, 19.5]
        assert len(changes) == 1  # reported once, not at every try
        assert caplog.text.count("camera lost") == 1
        state["plugged"] = True
        clock.advance(4.0)
        frame = source.read()
        assert frame is not None and source.available
        assert changes[-1] == (True, "camera is back after 8 tries")
        # a second loss starts the back-off from the beginning again
        state["plugged"] = False
        assert source.read() is None
        assert source.retry_at == pytest.approx(clock.now + 0.5)
    assert state["closes"] >= 2


def test_camera_absent_at_start_is_retried_too(flaky, clock):
    source, state, changes = flaky
    state["plugged"] = False
    source.open()  # does not raise: the game can start without a camera
    assert not source.available and source.read() is None
    state["plugged"] = True
    clock.advance(0.5)
    assert source.still() is not None
    assert [ok for ok, _ in changes] == [False, True]


def test_errors_that_waiting_cannot_fix_are_raised_at_once(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        ResilientSource(lambda: RecordedSource(tmp_path / "absent")).open()


def test_end_of_a_recording_passes_through(folder):
    with ResilientSource(lambda: RecordedSource(folder)) as source:
        for _ in range(3):
            assert source.read() is not None
        with pytest.raises(EndOfSource):
            source.read()


def test_a_camera_missing_at_start_is_not_reported_as_lost(clock, caplog):
    """At start the caller reports a missing camera (``run`` stops with one line), so
    the wrapper does not warn "camera lost" as well; it still retries later."""
    state = {"plugged": False, "opens": 0, "reads": 0, "closes": 0}
    source = ResilientSource(lambda: FlakyCamera(state, clock), clock=clock)
    with caplog.at_level(logging.WARNING):
        source.open()
    assert not source.available and "camera lost" not in caplog.text
