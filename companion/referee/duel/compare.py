"""A predicted Duel table against the table the camera read, place by place.

Both sides are a :class:`~companion.rules.duel.view.DuelView`: the referee
predicts one with :func:`~companion.rules.duel.view.view_of` after each
legal turn, the reader fills one in with ``None`` where it is unsure.  A
``None`` on the read side is *no evidence*: it never counts against a
prediction.  Every other place that differs is one :class:`Difference`,
weighted by how many tokens, cards or scrolls it is off by, so that
:func:`distance` reads as "how many things on the table would have to be
different", the same unit as Splendor's
:data:`~companion.referee.splendor.candidates.TOLERANCE`.

:func:`blind` blanks a prediction where the reading is unsure: two legal
turns whose blinded predictions are equal cannot be told apart by this
reading, and the referee asks the players which one it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.rules.duel.board import cell_name
from companion.rules.duel.tokens import KINDS
from companion.rules.duel.view import DuelView, Place, PlayerView

#: Gem letters of the bonuses, in :attr:`PlayerView.bonuses` order.
_BONUS_LETTERS = "wugrk"


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where the table differs from the prediction.

    ``place`` names it for the screen ("board c3", "Ann's red tokens"),
    ``expected`` and ``seen`` are what the prediction and the camera say,
    ``weight`` how many things are off there.
    """

    place: str
    expected: object
    seen: object
    weight: int = 1

    def __str__(self) -> str:
        return f"{self.place}: expected {_shown(self.expected)}, seen {_shown(self.seen)}"


def _shown(value: object) -> str:
    if value == "":
        return "nothing"
    if isinstance(value, frozenset):
        return " ".join(sorted(value)) or "none"
    return str(value)


def _place(out: list[Difference], name: str, expected: Place | bool, seen: Place | bool) -> None:
    if seen is not None and seen != expected:
        out.append(Difference(name, expected, seen))


def _count(out: list[Difference], name: str, expected: int | None, seen: int | None) -> None:
    if seen is not None and expected is not None and seen != expected:
        out.append(Difference(name, expected, seen, abs(seen - expected)))


def _set(
    out: list[Difference], name: str, expected: frozenset[str] | None,
    seen: frozenset[str] | None,
) -> None:
    if seen is not None and expected is not None and seen != expected:
        out.append(Difference(name, expected, seen, len(seen ^ expected)))


def differences(
    expected: DuelView, seen: DuelView, names: Sequence[str] = ("Player 1", "Player 2")
) -> list[Difference]:
    """Every place ``seen`` contradicts ``expected`` (unsure places never do)."""
    out: list[Difference] = []
    for cell, (want, got) in enumerate(zip(expected.board, seen.board, strict=True)):
        _place(out, f"board {cell_name(cell)}", want, got)
    for level, (want_row, got_row) in enumerate(
        zip(expected.pyramid, seen.pyramid, strict=True), start=1
    ):
        for slot, (want, got) in enumerate(zip(want_row, got_row, strict=True), start=1):
            _place(out, f"pyramid level {level} place {slot}", want, got)
    for level, (want_deck, got_deck) in enumerate(
        zip(expected.decks, seen.decks, strict=True), start=1
    ):
        _place(out, f"level {level} deck", want_deck, got_deck)
    _set(out, "royal cards", expected.royals, seen.royals)
    _count(out, "privileges above the board", expected.privileges, seen.privileges)
    for name, want_p, got_p in zip(names, expected.players, seen.players, strict=True):
        _player(out, name, want_p, got_p)
    return out


def _player(out: list[Difference], name: str, want: PlayerView, got: PlayerView) -> None:
    for kind, a, b in zip(KINDS, want.tokens, got.tokens, strict=True):
        _count(out, f"{name}'s {kind.label} tokens", a, b)
    _count(out, f"{name}'s privileges", want.privileges, got.privileges)
    _count(out, f"{name}'s reserved cards", want.reserved, got.reserved)
    for letter, a, b in zip(_BONUS_LETTERS, want.bonuses, got.bonuses, strict=True):
        _count(out, f"{name}'s {letter} bonus", a, b)
    _count(out, f"{name}'s crowns", want.crowns, got.crowns)
    _set(out, f"{name}'s royal cards", want.royals, got.royals)


