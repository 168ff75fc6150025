"""Measure the colours that settle ties between Duel chip kinds (vision/duel/chips.py
``TIE_RULES``) on rendered design frames of the central mat.

Per chip kind, over the readable board cells: the spread (min, 1 %, 5 %, median,
95 %, 99 %, max) of ``chroma``'s a*, b* and blue-less-green; then every tie the
colour reader left and how ``tie_break`` settles it.  Never run it on the check
split.

    .venv/bin/python tests/bench/duel_chip_ties.py --count 12 --seeds 9200,7000

``--cream``: the same spreads of ``against_cream``'s numbers (``CREAM_TIES``,
``CREAM_KINDS``) per kind and for empty cells, the chip's edge on cells under a hand,
how many places of each kind (readable or hidden) fall in each box of ``CREAM_KINDS``
and in ``judge_place``'s plain-clear rule, and every place read by the cream.
``--lit``: every cell whose board round it is lit up (``SURROUND_MAX``): hidden or
not, its edge, washed share, nearest classes and reading (``LIT_EDGE_MIN``).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import numpy as np
from duel_frames import calibrated_frames, print_spread  # a sibling bench module

from vision.duel import chips as C
from vision.duel.chip_classes import CLASSES


def _board_looks(args: argparse.Namespace) -> Iterator[tuple[str, str, int, Any, Any, Any]]:
    """(lens, difficulty, seed, frame, slot, look) for every board cell in view of the
    calibrated design frames ``args`` asks for (``--seeds``, ``--count``)."""
    for lens, difficulty, seed, f, cal in calibrated_frames(args.seeds, args.count,
                                                              ("easy", "medium", "hard")):
        for sl in f.layout.slots_of("token", "board"):
            if sl.id not in f.unseen:
                yield lens, difficulty, seed, f, sl, C.look_at_place(
                    f.image, cal.h_for_slot(sl), sl, cal.gain_at(sl.center))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=12, help="frames per seed, difficulty, lens")
    ap.add_argument("--seeds", default="9200,7000", help="first seeds, comma-separated")
    ap.add_argument("--cream", action="store_true", help="against_cream's numbers per kind")
    ap.add_argument("--lit", action="store_true", help="the cells lit up round them")
    ap.add_argument("--pink", action="store_true", help="rim_pink per kind, pale ties")
    args = ap.parse_args()
    if args.pink:
        return _pink(args)
    if args.cream or args.lit:
        return _cream_and_lit(args)
    board = CLASSES["sprites"]["board"]
    values: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    ties: list[str] = []
    for lens, difficulty, seed, f, sl, look in _board_looks(args):
        if sl.id in f.hidden:
            continue
        truth = f.contents.get(sl.id, "")
        if not truth:
            continue
        c = C.chroma(look)
        values[truth].append((c["a"], c["b"], c["bg"]))
        got = C.judge_place(look, board, "wugrkpye")
        if (got.value is None and got.why.startswith("between")) or (
                "by its colour" in got.why):
            ties.append(f"{lens} {difficulty} {seed} {sl.id}: {truth} -> "
                        f"{got.value!r} ({got.why}; a {c['a']:.1f} b "
                        f"{c['b']:.1f} bg {c['bg']:.1f})")
    print_spread(values, ("a", "b", "bg"))
    print("\n".join(ties))
    return 0


def _cream_and_lit(args: argparse.Namespace) -> int:
    board = CLASSES["sprites"]["board"]
    values: dict[str, list[list[float]]] = defaultdict(list)
    lit: list[str] = []
    boxes: Counter[tuple[str, str, str]] = Counter()
    reads: list[str] = []
    for lens, difficulty, seed, f, sl, look in _board_looks(args):
        truth = f.contents.get(sl.id, "")
        hidden = f.hidden.get(sl.id)
        if args.lit and look.surround > C.SURROUND_MAX:
            d = sorted((C._distance(look, board[k]), k) for k in "wugrkpye")
            lit.append(f"{lens} {difficulty} {seed} {sl.id} {hidden or 'readable'} "
                       f"{truth!r}: edge {look.edge:.1f} washed {look.washed:.2f} "
                       f"{d[0][1]} {d[0][0]:.2f} {d[1][1]} {d[1][0]:.2f} -> "
                       f"{C.judge_place(look, board, 'wugrkpye').value!r}")
        if hidden == "hand":
            values["hand edge"].append([look.edge])
        if args.cream:
            _count_cream(look, truth or "e", hidden, boxes, f"{lens} {difficulty} {seed} "
                         f"{sl.id}", reads, sl.index != C.LAST_CELL)
            if hidden is None:
                values[truth or "e"].append([*C.against_cream(look).values(), look.edge])
    names = ["gem a-b", "ring4 L", "inner a+b", "mid a+b", "edge"]
    for kind, v in sorted(values.items()):
        arr = np.asarray(v)
        for i in range(arr.shape[1]):
            q = np.percentile(arr[:, i], (0, 1, 5, 50, 95, 99, 100))
            name = "edge" if kind == "hand edge" else names[i]
            print(f"{kind} {len(arr):>4} {name:<9} " + " ".join(f"{x:7.1f}" for x in q))
    print("\n".join(lit))
    if args.cream:
        print("box or plain-clear rule, truth, readable/hidden: places")
        for (box, truth, seen), n in sorted(boxes.items()):
            print(f"{box:<12} {truth} {seen:<8} {n}")
        print("\n".join(reads))
    return 0


def _pink(args: argparse.Namespace) -> int:
    """``rim_pink`` per kind over readable cells, then every cell tied between a pearl
    and a white chip (its truth, rim, gem against the cream and reading) and every
    cell white by its border and empty by its colours (the ends of its sides), and
    every washed cell alike all round with a plain centre (its arrow's line); then how
    many places of each kind are alike all round with an arrow's line."""
    board = CLASSES["sprites"]["board"]
    values: dict[str, list[list[float]]] = defaultdict(list)
    ties: list[str] = []
    alike: Counter[str] = Counter()
    for lens, difficulty, seed, f, sl, look in _board_looks(args):
        truth = f.contents.get(sl.id, "") or "e"
        hidden = f.hidden.get(sl.id)
        if hidden is None:
            values[truth].append([look.pink])
        d = sorted((C._distance(look, board[k]), k) for k in "wugrkpye")
        why = C.judge_place(look, board, "wugrkpye", arrow=sl.index != C.LAST_CELL).why
        if why == "w by the border, e by the colours":
            ties.append(f"{lens} {difficulty} {seed} {sl.id} {hidden or 'readable'} "
                        f"{truth}: {why}, ends {look.outline:.0f}")
        if (look.washed > C.WASHED_MAX and look.border <= C.BORDER_EMPTY
                and look.plain <= C.WASHED_PLAIN_MAX and sl.index != C.LAST_CELL):
            ties.append(f"{lens} {difficulty} {seed} {sl.id} {hidden or 'readable'} "
                        f"{truth}: washed, alike, plain; line {look.line:.1f}")
        if (look.border <= C.BORDER_EMPTY and look.line >= C.ALIKE_LINE_MIN
                and look.outline >= C.PLAIN_OUTLINE_MIN and look.edge < C.LINED_EDGE_MAX
                and sl.index != C.LAST_CELL):
            alike[f"{truth} {hidden or 'readable'}"] += 1
        if look.line >= C.ALIKE_LINE_MIN and sl.index != C.LAST_CELL and (
                truth == "w" or C.judge_place(look, board, "wugrkpye").value == "w"):
            ties.append(f"{lens} {difficulty} {seed} {sl.id} {hidden or 'readable'} "
                        f"{truth}: white, lined; edge {look.edge:.1f}")
        if {d[0][1], d[1][1]} == {"p", "w"}:
            got = C.judge_place(look, board, "wugrkpye")
            ties.append(f"{lens} {difficulty} {seed} {sl.id} {hidden or 'readable'} "
                        f"{truth}: rim {look.pink:.1f} gem a-b "
                        f"{C.against_cream(look)['gem a-b']:.1f} -> {got.value!r} "
                        f"({got.why})")
    print_spread(values, ("pink",))
    print("\n".join(ties))
    print("alike, lined (truth, readable/hidden: places):", dict(alike))
    return 0


def _count_cream(look: C.PlaceLook, truth: str, hidden: str | None,
                 boxes: Counter[tuple[str, str, str]], where: str, reads: list[str],
                 arrow: bool) -> None:
    """Tally which box of ``CREAM_KINDS`` (and the plain-clear and lined-clear rules of
    ``judge_place``; ``arrow``: the cell has one) each place falls in, and list every
    place read by the cream."""
    seen = hidden or "readable"
    kind = C.cream_kind(look)
    if kind is not None:
        boxes[(f"box {kind}", truth, seen)] += 1
    if (look.border <= C.BORDER_EMPTY and look.plain <= C.PLAIN_EMPTY_CLEAR
            and look.outline >= C.PLAIN_OUTLINE_MIN and look.washed <= C.LIT_WASHED_MAX):
        boxes[("plain-clear", truth, seen)] += 1
    if arrow and C.lined_clear(look):
        past = look.border > C.LINED_BORDER_MAX or look.surround > C.SURROUND_MAX
        boxes[("lined-clear+" if past else "lined-clear", truth, seen)] += 1
    leads: list[float] = []
    real = C._cream_other

    def heard(look: C.PlaceLook, value: str, allowed: str, lead: float = 1.0) -> str | None:
        leads.append(lead)  # the colours' lead the cream is weighed against
        return real(look, value, allowed, lead)

    C._cream_other = heard  # type: ignore[assignment]
    try:
        got = C.judge_place(look, CLASSES["sprites"]["board"], "wugrkpye")
    finally:
        C._cream_other = real  # type: ignore[assignment]
    if "by the cream" in got.why or (leads and C.cream_kind(look) not in (None, got.value)):
        lead = f"; the colours' lead {leads[-1]:.2f}" if leads else ""
        reads.append(f"{where} {seen} {truth!r} -> {got.value!r} ({got.why}; edge "
                     f"{look.edge:.1f}{lead})")


if __name__ == "__main__":
    raise SystemExit(main())
