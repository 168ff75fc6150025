"""The three-button menu every game's referee asks: a question and its options.

Game-neutral on purpose: the state machine (:mod:`companion.referee.machine`)
shows and answers a :class:`Question` without knowing what it asks, and each
game's entry module (:mod:`companion.referee.splendor.entry`,
:mod:`companion.referee.duel.entry`) builds its questions from its own rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

#: The answer meaning "none of the cards offered: let me pick another".
OTHER = "other"


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    value: object


@dataclass(frozen=True, slots=True)
class Question:
    """One menu: ``key`` names the answer it gives."""

    key: str
    title: str
    options: tuple[Option, ...]
    text: str = ""

    def labels(self) -> tuple[str, ...]:
        return tuple(o.label for o in self.options)


T = TypeVar("T")
S = TypeVar("S")


@dataclass(frozen=True)
class Finished(Generic[T, S]):
    """The turn a chain of answers built, and the state it leads to.

    ``after`` is ``None`` when the game leaves applying the turn to the
    machine (which then says a refusal with the mover's name, as Splendor's
    referee always has).
    """

    turn: T
    after: S | None = None
