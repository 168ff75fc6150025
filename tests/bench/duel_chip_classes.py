"""Measure the Duel chip classes (vision/duel/chip_classes.py) on rendered design frames.

Renders Duel tables (design faces: the digital sprites; and our drawn faces, as
used without ../shared), measures every readable token place with
``vision.duel.chips.look_at_place`` and prints each class's mean and spread as the
Python source of ``vision/duel/chip_classes.py``.  Never run it on the check split.

    .venv/bin/python tests/bench/duel_chip_classes.py --frames 8 > vision/duel/chip_classes.py
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import numpy as np

from vision.calibrate import calibrate
from vision.duel.chips import LAST_CELL, WASHED_MAX, look_at_place
from vision.synth import duel as synth_duel
from vision.synth import duel_faces

DIFFICULTIES = ("easy", "medium", "hard")


def measure(frames: int, drawn: bool, zone: str) -> dict[str, list[np.ndarray]]:
    """Features per class of the token places of ``zone`` (board: frames of the central
    mat, the settled framing; player: frames of the whole table, the only ones that
    see the players' mats)."""
    out: dict[str, list[np.ndarray]] = defaultdict(list)
    framing = "centre" if zone == "board" else "table"
    for i in range(frames):
        seed = 5000 + i
        difficulty = DIFFICULTIES[i % 3]
        if drawn:
            saved = duel_faces.duel_faces
            synth_duel.duel_faces = lambda split: duel_faces.drawn_faces()  # type: ignore
            try:
                f = synth_duel.duel_frame(difficulty, seed, "design", framing)
            finally:
                synth_duel.duel_faces = saved
        else:
            f = synth_duel.duel_frame(difficulty, seed, "design", framing)
        cal = calibrate(f.image, f.layout)
        if cal is None:
            continue
        print(f"frame {i + 1}/{frames} seed {seed} {difficulty} {zone} "
              f"{'drawn' if drawn else ''}", file=sys.stderr, flush=True)
        for sl in f.layout.slots:
            if sl.kind != "token" or sl.id in f.hidden or sl.id in f.unseen:
                continue
            if (sl.zone == "board") != (zone == "board"):
                continue
            truth = f.contents.get(sl.id, "e" if sl.zone == "board" else "E")
            if truth == "e" and sl.index == LAST_CELL:  # no arrow printed: a class of its own
                truth = f"e.{LAST_CELL}"
            look = look_at_place(f.image, cal.h_for_slot(sl), sl, cal.gain_at(sl.center))
            if look.washed <= WASHED_MAX:
                out[truth].append(look.features)
    return out


def _design_frames(frames: int) -> Iterator[tuple[Any, Any]]:
    """(frame, calibration) of ``frames`` design frames of the central mat, all
    difficulties in turn (seeds 5000 on), those the markers calibrate."""
    for i in range(frames):
        f = synth_duel.duel_frame(DIFFICULTIES[i % 3], 5000 + i, "design", "centre")
        cal = calibrate(f.image, f.layout)
        if cal is not None:
            yield f, cal


def surround(frames: int) -> int:
    """The range of ``PlaceLook.surround`` over readable board cells (SURROUND_MAX)."""
    values = []
    for f, cal in _design_frames(frames):
        for sl in f.layout.slots_of("token", "board"):
            if sl.id not in f.hidden and sl.id not in f.unseen:
                values.append(look_at_place(f.image, cal.h_for_slot(sl), sl,
                                            cal.gain_at(sl.center)).surround)
    v = np.asarray(values)
    print(f"{len(v)} readable cells of {frames} design frames: wood L {v.min():.0f}-{v.max():.0f}"
          f" (median {np.median(v):.0f})")
    return 0


def board_measure(frames: int, wanted: list[str]) -> int:
    """Per class, the spread of ``PlaceLook.<what>`` (line: LINE_EMPTY, border:
    BORDER_EMPTY / BORDER_CHIP, outline: OUTLINE_MIN, plain: PLAIN_EMPTY) over readable
    board cells, and over the hidden ones apart."""
    values: dict[str, dict[str, list[float]]] = {w: defaultdict(list) for w in wanted}
    for f, cal in _design_frames(frames):
        for sl in f.layout.slots_of("token", "board"):
            if sl.id not in f.unseen:
                truth = f.contents.get(sl.id, "e")
                look = look_at_place(f.image, cal.h_for_slot(sl), sl, cal.gain_at(sl.center))
                if sl.id in f.hidden:  # what a person could not read: reported apart
                    truth = f"hidden ({f.hidden[sl.id]})"
                elif truth == "e" and sl.index == LAST_CELL:
                    truth = "e (last)"
                for what in wanted:
                    values[what][truth].append(getattr(look, what))
    for what in wanted:
        print(f"{what} over the cells of {frames} design frames (min, 5 %, median, 95 %, "
              "max):")
        for name, v in sorted(values[what].items()):
            q = np.percentile(v, (0, 5, 50, 95, 100))
            print(f"  {name:<14} {len(v):>4} places: " + ", ".join(f"{x:.1f}" for x in q))
    return 0


def _numbers(values: np.ndarray) -> str:
    text = ", ".join(f"{x:.1f}" for x in values)
    return "\n                 ".join(textwrap.wrap(text, 76))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=8,
                    help="frames per face set and zone (default 8)")
    ap.add_argument("--surround", action="store_true",
                    help="print the board's wood lightness round readable cells instead")
    ap.add_argument("--arrow", action="store_true",
                    help="print the arrow line's strength on board cells per class instead")
    ap.add_argument("--border", action="store_true",
                    help="print the cells' border change per class instead")
    ap.add_argument("--outline", action="store_true",
                    help="print how plainly the cells' border shows per class instead")
    ap.add_argument("--plain", action="store_true",
                    help="print how far the cells' centre is from their cream instead")
    args = ap.parse_args()
    wanted = [("line" if w == "arrow" else w) for w in ("arrow", "border", "outline", "plain")
              if getattr(args, w)]
    if wanted:
        return board_measure(args.frames, wanted)
    if args.surround:
        return surround(args.frames)
    sets = {name: {zone: measure(args.frames, drawn, zone) for zone in ("board", "player")}
            for name, drawn in (("sprites", False), ("drawn", True))}
    print('"""Duel chip classes: mean and spread of the features of')
    print("``vision.duel.chips.look_at_place`` per class, per face set (the reader uses the")
    print("set its card bank was built from: the design sprites, or our drawn faces) and per")
    print("zone (board cells seen in the central mat's framing, players' places in the")
    print("whole table's).")
    print()
    print("Generated by ``.venv/bin/python tests/bench/duel_chip_classes.py"
          f" --frames {args.frames}``")
    print("(``e`` the board's empty cell, ``e.24`` the spiral's last cell empty, ``E`` a")
    print("player's empty token place).  Do not edit")
    print('by hand."""')
    print()
    print("Prototype = tuple[tuple[float, ...], tuple[float, ...]]")
    print("CLASSES: dict[str, dict[str, dict[str, tuple[Prototype, ...]]]] = {")
    for set_name, zones in sets.items():
        print(f"    {set_name!r}: {{")
        for zone, data in zones.items():
            print(f"        {zone!r}: {{")
            for name in sorted(data):
                v = np.asarray(data[name])
                if len(v) < 3:
                    continue
                print(f"            # {len(v)} places")
                print(f"            {name!r}: ((")
                print("                (" + _numbers(v.mean(0)) + "),")
                print("                (" + _numbers(v.std(0)) + ")),),")
            print("        },")
        print("    },")
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
