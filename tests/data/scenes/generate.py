"""Regenerate the recorded scenes: ``python tests/data/scenes/generate.py [COUNT [TABLEAU]]``.

Writes ``NNNN-<view>[-hard].jpg`` and its ground truth ``.json`` (the
Observation schema plus ``covered`` and ``frame``) and ``layout.json`` into
this folder: COUNT (200) frames of the market, nobles, supply, players' tokens
and reserved cards, then TABLEAU (40) frames of players' tableau columns
numbered from 0200.  Seeded: the same code gives the same files.  Never edit the
frames or truths by hand.
"""

from __future__ import annotations

import sys
from itertools import chain
from pathlib import Path

from vision.layout import build_layout
from vision.synth.recorded import recorded_frames, recorded_tableau_frames

HERE = Path(__file__).resolve().parent


def main(count: int = 200, tableau: int = 40) -> None:
    layout = build_layout(4)
    (HERE / "layout.json").write_text(layout.to_json() + "\n", encoding="utf-8")
    for old in list(HERE.glob("*.jpg")) + [p for p in HERE.glob("*.json") if p.stem[:1].isdigit()]:
        old.unlink()
    import json

    total = count + tableau
    frames = chain(recorded_frames(layout, count), recorded_tableau_frames(layout, tableau))
    for k, f in enumerate(frames, 1):
        print(f"\r[{k}/{total}] {f.name:<32}", end="", flush=True)
        (HERE / f"{f.name}.jpg").write_bytes(f.jpeg)  # the camera's own JPEG, compressed once
        (HERE / f"{f.name}.json").write_text(json.dumps(f.truth, indent=None) + "\n",
                                              encoding="utf-8")
    print()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
