"""A companion stand-in for the power-cut test: plays seeded games through the log.

``python -m companion.record.soak --db FILE --seeds 1-20`` does what the
referee does with each confirmed turn, and nothing more: at start it resumes
the unfinished game (``GameLog.unfinished`` then ``GameLog.resume``, which
checks every stored hash), otherwise starts the next seed's game; for each
turn it applies the rules, calls ``append_turn`` (committed) and only then
prints ``confirmed GAME N`` (flushed) and moves on.  Every ``--undo-every``
turns it also plays the table's correction: the turn is confirmed, taken
back with ``undo_last`` (``undone GAME N``) and confirmed again.

The test (``tests/record/test_power_cut.py``) runs it in a subprocess and
kills it with SIGKILL at random moments; whatever was printed before the
kill must be in the log afterwards.  The games come from
:func:`companion.rules.splendor.simulate.play_game`, so the driver knows the truth
to replay without any camera; with ``--records DIR`` it reads them from
``DIR/game-SEED.txt`` instead (replaying is cheaper than simulating, and the
test restarts the driver many times).

Output lines (one per event, flushed): ``ready GAME N`` (about to play turn
N + 1 of GAME, a seed), ``confirmed GAME N`` (``confirmed GAME N decoy`` when
it is about to be taken back), ``undone GAME N``, ``finished GAME``, ``done``;
N is the number of live turns once the line's commit is done.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games import SPLENDOR, setup_headers
from companion.record.log import GameLog
from companion.rules.splendor.record import read_record
from companion.rules.splendor.simulate import play_game

#: A fake thumbnail: the driver has no camera, but the row should weigh what a real one does.
FAKE_JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 20 + b"\xff\xd9"


def seed_range(text: str) -> list[int]:
    """``"3"`` or ``"1-20"``."""
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def say(line: str) -> None:
    print(line, flush=True)


def game_of(seed: int, players: int, records: Path | None) -> tuple[Any, list[Any]]:
    """The record and every state of game ``seed``: simulated, or read from ``records``."""
    if records is None:
        return play_game(seed, players)
    record = read_record((records / f"game-{seed}.txt").read_text(encoding="utf-8"))
    states = [record.initial_state()]
    states += [after for _, _, _, after in record.replay()]
    return record, states


def play(
    db: str,
    seeds: Sequence[int],
    players: int,
    undo_every: int,
    pace: float,
    records: Path | None = None,
) -> int:
    log = GameLog.open(db)
    if log.notice:
        say(f"notice {log.notice}")
    done = {g.headers.get("Seed") for g in log.games() if g.finished}
    waiting = log.unfinished()
    for seed in seeds:
        if str(seed) in done:
            continue
        record, states = game_of(seed, players, records)
        game = next((g for g in waiting if g.headers.get("Seed") == str(seed)), None)
        if game is not None:
            _, state = log.resume(game.id)
            game_id, played = game.id, game.turns
            if state.digest() != states[played].digest():
                say(f"error {seed} resumed at a state the game never had")
                return 1
        else:
            headers = setup_headers(states[0], Seed=str(seed))
            game_id = log.start_game(SPLENDOR, record.players, headers)
            played = 0
        say(f"ready {seed} {played}")
        for n in range(played, len(record.turns)):
            turn, after = record.turns[n], states[n + 1]
            if pace:
                time.sleep(pace)
            if undo_every and (n + 1) % undo_every == 0:
                log.append_turn(game_id, str(turn), after.digest(), FAKE_JPEG, 0.5)
                say(f"confirmed {seed} {n + 1} decoy")
                log.undo_last(game_id)
                say(f"undone {seed} {n}")
            log.append_turn(game_id, str(turn), after.digest(), FAKE_JPEG, 0.9)
            say(f"confirmed {seed} {n + 1}")
        outcome = states[-1].outcome()
        assert outcome is not None
        log.finish_with(game_id, outcome)
        say(f"finished {seed}")
    log.close()
    say("done")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.record.soak",
        description="Play seeded games turn by turn through the game log (for the power-cut test).",
    )
    parser.add_argument("--db", required=True, help="the game log file")
    parser.add_argument("--seeds", default="1-5", type=seed_range, help="seeds, e.g. 1-20")
    parser.add_argument("--players", type=int, default=3, help="players per game (2-4)")
    parser.add_argument("--undo-every", type=int, default=7, help="take back every Nth turn once")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds to wait before each turn")
    parser.add_argument(
        "--records", type=Path, default=None, help="read game-SEED.txt records from this folder"
    )
    args = parser.parse_args(argv)
    return play(args.db, args.seeds, args.players, args.undo_every, args.pace, args.records)


if __name__ == "__main__":
    sys.exit(main())
