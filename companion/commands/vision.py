"""``splendor-companion vision``: read frames of the table, and evaluate the reader.

``vision read IMAGE --layout layout.json [--json]`` prints what the reader
sees (the Observation; its JSON schema is in ``vision/SCHEMA.md``).
``vision eval DIR`` reads every frame of a recorded folder (``*.jpg``/``*.png``
with a ``.json`` truth beside each, and ``layout.json``) and prints right /
wrong / abstained per category with the latency; ``--min-accuracy`` makes it
fail below a threshold.
``vision world`` renders frames of tables the reader has never seen
(``vision.synth.world``), reads them and reports right / wrong / abstained
per category, players and difficulty, with the confidence calibration; nothing
is written but ``--report``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from companion import processes
from companion.commands import CommandError
from companion.games import DUEL_GAME, SPLENDOR_GAME, AnyKind, by_key, keys
from companion.output import write_text
from vision import world_eval as we
from vision.errors import VisionError
from vision.evaluate import CATEGORIES, Tally, compare, format_table, load_truth
from vision.layout import load_layout

if TYPE_CHECKING:
    from vision.colours import ColourModel
    from vision.layout import Layout


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("vision", help="read camera frames of the table",
                       description=__doc__.splitlines()[0])
    vs = p.add_subparsers(dest="vision_command", metavar="ACTION")
    r = vs.add_parser("read", help="read one frame and print the observation")
    r.add_argument("image", type=Path,
                   help="a still of the table: PNG, JPEG or another format OpenCV reads;"
                   " memory: at most 100 MP (20000 px a side), about 300 MB decoded,"
                   " checked from a PNG's, JPEG's or BMP's header before decoding")
    r.add_argument("--layout", type=Path, required=True, help="layout.json written by `mats`")
    r.add_argument("--colours", type=Path, default=None,
                   help="colour classes from `calibrate` (default: the stored ones, if any)")
    r.add_argument("--json", action="store_true", help="print the observation as JSON")
    r.set_defaults(func=run_read)
    e = vs.add_parser("eval", help="score the reader on a folder of recorded frames")
    e.add_argument("folder", type=Path)
    e.add_argument("--layout", type=Path, default=None,
                   help="layout.json (default: the folder's own layout.json)")
    e.add_argument("--min-accuracy", type=float, default=None,
                   help="fail when any category is right less often (0-1 or percent)")
    e.add_argument("--limit", type=int, default=None, help="read only the first N frames")
    e.add_argument("--mistakes", action="store_true",
                   help="list every wrong reading, then every abstention")
    e.add_argument("--official-faces", type=Path, default=None, metavar="DIR",
                   help="also redraw the recorded scenes with the publisher's faces from DIR "
                        "(e.g. ../shared/card-faces/splendor, with labels.csv) and report "
                        "them separately; nothing is written")
    e.add_argument("--count", type=int, default=40,
                   help="frames to redraw with --official-faces (default 40; 240: all, the"
                   " tableau views last)")
    e.add_argument("--report", type=Path, default=None, metavar="FILE.md",
                   help="also write the accuracy tables to this file, as Markdown (no timing:"
                   " tests/reports/make_reports.py writes tests/reports/vision-eval-scenes.md)")
    e.set_defaults(func=run_eval, outputs=("report",))
    _register_world(vs)

    def usage(args: argparse.Namespace) -> int:
        p.print_help()
        return 2

    p.set_defaults(func=usage)


def _register_world(vs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    w = vs.add_parser("world", help="score the reader on rendered tables it has never seen",
                      description="Render frames of unseen tables in memory (the realistic "
                      "world of vision/synth/world.py), learn colours from each table's set-up "
                      "frame as `run` does, read and score them; print a Markdown report.")
    w.add_argument("--game", choices=keys(), default=keys()[0],
                   help="splendor (default) or duel: Splendor Duel tables (--players, "
                   "--no-learn, --choose do not apply)")
    w.add_argument("--players", default="2,4", help="player counts, comma-separated (2,4)")
    w.add_argument("--difficulty", default="easy,medium,hard",
                   help="difficulties, comma-separated (easy,medium,hard)")
    w.add_argument("--split", default="check",
                   help="faces: check (report), design or design-low (tune; design-low: "
                        "the design faces resampled to 1.8 px/mm)")
    w.add_argument("--framing", default=None,
                   help="centre (central mat), table (whole layout) or both: centre,table"
                   " (default centre)")
    w.add_argument("--lens", default="wide", help="wide, standard or both: wide,standard")
    w.add_argument("--count", type=int, default=5, help="frames per players x difficulty "
                   "cell (default 5)")
    w.add_argument("--seed", type=int, default=0, help="first seed (frames use seed..seed+N-1)")
    w.add_argument("--no-learn", action="store_true",
                   help="read with the built-in colours instead of the set-up frame's")
    w.add_argument("--report", type=Path, default=None, metavar="FILE.md",
                   help="also write the report to this file")
    w.add_argument("--workers", type=int, default=1, help="frames read at once (default 1)")
    w.add_argument("--choose", action="store_true",
                   help="print the sure thresholds these frames support (design splits only)")
    w.add_argument("--mistakes", action="store_true", help="list every wrong readable answer")
    w.set_defaults(func=run_world, outputs=("report",))


def _setup(layout_path: Path, colours_path: Path | None):  # type: ignore[no-untyped-def]
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.colours import load_colours

    return load_layout(layout_path), load_colours(colours_path)


def run_read(args: argparse.Namespace) -> int:
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.read import load_image, read_frame

    try:
        layout, colours = _setup(args.layout, args.colours)
        obs = read_frame(load_image(args.image), layout, colours)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    if args.json:
        print(obs.to_json())
        return 0
    if not obs.calibrated:
        print(f"uncalibrated: {obs.reason}")
        return 0
    print(f"markers {list(obs.markers)}; read in {obs.elapsed_ms:.0f} ms; colours: {obs.colours}")
    for c in obs.cards:
        what = c.card.describe() if c.card else c.state
        print(f"  {c.slot:<14} {c.card.id if c.card else '-':<5} {what} ({c.confidence:.2f})")
    for d in obs.decks:
        print(f"  deck {d.level}: {_yes_no(d.present, 'present', 'empty')}")
    for n in obs.nobles:
        print(f"  {n.slot:<14} {n.noble.describe() if n.noble else n.state}")
    for z in obs.tokens:
        counts = " ".join(f"{k}{v}" for k, v in z.counts.items() if v) or "none"
        print(f"  {z.zone:<16} {counts}{'' if z.exact else f' (+{z.unknown} unsure)'}")
    for r in obs.reserved:
        print(f"  {r.slot:<20} {_yes_no(r.occupied, 'occupied', 'empty')}")
    if obs.unseen:
        print(f"  {len(obs.unseen)} slots outside the frame")
    return 0


def _emit(text: str, report: Path | None) -> int:
    """Print a Markdown report, and write it to ``report`` too when asked."""
    print(text, end="")
    if report is not None:
        write_text(report, text)
    return 0


def _mistakes(tallies: dict) -> None:  # type: ignore[type-arg]

    for cat in CATEGORIES:
        for m in tallies[cat].mistakes if cat in tallies else []:
            print(f"  {cat}: {m}")
        for m in tallies[cat].abstentions if cat in tallies else []:
            print(f"  {cat}: {m}")


def _official(args: argparse.Namespace, layout, colours):  # type: ignore[no-untyped-def]
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.read import read_frame
    from vision.synth.official import load_official_faces
    from vision.synth.recorded import TABLEAU_START, recorded_frames, recorded_tableau_frames

    if args.count < 1:
        raise CommandError("--count must be 1 or more")
    try:
        faces = load_official_faces(args.official_faces)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    tallies: dict[str, Tally] = {}
    latency = []
    # the first COUNT of the recorded scenes: the 200 views, then the tableau views
    frames = chain(recorded_frames(layout, min(args.count, TABLEAU_START), face_images=faces),
                   recorded_tableau_frames(layout, max(0, args.count - TABLEAU_START),
                                           face_images=faces))
    for i, f in enumerate(frames, 1):
        print(f"\r[{i:>4}/{args.count}] redrawing {f.name:<30}", end="", file=sys.stderr,
              flush=True)
        obs = read_frame(f.image, layout, colours)
        latency.append(obs.elapsed_ms)
        compare(obs.to_dict(), f.truth, tallies, f.name)
    print(file=sys.stderr)
    return tallies, latency


def _markdown_table(tallies: dict[str, Tally]) -> list[str]:
    """Per category: objects scored, right / wrong / abstained %, and covered."""
    lines = ["| category | scored | right % | wrong % | abstained % | wrong | covered |",
             "|---|---|---|---|---|---|---|"]
    for cat in CATEGORIES:
        t = tallies.get(cat)
        if not t or not t.total:
            continue
        lines.append(f"| {cat} | {t.total} | {100 * t.rate('right'):.2f} | "
                     f"{100 * t.rate('wrong'):.2f} | {100 * t.rate('abstained'):.2f} | "
                     f"{t.wrong} | {t.covered} |")
    return lines


def _yes_no(value: bool | None, yes: str, no: str) -> str:
    return "?" if value is None else yes if value else no


def run_eval(args: argparse.Namespace) -> int:

    folder: Path = args.folder
    layout, colours, frames = _eval_frames(args, folder)
    tallies, latency = _read_eval_frames(frames, layout, colours, folder, args.min_accuracy)
    print(format_table(tallies, latency))
    if args.mistakes:
        _mistakes(tallies)
    official = None
    if args.official_faces is not None:
        official = _official(args, layout, colours)
        print("\nofficial card faces (the same scenes redrawn, in memory):")
        print(format_table(official[0], official[1]))
        if args.mistakes:
            _mistakes(official[0])
    if args.report is not None:
        _write_eval_report(args, tallies, len(frames), official and official[0])
    if args.min_accuracy is not None:
        need = args.min_accuracy / 100 if args.min_accuracy > 1 else args.min_accuracy
        low = [c for c in CATEGORIES if c in tallies and tallies[c].total
               and c != "tableau" and tallies[c].rate("right") < need]
        if low:
            raise CommandError(f"below {need:.1%} right: {', '.join(low)}")
    return 0


def _eval_frames(args: argparse.Namespace, folder: Path
                 ) -> tuple[Layout, ColourModel, list[Path]]:
    """``vision eval``'s options checked; (layout, colours, the frames with a truth)."""
    if args.limit is not None and args.limit < 1:
        raise CommandError(f"--limit {args.limit}: read at least 1 frame")
    if args.min_accuracy is not None and not 0 <= args.min_accuracy <= 100:
        raise CommandError(
            f"--min-accuracy {args.min_accuracy:g}: give a fraction 0-1 or a percent 0-100"
        )
    if args.official_faces is not None and args.count < 1:
        raise CommandError("--count must be 1 or more")
    try:
        is_folder = folder.is_dir()
    except (OSError, ValueError) as exc:  # a name the system refuses (5000 characters)
        raise CommandError(f"{folder}: {getattr(exc, 'strerror', None) or exc}") from None
    if not is_folder:
        raise CommandError(f"{folder} is not a folder")
    try:
        layout, colours = _setup(args.layout or folder / "layout.json", None)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    frames = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".jpg", ".png")
                    and p.with_suffix(".json").exists())
    if args.limit:
        frames = frames[: args.limit]
    if not frames:
        raise CommandError(f"no frames with a .json truth in {folder}")
    return layout, colours, frames


