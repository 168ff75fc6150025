"""``python -m companion`` is the same as the ``splendor-companion`` command.

Guarded so that a process pool started with "spawn" (macOS, Windows) can
import this module in its workers without running the program again.
"""

from companion.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
