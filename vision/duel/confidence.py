r"""Per kind of Duel place, the confidence at or above which a reading is taken as sure.

The Duel reader gives every answer a confidence (:class:`vision.duel.read.PlaceReading`);
the view the referee compares with its predictions (:func:`vision.duel.read.read_duel`)
keeps an answer only when it is sure, and shows every other place as ``None``: no
evidence, so the referee asks (which turn, which card was revealed) or leaves the turn
to NEXT and the buttons.  A threshold is what makes "sure" mean something: among sure
answers at most :data:`vision.confidence.SURE_WRONG_GOAL` (0.1 %) may be wrong.

Rule, as Splendor's (:mod:`vision.confidence`): thresholds are chosen on the DESIGN
split only, by ``python -m vision.training.sure --game duel``, which writes them
into ``vision/sure.toml`` with the check split's figures beside them.  Unlike
Splendor's, places a person could not read count too: the referee acts on every
sure answer, and a wrong one under a hand is as wrong.
"""

from __future__ import annotations

from vision import sure

#: The kinds of place with a threshold, in report order.
KINDS = ("board cells", "pyramid cards", "royals", "privileges", "decks")
#: Each kind's answers fall in two: something there (a chip, a card, a scroll) or
#: "empty"; which threshold applies is decided by the answer, not the truth, because
#: the referee only knows the answer (as Splendor's token slots, vision.confidence).
ANSWERS = ("something", "empty")

#: Threshold per kind: (for an answer that something is there, for "empty"), chosen on
#: the design split by ``python -m vision.training.sure --game duel`` and stored in
#: ``vision/sure.toml``; NEVER (1.01) where every answer of that sort was wrong there.
SURE: dict[str, tuple[float, float]] = sure.duel()


def kind_of(place: str) -> str | None:
    """The kind whose threshold judges ``place`` (a slot id), None for the places no
    threshold was measured on (the players' token places and reserved cards: out of
    the settled camera's view; any answer there is taken as before)."""
    if place.startswith("board."):
        return "board cells"
    if place.startswith("pyramid."):
        return "pyramid cards"
    if place.startswith("royal."):
        return "royals"
    if "privilege." in place:
        return "privileges"
    if place.startswith("deck."):
        return "decks"
    return None


def threshold(kind: str, answer: str) -> float:
    """The threshold of an ``answer`` ("" empty, else something) in a place of ``kind``."""
    something, empty = SURE[kind]
    return empty if answer == "" else something


def is_sure(place: str, confidence: float, answer: str) -> bool:
    """Whether ``answer`` of ``confidence`` in ``place`` is taken as sure."""
    kind = kind_of(place)
    return kind is None or confidence >= threshold(kind, answer)