def _read_eval_frames(frames: list[Path], layout: Layout, colours: ColourModel, folder: Path,
                      min_accuracy: float | None) -> tuple[dict[str, Tally], list[float]]:
    """Read and score every frame: the tallies per category and the read times."""
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.read import load_image, read_frame

    tallies: dict[str, Tally] = {}
    latency: list[float] = []
    unread: list[str] = []  # said after the progress line, or as the one error line
    for i, path in enumerate(frames, 1):
        print(f"\r[{i:>4}/{len(frames)}] {path.name:<30}", end="", file=sys.stderr, flush=True)
        try:
            obs = read_frame(load_image(path), layout, colours)
        except VisionError as exc:
            unread.append(f"{path.name}: {exc}")
            continue
        truth = path.with_suffix(".json")
        try:
            compare(obs.to_dict(), load_truth(truth), tallies, path.stem)
        except VisionError as exc:
            print(file=sys.stderr)  # end the progress line: the error has its own
            raise CommandError(str(exc)) from None
        except (KeyError, TypeError, AttributeError, ValueError) as exc:  # an entry's fields
            print(file=sys.stderr)
            raise CommandError(f"truth file {truth}: an entry is not in the Observation"
                               f" schema (at {str(exc)[:60]})") from None
        latency.append(obs.elapsed_ms)
    print(file=sys.stderr)
    if not latency:  # nothing was measured: no table, and --min-accuracy cannot pass
        option = "--min-accuracy: " if min_accuracy is not None else ""
        raise CommandError(f"{option}none of the {len(frames)} frames in {folder} could be"
                           f" read, so no accuracy was measured ({unread[0]})")
    for note in unread:
        print(f"skipped {note}", file=sys.stderr)
    return tallies, latency


