"""After the game: win chances, best turns and mistakes found by search.

Imports :mod:`companion.rules` only.  :func:`analyse_record` reviews a whole
game (:mod:`.game`).  Each game's package, :mod:`.splendor` and
:mod:`.duel`, holds the determinised Monte Carlo search over its fast
engine (:mod:`companion.rules.fast`) in ``search`` and the simulated players
it finishes games with in ``playout``; :mod:`.agent` plays with the same
search, for the strength figures.
"""

from companion.analysis.game import (
    DEFAULT_BUDGET,
    GameAnalysis,
    PlayerSummary,
    TurnVerdict,
    analyse_record,
    label,
    move_accuracy,
)

__all__ = ["DEFAULT_BUDGET", "GameAnalysis", "PlayerSummary", "TurnVerdict", "analyse_record",
           "label", "move_accuracy"]
