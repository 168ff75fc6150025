"""Regenerate the recorded scenes: ``python tests/data/scenes/generate.py [N [TABLEAU [PILES]]]``.

Writes ``NNNN-<view>[-hard].jpg`` and its ground truth ``.json`` (the
Observation schema plus ``covered`` and ``frame``) and ``layout.json`` into
this folder: N (200) frames of the market, nobles, supply, players' tokens
and reserved cards, then TABLEAU (40) frames of players' tableau columns
numbered from 0200; and PILES (24) frames of players who keep token piles
(another layout) into ``../scenes-piles``.  Seeded: the same code gives the
same files.  Never edit the frames or truths by hand.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from itertools import chain
from pathlib import Path

from vision.layout import Layout, build_layout
from vision.synth.recorded import (
    Frame,
    recorded_frames,
    recorded_pile_frames,
    recorded_tableau_frames,
)

HERE = Path(__file__).resolve().parent
#: Frames of players who keep token piles: another layout, so another folder.
PILES = HERE.parent / "scenes-piles"


def main(count: int = 200, tableau: int = 40, piles: int = 24) -> None:
    layout = build_layout(4)
    write(HERE, layout, chain(recorded_frames(layout, count),
                              recorded_tableau_frames(layout, tableau)), count + tableau)
    layout = build_layout(4, piles=True)
    PILES.mkdir(exist_ok=True)
    write(PILES, layout, recorded_pile_frames(layout, piles), piles)


def write(folder: Path, layout: Layout, frames: Iterable[Frame], total: int) -> None:
    """Replace the frames, truths and layout.json in ``folder``."""
    (folder / "layout.json").write_text(layout.to_json() + "\n", encoding="utf-8")
    for old in list(folder.glob("*.jpg")) + [p for p in folder.glob("*.json")
                                              if p.stem[:1].isdigit()]:
        old.unlink()
    for k, f in enumerate(frames, 1):
        print(f"\r{folder.name}: [{k}/{total}] {f.name:<32}", end="", flush=True)
        (folder / f"{f.name}.jpg").write_bytes(f.jpeg)  # the camera's own JPEG, compressed once
        (folder / f"{f.name}.json").write_text(json.dumps(f.truth, indent=None) + "\n",
                                                encoding="utf-8")
    print()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
