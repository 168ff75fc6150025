"""A Splendor Duel game nobody has looked at, through the real reader and referee.

The Duel twin of ``tests/data/world-game/generate.py --into``: a seeded game
(greedy against greedy, ``companion.rules.duel.play_game``) is photographed
state by state by the realistic world's Pi camera (``vision.synth.duel``: the
central mat framed as hardware.md hangs the camera, the room's light of
``--difficulty``, the publisher's check faces), read by ``vision.duel.read``
and played through the Duel referee loop by the demo's operator (CONFIRM when
the proposal is the turn played, NEXT while it is not, the menus when no guess
is right).  Prints how many turns were confirmed at the first guess and any
silent wrong first guess.  Frames are cached in ``--out`` (never committed: they
show the publisher's art)::

    .venv/bin/python tests/bench/duel_unseen_game.py --game-seed 31 \\
        --difficulty medium --camera-seed 85000 --out out/unseen-duel/g31

A game so measured counts as unseen once; after a change made because of it,
measure on a new seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game-seed", type=int, required=True, help="the game's seed")
    parser.add_argument("--difficulty", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--lens", default="wide", choices=("wide", "standard"))
    parser.add_argument("--framing", default="centre", choices=("centre", "table"))
    parser.add_argument("--camera-seed", type=int, required=True,
                        help="the world's seed: camera pose and light, one for the game")
    parser.add_argument("--out", type=Path, required=True, help="frame cache and screenshots")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    import cv2

    from companion.demo.duel import DEMO_NAMES, Operator, play, tally
    from companion.record import GameLog
    from companion.referee.duel.hooks import DuelReferee
    from companion.referee.duel.loop import DuelLoop
    from companion.rules.duel import play_game
    from companion.screen.draw import Screen
    from vision.duel.read import read_duel
    from vision.errors import VisionError
    from vision.synth.duel import render_duel
    from vision.synth.duel_faces import duel_art

    if duel_art() is None:
        print("duel_unseen_game: the publisher's Duel art (../shared/card-faces) is absent",
              file=sys.stderr)
        return 2
    record, states = play_game(args.game_seed, DEMO_NAMES, "greedy")
    frames = args.out / "frames"
    shots = args.out / "screens"
    frames.mkdir(parents=True, exist_ok=True)
    shots.mkdir(exist_ok=True)
    (args.out / "game.txt").write_text(record.text(), encoding="utf-8")

    def tables(index: int) -> tuple[object, object]:
        path = frames / f"{index:04d}.jpg"
        image = cv2.imread(str(path)) if path.exists() else None
        if image is None:
            frame = render_duel(states[index], args.camera_seed, split="check",
                                difficulty=args.difficulty, framing=args.framing,
                                lens=args.lens, hand=False, steady=args.camera_seed)
            image = frame.image
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        try:
            return read_duel(image), None
        except VisionError as exc:
            print(f"table {index}: {exc}", file=sys.stderr)
            return None, None

    def progress(index: int, total: int) -> None:
        print(f"\r  table {index}/{total - 1}", end="", file=sys.stderr, flush=True)

    db = args.out / "game.sqlite"
    db.unlink(missing_ok=True)
    log = GameLog.open(db)
    try:
        loop = DuelLoop(DuelReferee(DEMO_NAMES), screen=Screen((800, 480)), log=log,
                        shots=shots, echo=lambda s: None)
        operator = Operator(states, record.turns)
        pressed = play(loop, operator, tables, len(states), progress)  # type: ignore[arg-type]
    finally:
        log.close()
    print(file=sys.stderr)
    result = tally(loop, states, pressed, operator)
    print(f"Duel game {args.game_seed} ({args.difficulty}, {args.framing}, {args.lens}, camera "
          f"{args.camera_seed}): {result.turns} turns, {result.first} at the first guess "
          f"({result.first_rate:.1%}), {result.later} at a later guess, {result.asked} proposed "
          f"on CONFIRM (the central mat does not show them), {result.manual} by hand; "
          f"{result.misled} silent wrong, {result.wrong} wrong confirmations")
    for index, how in enumerate(loop.via, start=1):
        if how != "first guess":
            print(f"  {index}. {record.turns[index - 1]} ({how})")
    return 0 if result.wrong == 0 and result.misled == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
