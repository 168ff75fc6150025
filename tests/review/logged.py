"""Logged games for the review tests: seeded simulations written through the GameLog.

:func:`log_game` logs a Splendor game, :func:`log_duel_game` a Splendor Duel
one, both with a turn taken back and a thumbnail per turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.record import DUEL, GameLog, make_thumbnail, setup_headers
from companion.rules import RulesError, duel
from companion.rules.splendor.simulate import play_game

#: A 2-player game decided by the tie-break (checked by the tests that rely on it).
TIE_SEED = 7


def table_frame(turn: int) -> np.ndarray:
    """A stand-in camera frame: a green mat with a grey block that moves each turn."""
    frame = np.full((480, 640, 3), (40, 110, 40), np.uint8)
    x = 20 + (turn * 37) % 560
    cv2.rectangle(frame, (x, 200), (x + 60, 290), (200, 200, 200), -1)
    return frame


def _another_turn(state: Any, turn: Any) -> Any:
    """A legal turn of either game other than ``turn``: its main action alone (no
    reveal, return, noble or optional action needed)."""
    make = type(turn)
    for action in state.legal_actions():
        candidate = make(action)
        if candidate == turn:
            continue
        try:
            state.apply(candidate)
        except RulesError:
            continue
        return candidate
    raise AssertionError("no other legal turn")


def log_game(
    path: Path,
    seed: int = TIE_SEED,
    players: list[str] | None = None,
    take_back: tuple[int, ...] = (5,),
    finish: bool = True,
    upto: int | None = None,
) -> tuple[int, object, list]:
    """Log game ``seed`` as the companion would; return (game id, record, states).

    Before each turn number in ``take_back`` a wrong but legal turn is
    confirmed and taken back, as when the players correct a misreading.
    """
    names = players or ["Ann", "Bob <b>"]
    record, states = play_game(seed, names)
    with GameLog.open(path) as log:
        gid = log.start_game("Splendor", record.players, setup_headers(states[0], Seed=str(seed)))
        turns = list(zip(record.turns, states[:-1], states[1:], strict=True))[:upto]
        for n, (turn, before, after) in enumerate(turns, start=1):
            if n in take_back:
                wrong = _another_turn(before, turn)
                log.append_turn(gid, str(wrong), before.apply(wrong).digest(), None, 0.4)
                log.undo_last(gid)
            jpeg = make_thumbnail(table_frame(n))
            confidence = None if n % 10 == 0 else 0.9
            log.append_turn(gid, str(turn), after.digest(), jpeg, confidence)
        if finish and upto is None:
            log.finish_with(gid, states[-1].outcome())
    return gid, record, states


#: A Duel game won on points, with royals taken (checked by the tests that rely on it).
DUEL_SEED = 3




def log_duel_game(
    path: Path,
    seed: int = DUEL_SEED,
    players: tuple[str, str] = ("Ann", "Bob <b>"),
    take_back: tuple[int, ...] = (5,),
    finish: bool = True,
) -> tuple[int, duel.DuelRecord, list[duel.GameState]]:
    """Log Duel game ``seed`` through the GameLog as the companion would (the
    referee of ``run --game duel`` writes the same rows); return (id, record, states).

    Before each turn number in ``take_back`` a wrong but legal turn is
    confirmed and taken back; every turn has a thumbnail.
    """
    record, states = duel.play_game(seed, players, "greedy")
    with GameLog.open(path) as log:
        gid = log.start_game(DUEL, record.players, setup_headers(states[0], Seed=str(seed)))
        turns = zip(record.turns, states[:-1], states[1:], strict=True)
        for n, (turn, before, after) in enumerate(turns, start=1):
            if n in take_back:
                wrong = _another_turn(before, turn)
                log.append_turn(gid, str(wrong), before.apply(wrong).digest(), None, 0.4)
                log.undo_last(gid)
            confidence = None if n % 10 == 0 else 0.9
            log.append_turn(gid, str(turn), after.digest(), make_thumbnail(table_frame(n)),
                            confidence)
        if finish:
            log.finish_with(gid, states[-1].outcome())
    return gid, record, states
