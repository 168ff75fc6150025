r"""Per-category confidence above which an answer of the reader is taken as sure.

The reader gives every answer a confidence; the referee acts on an answer
without asking only when it is at least :data:`SURE` of its category.  A
threshold is what makes "sure" mean something: among sure answers at most
:data:`SURE_WRONG_GOAL` may be wrong (issue 38: one in a thousand).

Rule: thresholds are chosen on the DESIGN split only, by

    python -m vision.training.sure --game splendor

which renders the design split's tables (2 and 4 players, every difficulty, both
lenses), picks per category the lowest confidence above which at most one answer
in a thousand was wrong (on fewer than a thousand such answers, none: see
``vision.calibration_report.choose_threshold``), scores that on the check split's
tables, and writes both into ``vision/sure.toml``.  The check split only
*reports*; a threshold is never moved by hand.  A category whose design frames
never reached the goal gets :data:`NEVER` (no answer is sure: the referee asks).

Which threshold applies is decided by the answer, not by the truth, because
the referee only knows the answer: a token slot read "empty" is judged by the
empty-slot threshold, one read as a chip by the chip threshold.
"""

from __future__ import annotations

from vision import sure

#: At most this share of the answers taken as sure may be wrong (issue 38: one in a thousand).
SURE_WRONG_GOAL = 0.001

#: A threshold no confidence reaches: nothing of that category is sure.
NEVER = 1.01

#: The categories of the unseen-table evaluation (vision/world_eval.py), in report order.
CATEGORIES = ("market cards", "nobles", "decks", "token chips", "empty token slots",
              "empty market slots", "empty noble slots", "reserved")

#: Confidence at or above which an answer is sure, per category: chosen on the design
#: split by ``python -m vision.training.sure`` and stored in ``vision/sure.toml``.
SURE: dict[str, float] = sure.splendor()


def answer_category(category: str, answer: str) -> str:
    """The category whose threshold judges ``answer`` given in a ``category`` slot.

    Token, market and noble slots are split by what was answered ("empty" or what
    lies there: a card is judged by the fitted join that named it, an empty slot by
    the threshold chosen for empty answers); every other category keeps its own.
    """
    if category in ("token chips", "empty token slots", "token slots"):
        return "empty token slots" if answer == "empty" else "token chips"
    if category in ("market cards", "empty market slots"):
        return "empty market slots" if answer == "empty" else "market cards"
    if category in ("nobles", "empty noble slots"):
        return "empty noble slots" if answer == "empty" else "nobles"
    return category


def is_sure(category: str, confidence: float, answer: str = "") -> bool:
    """Whether an answer (``answer``, for token slots) of ``confidence`` is taken as sure."""
    return confidence >= SURE[answer_category(category, answer)]
