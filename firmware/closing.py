"""The context-manager half every hardware object shares.

Panels, indicators and cameras hold pins or devices that must be released
even when the game loop raises: ``with`` calls ``close()`` on the way out,
whatever happened.  Sources override ``__enter__`` to open the device first.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """``with obj:`` returns ``obj`` and always calls ``obj.close()`` at the end."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
