"""A fast path through the Splendor rules, for search (analysis, computer players).

Same rules as :mod:`companion.rules`, another shape: a mutable state of
integer lists (:class:`FastState`), the catalogue as tables, action codes,
and no checks.  :mod:`.convert` translates to and from the readable engine;
``tests/rules/test_fast_equivalence.py`` proves both play the same games.
"""

from companion.rules.fast.splendor.convert import (
           action_text,
           determinise,
           from_turn,
           to_state,
           to_turn,
)
from companion.rules.fast.splendor.state import FastState, random_turn

__all__ = ["FastState", "action_text", "determinise", "from_turn", "random_turn", "to_state",
           "to_turn"]
