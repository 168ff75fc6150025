"""The ``--computer`` option of ``run`` and ``demo``, and the referee it asks for.

Kept apart from ``run.py`` and ``demo.py`` so that those commands gain one
option and one call each: the seat spec, its check and the referee with
computer seats (and the hint) for either game live here.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.commands import CommandError
from companion.referee.computer import (
    COMPUTER_HEADER,
    ComputerReferee,
    SeatError,
    hints_from_headers,
    parse_seats,
    seats_from_headers,
    seats_header,
)
from companion.referee.splendor.computer import SPLENDOR_BRAIN

if TYPE_CHECKING:
    from companion.referee.computer import ComputerReferee
    from companion.referee.duel.candidates import Candidate as DuelCandidate
    from companion.referee.duel.compare import Quirks as DuelQuirks
    from companion.referee.duel.hooks import Reading as DuelReading
    from companion.referee.splendor.candidates import Candidate
    from companion.referee.splendor.hooks import Quirks
    from companion.referee.splendor.reading import TableReading
    from companion.rules.duel import state as duel
    from companion.rules.duel.turns import Turn as DuelTurn
    from companion.rules.splendor import state as splendor
    from companion.rules.splendor.actions import Turn

    SplendorComputer = ComputerReferee[splendor.GameState, Turn, TableReading, Candidate, Quirks]
    DuelComputer = ComputerReferee[duel.GameState, DuelTurn, DuelReading, DuelCandidate,
                                   DuelQuirks]

HELP = ("a computer player: a name of --names (or a seat number from 1) and a strength"
        " 1-5 (default 3), e.g. --computer Bob:3; repeat for more seats")


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--computer", action="append", default=[], metavar="NAME[:LEVEL]",
                        help=HELP)


def seats_of(args: argparse.Namespace, names: Sequence[str]) -> dict[str, int]:
    """The computer seats ``--computer`` asks for, checked against the names."""
    try:
        return parse_seats(getattr(args, "computer", None) or [], names)
    except SeatError as exc:
        raise CommandError(str(exc)) from None


def headers_for(seats: Mapping[str, int]) -> dict[str, str]:
    """The record headers of a game with these computer seats (none: no header)."""
    return {COMPUTER_HEADER: seats_header(seats)} if seats else {}


def resumed(headers: Mapping[str, str], asked: Mapping[str, int]) -> tuple[dict[str, int],
                                                                          list[int]]:
    """The seats and hints of a resumed game: the record's, whatever ``--computer`` says now
    (the same game goes on with the same players), and the turns a hint was asked for."""
    seats = seats_from_headers(headers)
    if asked and seats != dict(asked):
        shown = ", ".join(f"{n}:{lv}" for n, lv in seats.items()) or "none"
        print(f"Resuming with the game's own computer seats ({shown}), not --computer.")
    return seats, hints_from_headers(headers)


def splendor_referee(names: Sequence[str], seats: Mapping[str, int], hinted: Sequence[int] = (),
                     **kwargs: Any) -> SplendorComputer:
    """Splendor's referee with computer seats and the hint."""
    return ComputerReferee(names, brain=SPLENDOR_BRAIN, seats=seats, hinted=hinted, **kwargs)


def duel_referee(names: Sequence[str], seats: Mapping[str, int], hinted: Sequence[int] = (),
                 **kwargs: Any) -> DuelComputer:
    """Splendor Duel's referee with computer seats and the hint."""
    # lazy: numpy loads only when the command runs, not for --help
    from companion.referee.duel.computer import DUEL_BRAIN

    return ComputerReferee(names, brain=DUEL_BRAIN, seats=seats, hinted=hinted, **kwargs)
