"""systemd's notification protocol (sd_notify), in a few lines of standard library.

The unit is ``Type=notify`` with ``WatchdogSec=``: systemd considers the
companion started when it sends ``READY=1`` (screen up, camera opened), and
restarts it when no ``WATCHDOG=1`` arrives within the watchdog period -- a
main loop stuck on a frozen camera or a deadlock is then fixed by a restart
that resumes the game from the log.  ``STATUS=...`` shows in ``systemctl
status``; ``STOPPING=1`` says a stop is on purpose.

The protocol is one datagram of ``KEY=VALUE`` lines to the unix socket named
by ``$NOTIFY_SOCKET`` (a name starting with ``@`` is in the abstract
namespace: a leading NUL byte).  Outside systemd the variable is absent and
every call is a no-op that returns False, so the program runs the same on a
laptop.  We do not depend on the ``sdnotify``/``systemd`` packages: this is
the whole protocol, and it keeps the Pi install to what apt and pip give.

Use in a main loop::

    notifier = Notifier()
    ...  # open the screen, camera and buttons
    notifier.ready("watching the table")
    try:
        while playing:
            notifier.tick()          # sends WATCHDOG=1 every WatchdogSec/2
            ...                      # one turn of the loop
    finally:
        notifier.stopping()

A loop that can block longer than the watchdog period (30 s in the unit)
must call ``tick()`` inside the wait as well.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


def _address(name: str) -> str | bytes:
    return b"\0" + name[1:].encode() if name.startswith("@") else name


class Notifier:
    """Sends notifications to systemd, when run by systemd.

    ``environ`` (default ``os.environ``) is read once, at construction.
    Sending never raises: a lost notification must not crash the game (the
    watchdog would then restart it, which is the safe outcome anyway).
    """

    def __init__(
        self, environ: Mapping[str, str] | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        env = os.environ if environ is None else environ
        self.socket_name = env.get("NOTIFY_SOCKET") or None
        self.clock = clock
        self.interval = watchdog_interval(env)
        self._last_ping = float("-inf")

    @property
    def enabled(self) -> bool:
        return self.socket_name is not None

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=VALUE`` fields in one datagram; True when it was sent."""
        if self.socket_name is None:
            return False
        message = "\n".join(fields).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                # A full receive queue must not stall the game's loop for long.
                sock.settimeout(0.5)
                sock.connect(_address(self.socket_name))
                sock.sendall(message)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """The service is up: systemd's start job completes."""
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status``."""
        return self.notify(f"STATUS={text.splitlines()[0] if text else ''}")

    def watchdog(self) -> bool:
        """Feed the watchdog now."""
        self._last_ping = self.clock()
        return self.notify("WATCHDOG=1")

    def tick(self) -> bool:
        """Feed the watchdog if half its period has passed; call it every loop turn."""
        if self.interval is None or self.clock() - self._last_ping < self.interval:
            return False
        return self.watchdog()

    def stopping(self) -> bool:
        """The service is stopping on purpose."""
        return self.notify("STOPPING=1")


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between watchdog pings (half of ``$WATCHDOG_USEC``), or None when off.

    ``$WATCHDOG_PID``, when set, must be this process (systemd's rule).
    """
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 1e6 / 2 if value > 0 else None
