"""A recorded game for the demo: frames of a seeded game and its button presses.

A *recording* is a folder::

    game.txt       the seeded game's record (headers + turns, companion.rules.record)
    frames/0000.jpg  the still table before the first turn, then after each turn
    buttons.txt    the script: ``frame N`` lines (hands pass over the table, then
                   frame N is seen still) interleaved with the button presses
                   (``confirm``, ``next``, ``back``, ``undo``) in the order made

Frames are rendered by :mod:`vision.synth` from the game's states: the whole
table at 3 px/mm, so the screen shows every player's area (the box's camera
frames only the central mat at about 5 px/mm: hardware.md).  A frame
costs seconds to render, so they are rendered once into a cache folder, two
at a time, while the game already plays, and reused by later runs.  Hands are
drawn over the still frame at playback (a cheap skin-coloured arm), which is
all the motion detector needs to see.

Button presses come from the script when the recording has one; otherwise
an *operator* who knows the true game (as the players at the table do)
presses what a player would: NEXT until the proposal is the turn played,
CONFIRM, and answers menus; when the camera's proposal is wrong or missing
they enter the turn by hand.  What the operator pressed is written to
``buttons.txt``, so the next run replays it exactly -- this is how the
committed recording's script is regenerated (``splendor-companion demo
--record``), never by hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.referee.entry import OTHER, Question, _kind_of, slot_key
from companion.referee.machine import Phase, Referee
from companion.rules.actions import Buy, ReserveCard, Turn
from companion.rules.catalogue import LEVELS
from companion.rules.gems import Gem
from companion.rules.record import Record, read_record
from companion.rules.simulate import play_game
from companion.rules.state import GameState

DEMO_SEED = 4
DEMO_NAMES = ("Ann", "Bob", "Cy")
DEMO_POLICY = "greedy"
PX_PER_MM = 3.0
#: Rendered frames are cached as JPEG (fast to write: 0.1 s, against 1.7 s for
#: WebP at 16 MP); the committed recording's few frames are WebP, a quarter
#: of the size.  Both are read.
FRAME_SUFFIX = ".jpg"
FRAME_QUALITY = 90
FRAME_SUFFIXES = (".jpg", ".webp")
RENDER_SEED = 1
#: Bumped whenever the demo's frames would render differently: cached frames of an
#: older version are rendered again.
RENDER_VERSION = 2


# ------------------------------------------------------------------- game
def demo_game(
    seed: int = DEMO_SEED, names: Sequence[str] = DEMO_NAMES, policy: str = DEMO_POLICY
) -> tuple[Record, list[GameState]]:
    return play_game(seed, tuple(names), policy)


def states_of(record: Record) -> list[GameState]:
    """Every state of a record, from the set-up."""
    state = record.initial_state()
    states = [state]
    for turn in record.turns:
        state = state.apply(turn)
        states.append(state)
    return states


# ---------------------------------------------------------------- pixels
def scene_of(state: GameState) -> Any:
    """The renderer's ``TableScene`` for a state."""
    from vision.synth.scene import scene_from_state

    return scene_from_state(state)


#: Table margin around the layout in the full frame, and around a mat in a patch (mm).
FULL_MARGIN_MM = 20
PATCH_MARGIN_MM = 14


def _full_window(layout: Any) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = layout.bounds()
    m = FULL_MARGIN_MM
    return (float(int(x0) - m), float(int(y0) - m), float(int(x1) + m), float(int(y1) + m))


def _camera(window: tuple[float, float, float, float]) -> Any:
    from vision.synth.render import Camera

    return Camera(px_per_mm=PX_PER_MM, window=window)


def render_full(state: GameState, seed: int = RENDER_SEED) -> np.ndarray:
    """The whole table of ``state``, straight from above, at :data:`PX_PER_MM`.

    Drawn mat by mat on a plain tablecloth: rendering the whole table at once
    needs over a gigabyte (the renderer oversamples the full canvas), one mat
    at a time a fifth of that.
    """
    import math

    from vision.layout import build_layout
    from vision.synth.render import TABLE_BGR

    layout = build_layout(len(state.players))
    x0, y0, x1, y1 = _full_window(layout)
    size = (math.ceil((y1 - y0) * PX_PER_MM), math.ceil((x1 - x0) * PX_PER_MM), 3)
    cloth = np.empty(size, np.uint8)
    cloth[:] = TABLE_BGR
    mats = [m.name for m in layout.mats]
    return paste(cloth, _patches(state, layout, mats, seed), copy=False)


