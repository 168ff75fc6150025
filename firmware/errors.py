"""The one exception family of the hardware layer, and gpiozero's noise kept quiet.

Every failure firmware reports to the program is a :class:`HardwareError`
whose message is one line a player or installer can act on, so the command
line can print it and exit without a traceback.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterable, Iterator


class HardwareError(Exception):
    """A hardware or configuration problem; the message is one actionable line."""


@contextlib.contextmanager
def quiet_gpiozero() -> Iterator[None]:
    """Hide gpiozero's "Falling back from lgpio: ..." warnings while devices are made.

    gpiozero warns once per pin library it cannot load before it finds one (or
    gives up); off the Pi that is four lines of noise before our one-line error,
    and on the Pi the library that works is the only one that matters.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Falling back from")
        yield


def gpio_error(what: str, pins: Iterable[int], exc: Exception) -> HardwareError:
    """One line for a failure to open pins, with a hint when there is no GPIO at all."""
    message = f"cannot open the {what} on GPIO {sorted(pins)}: {exc}"
    if "pin factory" in str(exc):
        message += (
            " (no GPIO here: not a Raspberry Pi, or lgpio missing: sudo apt install python3-lgpio)"
        )
    return HardwareError(message)
