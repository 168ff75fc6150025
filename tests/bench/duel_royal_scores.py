"""Royal naming under hard light: the evidence behind ROYAL_MIN_SCORE and
ROYAL_MIN_MARGIN (vision/duel/cards.py).

On medium and hard design frames of the central mat (both lenses, ``--count``
frames from each of ``--seeds``), every royal place where a card is found is named
against the four royals with no score or lead rule; prints the lowest best scores
of right names on readable places and the highest of wrong names, hidden (under a
hand or glare) or not.  Decide on the design split only.

    .venv/bin/python tests/bench/duel_royal_scores.py --seeds 9200,7000,5000 --count 12

Then every royal found washed out over more than ``--washed`` (a share) with its
name, score, lead and whether it was right.  ``--detail``: the same for the royals'
detail (``ROYAL_DETAIL_MIN_SCORE`` and ``ROYAL_DETAIL_MIN_MARGIN``).
"""

from __future__ import annotations

import argparse

import numpy as np
from duel_frames import calibrated_frames  # a sibling bench module

from vision.duel.bank import default_bank
from vision.duel.cards import descriptor, detail_descriptor, find_card, posed_faces
from vision.synth.duel_faces import DUEL_CARD_MM


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="9200,7000,5000", help="first seeds, comma-separated")
    ap.add_argument("--count", type=int, default=12, help="frames per seed, difficulty, lens")
    ap.add_argument("--washed", type=float, default=0.3, help="list royals washed over this")
    ap.add_argument("--split", default="design", help="faces: design (decide) or check")
    ap.add_argument("--detail", action="store_true", help="score the royals' detail")
    ap.add_argument("--difficulties", default="medium,hard", help="comma-separated")
    args = ap.parse_args()
    glared: list[str] = []
    _, royals = default_bank()
    right: list[tuple[float, float, str]] = []
    wrong: list[tuple[float, float, str]] = []
    for lens, difficulty, seed, f, cal in calibrated_frames(args.seeds, args.count,
                                                              tuple(args.difficulties.split(",")),
                                                              split=args.split):
        for sl in f.layout.slots_of("noble", "royals"):
            if sl.id in f.unseen:
                continue
            h, gain = cal.h_for_slot(sl), cal.gain_at(sl.center)
            found = find_card(f.image, h, sl, gain, DUEL_CARD_MM)
            if found.state != "present":
                continue
            faces = posed_faces(f.image, h, sl, gain, DUEL_CARD_MM)
            if args.detail and royals.details is not None:
                every = np.stack([royals.details @ detail_descriptor(x) for x in faces])
            else:
                every = np.stack([royals.vectors @ descriptor(x) for x in faces])
            scores = every[int(every.max(axis=1).argmax())]
            order = np.argsort(scores)[::-1]
            best = float(scores[order[0]])
            lead = best - float(scores[order[1]])
            hidden = f.hidden.get(sl.id)
            where = f"{lens} {difficulty} {seed} {sl.id} ({hidden or 'readable'})"
            if found.washed > args.washed:
                ok = "right" if royals.ids[order[0]] == f.contents.get(sl.id) else "WRONG"
                glared.append(f"  washed {found.washed:.2f}: {royals.ids[order[0]]} {ok} "
                              f"{best:.3f} ({lead:.3f}) {where}")
            if royals.ids[order[0]] == f.contents.get(sl.id):
                if hidden is None:
                    right.append((best, lead, where))
            else:
                wrong.append((best, lead, where))
    print(f"right on readable places: {len(right)}; lowest (score, lead):")
    for sc, lead, where in sorted(right)[:6]:
        print(f"  {sc:.3f} ({lead:.3f}) {where}")
    print(f"wrong best matches: {len(wrong)}; highest (score, lead):")
    for sc, lead, where in sorted(wrong)[-6:]:
        print(f"  {sc:.3f} ({lead:.3f}) {where}")
    print(f"washed over {args.washed:.0%}: {len(glared)}")
    print("\n".join(glared))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