Patch = tuple[int, int, np.ndarray]


def changed_mats(before: GameState, after: GameState) -> list[str]:
    """The mats whose contents differ between two states (always few: a turn is local)."""
    a, b = scene_of(before), scene_of(after)
    mats = []
    if (a.market, a.decks, a.nobles, a.supply) != (b.market, b.decks, b.nobles, b.supply):
        mats.append("centre")
    mats += [f"player{i + 1}" for i, (p, q) in enumerate(zip(a.players, b.players, strict=True))
             if p != q]
    return mats


def render_patches(before: GameState, after: GameState, seed: int) -> list[Patch]:
    """Re-render only the mats a turn changed, as (x, y, pixels) patches of the full frame.

    The camera looks straight down (no tilt, roll or lens distortion), so the
    map from table millimetres to pixels is a scale and a shift: a window of
    the table rendered on its own lines up pixel for pixel with the full frame
    when its corner sits on a whole millimetre (3 px/mm).  A turn changes the
    centre mat and the mover's mat, a third of the table, so a frame costs a
    third of a full render.  Only the table's wood texture shows a seam.
    """
    from vision.layout import build_layout

    layout = build_layout(len(after.players))
    return _patches(after, layout, changed_mats(before, after), seed)


def _patches(state: GameState, layout: Any, mats: Sequence[str], seed: int) -> list[Patch]:
    from vision.synth.render import render_scene

    fx0, fy0, fx1, fy1 = _full_window(layout)
    scene = scene_of(state)
    patches: list[Patch] = []
    for name in mats:
        corners = layout.mat(name).corners()
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        m = PATCH_MARGIN_MM
        window = (
            max(float(int(min(xs)) - m), fx0), max(float(int(min(ys)) - m), fy0),
            min(float(int(max(xs)) + m), fx1), min(float(int(max(ys)) + m), fy1),
        )
        # steady: what a turn did not touch lies where it lay (the camera noise changes)
        image = render_scene(scene, layout, _camera(window), seed=seed, steady=RENDER_SEED)
        x = round((window[0] - fx0) * PX_PER_MM)
        y = round((window[1] - fy0) * PX_PER_MM)
        patches.append((x, y, image))
    return patches


def paste(frame: np.ndarray, patches: Sequence[Patch], copy: bool = True) -> np.ndarray:
    """``frame`` with the patches laid over it (a new array unless ``copy`` is False)."""
    out = frame.copy() if copy else frame
    h, w = out.shape[:2]
    for x, y, image in patches:
        ph, pw = min(image.shape[0], h - y), min(image.shape[1], w - x)
        out[y : y + ph, x : x + pw] = image[:ph, :pw]
    return out


def write_frame(image: np.ndarray, path: Path) -> Path:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp" + path.suffix)
    quality = cv2.IMWRITE_WEBP_QUALITY if path.suffix == ".webp" else cv2.IMWRITE_JPEG_QUALITY
    if not cv2.imwrite(str(tmp), image, [quality, FRAME_QUALITY]):
        raise OSError(f"cannot write {path}")
    tmp.replace(path)
    return path


def _states(record_text: str, upto: int) -> tuple[GameState, GameState]:
    record = read_record(record_text)
    state = record.initial_state()
    before = state
    for turn in record.turns[:upto]:
        before, state = state, state.apply(turn)
    return before, state


def _render_job(args: tuple[str, int]) -> list[Patch] | np.ndarray:
    """In a worker: the full frame for index 0, the patches of turn ``index`` otherwise."""
    record_text, index = args
    before, state = _states(record_text, index)
    if index == 0:
        return render_full(state, seed=RENDER_SEED)
    return render_patches(before, state, seed=RENDER_SEED + index)


