"""``python -m vision.training.join``: fit how a reader joins network and decode.

chesscog's ``find_best_configs`` for the join of :mod:`vision.card_net` (and with
``--nobles`` of :mod:`vision.noble_net`, the same way into ``noble_join.toml``): the
decode's answer and the network's guess are collected from rendered design
tables, through the network's calibration twin (:mod:`vision.training.twin`,
trained without the newer printing's even faces) on tables showing those faces,
so that every row is a network facing a printing it never saw, and (cards) through
the shipped network on the same tables showing the faces it was trained on, as at
a table whose printing it learned (:data:`POPULATIONS`).  On those rows a
logistic model of "the named card is right" is fitted (:func:`fit`), the
market-card sure threshold is chosen on its probabilities (at most one wrong in
a thousand in each population), and both are written to ``vision/card_join.toml``.  Then the
shipped network and the new join are scored on check tables (the check
printing, other seeds), which never move anything: the reliability table and
the sure answers' errors go into the file as comments.

Offline only: it renders through :mod:`vision.synth` (the art of ../shared).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from vision import card_net, noble_net
from vision.calibration_report import (
    choose_threshold,
    expected_calibration_error,
    reliability,
)
from vision.card_net import CASES
from vision.card_places import UNKNOWN_CONFIDENCE
from vision.colours import ColourModel
from vision.confidence import NEVER, SURE_WRONG_GOAL
from vision.errors import VisionError
from vision.join_fit import DECODE_EPS, NET_EPS, JoinFit
from vision.learn import learn_colours
from vision.read import read_frame
from vision.synth import world
from vision.synth.facesets import face_sets, token_faces
from vision.training import pools
from vision.training.slot_crops import cache_dir
from vision.training.twin import LEAVE_OUT, train_twin, twin

JOIN_PATH = Path(__file__).resolve().parents[1] / "card_join.toml"
NOBLE_JOIN_PATH = JOIN_PATH.with_name("noble_join.toml")
#: First seeds of the fitting tables (design split, twin network) and of the check
#: tables (check split, shipped network); apart from every other script's seeds.
FIT_SEED = 40_000
CHECK_SEED = 57_000
#: Ridge penalty of the logistic fit: a case seen on few tables keeps a probability
#: near 1/2 (a coin toss, never sure) rather than the few tables' verdict.
RIDGE = 1.0
#: A case with fewer design rows than this is "rare": never named, so never sure.  The
#: usual least sample for a fitted rate (with 30 and none wrong, the rule of three puts
#: the case's error under 10 % at 95 %); fewer, and its logistic curve is a guess.
MIN_CASE_ROWS = 30
DIFFICULTIES = ("easy", "medium", "hard")
#: Who reads the design tables the card join is fitted on: the twin on the faces it never
#: saw (a player's box of a printing the network did not learn), and the shipped network
#: on faces it was trained on (a box of the printing it learned).  WHY both: fitted on the
#: twin alone, a pair the twin always confused (2g5 read 2g6) taught the join that the
#: decode wins there however sure the network is; the shipped network, right at 0.9999
#: on a face it knew, was overruled, surely and wrongly (design seed 26000, 2 players, hard).
POPULATIONS = ("twin", "seen")
#: Tables between two saves of the rows read so far (``--reuse`` resumes from the last).
CHUNK = 60


def _read_table(players: int, difficulty: str, seed: int, split: str, lens: str,
                patches: list[Any]) -> Any:
    """Render one table (and its set-up frame, to learn its colours) and read it with
    ``patches`` in force (the twin, the spies); the rendered frame."""
    for p in patches:
        p.start()
    try:
        frame = world.world_frame(players, difficulty, seed, split=split, lens=lens)
        setup = world.world_frame(players, difficulty, seed, split=split, lens=lens,
                                  setup=True)
        try:
            colours = learn_colours(setup.image, setup.layout, ColourModel(), "set-up frame")
        except VisionError:
            colours = ColourModel()
        read_frame(frame.image, frame.layout, colours, workers=1)
    finally:
        for p in reversed(patches):
            p.stop()
    return frame


def _frame_rows(seed: int, split: str, population: str = "twin") -> list[dict[str, Any]]:
    """The decode's answer and the network's guess on every market slot of one table that
    holds a card, or is empty and was not read so (truth "empty": any card named there
    is wrong).  The decode reads every face (the network never names one alone here),
    so that the rows show what it would have said.  ``population`` (design tables only):
    "twin", the twin on faces it never saw, or "seen", the shipped network on the faces
    it was trained on (see :data:`POPULATIONS`)."""
    players = (2, 4)[seed % 2]
    difficulty = DIFFICULTIES[seed // 2 % 3]
    lens = ("wide", "standard")[seed // 6 % 2]
    held: set[str] | None = None
    patches: list[Any] = []
    if split == "design" and population == "twin":  # faces the twin never saw
        sets = dict(face_sets("design"))
        held = set(sets[LEAVE_OUT])
        faces = {**sets["older"], **sets[LEAVE_OUT]}
        chips = token_faces("design")
        rec = twin()
        patches = [mock.patch.object(world, "_faces", lambda s: ([(LEAVE_OUT, faces)], chips)),
                   mock.patch.object(card_net, "recognizer", lambda name: rec)]
    seen: dict[str, tuple[Any, Any]] = {}
    join = card_net.join

    def spy(answer: Any, net: Any) -> Any:
        seen[answer.slot] = (answer, net)
        return join(answer, net)

    patches += [mock.patch.object(card_net, "join", spy),
                mock.patch.object(card_net, "alone", lambda slot, net: None)]
    frame = _read_table(players, difficulty, seed, split, lens, patches)
    rows = []
    for sid, (answer, net) in seen.items():
        truth = frame.contents.get(sid) or "empty"
        if not sid.startswith("market.") or net is None or answer.state == "empty" or \
                (truth == "empty" and sid in frame.unseen) or \
                (held is not None and truth not in held | {"empty"}):
            continue
        rows.append({"seed": seed, "slot": sid, "truth": truth, "difficulty": difficulty,
                     "hidden": sid in frame.hidden or sid in frame.unseen,
                     "case": card_net.case_of(answer, net), "net": net.best, "p_net": net.p,
                     "decode": card_net.decode_card(answer), "p_decode": answer.confidence,
                     "population": population})
    return rows


def _noble_rows(seed: int, split: str) -> list[dict[str, Any]]:
    """The decode's answer and the network's guess on every noble slot of one table (the
    nobles' twin on design tables showing the printing it never saw)."""
    players = (2, 4)[seed % 2]
    difficulty = DIFFICULTIES[seed // 2 % 3]
    lens = ("wide", "standard")[seed // 6 % 2]
    held: set[str] | None = None
    patches: list[Any] = []
    if split == "design":
        sets = dict(face_sets("design"))
        held = set(sets[LEAVE_OUT])
        faces = {**sets["older"], **sets[LEAVE_OUT]}
        chips = token_faces("design")
        rec = twin("splendor_nobles")
        patches = [mock.patch.object(world, "_faces", lambda s: ([(LEAVE_OUT, faces)], chips)),
                   mock.patch.object(noble_net, "recognizer", lambda name: rec)]
    seen: dict[str, tuple[Any, Any, bool]] = {}
    join = noble_net.join

    def spy(answer: Any, net: Any, looked: bool = True) -> Any:
        seen[answer.slot] = (answer, net, looked)
        return join(answer, net, looked)

    patches.append(mock.patch.object(noble_net, "join", spy))
    frame = _read_table(players, difficulty, seed, split, lens, patches)
    out = []
    for sid, (answer, net, looked) in seen.items():
        truth = frame.contents.get(sid)  # None: an empty slot (any noble named is wrong)
        if net is None or answer.state == "empty" or sid in frame.hidden or \
                sid in frame.unseen or (held is not None and truth not in held | {None}):
            continue
        out.append({"seed": seed, "slot": sid, "truth": truth, "difficulty": difficulty,
                    "case": noble_net.case_of(answer, net, looked), "net": net.best,
                    "p_net": net.p, "p_decode": answer.confidence,
                    "decode": answer.noble.id if answer.noble is not None else None})
    return out


def rows(split: str, first: int, count: int, workers: int, reuse: bool, nobles: bool = False,
         population: str = "twin") -> list[dict[str, Any]]:
    """The rows of ``count`` tables from seed ``first``, cached in the training cache;
    with ``reuse`` the longest cached run of tables from ``first`` is reused and only
    the tables after it are read.  ``population``: see :func:`_frame_rows` (cards)."""
    def cached(n: int) -> Path:
        seen = "-seen" if population == "seen" else ""
        return cache_dir() / f"join{'-nobles' if nobles else ''}{seen}-{split}-{first}-{n}.json"

    done = max((n for n in range(count, 0, -1) if cached(n).exists()), default=0) \
        if reuse else 0
    out: list[dict[str, Any]] = (list(json.loads(cached(done).read_text(encoding="utf-8")))
                                 if done else [])
    if done == count:
        return out
    t0 = time.monotonic()
    seeds = range(first + done, first + count)
    what = "nobles" if nobles else "cards"
    if population != "twin":
        what += f" ({population})"
    with pools.pool(workers) as pool:
        got_all = pool.map(_noble_rows, seeds, [split] * len(seeds)) if nobles else \
            pool.map(_frame_rows, seeds, [split] * len(seeds), [population] * len(seeds))
        for i, got in enumerate(got_all, done + 1):
            out += got
            print(f"\r{split} tables: {i}/{count}, {len(out)} {what}, "
                  f"{time.monotonic() - t0:.0f} s", end="", file=sys.stderr, flush=True)
            if i % CHUNK == 0 or i == count:  # a run stopped later resumes from here
                cached(i).parent.mkdir(parents=True, exist_ok=True)
                cached(i).write_text(json.dumps(out), encoding="utf-8")
    print(file=sys.stderr)
    return out


def alone_gate(design: Sequence[dict[str, Any]]) -> float:
    """The network's least probability at which, on ``design`` rows, the cards it named
    that share no colour pattern were wrong at most once in a thousand (and at least a
    thousand were named): there it names the card alone.  NEVER when none is."""
    pairs = [(float(r["p_net"]), r["net"] == r["truth"]) for r in design
             if not card_net.paired(str(r["net"]))]
    gate = choose_threshold(pairs, SURE_WRONG_GOAL)
    return gate if sum(p >= gate for p, _ in pairs) >= 1 / SURE_WRONG_GOAL else NEVER


def staged(rows: Sequence[dict[str, Any]], gate: float) -> list[dict[str, Any]]:
    """``rows`` with those the network names alone (``gate``) in the case "alone"."""
    if gate > 1:
        return list(rows)
    return [{**r, "case": "alone"} if r["p_net"] >= gate and not card_net.paired(str(r["net"]))
            else r for r in rows]


def _features(row: dict[str, Any], cases: Sequence[str], wins: frozenset[str] = frozenset()
              ) -> np.ndarray:
    """Per case an indicator and the network's logit; the decode's logit when agreeing,
    and (a column of its own) when the decode's answer is named (``wins``)."""
    x = np.zeros(2 * len(cases) + 2)
    k = cases.index(row["case"])
    zn = np.log(np.clip(row["p_net"], NET_EPS, 1 - NET_EPS) /
                np.clip(1 - row["p_net"], NET_EPS, 1 - NET_EPS))
    x[k] = 1.0
    x[len(cases) + k] = zn
    pd = float(np.clip(row["p_decode"], DECODE_EPS, 1 - DECODE_EPS))
    if row["case"] == "agree":
        x[-2] = np.log(pd / (1 - pd))
    elif row["case"] in wins:
        x[-1] = np.log(pd / (1 - pd))
    return x


def named(row: dict[str, Any], decode_wins: frozenset[str]) -> str:
    """The card the join names for ``row``."""
    return str(row["decode"]) if row["case"] in decode_wins and row["decode"] else \
        str(row["net"])


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Weights of a ridge-penalised logistic regression (Newton's method)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        g = x.T @ (p - y) + ridge * w
        h = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def _populations(rows: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``rows`` split by who read them (:data:`POPULATIONS`; a row without the key: the twin)."""
    by: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(str(r.get("population", "twin")), []).append(r)
    return list(by.values())


def fit(design: Sequence[dict[str, Any]], old_sure: float, cases: Sequence[str] = CASES
        ) -> JoinFit:
    """The join fitted on ``design`` rows; the sure threshold chosen on them.

    Each case's curve is fitted on every row of that case, those the network now
    names alone included, and the "alone" curve on those rows again: the decode's
    verdict on a face does not depend on whether the reader asked for it, and a
    case thinned out by the gate would fall under :data:`MIN_CASE_ROWS` and name
    nothing (a paired card the decode led with, say).  The sure threshold is chosen
    on the rows as the reader meets them (:func:`staged`).  Only cards are named
    alone (``cases`` holds "alone").

    The curves are fitted on every population at once (:data:`POPULATIONS`); the
    alone gate and the sure threshold are the strictest any population asks for:
    each must keep its mistakes under the goal on faces the network never saw and
    on faces it knows."""
    pops = _populations(design)
    gate = max(alone_gate(p) for p in pops) if "alone" in cases else NEVER
    now = staged(design, gate)
    wins = frozenset(c for c in cases if c not in ("alone", "agree", "abstained")
                     if sum(r["decode"] == r["truth"] for r in design if r["case"] == c) >
                     sum(r["net"] == r["truth"] for r in design if r["case"] == c))
    rows = [*design, *(r for r in now if r["case"] == "alone")]
    rare = frozenset(c for c in cases if sum(r["case"] == c for r in rows) < MIN_CASE_ROWS)
    x = np.stack([_features(r, cases, wins) for r in rows])
    y = np.asarray([named(r, wins) == r["truth"] for r in rows], float)
    w = logistic(x, y)
    n = len(cases)
    join = JoinFit(dict(zip(cases, map(float, w[:n]), strict=True)),
                   dict(zip(cases, map(float, w[n:2 * n]), strict=True)),
                   float(w[-2]), wins, 1.0, rare, gate, float(w[-1]))

    def pairs(got: Sequence[dict[str, Any]]) -> list[tuple[float, bool]]:
        return [(probability(join, r), named(r, wins) == r["truth"]) for r in got
                if r["case"] not in rare]

    t = max(choose_threshold(pairs(p), SURE_WRONG_GOAL) for p in _populations(now))
    if sum(c >= t for c, _ in pairs(now)) < 1 / SURE_WRONG_GOAL:  # as vision.training.sure
        t = max(t, old_sure)
    return JoinFit(join.intercept, join.net_slope, join.decode_slope, wins, t, rare, gate,
                   join.named_decode_slope)


def probability(join: JoinFit, row: dict[str, Any]) -> float:
    """The joined confidence of ``row`` (a rare case's capped as the reader caps it)."""
    p = join.probability(row["case"], row["p_net"], row["p_decode"])
    return min(p, UNKNOWN_CONFIDENCE) if row["case"] in join.rare else p


def report(join: JoinFit, got: Sequence[dict[str, Any]], what: str) -> list[str]:
    """Comment lines: sure and wrong counts, the reliability table and ECE of ``got``."""
    got = staged(got, join.alone)
    alone = sum(r["case"] == "alone" for r in got)
    pairs = [(probability(join, r), named(r, join.decode_wins) == r["truth"]) for r in got]
    sure = [ok for p, ok in pairs if p >= join.sure]
    right = sum(ok for _, ok in pairs)
    cases = {c: sum(r["case"] == c for r in got) for c in dict.fromkeys(r["case"] for r in got)}
    lines = [f"{what}: {len(pairs)} answers, {right} named right; {len(sure)} sure, "
             f"{len(sure) - sum(sure)} of them wrong; {alone} named by the network alone",
             "rows per case: " + ", ".join(f"{c} {n}" for c, n in cases.items())]
    lines.append(f"ECE {expected_calibration_error(pairs):.4f}; | p | cards | right % | "
                 "mean p |")
    return lines + [f"| {b.low:.2f}-{b.high:.2f} | {b.count} | {100 * b.accuracy:.2f} | "
                    f"{b.mean_confidence:.4f} |" for b in reliability(pairs)]


def write(join: JoinFit, lines: Sequence[str], path: Path = JOIN_PATH) -> None:
    def table(d: dict[str, float] | Any) -> str:
        return "{" + ", ".join(f'"{k}" = {v:.4f}' for k, v in d.items()) + "}"

    nobles = path.name == NOBLE_JOIN_PATH.name
    what = ("the noble reader", "noble_net", " --nobles") if nobles else ("the card reader",
                                                                          "card_net", "")
    text = [f"# How {what[0]} joins its network and its decode (vision/{what[1]}.py).",
            f"# Written by `python -m vision.training.join{what[2]}`: fitted on design",
            *(["# tables through the network's calibration twin, scored on check tables; do",
               "# not edit by hand."] if nobles else
              ["# tables through the network's calibration twin and the shipped network (see",
               "# POPULATIONS there), scored on check tables; do not edit by hand."]),
            *(f"# {line}" for line in lines),
            f"intercept = {table(join.intercept)}",
            f"net_slope = {table(join.net_slope)}",
            f"decode_slope = {join.decode_slope:.4f}",
            "decode_wins = [" + ", ".join(f'"{c}"' for c in sorted(join.decode_wins)) + "]",
            "rare = [" + ", ".join(f'"{c}"' for c in sorted(join.rare)) + "]",
            f"sure = {join.sure}",
            f"alone = {join.alone}",
            f"named_decode_slope = {join.named_decode_slope:.4f}"]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training.join",
                                 description="Fit the card reader's join of network and "
                                 "decode on design tables (through the network's twin), "
                                 "score it on check tables, write vision/card_join.toml.")
    ap.add_argument("--nobles", action="store_true",
                    help="the noble reader's join instead (vision/noble_join.toml)")
    ap.add_argument("--tables", type=int, default=360, help="design tables to fit on")
    ap.add_argument("--check-tables", type=int, default=72, help="check tables to score on")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reuse", action="store_true", help="reuse the cached rows")
    a = ap.parse_args(argv)

    model, path = ("splendor_nobles", NOBLE_JOIN_PATH) if a.nobles else ("splendor_cards",
                                                                           JOIN_PATH)
    module = noble_net if a.nobles else card_net
    train_twin(model)
    design = rows("design", FIT_SEED, a.tables, a.workers, a.reuse, a.nobles)
    if not a.nobles:  # the shipped network on the faces it knows (see POPULATIONS)
        design += rows("design", FIT_SEED, a.tables, a.workers, a.reuse, False, "seen")
    if not design:
        print("error: no design rows: ../shared/card-faces is needed", file=sys.stderr)
        return 1
    old = module.fitted().sure if path.exists() else NEVER  # the first fit: none is sure yet
    join = fit(design, old, module.CASES)
    head = f"design seeds {FIT_SEED}.. ({a.tables} tables), check seeds {CHECK_SEED}.. " \
           f"({a.check_tables})"
    fitted = [line for pop in _populations(design) for line in report(
        join, pop, f"design ({pop[0].get('population', 'twin')})")]
    write(join, [head, *fitted], path)
    module.fitted.cache_clear()
    check = rows("check", CHECK_SEED, a.check_tables, a.workers, a.reuse, a.nobles)
    lines = [head, *fitted, *report(join, check, "check")]
    write(join, lines, path)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
