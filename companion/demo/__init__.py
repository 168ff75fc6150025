"""The demo harness: seeded games played through the real reader, referee and screen.

Each game's module -- :mod:`companion.demo.splendor`, :mod:`companion.demo.duel`
-- renders or replays a known game's tables and plays the operator who knows
the true game (the button presses that confirm, step to or enter each turn).
The ``demo`` command and the tests drive them.

Once ``companion/referee/{splendor,duel}/demo.py``: DESIGN.md keeps
:mod:`companion.referee` for the turn loop, and a harness that renders
tables and scripts buttons is a user of the referee, not part of it.
"""


def computer_moves(ref: object) -> bool:
    """Whether a computer seat is to move: the operators then leave CONFIRM to mean "its
    planned turn is done" (:mod:`companion.referee.computer`), never "what did I miss"."""
    to_move = getattr(ref, "computer_to_move", None)
    return to_move is not None and to_move() is not None
