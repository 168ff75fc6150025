"""sd_notify over a real unix datagram socket."""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path

import pytest

from firmware.watchdog import Notifier, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def test_no_socket_means_every_call_is_a_harmless_no_op():
    notifier = Notifier(environ={})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert notifier.tick() is False


def test_messages_reach_the_socket(listener):
    path, sock = listener
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    assert notifier.ready("camera ok")
    assert sock.recv(4096) == b"READY=1\nSTATUS=camera ok"
    assert notifier.status("turn 12\nignored second line")
    assert sock.recv(4096) == b"STATUS=turn 12"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no unix sockets")
def test_abstract_socket_names_start_with_at():
    name = f"splendor-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        sock.bind(b"\0" + name.encode())
    except OSError:
        pytest.skip("abstract unix sockets not supported here")
    sock.settimeout(2)
    with sock:
        assert Notifier(environ={"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(4096) == b"READY=1"


def test_a_vanished_socket_is_reported_not_raised(tmp_path):
    assert Notifier(environ={"NOTIFY_SOCKET": str(tmp_path / "gone")}).ready() is False


def test_tick_feeds_the_watchdog_at_half_its_period(listener, clock):
    path, sock = listener
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}
    notifier = Notifier(environ=env, clock=clock)
    assert notifier.interval == 10.0
    assert notifier.tick()  # first call pings
    assert sock.recv(4096) == b"WATCHDOG=1"
    clock.advance(9.9)
    assert not notifier.tick()
    clock.advance(0.2)
    assert notifier.tick()
    assert sock.recv(4096) == b"WATCHDOG=1"


def test_watchdog_interval_rules():
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "4000000"}) == 2.0
    assert watchdog_interval({"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "nonsense"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