def distance(diffs: Sequence[Difference]) -> float:
    """How far a prediction is from the reading: things off, summed."""
    return float(sum(d.weight for d in diffs))


def on_board(diffs: Sequence[Difference]) -> int:
    """How many of ``diffs`` are board cells: the reader's weakest places (glare, a
    white token on the pale board; every misread of ``demo --game duel``'s game was
    a board cell), while a player's printed token slots count exactly.  Between two
    turns equally far from the reading, the one whose differences are misread cells
    is the likelier."""
    return sum(1 for d in diffs if d.place.startswith("board "))


def describe(diffs: Sequence[Difference], most: int = 3) -> str:
    """The first few differences in words, for the screen."""
    shown = "; ".join(str(d) for d in diffs[:most])
    more = len(diffs) - most
    return shown + (f" (and {more} more)" if more > 0 else "")


def blind(expected: DuelView, seen: DuelView) -> DuelView:
    """``expected`` with every place ``seen`` is unsure of blanked to ``None``."""

    def row(a: Sequence[Place], b: Sequence[Place]) -> tuple[Place, ...]:
        return tuple(None if y is None else x for x, y in zip(a, b, strict=True))

    def counts(
        a: Sequence[int | None], b: Sequence[int | None]
    ) -> tuple[int | None, ...]:
        return tuple(None if y is None else x for x, y in zip(a, b, strict=True))

    players = tuple(
        PlayerView(
            tokens=counts(p.tokens, q.tokens),
            privileges=None if q.privileges is None else p.privileges,
            reserved=None if q.reserved is None else p.reserved,
            bonuses=counts(p.bonuses, q.bonuses),
            crowns=None if q.crowns is None else p.crowns,
            royals=None if q.royals is None else p.royals,
        )
        for p, q in zip(expected.players, seen.players, strict=True)
    )
    return replace(
        expected,
        board=row(expected.board, seen.board),
        pyramid=tuple(row(a, b) for a, b in zip(expected.pyramid, seen.pyramid, strict=True)),
        decks=tuple(
            None if y is None else x for x, y in zip(expected.decks, seen.decks, strict=True)
        ),
        royals=None if seen.royals is None else expected.royals,
        privileges=None if seen.privileges is None else expected.privileges,
        players=(players[0], players[1]),
    )


#: A place the reader keeps misreading: its name -> (what is there, what is read).
Quirks = dict[str, tuple[Place, Place]]


def _places(view: DuelView) -> dict[str, Place]:
    named = {f"board {cell_name(c)}": v for c, v in enumerate(view.board)}
    for level, row in enumerate(view.pyramid, start=1):
        for slot, v in enumerate(row, start=1):
            named[f"pyramid level {level} place {slot}"] = v
    return named


def learn_quirks(confirmed: DuelView, seen: DuelView) -> Quirks:
    """The board cells and pyramid places the reading got wrong on a table the players
    just confirmed (the set-up or a turn), as Splendor's referee learns card misreads
    (:func:`companion.referee.splendor.reading.learn_quirks`): one token the reader keeps taking
    for an empty cell must not turn every later turn into an error.  Token counts are
    never learned this way."""
    truth, read = _places(confirmed), _places(seen)
    return {
        name: (truth[name], read[name])
        for name in truth
        if read[name] is not None and read[name] != truth[name]
    }


def forgive(seen: DuelView, expected: DuelView, quirks: Quirks) -> DuelView:
    """``seen`` with each known misread that persists unchanged made unsure (``None``):
    the place is read as before and shows what it showed, so the reading says nothing
    about it.  A place whose reading or content changed is judged again."""
    if not quirks:
        return seen
    truth = _places(expected)

    def keep(name: str, read: Place) -> Place:
        quirk = quirks.get(name)
        return None if quirk is not None and quirk == (truth[name], read) else read

    board = tuple(keep(f"board {cell_name(c)}", v) for c, v in enumerate(seen.board))
    pyramid = tuple(
        tuple(keep(f"pyramid level {level} place {slot}", v) for slot, v in enumerate(row, 1))
        for level, row in enumerate(seen.pyramid, start=1)
    )
    return replace(seen, board=board, pyramid=pyramid)
