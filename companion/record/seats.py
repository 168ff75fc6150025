"""Computer seats and hints in a game's record: two headers, read and written here.

``[Computer "Bob:3"]`` names the seats the companion played and their
strength (1-5); ``[Hints "4 9"]`` lists the turn numbers a player asked a
hint for before playing.  Headers rather than new columns or turn fields:
the record text, ``replay`` and older readers keep them untouched, and the
log's schema does not change.  The referee writes them
(:mod:`companion.referee.computer`); ``games``, ``replay``, ``export`` and
``review`` show them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: The record header naming the computer seats and their levels.
COMPUTER_HEADER = "Computer"
#: The record header listing the turn numbers a hint was asked for.
HINTS_HEADER = "Hints"
#: The strengths a seat may have.
LEVEL_RANGE = range(1, 6)


def seats_header(seats: Mapping[str, int]) -> str:
    """The ``Computer`` header's value: ``"Bob:3, Cy:5"``."""
    return ", ".join(f"{name}:{level}" for name, level in seats.items())


def seats_from_headers(headers: Mapping[str, str]) -> dict[str, int]:
    """The computer seats a record's headers name (none: an empty mapping).

    A damaged value is read as far as it goes: a record stays readable."""
    seats: dict[str, int] = {}
    for part in headers.get(COMPUTER_HEADER, "").split(","):
        name, _sep, level = part.strip().rpartition(":")
        if name and level.isdigit() and int(level) in LEVEL_RANGE:
            seats[name] = int(level)
    return seats


def hints_from_headers(headers: Mapping[str, str]) -> list[int]:
    """The turn numbers a hint was asked for, from the ``Hints`` header."""
    return [int(w) for w in headers.get(HINTS_HEADER, "").split() if w.isdigit()]


def label(name: str, seats: Mapping[str, int]) -> str:
    """"Bob (computer 3)" for a computer seat, the name alone for a person (English:
    the terminal commands' language; the review page words it in the player's)."""
    return f"{name} (computer {seats[name]})" if name in seats else name


def labels(players: Sequence[str], headers: Mapping[str, str]) -> str:
    """The players, seats marked: "Ann, Bob (computer 3)"."""
    seats = seats_from_headers(headers)
    return ", ".join(label(p, seats) for p in players)
