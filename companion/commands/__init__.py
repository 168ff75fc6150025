"""Sub-commands of ``splendor-companion``, one module each.

Every module in this package defines ``register(subparsers)``, which adds its
parser and sets ``func`` to a callable taking the parsed ``argparse.Namespace``
and returning the exit status.  ``companion.cli`` discovers the modules, so a
new command is a new file here and nothing else changes.

A command that fails for a reason the user can act on raises ``CommandError``
with one clear line; the CLI prints it and exits 1.
"""

from __future__ import annotations


class CommandError(Exception):
    """A failure the user can act on; its message is printed as one line."""
