"""After the game: win chances, best turns and mistakes found by search.

Imports :mod:`companion.rules` only.  :func:`analyse_record` reviews a whole
game (:mod:`.game`); :mod:`.search` holds the determinised Monte Carlo
search over the fast engine (:mod:`companion.rules.fast`) and
:mod:`.playout` the simulated players it finishes games with;
:mod:`.agent` plays with the same search, for the strength figures.
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
