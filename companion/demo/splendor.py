"""A recorded game for the demo: frames of a seeded game and its button presses.

A *recording* is a folder::

    game.txt       the seeded game's record (headers + turns, companion.rules.splendor.record)
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

A recording may instead carry ``render.txt`` (a :class:`Look`: whose faces,
what camera) and no frames: its frames are then rendered at first use into a
cache folder outside the repository.  That is how a recording made with the
publisher's check-only faces is kept (tests/data/world-game): the faces may
never be committed, nor anything rendered from them.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import random
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion import processes
from companion.demo import computer_moves
from companion.referee.machine import Phase
from companion.referee.menu import OTHER, Question
from companion.referee.splendor.entry import _kind_of, slot_key
from companion.referee.splendor.hooks import SplendorMachine
from companion.rules.gems import Gem
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Buy, ReserveCard, Turn
from companion.rules.splendor.catalogue import LEVELS
from companion.rules.splendor.record import Record, read_record
from companion.rules.splendor.simulate import play_game
from companion.rules.splendor.state import GameState
from vision.layout import build_layout
from vision.synth.scene import scene_from_state

if TYPE_CHECKING:  # the renderer and the loop load when a frame is drawn or played
    from companion.referee.splendor.loop import SplendorLoop
    from vision.layout import Layout
    from vision.synth.render import Camera
    from vision.synth.scene import TableScene

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


#: A recording's render settings (see :class:`Look`); frames then go to a cache.
RENDER_FILE = "render.txt"


@dataclass(frozen=True)
class Look:
    """How a recording rendered at first use looks: whose faces, what camera and lamp.

    The camera stays straight above the table (the frames are composed mat by
    mat, which only lines up without tilt or lens bending); what a real still
    adds on top is applied to the composed frame by :func:`photograph`: one
    lamp (a brightness ramp and a colour cast, the same every frame, as the
    lamp does not move), focus blur, sensor noise drawn afresh each frame,
    and JPEG at the camera's quality.
    """

    #: "check" or "design": the publisher's faces of that split (vision.synth.facesets);
    #: "" = the project's own drawn faces.
    faces: str = ""
    #: top: which face set each card is drawn from, where the lamp stands; pi: world_frame's seed
    seed: int = RENDER_SEED
    exposure: float = 1.0
    #: -1 (blue) .. 1 (warm): the lamp's colour cast, as vision.synth.render.Camera
    colour_temperature: float = 0.0
    #: brightness ramp across the table, end to end (0.25 = +-12 %)
    light_gradient: float = 0.0
    blur: float = 0.0
    noise: float = 0.0
    jpeg_quality: int = FRAME_QUALITY
    #: "top": straight above, drawn mat by mat (vision.synth.render) and photographed by
    #: :func:`photograph`; "pi": vision.synth.world's Pi Camera Module 3 framing the whole
    #: table (its pose, ``lens``, the room's light of ``difficulty``, from ``seed``)
    camera: str = "top"
    lens: str = "wide"
    difficulty: str = "easy"
    #: pi: what the camera frames -- "centre", the central mat only (the decided geometry:
    #: vision/geometry.py, hardware.md), or "table", the whole layout (~1.8 px/mm at 4 players)
    framing: str = "centre"

    @classmethod
    def parse(cls, text: str, source: str = RENDER_FILE) -> Look:
        """``key value`` lines (``#`` comments) -> a Look; unknown keys are errors."""
        types = {f.name: f.type for f in fields(cls)}
        values: dict[str, object] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            key, _, value = line.partition(" ")
            if key not in types:
                raise ValueError(f"{source}:{number}: unknown setting {key!r}")
            kind = {"str": str, "int": int, "float": float}[str(types[key])]
            try:
                values[key] = kind(value.strip())
            except ValueError:
                raise ValueError(f"{source}:{number}: {key} needs a {kind.__name__}") from None
        look = cls(**values)  # type: ignore[arg-type]
        if look.faces not in ("", "check", "design"):
            raise ValueError(f"{source}: faces is 'check' or 'design', not {look.faces!r}")
        if look.camera not in ("top", "pi"):
            raise ValueError(f"{source}: camera is 'top' or 'pi', not {look.camera!r}")
        if look.framing not in ("centre", "table"):
            raise ValueError(f"{source}: framing is 'centre' or 'table', not {look.framing!r}")
        return look


def read_look(folder: Path) -> Look | None:
    """The recording's :class:`Look`, or None when its frames are committed."""
    path = folder / RENDER_FILE
    if not path.exists():
        return None
    return Look.parse(path.read_text(encoding="utf-8"), str(path))


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
def scene_of(state: GameState) -> TableScene:
    """The renderer's ``TableScene`` for a state."""
    return scene_from_state(state)


#: Table margin around the layout in the full frame, and around a mat in a patch (mm).
FULL_MARGIN_MM = 20
PATCH_MARGIN_MM = 14


def _full_window(layout: Layout) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = layout.bounds()
    m = FULL_MARGIN_MM
    return (float(int(x0) - m), float(int(y0) - m), float(int(x1) + m), float(int(y1) + m))


def _camera(window: tuple[float, float, float, float]) -> Camera:
    # lazy: OpenCV loads only when pixels are read
    from vision.synth.render import Camera

    return Camera(px_per_mm=PX_PER_MM, window=window)


def render_full(state: GameState, seed: int = RENDER_SEED, look: Look | None = None) -> np.ndarray:
    """The whole table of ``state``, straight from above, at :data:`PX_PER_MM`.

    Drawn mat by mat on a plain tablecloth: rendering the whole table at once
    needs over a gigabyte (the renderer oversamples the full canvas), one mat
    at a time a fifth of that.
    """
    # lazy: OpenCV loads only when pixels are read
    from vision.synth.render import TABLE_BGR

    layout = build_layout(len(state.players))
    x0, y0, x1, y1 = _full_window(layout)
    size = (math.ceil((y1 - y0) * PX_PER_MM), math.ceil((x1 - x0) * PX_PER_MM), 3)
    cloth = np.empty(size, np.uint8)
    cloth[:] = TABLE_BGR
    mats = [m.name for m in layout.mats]
    return paste(cloth, _patches(state, layout, mats, seed, look), copy=False)


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


def render_patches(
    before: GameState, after: GameState, seed: int, look: Look | None = None
) -> list[Patch]:
    """Re-render only the mats a turn changed, as (x, y, pixels) patches of the full frame.

    The camera looks straight down (no tilt, roll or lens distortion), so the
    map from table millimetres to pixels is a scale and a shift: a window of
    the table rendered on its own lines up pixel for pixel with the full frame
    when its corner sits on a whole millimetre (3 px/mm).  A turn changes the
    centre mat and the mover's mat, a third of the table, so a frame costs a
    third of a full render.  Only the table's wood texture shows a seam.
    """
    layout = build_layout(len(after.players))
    return _patches(after, layout, changed_mats(before, after), seed, look)


def _patches(
    state: GameState, layout: Layout, mats: Sequence[str], seed: int, look: Look | None = None
) -> list[Patch]:
    # lazy: OpenCV loads only when pixels are read
    from vision.synth.render import render, render_scene

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
        if look is None or not look.faces:
            image = render_scene(scene, layout, _camera(window), seed=seed, steady=RENDER_SEED)
        else:
            image = render(scene, layout, _camera(window), seed=seed, steady=RENDER_SEED,
                           **_face_kwargs(look.faces, look.seed)).image
        x = round((window[0] - fx0) * PX_PER_MM)
        y = round((window[1] - fy0) * PX_PER_MM)
        patches.append((x, y, image))
    return patches


@lru_cache(maxsize=2)
def _face_kwargs(split: str, seed: int) -> dict[str, dict[str, np.ndarray]]:
    """The renderer's face arguments for a split: one face per card, noble and chip.

    Each card is drawn, in every frame, from the one face set (printing,
    resolution) the seed gives it: a physical card does not change printing
    between turns, but the table mixes printings.  Chips are pasted from the
    split's chip faces once the renderer takes them (``token_images``, from
    the world renderer's branch); until then they stay drawn.
    """
    # lazy: OpenCV loads only when pixels are read
    from vision.synth.facesets import face_sets, token_faces
    from vision.synth.render import render

    sets = face_sets(split)
    if not sets:
        raise FileNotFoundError(
            f"the {split!r} faces need ../shared/card-faces beside the checkout")
    ids = sorted({i for _, faces in sets for i in faces})
    chosen: dict[str, np.ndarray] = {}
    for card in ids:
        holding = [faces[card] for _, faces in sets if card in faces]
        pick = np.random.default_rng(zlib.crc32(f"{seed} {card}".encode()))
        chosen[card] = holding[int(pick.integers(len(holding)))]
    kwargs = {"face_images": chosen}
    if "token_images" in inspect.signature(render).parameters:
        kwargs["token_images"] = token_faces(split)
    return kwargs


def render_pi(state: GameState, look: Look) -> np.ndarray:
    """``state`` photographed by :mod:`vision.synth.world`'s Pi camera (``look.framing``).

    The same ``look.seed`` every frame: the same camera, lens and room light
    for the whole game; ``steady``: what a turn did not touch lies where it
    lay.  No hand in the still (hands pass between turns: :func:`show_frame`).
    """
    # lazy: OpenCV loads only when pixels are read
    from vision.synth.world import world_frame

    frame = world_frame(len(state.players), look.difficulty, look.seed, look.faces or "check",
                        framing=look.framing, lens=look.lens, scene=scene_of(state), hand=False,
                        steady=RENDER_SEED)
    return frame.image


def photograph(image: np.ndarray, look: Look, index: int) -> np.ndarray:
    """``image`` (a composed clean frame) as the camera under the lamp records it.

    The lamp's ramp and cast are the same every frame; blur is the lens's;
    the noise is drawn afresh for frame ``index``.  The JPEG is applied when
    the frame is written (:func:`write_frame` at ``look.jpeg_quality``).
    """
    # lazy: OpenCV loads only when pixels are read
    import cv2

    h, w = image.shape[:2]
    sh, sw = max(2, h // 16), max(2, w // 16)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    angle = np.random.default_rng(look.seed).uniform(0, 2 * np.pi)  # where the lamp stands
    ramp = (xx / sw - 0.5) * np.cos(angle) + (yy / sh - 0.5) * np.sin(angle)
    gain = look.exposure * (1 + look.light_gradient * ramp)
    gain = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    t = look.colour_temperature
    out = np.empty_like(image)
    for c, tint in enumerate((1 + 0.18 * t, 1.0, 1 - 0.18 * t)):  # channel by channel:
        channel = image[:, :, c].astype(np.float32) * (gain * tint)  # a 4-player frame is 22 MP
        if look.blur:
            channel = cv2.GaussianBlur(channel, (0, 0), look.blur)
        if look.noise:
            rng = np.random.default_rng((look.seed, index, c))
            channel += rng.normal(0, look.noise, channel.shape).astype(np.float32)
        out[:, :, c] = np.clip(channel, 0, 255).astype(np.uint8)
    return out


def paste(frame: np.ndarray, patches: Sequence[Patch], copy: bool = True) -> np.ndarray:
    """``frame`` with the patches laid over it (a new array unless ``copy`` is False)."""
    out = frame.copy() if copy else frame
    h, w = out.shape[:2]
    for x, y, image in patches:
        ph, pw = min(image.shape[0], h - y), min(image.shape[1], w - x)
        out[y : y + ph, x : x + pw] = image[:ph, :pw]
    return out


def write_frame(image: np.ndarray, path: Path, quality: int = FRAME_QUALITY) -> Path:
    # lazy: OpenCV loads only when pixels are read
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp" + path.suffix)
    kind = cv2.IMWRITE_WEBP_QUALITY if path.suffix == ".webp" else cv2.IMWRITE_JPEG_QUALITY
    if not cv2.imwrite(str(tmp), image, [kind, quality]):
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


def _render_job(args: tuple[str, int, Look | None]) -> list[Patch] | np.ndarray:
    """In a worker: the full frame for index 0, the patches of turn ``index`` otherwise."""
    record_text, index, look = args
    before, state = _states(record_text, index)
    if look is not None and look.camera == "pi":
        return render_pi(state, look)
    if index == 0:
        return render_full(state, seed=RENDER_SEED, look=look)
    return render_patches(before, state, seed=RENDER_SEED + index, look=look)


def frame_path(folder: Path, index: int) -> Path:
    """Where frame ``index`` is (whichever format it was stored in), or will be written."""
    return _frame_file(folder / "frames", index)


def _frame_file(frames: Path, index: int) -> Path:
    for suffix in FRAME_SUFFIXES:
        path = frames / f"{index:04d}{suffix}"
        if path.exists():
            return path
    return frames / f"{index:04d}{FRAME_SUFFIX}"


def default_cache(folder: Path) -> Path:
    """Where a recording with a ``render.txt`` keeps its frames unless told: out/NAME/frames."""
    return Path("out") / folder.resolve().name / "frames"


STAMP = "render-version.txt"


#: The code a cached frame depends on besides the look and the game (vision.synth).
RENDER_SOURCES = ("render.py", "faces.py", "facesets.py", "scene.py", "official.py", "world.py")


def _cache_stamp(look: Look, record_text: str) -> str:
    """What the cached frames were rendered from: a change of any of it renders them again.

    The renderer's source is part of it, so a cache never outlives a change of
    how things are drawn; a change of this module's drawing bumps RENDER_VERSION.
    """
    # lazy: OpenCV loads only when pixels are read
    import vision.synth

    digest = hashlib.sha256(f"{look!r}\n{record_text}".encode())
    for name in RENDER_SOURCES:
        source = Path(vision.synth.__file__).parent / name
        if source.exists():
            digest.update(source.read_bytes())
    return f"{RENDER_VERSION} {digest.hexdigest()[:16]}"


class Frames:
    """The recording's still frames, rendered in the background when missing.

    Workers render the first frame whole and, for every later frame, only the
    patches of the mats its turn changed; the frames are composed in order as
    they are asked for, written to the folder, and reused by later runs.
    """

    def __init__(
        self, folder: Path, record: Record, workers: int = 2, cache: Path | None = None
    ) -> None:
        self.folder = folder
        self.record = record
        self.look = read_look(folder)
        self.dir = folder / "frames"
        if self.look is not None:  # rendered at first use, into a cache
            self.dir = cache or default_cache(folder)
            stamp = self.dir / STAMP
            # the whole recorded game, even when only its first turns are played
            wanted = _cache_stamp(self.look, (folder / "game.txt").read_text(encoding="utf-8"))
            if not stamp.exists() or stamp.read_text(encoding="utf-8").strip() != wanted:
                for old in self.dir.glob("*.*"):  # frames of another game or look
                    if old.suffix in FRAME_SUFFIXES or old.name == STAMP:
                        old.unlink()
                self.dir.mkdir(parents=True, exist_ok=True)
                stamp.write_text(wanted + "\n", encoding="utf-8")
        count = len(record.turns) + 1
        self.missing = [i for i in range(count) if not _frame_file(self.dir, i).exists()]
        if self.look is not None and self.look.camera == "top" and self.missing:
            # later frames are composed on the clean pixels of the earlier ones, which
            # only a render keeps (the files are photographs): render them all
            self.missing = list(range(count))
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: dict[int, Future[list[Patch] | np.ndarray]] = {}
        self._last: tuple[int, np.ndarray] | None = None
        self._text = record.text()
        self._count = count
        self._next = count
        if self.missing:
            self._pool = processes.pool(workers)
            self._next = self.missing[0]
            self._top_up(self._next)

    #: Frames rendered ahead of the one being played: enough to keep the workers
    #: busy, few enough that finished patches do not pile up in memory.
    AHEAD = 4

    def _top_up(self, index: int) -> None:
        assert self._pool is not None
        while self._next < min(index + self.AHEAD, self._count):
            job = (self._text, self._next, self.look)
            self._jobs[self._next] = self._pool.submit(_render_job, job)
            self._next += 1

    def get(self, index: int) -> np.ndarray:
        # lazy: OpenCV loads only when pixels are read
        import cv2

        if self._pool is not None:
            self._top_up(index + 1)
        path = _frame_file(self.dir, index)
        job = self._jobs.pop(index, None)
        if job is not None:
            result = job.result()
            if isinstance(result, np.ndarray):  # frame 0, or a "pi" look's: a whole frame
                image = result
            else:
                previous = None
                if not (self._last and self._last[0] == index - 1):
                    previous = self.get(index - 1)
                if self._last and self._last[0] == index - 1:  # the clean pixels, not the photo
                    previous = self._last[1]
                assert previous is not None
                image = paste(previous, result)
            if self.look is None:
                write_frame(image, path)
            elif self.look.camera == "pi":  # photographed already, whole
                write_frame(image, path, self.look.jpeg_quality)
            else:
                write_frame(photograph(image, self.look, index), path, self.look.jpeg_quality)
            self._last = (index, image)  # later frames are composed on the exact (clean) pixels
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
    # lazy: OpenCV loads only when pixels are read
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


def _answer(ref: SplendorMachine, value: object) -> str:
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
        #: the turn for which CONFIRM already asked for the turns the table does not show
        self._asked = -1

    def next_press(self, ref: SplendorMachine) -> str | None:
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
            if ref.phase is Phase.WATCH and self._asked != done and not computer_moves(ref):
                self._asked = done  # first ask for a turn the table may not show
                return "confirm"
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


def show_frame(loop: SplendorLoop, image: np.ndarray, index: int) -> None:
    """Hands pass over the table, then it is seen still.

    As on the Pi, motion is watched on a small picture (the camera's
    low-resolution stream) and the full-resolution still is taken only when
    the table is still: here a quarter-size copy, made once per frame.

    Frame 0 is the laid-out table the camera starts on, with no hands before
    it: the motion detector has nothing to compare a first picture with, so
    it takes it as still and the loop would read the small, hand-covered
    picture as the set-up frame (the one the chips' colours are learned from).
    """
    # lazy: OpenCV loads only when pixels are read
    import cv2

    h, w = image.shape[:2]
    small = cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    if index > 0:
        loop.feed_frame(hands_over(small, seed=index))
    for _ in range(STILL_REPEATS):
        loop.feed_frame(small, still=lambda: image)


def play(
    loop: SplendorLoop,
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


def _presses(loop: SplendorLoop, operator: Operator) -> Iterator[str]:
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
