"""Royals, privileges and decks of rendered Duel frames, read as ``read_duel`` does:
the evidence behind the constants of vision/duel/read.py and cards.py that judge them.

Per kind: readable places right / wrong / unsure, places a person could not read
(hand, glare, shadow) right / wrong / unsure, and sure answers wrong of sure answers
(vision/duel/confidence.py); then every readable place not read right and every sure
answer that is wrong.  Decide on the design split only.

    .venv/bin/python tests/bench/duel_places.py --seeds 9200,9300,9400,9500,9600,9700 --count 12
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from duel_frames import calibrated_frames  # a sibling bench module

from vision.duel.bank import default_bank
from vision.duel.read import PlaceReading, _presence, _read_card


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="9200,9600", help="first seeds, comma-separated")
    ap.add_argument("--count", type=int, default=12, help="frames per seed, difficulty, lens")
    ap.add_argument("--split", default="design", help="faces: design (decide) or check")
    args = ap.parse_args()
    _, royals = default_bank()
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    notes: list[str] = []
    for lens, difficulty, seed, f, cal in calibrated_frames(
            args.seeds, args.count, ("easy", "medium", "hard"), split=args.split):
        for sl in f.layout.slots:
            if sl.id in f.unseen or sl.id.startswith("player") or \
                    sl.kind not in ("noble", "privilege", "deck"):
                continue
            h, gain = cal.h_for_slot(sl), cal.gain_at(sl.center)
            truth = f.contents.get(sl.id, "")
            r: PlaceReading
            if sl.kind == "noble":
                kind = "royals"
                r = _read_card(f.image, h, sl, gain, royals, royal=True)
            else:
                kind = "privileges" if sl.kind == "privilege" else "decks"
                r = _presence(f.image, h, sl, gain, "fill" if sl.kind == "privilege"
                              else "paper")
                truth = "present" if truth else ""
            verdict = "unsure" if r.value is None else (
                "right" if r.value == truth else "wrong")
            hidden = f.hidden.get(sl.id)
            tally[kind][f"{'hidden' if hidden else 'readable'} {verdict}"] += 1
            if r.sure:
                tally[kind][f"sure {verdict}"] += 1
            where = f"{lens} {difficulty} {seed} {sl.id} ({hidden or 'readable'})"
            if (hidden is None and verdict != "right") or (r.sure and verdict == "wrong"):
                notes.append(f"  {where}: {r.value!r} for {truth!r}, {r.confidence:.3f}"
                             f"{' sure' if r.sure else ''} {r.why}")
    for kind, c in sorted(tally.items()):
        line = " / ".join(f"{c[f'{w} {v}']}" for w in ("readable", "hidden")
                          for v in ("right", "wrong", "unsure"))
        print(f"{kind:<11} readable, hidden right / wrong / unsure: {line}; "
              f"sure wrong {c['sure wrong']} of {c['sure right'] + c['sure wrong']}")
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
