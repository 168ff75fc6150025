"""Scoring the reader on frames of a table it has never seen (issue 12).

A frame comes from :func:`vision.synth.world.world_frame` (the realistic
world: the printed layout, either printing's faces, real chips, the Pi's lens
and light).  :func:`score` turns one :class:`~vision.observation.Observation`
and the frame's truth into :class:`Outcome` values, one per object, in the
issue's categories (:data:`vision.confidence.CATEGORIES`):

* market cards holding a card (right = the right card id), nobles on the
  table, the three decks (present or not), token slots holding a chip (right =
  the right colour), empty token, market and noble slots, reserved slots
  (occupied or not).
* Only objects a person could read count: a slot in the frame's ``unseen``
  (not wholly in the picture) is left out; one in ``hidden`` (glare, a hand, a
  shadow) is kept apart, where abstaining is the right answer.

The tables and the calibration report are made by :func:`report` (Markdown).
Frames are rendered and read in memory, never written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from vision.calibration_report import (
    choose_threshold,
    expected_calibration_error,
    reliability,
    sure_stats,
)
from vision.confidence import CATEGORIES, SURE, SURE_WRONG_GOAL, answer_category
from vision.layout import Layout
from vision.observation import Observation

PLAYERS = (2, 3, 4)
DIFFICULTIES = ("easy", "medium", "hard")
SPLITS = ("check", "design", "design-low")
FRAMINGS = ("centre", "table")
LENSES = ("wide", "standard")
#: Goal for objects under glare, a hand or a shadow: at least this share abstained.
HIDDEN_ABSTAIN_GOAL = 0.9
#: What an abstention is shown as.
ABSTAINED = "?"


@dataclass(frozen=True)
class Outcome:
    """One object of one frame: what it was, what the reader said, how sure."""

    category: str
    slot: str
    truth: str
    answer: str           # ABSTAINED when the reader did not answer
    confidence: float     # the reader's confidence in ``answer`` (0 when abstained)
    hidden: str = ""      # "hand" | "glare" | "shadow" when a person could not read it

    @property
    def verdict(self) -> str:
        if self.answer == ABSTAINED:
            return "abstained"
        return "right" if self.answer == self.truth else "wrong"


def _yes_no(value: bool | None, yes: str, no: str) -> str:
    return ABSTAINED if value is None else yes if value else no


def _answers(obs: Observation) -> dict[str, tuple[str, float]]:
    """slot id -> (answer, confidence) for every slot the reader gave a reading."""
    out: dict[str, tuple[str, float]] = {}
    for c in obs.cards:
        out[c.slot] = (ABSTAINED if c.state == "unknown" else
                       c.card.id if c.card else "empty", c.confidence)
    for n in obs.nobles:
        out[n.slot] = (ABSTAINED if n.state == "unknown" else
                       n.noble.id if n.noble else "empty", n.confidence)
    for d in obs.decks:
        out[f"deck.{d.level}"] = (_yes_no(d.present, "present", "absent"), d.confidence)
    for t in obs.token_slots:
        out[t.slot] = (ABSTAINED if t.state == "unknown" else
                       t.colour or "empty" if t.state == "token" else "empty", t.confidence)
    for r in obs.reserved:
        out[r.slot] = (_yes_no(r.occupied, "occupied", "empty"), r.confidence)
    return out


def _category(kind: str, slot_id: str, held: str) -> tuple[str, str] | None:
    """(category, truth) of a slot holding ``held`` ("" = nothing), None when not scored."""
    if kind == "card" and slot_id.startswith("market."):
        return ("market cards", held) if held else ("empty market slots", "empty")
    if kind == "noble":
        return ("nobles", held) if held else ("empty noble slots", "empty")
    if kind == "deck":
        return "decks", "present" if held else "absent"
    if kind == "token":
        return ("token chips", held) if held else ("empty token slots", "empty")
    if kind == "reserved":
        return "reserved", "occupied" if held else "empty"
    return None


def score(obs: Observation, layout: Layout, contents: Mapping[str, str],
          hidden: Mapping[str, str], unseen: Iterable[str]) -> list[Outcome]:
    """One outcome per scored object of ``layout`` in the frame (``unseen`` slots left out)."""
    answers = _answers(obs) if obs.calibrated else {}
    out = set(unseen)
    outcomes = []
    for slot in layout.slots:
        if slot.id in out:
            continue
        cat = _category(slot.kind, slot.id, contents.get(slot.id, ""))
        if cat is None:
            continue
        answer, conf = answers.get(slot.id, (ABSTAINED, 0.0))
        outcomes.append(Outcome(cat[0], slot.id, cat[1], answer,
                                0.0 if answer == ABSTAINED else float(conf),
                                hidden.get(slot.id, "")))
    return outcomes


@dataclass(frozen=True)
class FrameResult:
    players: int
    difficulty: str
    seed: int
    outcomes: tuple[Outcome, ...]
    elapsed_ms: float = 0.0
    note: str = ""        # e.g. why colours were not learned
    framing: str = "centre"
    lens: str = "wide"
    #: the face set the frame's cards and nobles were drawn from ("faces:..." tag)
    faces: str = ""


def evaluate_frame(players: int, difficulty: str, seed: int, split: str, framing: str,
                   lens: str, learn: bool, world: Callable[..., Any] | None = None
                   ) -> FrameResult:
    """Render one frame (and its set-up frame when ``learn``), read it, score it.

    ``world`` defaults to :func:`vision.synth.world.world_frame`; tests pass a stand-in.
    """
    from vision.colours import ColourModel
    from vision.errors import VisionError
    from vision.learn import learn_colours
    from vision.read import read_frame

    if world is None:
        from vision.synth.world import world_frame as world
    assert world is not None  # mypy: an import does not narrow the optional
    frame = world(players, difficulty, seed, split=split, framing=framing, lens=lens)
    colours, note = ColourModel(), ""
    if learn:  # as `run` does at the start of every game
        setup = world(players, difficulty, seed, split=split, framing=framing, lens=lens,
                      setup=True)
        try:
            colours = learn_colours(setup.image, setup.layout, ColourModel(), "set-up frame")
        except VisionError as exc:
            note = f"colours not learned: {exc}"
    obs = read_frame(frame.image, frame.layout, colours, workers=1)
    outcomes = score(obs, frame.layout, frame.contents, frame.hidden, frame.unseen)
    faces = next((t.split(":", 1)[1] for t in getattr(frame, "tags", ())
                  if t.startswith("faces:")), "")
    return FrameResult(players, difficulty, seed, tuple(outcomes), obs.elapsed_ms, note,
                       framing, lens, faces)


# ---------------------------------------------------------------- the report


def _readable(outcomes: Iterable[Outcome], category: str) -> list[Outcome]:
    return [o for o in outcomes if o.category == category and not o.hidden]


def _rates(items: Sequence[Outcome]) -> str:
    if not items:
        return "-"
    n = len(items)
    r, w, a = (sum(o.verdict == v for o in items) / n * 100
               for v in ("right", "wrong", "abstained"))
    return f"{r:.1f} / **{w:.1f}** / {a:.1f} (n={n})" if w else f"{r:.1f} / 0 / {a:.1f} (n={n})"


def _by(results: Sequence[FrameResult], key: Callable[[FrameResult], object],
        title: str, label: Callable[[object], str]) -> list[str]:
    groups = list(dict.fromkeys(key(r) for r in results))
    lines = [f"| {title} | " + " | ".join(label(g) for g in groups) + " |",
             "|---|" + "---|" * len(groups)]
    for cat in CATEGORIES:
        cells = [_rates(_readable((o for r in results if key(r) == g for o in r.outcomes), cat))
                 for g in groups]
        lines.append(f"| {cat} | " + " | ".join(cells) + " |")
    return lines


def _hidden_table(outcomes: Sequence[Outcome]) -> list[str]:
    lines = ["| under glare, a hand or a shadow | objects | abstained % | wrong % |",
             "|---|---|---|---|"]
    rows: list[tuple[str, list[Outcome]]] = [
        (cat, [o for o in outcomes if o.hidden and o.category == cat]) for cat in CATEGORIES]
    rows += [(f"all, {kind}", [o for o in outcomes if o.hidden == kind])
             for kind in sorted({o.hidden for o in outcomes if o.hidden})]
    rows.append(("**all**", [o for o in outcomes if o.hidden]))
    for name, items in rows:
        if not items:
            continue
        n = len(items)
        a = sum(o.verdict == "abstained" for o in items) / n * 100
        w = sum(o.verdict == "wrong" for o in items) / n * 100
        lines.append(f"| {name} | {n} | {a:.1f} | {w:.1f} |")
    return lines


def _pairs(items: Iterable[Outcome]) -> list[tuple[float, bool]]:
    return [(o.confidence, o.verdict == "right") for o in items if o.verdict != "abstained"]


def _sure_pairs(items: Iterable[Outcome], thresholds: Mapping[str, float]
                ) -> list[tuple[float, bool]]:
    """(confidence minus its answer's threshold, right): sure when >= 0."""
    return [(o.confidence - thresholds[answer_category(o.category, o.answer)],
             o.verdict == "right") for o in items if o.verdict != "abstained"]


def calibration_lines(outcomes: Sequence[Outcome],
                      thresholds: Mapping[str, float] = SURE) -> list[str]:
    """Per category: ECE, the reliability table, and how the sure answers fare."""
    lines = ["| category | answers | ECE | wrong answers' median confidence | sure threshold "
             "| sure answers wrong % (goal <= 0.1) | readable objects answered sure % |",
             "|---|---|---|---|---|---|---|"]
    tables = []
    for cat in CATEGORIES:
        items = _readable(outcomes, cat)
        pairs = _pairs(items)
        if not items:
            continue
        st = sure_stats(_sure_pairs(items, thresholds), 0.0, len(items))
        shown = sorted({thresholds[answer_category(cat, o.answer)] for o in items
                        if o.verdict != "abstained"} or {thresholds.get(cat, 0.0)})
        wrong = "-" if not st.sure else f"{100 * st.wrong_rate:.2f} ({st.wrong}/{st.sure})"
        ece = f"{expected_calibration_error(pairs):.3f}" if pairs else "-"
        wrong_conf = sorted(c for c, r in pairs if not r)
        median = f"{wrong_conf[len(wrong_conf) // 2]:.3f}" if wrong_conf else "-"
        lines.append(f"| {cat} | {len(pairs)} | {ece} | {median} | "
                     f"{' / '.join(f'{t:.3f}' for t in shown)} | {wrong} | "
                     f"{100 * st.coverage:.1f} |")
        if not pairs:
            continue
        tables += ["", f"**{cat}**: reliability among answered readable objects", "",
                   "| confidence | count | accuracy % | mean confidence |", "|---|---|---|---|"]
        tables += [f"| {b.low:.2f}-{b.high:.2f} | {b.count} | {100 * b.accuracy:.1f} | "
                   f"{b.mean_confidence:.3f} |" for b in reliability(pairs)]
    note = ["", "A token slot's answer is judged by the threshold of what was answered: "
            "\"empty\" by the empty-slot one, a colour by the chip one."]
    return lines + note + tables


def chosen_thresholds(outcomes: Sequence[Outcome], goal: float = SURE_WRONG_GOAL
                      ) -> dict[str, float | None]:
    """Per answer category, the lowest threshold meeting ``goal`` on these (design) frames;
    None for a category these frames gave no answer in (nothing to choose from)."""
    groups: dict[str, list[tuple[float, bool]]] = {c: [] for c in CATEGORIES}
    for o in outcomes:
        if not o.hidden and o.verdict != "abstained":
            groups[answer_category(o.category, o.answer)].append(
                (o.confidence, o.verdict == "right"))
    return {c: choose_threshold(p, goal) if p else None for c, p in groups.items()}


def report(results: Sequence[FrameResult], header: Sequence[str] = ()) -> str:
    """The Markdown report: rates per players and difficulty, hidden objects, calibration."""
    outcomes = [o for r in results for o in r.outcomes]
    lines = list(header)
    lines += ["", "Readable objects (not hidden, wholly in the frame): right / **wrong** / "
              "abstained %", ""]
    lines += _by(results, lambda r: r.players, "", lambda g: f"{g} players")
    lines += [""]
    lines += _by(results, lambda r: r.difficulty, "", str)
    if len({(r.framing, r.lens) for r in results}) > 1:
        lines += [""]
        lines += _by(results, lambda r: (r.framing, r.lens), "",
                     lambda g: "{} framing, {} lens".format(*cast(tuple[str, str], g)))
    if len({r.faces for r in results}) > 1:
        lines += [""]
        lines += _by(results, lambda r: r.faces, "", lambda g: f"faces: {g}")
    lines += ["", f"Objects a person could not read (goal: >= {HIDDEN_ABSTAIN_GOAL:.0%} "
              "abstained)", ""]
    hidden = _hidden_table(outcomes)
    lines += hidden if len(hidden) > 3 else ["(none in these frames)"]
    lines += ["", "## Calibration (readable objects; thresholds from vision/confidence.py)", ""]
    lines += calibration_lines(outcomes)
    notes = sorted({f"{r.framing} {r.lens} {r.players}p {r.difficulty} seed {r.seed}: {r.note}"
                    for r in results if r.note})
    if notes:
        lines += ["", "Notes:", *[f"- {n}" for n in notes]]
    ms = sorted(r.elapsed_ms for r in results)
    if ms:
        lines += ["", f"Read time: median {ms[len(ms) // 2]:.0f} ms, max {ms[-1]:.0f} ms "
                  f"over {len(ms)} frames."]
    return "\n".join(lines) + "\n"
