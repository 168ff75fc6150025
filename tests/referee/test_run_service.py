"""``run`` as the systemd service runs it: it tells systemd it is ready, feeds
the watchdog, says it is stopping, takes its pins from the config file, and a
live camera that is missing does not stop a game entered with the buttons."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from companion.cli import main
from tests.referee.test_commands import _button_script, _live_turns


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(0.0)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")  # a ping at once, then every 10 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    yield sock
    sock.close()


def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built-in defaults: no config named, none in the (empty) XDG config folder."""
    monkeypatch.delenv("SPLENDOR_COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config-home"))


def _messages(sock: socket.socket) -> list[str]:
    out = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except BlockingIOError:
            return out


def test_run_notifies_systemd_and_feeds_the_watchdog(tmp_path, notify_socket, monkeypatch):
    no_user_config(tmp_path, monkeypatch)
    script, turns = _button_script(2)
    buttons = tmp_path / "buttons.txt"
    buttons.write_text(script)
    db = tmp_path / "games.db"
    argv = ["run", "--players", "3", "--names", "Ann,Bob,Cy", "--no-camera", "--db", str(db)]
    assert main([*argv, "--buttons", f"script:{buttons}"]) == 0
    assert _live_turns(db) == turns
    messages = _messages(notify_socket)
    assert messages[0].startswith("READY=1")
    assert "WATCHDOG=1" in messages
    assert messages[-1] == "STOPPING=1"


def test_a_bad_config_file_is_one_line(tmp_path, monkeypatch, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nconfirm_pin = 5\n[indicators]\nyour_turn_pin = 5\n")
    monkeypatch.setenv("SPLENDOR_COMPANION_CONFIG", str(config))
    assert main(["run", "--players", "2", "--no-camera", "--db", str(tmp_path / "g.db")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "config:" in err[0] and "GPIO5 is used twice" in err[0]


def test_a_live_camera_missing_at_start_is_one_line(tmp_path, capsys):
    """usb:9 does not exist here: ``run`` stops at once with one line (issue 14),
    instead of starting a game that waits for a camera forever."""
    code = main(["run", "--players", "2", "--camera", "usb:9", "--buttons", "keyboard",
                 "--db", str(tmp_path / "g.db")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    assert "camera usb:9: cannot open USB camera 9" in err[0]
    assert not (tmp_path / "g.db").exists()


def test_a_live_camera_lost_mid_game_is_reported_once_and_retried(capsys, monkeypatch):
    """A camera that worked at start and then goes away gives no frame (so the loop
    goes on with the buttons), is reported once, and is retried in the background
    instead of ending the game."""
    import argparse

    import numpy as np

    import firmware.camera as cameras
    from companion.commands._table import open_camera
    from firmware.config import Config
    from firmware.watchdog import Notifier

    class Flaky(cameras.FrameSource):
        """Opens (the first time only) and gives one frame, then is unplugged."""

        opened = 0

        def _open(self) -> None:
            Flaky.opened += 1
            if Flaky.opened > 1:
                raise cameras.CameraUnavailable("USB camera 9 is unplugged")

        def _read(self) -> cameras.Frame:
            if getattr(self, "given", False):
                raise cameras.CameraUnavailable("USB camera 9 stopped giving frames")
            self.given = True
            return cameras.Frame(np.zeros((4, 4, 3), np.uint8), 0.0, "frame 1")

        def _close(self) -> None:
            pass

    monkeypatch.setattr(cameras, "parse_source", lambda spec, **kw: Flaky())
    args = argparse.Namespace(no_camera=False, camera="usb:9")
    camera = open_camera(args, Config(), Notifier(environ={}))
    try:
        assert camera.read() is not None
        assert camera.read() is None and camera.still() is None
        assert camera.read() is None
    finally:
        camera.close()
    err = capsys.readouterr().err
    assert err.count("camera:") == 1, err