def frame_path(folder: Path, index: int) -> Path:
    """Where frame ``index`` is (whichever format it was stored in), or will be written."""
    for suffix in FRAME_SUFFIXES:
        path = folder / "frames" / f"{index:04d}{suffix}"
        if path.exists():
            return path
    return folder / "frames" / f"{index:04d}{FRAME_SUFFIX}"


class Frames:
    """The recording's still frames, rendered in the background when missing.

    Workers render the first frame whole and, for every later frame, only the
    patches of the mats its turn changed; the frames are composed in order as
    they are asked for, written to the folder, and reused by later runs.
    """

    def __init__(self, folder: Path, record: Record, workers: int = 2) -> None:
        self.folder = folder
        self.record = record
        count = len(record.turns) + 1
        self.missing = [i for i in range(count) if not frame_path(folder, i).exists()]
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: dict[int, Future[Any]] = {}
        self._last: tuple[int, np.ndarray] | None = None
        self._text = record.text()
        self._count = count
        self._next = count
        if self.missing:
            self._pool = ProcessPoolExecutor(max_workers=workers)
            self._next = self.missing[0]
            self._top_up(self._next)

    #: Frames rendered ahead of the one being played: enough to keep the workers
    #: busy, few enough that finished patches do not pile up in memory.
    AHEAD = 4

    def _top_up(self, index: int) -> None:
        assert self._pool is not None
        while self._next < min(index + self.AHEAD, self._count):
            self._jobs[self._next] = self._pool.submit(_render_job, (self._text, self._next))
            self._next += 1

    def get(self, index: int) -> np.ndarray:
        import cv2

        if self._pool is not None:
            self._top_up(index + 1)
        path = frame_path(self.folder, index)
        job = self._jobs.pop(index, None)
        if job is not None:
            result = job.result()
            if index == 0 or isinstance(result, np.ndarray):
                image = result
            else:
                previous = (
                    self._last[1] if self._last and self._last[0] == index - 1
                    else self.get(index - 1)
                )
                image = paste(previous, result)
            write_frame(image, path)
            self._last = (index, image)  # later frames are composed on the exact pixels
            # Play the frame as it was stored (JPEG is lossy), so that this run
            # and every later run reading the file see the same pixels.
            stored = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if stored is None:
                raise OSError(f"cannot read frame {path}")
            return np.asarray(stored, dtype=np.uint8)
        else:
            read = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if read is None:
                raise OSError(f"cannot read frame {path}")
            image = np.asarray(read)
        self._last = (index, image) if self._next < self._count or self._jobs else None
        return np.asarray(image, dtype=np.uint8)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


