"""Regenerate the recorded scenes: ``python tests/data/scenes/generate.py [COUNT]``.

Writes ``NNNN-<view>[-hard].jpg`` and its ground truth ``.json`` (the
Observation schema plus ``covered`` and ``frame``) and ``layout.json`` into
this folder.  Seeded: the same code gives the same files.  Never edit the
frames or truths by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

from vision.layout import build_layout
from vision.synth.recorded import recorded_frames

HERE = Path(__file__).resolve().parent


def main(count: int = 200) -> None:
    layout = build_layout(4)
    (HERE / "layout.json").write_text(layout.to_json() + "\n", encoding="utf-8")
    for old in list(HERE.glob("*.jpg")) + [p for p in HERE.glob("*.json") if p.stem[:1].isdigit()]:
        old.unlink()
    import json

    for k, f in enumerate(recorded_frames(layout, count), 1):
        print(f"\r[{k}/{count}] {f.name:<32}", end="", flush=True)
        (HERE / f"{f.name}.jpg").write_bytes(f.jpeg)  # the camera's own JPEG, compressed once
        (HERE / f"{f.name}.json").write_text(json.dumps(f.truth, indent=None) + "\n",
                                              encoding="utf-8")
    print()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
