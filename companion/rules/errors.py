"""The three ways a turn can be wrong, as python-chess separates them.

They map onto what the referee tells a player: ``NotationError`` means the
text could not be read at all; ``IllegalAction`` means it was read but the
rules forbid it, and its message names the rule with the numbers involved;
``AmbiguousAction`` means it could mean more than one legal turn.
All are ``ValueError`` so callers that only care about "bad input" can catch one type.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error raised by :mod:`companion.rules`."""


class NotationError(RulesError):
    """Text that is not a well-formed action, turn or record line."""


class IllegalAction(RulesError):
    """A well-formed action that the rules forbid in this state.

    The message is meant for the screen: it says which rule is broken and
    with which numbers ("Take 2 needs at least 4 red in the supply; there are 3").
    """


class AmbiguousAction(RulesError):
    """Text that matches more than one legal action."""


class SetupError(RulesError):
    """A game set up against the rules (wrong number of nobles, cards...)."""