def hands_over(image: np.ndarray, seed: int) -> np.ndarray:
    """``image`` with an arm and hand reaching in from an edge (seeded)."""
    import cv2

    rng = random.Random(seed)
    out = image.copy()
    h, w = out.shape[:2]
    edge = rng.choice(("top", "bottom", "left", "right"))
    tip = (int(w * rng.uniform(0.3, 0.7)), int(h * rng.uniform(0.3, 0.7)))
    base = {
        "top": (tip[0] + rng.randint(-w // 6, w // 6), -50),
        "bottom": (tip[0] + rng.randint(-w // 6, w // 6), h + 50),
        "left": (-50, tip[1] + rng.randint(-h // 6, h // 6)),
        "right": (w + 50, tip[1] + rng.randint(-h // 6, h // 6)),
    }[edge]
    skin = (rng.randint(90, 150), rng.randint(130, 180), rng.randint(180, 230))
    thick = max(w, h) // 9
    offset = thick // 5
    cv2.line(out, (base[0] + offset, base[1] + offset), (tip[0] + offset, tip[1] + offset),
             (40, 45, 50), thick)  # its shadow
    cv2.line(out, base, tip, skin, thick)
    cv2.circle(out, tip, int(thick * 0.8), skin, -1)
    return out


# --------------------------------------------------------------- operator
class OperatorError(RuntimeError):
    """The operator found no way to enter the true turn (a bug, not a user error)."""


def _turn_value(question: Question, truth: Turn, state: GameState) -> object:
    key = question.key
    action = truth.action
    if key == "kind":
        return _kind_of(action)
    if key == "row" and isinstance(action, Buy | ReserveCard):
        where = state.find_in_market(action.card)
        return where[0] if where is not None else len(LEVELS)
    if key == "action":
        for option in question.options:
            value = option.value
            if value == action:
                return value
            if isinstance(value, Buy) and isinstance(action, Buy) and value.card == action.card:
                return value
        return next((o.value for o in question.options if isinstance(o.value, tuple)), None)
    if key == "payment" and isinstance(action, Buy):
        return action.payment
    if key.startswith("blindcard") and isinstance(action, Buy):
        return _card_step(key, "blindcard", action.card)
    if key.startswith("reveal") and truth.reveal:
        return _card_step(key, "reveal", truth.reveal, question)
    if key.startswith("return"):
        index = int(key[len("return"):]) - 1
        return list(truth.returned.gems())[index]
    if key == "noble":
        return truth.noble
    return None


def _card_step(key: str, base: str, card_id: str, question: Question | None = None) -> object:
    from companion.rules import catalogue

    if key == base:
        offered = [o.value for o in question.options] if question else []
        return card_id if card_id in offered else OTHER
    if key == base + "/colour":
        return catalogue.card(card_id).bonus
    return card_id


def _setup_value(question: Question, truth: GameState) -> object:
    key = question.key
    if key.startswith("noble"):
        return truth.nobles[int(key[len("noble"):]) - 1].id
    for r, row in enumerate(truth.market):
        for s, card in enumerate(row):
            base = slot_key(r, s)
            if key.startswith(base) and card is not None:
                return _card_step(key, base, card.id, question)
    return None


def _answer(ref: Referee, value: object) -> str:
    """NEXT until the option ``value`` is highlighted, then CONFIRM."""
    question = ref.question()
    assert question is not None and ref.asking is not None
    for i, option in enumerate(question.options):
        if option.value == value or (isinstance(value, Gem) and option.value is value):
            return "confirm" if ref.asking.selected == i else "next"
    raise OperatorError(f"no option {value!r} in the menu {question.title!r}")


class Operator:
    """Presses what a player who knows the true game would press.

    ``presses(ref, truth)`` yields one button name at a time; the caller
    feeds each to the loop before asking for the next, since what to press
    depends on what the screen shows after the previous press.
    """

    def __init__(self, initial: GameState, turns: Sequence[Turn]) -> None:
        self.initial = initial
        self.turns = list(turns)
        self.manual = 0
        self.proposed = 0
        self._shown = -1

    def next_press(self, ref: Referee) -> str | None:
        """The next button to press now, or None when the table should move on."""
        if ref.phase is Phase.SETUP:
            if ref.setup_state is None:
                return "back"  # nothing (right) was read: enter the table by hand
            return "confirm" if ref.setup_state == self.initial else "back"
        if ref.phase is Phase.OVER:
            return None
        done = len(ref.history)
        if ref.phase is Phase.ASK and ref.asking is not None and ref.asking.purpose == "setup":
            question = ref.question()
            assert question is not None
            return _answer(ref, _setup_value(question, self.initial))
        if done >= len(self.turns):
            return None
        truth = self.turns[done]
        state = ref.state
        assert state is not None
        if ref.phase is Phase.PROPOSE:
            for i, cand in enumerate(ref.candidates):
                c = cand.turn
                if c == truth or (c.action == truth.action and cand.ask):
                    if i == ref.index:
                        self.proposed += 1
                        return "confirm"
                    return "next"
            return "back"  # not among the guesses: cancel, then enter by hand
        if ref.phase is Phase.ASK:
            question = ref.question()
            assert question is not None
            return _answer(ref, _turn_value(question, truth, state))
        if (
            ref.phase in (Phase.WATCH, Phase.PROBLEM)
            and ref.restore is None
            and self._table_shows(done)
        ):
            self.manual += 1
            return "next"
        return None

    def _table_shows(self, done: int) -> bool:
        """True when the table already shows the turn (so it must be entered by hand)."""
        return self._shown > done

    def saw_frame(self, index: int) -> None:
        """Frame ``index`` (the state after ``index`` turns) has been shown."""
        self._shown = index


# --------------------------------------------------------------- playback
@dataclass(frozen=True)
class Step:
    """One line of ``buttons.txt``: ``frame N`` or a button name."""

    kind: str  # "frame" or "button"
    value: str

    def __str__(self) -> str:
        return f"frame {self.value}" if self.kind == "frame" else self.value


def parse_steps(text: str, source: str = "buttons.txt") -> list[Step]:
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        if line.startswith("frame "):
            value = line.split()[1]
            if not value.isdigit():
                raise ValueError(f"{source}:{number}: 'frame' needs a frame number")
            steps.append(Step("frame", value))
        elif line in ("confirm", "next", "back", "undo"):
            steps.append(Step("button", line))
        else:
            raise ValueError(f"{source}:{number}: cannot understand {raw.strip()!r}")
    return steps


#: How many times a still frame is seen after the hands leave (motion, then 2 agreeing reads).
STILL_REPEATS = 3


def show_frame(loop: Any, image: np.ndarray, index: int) -> None:
    """Hands pass over the table, then it is seen still.

    As on the Pi, motion is watched on a small picture (the camera's
    low-resolution stream) and the full-resolution still is taken only when
    the table is still: here a quarter-size copy, made once per frame.
    """
    import cv2

    h, w = image.shape[:2]
    small = cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    loop.feed_frame(hands_over(small, seed=index))
    for _ in range(STILL_REPEATS):
        loop.feed_frame(small, still=lambda: image)


def play(
    loop: Any,
    frames: Frames,
    count: int,
    steps: list[Step] | None,
    operator: Operator | None,
    progress: Callable[[int, int], None] = lambda i, n: None,
    start: int = 0,
    expected: Sequence[str] | None = None,
) -> list[Step]:
    """Play the recording through ``loop``: replay ``steps``, or let ``operator`` press.

    Returns the steps actually played (the script to save).  The operator
    starts at frame ``start`` (earlier frames were played already).  A replay
    given the ``expected`` turns stops as soon as a confirmed turn differs:
    the script no longer fits what the reader reads.
    """
    played: list[Step] = []
    if steps is not None:
        for step in steps:
            played.append(step)
            if step.kind == "frame":
                index = int(step.value)
                if index >= count:  # the script goes on past the turns asked for
                    played.pop()
                    break
                progress(index, count)
                show_frame(loop, frames.get(index), index)
            else:
                loop.press(step.value)
                done = loop.confirmed
                if expected is not None and list(expected[: len(done)]) != done:
                    break
        return played
    assert operator is not None
    for index in range(start, count):
        progress(index, count)
        operator.saw_frame(index)
        show_frame(loop, frames.get(index), index)
        played.append(Step("frame", str(index)))
        for press in _presses(loop, operator):
            played.append(Step("button", press))
    return played


def _presses(loop: Any, operator: Operator) -> Iterator[str]:
    for _ in range(500):
        press = operator.next_press(loop.referee)
        if press is None:
            return
        loop.press(press)
        yield press
    raise OperatorError("the operator pressed 500 buttons without getting anywhere")


def load_recording(folder: Path) -> tuple[Record, list[Step] | None]:
    record = read_record((folder / "game.txt").read_text(encoding="utf-8"))
    script = folder / "buttons.txt"
    if not script.exists():
        return record, None
    return record, parse_steps(script.read_text(encoding="utf-8"), str(script))


def save_script(folder: Path, steps: Sequence[Step]) -> Path:
    path = folder / "buttons.txt"
    lines = [
        "# Button presses of the recorded demo game, in order, between the frames seen.",
        "# 'frame N': hands pass over the table, then frame N is seen still.",
        "# Written by `splendor-companion demo --record`; never edit by hand.",
    ]
    lines += [str(s) for s in steps]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
