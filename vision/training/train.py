"""``python -m vision.training.train``: train one network (or all) and write its ONNX.

Crops are rendered once per run from the design faces (:mod:`vision.training.faces`,
:mod:`vision.training.augment`, seeded), the network is trained with Adam on them,
and scored on crops of the check faces rendered with another seed (reported in
the manifest, never used to choose anything).  The weights, the class list and
the figures go to ``vision/learned/models/``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any, cast

import numpy as np

from vision.learned.prep import SPECS, prepare
from vision.training import augment, duel_crops, slot_crops
from vision.training.faces import CLASSES, card_mm, labelled

MODELS_DIR = Path(__file__).resolve().parents[1] / "learned" / "models"
#: The seeds of the training crops and of the check crops (apart, so the check is unseen).
TRAIN_SEED = 1
CHECK_SEED = 7_000_001
#: The rendered frames whose slots train each table-trained network, calibrate it
#: (fit) and check it (the check printing: never trained or fitted on); "recorded":
#: frames drawn as the committed recorded scenes are, of other seeds.
TABLE_FRAMES: dict[str, dict[str, tuple[tuple[range, str], ...]]] = {
    slot_crops.NAME: {"train": ((range(20_000, 20_400), "design"), (range(0, 600), "recorded")),
                      "calibrate": ((range(30_000, 30_080), "design"),
                                    (range(1000, 1100), "recorded")),
                      "check": ((range(70_000, 70_060), "check"),)},
    slot_crops.SLOTS: {"train": ((range(21_000, 21_700), "design"),
                                 (range(0, 600), "recorded")),
                       "calibrate": ((range(31_000, 31_160), "design"),
                                     (range(1000, 1100), "recorded")),
                       "check": ((range(71_000, 71_100), "check"),)},
    duel_crops.NAME: {"train": ((range(40_000, 40_600), "design"),),
                      "calibrate": ((range(41_000, 41_150), "design"),),
                      "check": ((range(75_000, 75_100), "check"),)},
    duel_crops.SLOTS: {"train": ((range(46_000, 46_700), "design"),),
                       "calibrate": ((range(47_000, 47_200), "design"),),
                       "check": ((range(80_000, 80_150), "check"),)},
}
#: What each table-trained network's frames are (for its manifest).
TABLE_FRAMES_ARE = {
    "train": "vision.synth.world design tables (older printing; a quarter drawn) and frames "
             "drawn as the recorded scenes",
    "check": "vision.synth.world check tables (newer printing)",
}
DUEL_FRAMES_ARE = {
    "train": "vision.synth.duel design tables (digital sprites; a quarter drawn, a quarter "
             "of the whole table)",
    "check": "vision.synth.duel check tables (print scans' cards; other seeds, cameras)",
}
#: Share of the Splendor cards' training crops whose picture is another card's
#: (:func:`vision.training.augment.swap_art`).
ART_SWAP = 0.7


def _render(args: tuple[str, str, int, int, float, str]) -> tuple[np.ndarray, np.ndarray]:
    model, split, per_class, seed, hard, leave_out = args
    spec = SPECS[model]
    index = {c: i for i, c in enumerate(CLASSES[model])}
    faces = [f for f in labelled(model, split) if f[0] != leave_out]
    by_class: dict[str, list[np.ndarray]] = {}
    for _, fid, img in faces:
        by_class.setdefault(fid, []).append(img)
    rng = np.random.default_rng(seed)
    every = [img for _, _, img in faces]
    xs, ys = [], []
    for fid in sorted(by_class):
        for k in range(per_class):
            img = by_class[fid][k % len(by_class[fid])]
            if model == "splendor_cards" and split == "design" and rng.random() < ART_SWAP:
                img = augment.swap_art(img, every[int(rng.integers(len(every)))],
                                       card_mm(model, fid))
            xs.append(prepare(augment.crop(img, card_mm(model, fid), spec, rng, hard), spec))
            ys.append(index[fid])
    return np.stack(xs), np.asarray(ys, np.int32)


def render(model: str, split: str, per_class: int, seed: int, workers: int = 2,
           hard: float = 1.0, leave_out: str = "") -> tuple[np.ndarray, np.ndarray]:
    """``per_class`` crops of every class of ``split``, prepared, in ``workers`` processes;
    none of the face set named ``leave_out`` (the calibration twin's held-out printing)."""
    shares = [per_class // workers + (i < per_class % workers) for i in range(workers)]
    jobs = [(model, split, n, seed * 1000 + i, hard, leave_out)
            for i, n in enumerate(shares) if n]
    with get_context("spawn").Pool(len(jobs)) as pool:
        parts = pool.map(_render, jobs)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def table_crops(part: str, seed: int | None = None, model: str = slot_crops.NAME
                ) -> tuple[np.ndarray, np.ndarray]:
    """A table-trained network's prepared inputs and labels of ``part`` of
    :data:`TABLE_FRAMES`, augmented with ``seed`` (none: as cut)."""
    got = [slot_crops.crops(frames, split, name=model)
           for frames, split in TABLE_FRAMES[model][part]]
    x, y = np.concatenate([g[0] for g in got]), np.concatenate([g[1] for g in got])
    if seed is None:
        return np.stack([prepare(c, SPECS[model]) for c in x]), y
    rng = np.random.default_rng(seed)  # two turned, mirrored, re-exposed copies of each
    return (np.concatenate([slot_crops.augmented(x, rng, model) for _ in range(2)]),
            np.tile(y, 2))


def classes(model: str) -> tuple[str, ...]:
    """The network's classes in output order."""
    return slot_crops.NETWORKS[model][0] if model in slot_crops.NETWORKS else CLASSES[model]


def fit(model: str, x: np.ndarray, y: np.ndarray, epochs: int, seed: int,
        log: bool = True) -> dict[str, object]:
    """Train a fresh network on (x, y); the parameters as numpy arrays."""
    import jax  # the training stack: only in the [train] extra
    import jax.numpy as jnp
    import optax

    from vision.training import net

    spec = SPECS[model]
    n_classes = len(classes(model))
    key = jax.random.PRNGKey(seed)
    params = net.init(key, spec.input_px, n_classes)
    batch = 64
    steps = epochs * (len(x) // batch)
    sched = optax.cosine_onecycle_schedule(steps, 3e-3)
    opt = optax.adamw(sched, weight_decay=1e-4)
    state = opt.init(params)

    def loss_fn(p: Any, xb: Any, yb: Any, k: Any) -> Any:
        logits = net.apply(p, xb, dropout=0.3, key=k)
        labels = optax.smooth_labels(jax.nn.one_hot(yb, n_classes), 0.05)
        return optax.softmax_cross_entropy(logits, labels).mean()

    @jax.jit  # type: ignore[untyped-decorator, unused-ignore]  # jax is Any without [train]
    def step(p: Any, s: Any, xb: Any, yb: Any, k: Any) -> Any:
        loss, g = jax.value_and_grad(loss_fn)(p, xb, yb, k)
        upd, s = opt.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    rng = np.random.default_rng(seed)
    t0 = time.time()
    for e in range(epochs):
        order = rng.permutation(len(x))
        losses = []
        for b in range(len(x) // batch):
            idx = order[b * batch:(b + 1) * batch]
            key, sub = jax.random.split(key)
            params, state, loss = step(params, state, jnp.asarray(x[idx]), jnp.asarray(y[idx]),
                                       sub)
            losses.append(float(loss))
        if log:
            print(f"  {model} epoch {e + 1}/{epochs} loss {np.mean(losses):.3f} "
                  f"({time.time() - t0:.0f} s)", flush=True)
    return cast("dict[str, object]", jax.tree_util.tree_map(np.asarray, params))


def logits_of(params: dict[str, object], x: np.ndarray) -> np.ndarray:
    """The network's logits on ``x`` (in JAX, in batches)."""
    from vision.training import net
    return np.concatenate([np.asarray(net.apply(params, cast(Any, x[i:i + 256])))
                           for i in range(0, len(x), 256)]) if len(x) else np.zeros((0, 0))


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=MODELS_DIR).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def train(model: str, per_class: int, epochs: int, check_per_class: int) -> dict[str, object]:
    """Render, train, score on check crops and write ``<model>.onnx`` and ``<model>.json``."""
    from vision.training.export import to_onnx

    t0 = time.time()
    chips = model in TABLE_FRAMES
    if chips:
        print(f"{model}: slots of rendered design tables", flush=True)
        x, y = table_crops("train", TRAIN_SEED, model)
    else:
        print(f"{model}: rendering {per_class} crops a class from the design faces", flush=True)
        x, y = render(model, "design", per_class, TRAIN_SEED)
    print(f"{model}: {len(x)} crops in {time.time() - t0:.0f} s; training", flush=True)
    params = fit(model, x, y, epochs, TRAIN_SEED)
    xc, yc = table_crops("check", model=model) if chips else render(model, "check", check_per_class,
                                                          CHECK_SEED)
    acc = float((logits_of(params, xc).argmax(1) == yc).mean()) if len(xc) else None
    print(f"{model}: check crops top-1 {acc}", flush=True)
    spec = SPECS[model]
    to_onnx(params, spec.input_px, MODELS_DIR / f"{model}.onnx")
    if chips:
        are = DUEL_FRAMES_ARE if model in (duel_crops.NAME, duel_crops.SLOTS) \
            else TABLE_FRAMES_ARE
        train_from: dict[str, object] = {
            "frames": are["train"],
            "seeds": {split: [r.start, r.stop] for r, split in TABLE_FRAMES[model]["train"]}}
        check_from: dict[str, object] = {
            "frames": are["check"],
            "seeds": {split: [r.start, r.stop] for r, split in TABLE_FRAMES[model]["check"]}}
    else:
        train_from = {"faces": sorted({s for s, _, _ in labelled(model, "design")}),
                      "per_class": per_class}
        check_from = {"faces": sorted({s for s, _, _ in labelled(model, "check")}),
                      "per_class": check_per_class, "seed": CHECK_SEED}
    info = {"model": model, "classes": list(classes(model)),
            "input_px": list(spec.input_px), "crop_mm": list(spec.crop_mm),
            "train": {**train_from, "epochs": epochs, "seed": TRAIN_SEED, "crops": len(x)},
            "check": {**check_from, "crops": len(xc), "top1": acc},
            "commit": _commit(), "seconds": round(time.time() - t0)}
    (MODELS_DIR / f"{model}.json").write_text(json.dumps(info, indent=1) + "\n",
                                              encoding="utf-8")
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training.train",
                                 description="Train the reader's networks from ../shared's "
                                 "design faces and write them to vision/learned/models/.")
    ap.add_argument("--model", default="all", help="all or one of " + ", ".join(SPECS))
    ap.add_argument("--per-class", type=int, default=240, help="training crops per class")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--check-per-class", type=int, default=20)
    a = ap.parse_args(argv)
    names = list(SPECS) if a.model == "all" else [a.model]
    if any(n not in SPECS for n in names):
        print(f"error: --model is all or one of {', '.join(SPECS)}", file=sys.stderr)
        return 2
    if not list(labelled("splendor_cards", "design")):
        print("error: no design faces: ../shared/card-faces is needed to train", file=sys.stderr)
        return 1
    for n in names:
        train(n, a.per_class, a.epochs, a.check_per_class)
    return 0


if __name__ == "__main__":
    sys.exit(main())
