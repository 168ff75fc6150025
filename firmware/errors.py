"""The one exception family of the hardware layer.

Every failure firmware reports to the program is a :class:`HardwareError`
whose message is one line a player or installer can act on, so the command
line can print it and exit without a traceback.
"""

from __future__ import annotations


class HardwareError(Exception):
    """A hardware or configuration problem; the message is one actionable line."""