def _write_eval_report(args: argparse.Namespace, tallies: dict[str, Tally], frames: int,
                       official: dict[str, Tally] | None) -> None:
    """``vision eval --report``: the accuracy tables as Markdown, without the read times
    (a timing is the machine's: ``make bench``), so the same frames give the same file."""
    options = f" --limit {args.limit}" if args.limit else ""
    lines = [f"# Reader on recorded frames: {args.folder.as_posix()}", "",
             f"`splendor-companion vision eval {args.folder.as_posix()}{options}`", "",
             f"{frames} frames, each with its truth; an object a hand or the frame's edge"
             " covers is counted apart (covered), not scored.", "",
             "Per category: right / **wrong** (answered, and not the truth) / abstained"
             " (the reader said unsure), as shares of the objects scored.", "",
             *_markdown_table(tallies)]
    if official is not None:
        lines += ["", "## The same scenes redrawn with the publisher's faces", "",
                  *_markdown_table(official)]
    write_text(args.report, "\n".join(lines) + "\n")


def _run_duel_world(args: argparse.Namespace) -> int:
    """``vision world --game duel``: Duel tables in the world, scored per kind of place."""
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.duel import evaluate as de

    levels = _choice_list(args.difficulty, ("easy", "medium", "hard"), "difficulty")
    if args.split not in ("design", "check"):
        raise CommandError(f"--split {args.split!r}: choose from design, check")
    framing = args.framing or "centre"
    framings = _choice_list(framing, ("centre", "table"), "framing")
    lenses = _choice_list(args.lens, ("wide", "standard"), "lens")
    _check_count_and_seed(args)
    jobs = [(d, args.seed + i, args.split, f, lens) for f in framings for lens in lenses
            for d in levels for i in range(args.count)]
    results = []
    for i, job in enumerate(jobs, 1):
        results.append(de.evaluate_frame(*job))
        print(f"\r[{i:>4}/{len(jobs)}] {job[3]} {job[4]} {job[0]:<6} seed {job[1]:<6}",
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    header = [f"# Duel reader on unseen tables: {args.split} split, framing {framing}, "
              f"lens {args.lens}", "",
              f"`splendor-companion vision world --game duel --difficulty {args.difficulty} "
              f"--split {args.split} --framing {framing} --lens {args.lens} --count "
              f"{args.count} --seed {args.seed}`", "",
              f"{len(results)} frames of 4608 x 2592 (seeds {args.seed}.."
              f"{args.seed + args.count - 1} per difficulty)."]
    text = de.report(results, header)
    if len(lenses) > 1:  # the same tables per lens (a job's lens is its fifth field)
        for lens in lenses:
            mine = [r for job, r in zip(jobs, results, strict=True) if job[4] == lens]
            part = de.report(mine, [f"## {lens} lens ({len(mine)} frames)"])
            text += "\n" + part.replace("\n## ", "\n### ")
    if args.mistakes:
        text += "\n## Readable places not read right\n\n" + "\n".join(
            de.mistakes(results)) + "\n"
    return _emit(text, args.report)


#: Frames per kind of table at most (a night of rendering); seeds are numpy's (32 bits).
MAX_COUNT = 10_000
MAX_SEED = 2**32 - 1


def _check_count_and_seed(args: argparse.Namespace) -> None:
    """``--count`` and the seeds it spans: numpy seeds a table from 0 to 2**32 - 1
    (``--seed -1`` was a traceback from deep in the renderer)."""
    if not 1 <= args.count <= MAX_COUNT:
        raise CommandError(f"--count {args.count}: give 1 to {MAX_COUNT}")
    if not 0 <= args.seed <= MAX_SEED - args.count + 1:
        raise CommandError(f"--seed {args.seed}: give 0 to {MAX_SEED - args.count + 1}"
                           f" (seeds are 0 to {MAX_SEED})")


def _choice_list(text: str, allowed: tuple, what: str, cast=str) -> list:  # type: ignore[no-untyped-def,type-arg]
    items = [t.strip() for t in text.split(",") if t.strip()]
    try:
        values = [cast(t) for t in items]
    except ValueError:
        values = []
    bad = [t for t, v in zip(items, values, strict=False) if v not in allowed]
    if not values or bad or len(values) != len(items):
        raise CommandError(f"--{what} {text!r}: choose from {', '.join(map(str, allowed))}")
    return list(dict.fromkeys(values))


def _world_jobs(args: argparse.Namespace) -> list[tuple]:  # type: ignore[type-arg]

    players = _choice_list(args.players, we.PLAYERS, "players", int)
    levels = _choice_list(args.difficulty, we.DIFFICULTIES, "difficulty")
    if args.split not in we.SPLITS:
        raise CommandError(f"--split {args.split!r}: choose from {', '.join(we.SPLITS)}")
    framings = _choice_list(args.framing, we.FRAMINGS, "framing")
    lenses = _choice_list(args.lens, we.LENSES, "lens")
    _check_count_and_seed(args)
    if args.workers < 1:
        raise CommandError("--workers must be 1 or more")
    if args.choose and not args.split.startswith("design"):
        raise CommandError("--choose picks thresholds on a design split only "
                           "(--split design or design-low)")
    return [(p, d, args.seed + i, args.split, f, lens, not args.no_learn)
            for f in framings for lens in lenses for p in players for d in levels
            for i in range(args.count)]


def run_world(args: argparse.Namespace) -> int:
    return _WORLDS[by_key(args.game)](args)


def _run_splendor_world(args: argparse.Namespace) -> int:
    args.framing = args.framing or "centre"

    jobs = _world_jobs(args)
    try:
        # lazy: OpenCV loads only when the command runs, not for --help
        import vision.synth.world  # noqa: F401
    except ImportError:
        raise CommandError("vision/synth/world.py is missing: the realistic world is not "
                           "merged yet") from None
    results = []
    t0 = time.monotonic()

    def progress(i: int, r: we.FrameResult) -> None:
        print(f"\r[{i:>4}/{len(jobs)}] {r.framing} {r.lens} {r.players}p {r.difficulty:<6} "
              f"seed {r.seed:<6} "
              f"{time.monotonic() - t0:6.0f} s", end="", file=sys.stderr, flush=True)

    if args.workers == 1:
        for i, job in enumerate(jobs, 1):
            results.append(we.evaluate_frame(*job))
            progress(i, results[-1])
    else:
        with processes.pool(args.workers) as pool:
            for i, r in enumerate(pool.map(we.evaluate_frame, *zip(*jobs, strict=True)), 1):
                results.append(r)
                progress(i, r)
    print(file=sys.stderr)
    seeds = f"{args.seed}..{args.seed + args.count - 1}"
    header = [f"# Reader on unseen tables: {args.split} split, framing {args.framing}, "
              f"lens {args.lens}", "",
              f"`splendor-companion vision world --players {args.players} --difficulty "
              f"{args.difficulty} --split {args.split} --framing {args.framing} --lens "
              f"{args.lens} --count {args.count} --seed {args.seed}"
              f"{' --no-learn' if args.no_learn else ''}`", "",
              f"{len(results)} frames (seeds {seeds} per cell), colours "
              f"{'built-in' if args.no_learn else 'learned from each set-up frame'}."]
    text = we.report(results, header)
    if args.choose:
        chosen = we.chosen_thresholds([o for r in results for o in r.outcomes])
        text += "\n## Thresholds these design frames support\n\n" + "\n".join(
            f"- {cat}: " + (f"{t:.3f}" if t is not None else "no answer in these frames")
            for cat, t in chosen.items()) + "\n"
    if args.mistakes:
        text += "\n## Wrong readable answers\n\n" + "\n".join(
            f"- {r.players}p {r.difficulty} seed {r.seed} {o.slot}: {o.answer} "
            f"({o.confidence:.3f}) for {o.truth}"
            for r in results for o in r.outcomes if o.verdict == "wrong" and not o.hidden) + "\n"
    return _emit(text, args.report)


#: Each game's ``vision world``, by its registry entry.
_WORLDS: dict[AnyKind, Callable[[argparse.Namespace], int]] = {
    SPLENDOR_GAME: _run_splendor_world,
    DUEL_GAME: _run_duel_world,
}
