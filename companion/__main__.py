"""``python -m companion`` is the same as the ``splendor-companion`` command."""

from companion.cli import main

raise SystemExit(main())
