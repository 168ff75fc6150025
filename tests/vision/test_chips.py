"""Real chips (coloured rim, cream sticker, gem) read in their token slots.

Renders the supply (the centre mat's right half) with our drawn chips and, when
``../shared`` is there, the publisher's DESIGN chips; the CHECK chips are only
measured by tests/bench/bench_chips.py.  Seeded, tolerant.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import readers
from vision.calibrate import calibrate
from vision.colours import ColourModel
from vision.layout import build_layout
from vision.learn import learn_colours, learn_or_keep
from vision.synth import Camera, TableScene, random_scene, render
from vision.synth.facesets import token_faces

WINDOW = (0.0, -224.0, 400.0, 224.0)
LAYOUT = build_layout(4)


def _frame(supply: tuple[int, ...], chips=None, seed: int = 0, **cam):  # type: ignore[no-untyped-def]
    base = random_scene(4, seed, 0.0)
    scene = TableScene(base.market, base.decks, base.nobles, supply, base.players)  # type: ignore[arg-type]
    spoil = {"px_per_mm": 4.0, "noise": 2.5, "blur": 0.6, "jpeg_quality": 85, "jitter_mm": 2.5}
    camera = Camera(window=WINDOW, **{**spoil, **cam})
    return render(scene, LAYOUT, camera, seed=seed, token_images=chips)


def _tally(r, colours: ColourModel) -> Counter[str]:  # type: ignore[no-untyped-def]
    """right / wrong / abstained over the supply, and 'hidden-wrong' for covered slots."""
    cal = calibrate(r.image, LAYOUT)
    assert cal is not None
    out: Counter[str] = Counter()
    for slot in LAYOUT.slots_of("token", "supply"):
        got = readers.read_token(r.image, cal.h_for(slot.mat), slot, cal.gain_at(slot.center),
                                 colours)
        truth = r.contents.get(slot.id, "empty")
        ok = (got.state == "empty") if truth == "empty" else (got.colour == truth)
        kind = "empty" if truth == "empty" else "chip"
        if slot.id in r.covered:
            kind = "hidden"
        out[f"{kind}-{'abstained' if got.state == 'unknown' else 'right' if ok else 'wrong'}"] += 1
    return out


@pytest.mark.parametrize("px, cast", [(3.0, 0.6), (5.0, -0.6)])
def test_drawn_chips_every_colour_under_a_cast(px: float, cast: float) -> None:
    t = _tally(_frame((3, 4, 2, 5, 3, 4), seed=int(px), px_per_mm=px,
                      colour_temperature=cast), ColourModel())
    assert t["chip-wrong"] == 0 and t["empty-wrong"] == 0
    assert t["chip-right"] >= 20 and t["empty-right"] >= 18  # of 21 chips, 19 empty


def test_dim_light_and_blur_abstain_rather_than_err() -> None:
    for i, cam in enumerate(({"exposure": 0.45, "noise": 6.0, "light_gradient": 0.45},
                             {"blur": 1.6})):
        t = _tally(_frame((4, 3, 5, 2, 6, 3), seed=10 + i, px_per_mm=3.5, **cam),
                   ColourModel())
        assert t["chip-wrong"] == 0 and t["empty-wrong"] == 0, cam
        assert t["chip-right"] >= 20, (cam, t)


def test_glare_and_a_hand_never_give_a_wrong_colour_or_empty() -> None:
    for i, cam in enumerate(({"glare": 0.9, "shadow": 0.5}, {"hands": 1}, {"hands": 1})):
        t = _tally(_frame((5, 5, 5, 5, 5, 4), seed=20 + i, px_per_mm=4.0, **cam),
                   ColourModel())
        assert t["chip-wrong"] == 0 and t["hidden-wrong"] == 0, (cam, t)
        assert t["chip-right"] + t["chip-abstained"] + t["hidden-right"] > 0


def test_an_empty_slot_is_read_from_its_fill() -> None:
    t = _tally(_frame((0, 0, 0, 0, 0, 0), seed=3), ColourModel())
    assert t == Counter({"empty-right": 40})


def test_an_empty_slot_under_a_light_unlike_the_markers_is_read_by_its_paper() -> None:
    """A bare slot under a dim, warm lamp the markers did not see: its grey no longer
    matches the fill by the markers' gain, but the paper in its corners balances it;
    corners that are not paper (skin) give no balance."""
    from vision.mats import PAPER

    n = 81
    gx, gy = readers._grid(n, readers.EMPTY_PX_PER_MM)
    r = np.hypot(gx, gy)
    fill = np.asarray(ColourModel().tokens["empty"], np.float32).reshape(-1, 3)[0]
    fill_bgr = np.asarray(cv2.cvtColor(np.uint8([[fill]]), cv2.COLOR_LAB2BGR)[0, 0], np.float32)
    slot = np.where((r >= 20.0)[..., None], np.float32(PAPER), fill_bgr)
    lamp = np.float32([0.64, 0.7, 0.78])  # dim and warm, B G R
    raw = np.clip(slot * lamp, 0, 255).astype(np.uint8)
    gain = np.ones(3, np.float32)
    assert readers._fill_share(raw, gain, fill[None], r) < readers.EMPTY_SHARE
    local = readers._paper_gain(raw, gain, r)
    assert local is not None
    assert readers._fill_share(raw, local, fill[None], r) >= readers.EMPTY_SHARE
    skin = raw.copy()
    skin[r >= readers.PAPER_CORNER_MM] = (90, 122, 170)
    assert readers._paper_gain(skin, gain, r) is None


def test_an_empty_slot_beside_a_lamp_s_spot_is_read_by_its_four_corners() -> None:
    """A bare slot beside a lamp's spot (twice as bright at one corner) in a dim
    frame: one gain for the whole slot, from the markers or from its corners' paper
    together, leaves part of its grey off the fill's; a gain that follows each
    corner's paper balances it whole.  A chip's cream sticker under the same light
    stays a chip, and a corner that is not paper (skin) gives no balance."""
    from vision.mats import PAPER

    e = readers.EMPTY_PX_PER_MM
    n = 89
    gx, gy = readers._grid(n, e)
    r = np.hypot(gx, gy)
    fill = np.asarray(ColourModel().tokens["empty"], np.float32).reshape(-1, 3)[0]
    fill_bgr = np.asarray(cv2.cvtColor(np.uint8([[fill]]), cv2.COLOR_LAB2BGR)[0, 0], np.float32)
    slot = np.where((r >= 20.0)[..., None], np.float32(PAPER), fill_bgr)
    light = 0.5 * (1 + 1.2 * np.exp(-((gx + 24) ** 2 + (gy - 24) ** 2) / (2 * 20.0 ** 2)))
    noise = np.random.default_rng(0).normal(0, 4, (n, n, 3)).astype(np.float32)
    raw = np.clip(slot * light[..., None] + noise, 0, 255).astype(np.uint8)
    gain = np.full(3, 2.0, np.float32)  # the markers': the frame's light away from the spot
    local = readers._paper_gain(raw, gain, r)
    assert local is not None
    for one in (gain, local):
        assert readers._fill_share(raw, one, fill[None], r) < readers.EMPTY_SHARE
    field = readers._paper_field(raw, gain, e)
    assert field is not None
    assert readers._fill_share(raw, field, fill[None], r) >= readers.EMPTY_SHARE
    chip = np.where((r <= 16.0)[..., None], np.float32((190, 225, 240)), slot)  # cream
    chip_raw = np.clip(chip * light[..., None] + noise, 0, 255).astype(np.uint8)
    assert readers._fill_share(chip_raw, field, fill[None], r) < 0.1
    skin = raw.copy()
    skin[(r >= readers.PAPER_CORNER_MM) & (gx > 0) & (gy > 0)] = (90, 122, 170)
    assert readers._paper_field(skin, gain, e) is None


def test_an_empty_slot_shows_its_printed_ring_and_a_hand_hides_it() -> None:
    """The ring printed round a slot's fill is seen whole on a bare slot, under any
    light; a hand over the slot, however close its colour to the fill's once
    balanced, hides it, and such a slot is never read empty."""
    from vision.mats import PAPER
    from vision.pixels import INK

    e = readers.EMPTY_PX_PER_MM
    n = 89
    gx, gy = readers._grid(n, e)
    r = np.hypot(gx, gy)
    fill = np.float32([150, 150, 150])
    slot = np.where((r >= 22.0)[..., None], np.float32(PAPER), fill)
    slot[(r >= 20.0) & (r <= 21.5)] = INK
    bare = slot.astype(np.uint8)
    assert readers.ring_seen(bare, e) == 1.0
    assert readers.ring_seen((bare * np.float32([0.5, 0.6, 0.8])).astype(np.uint8), e) == 1.0
    hand = np.full_like(bare, (120, 140, 175))
    assert readers.ring_seen(hand, e) == 0.0
    half = bare.copy()
    half[:, : n // 2] = (120, 140, 175)
    assert 0.3 <= readers.ring_seen(half, e) <= 0.7
    slot_id = LAYOUT.slots_of("token", "supply")[0]
    covered = readers.ChipLook(1.0, ring=0.0)
    assert readers.judge_chip(covered, slot_id, ColourModel()).state == "unknown"
    assert readers.judge_chip(readers.ChipLook(1.0), slot_id, ColourModel()).state == "empty"


def test_an_empty_slot_is_sure_only_where_its_printed_ring_shows() -> None:
    """A hand balanced to the fill's grey, a sliver of the slot's ring beside it, is
    not an empty slot the referee may take without asking; the whole ring is."""
    from vision.confidence import is_sure

    slot = LAYOUT.slots_of("token", "supply")[0]
    sliver = readers.judge_chip(readers.ChipLook(0.99, ring=0.25), slot, ColourModel())
    whole = readers.judge_chip(readers.ChipLook(0.99, ring=1.0), slot, ColourModel())
    assert sliver.state == whole.state == "empty"
    assert not is_sure("empty token slots", sliver.confidence, "empty")
    assert is_sure("empty token slots", whole.confidence, "empty")


@pytest.fixture(scope="module")
def design() -> dict[str, np.ndarray]:
    faces = token_faces("design")
    if not faces:
        pytest.skip("../shared/card-faces absent")
    return faces


def test_the_publishers_design_chips(design) -> None:  # type: ignore[no-untyped-def]
    t: Counter[str] = Counter()
    for i, (px, cast) in enumerate(((3.0, 0.5), (4.5, -0.5), (6.0, 0.0))):
        t += _tally(_frame((4, 5, 3, 6, 2, 5), design, seed=30 + i, px_per_mm=px,
                           colour_temperature=cast), ColourModel())
    assert t["chip-wrong"] == 0 and t["empty-wrong"] == 0, t
    assert t["chip-right"] >= 0.95 * (t["chip-right"] + t["chip-abstained"]), t


def test_learning_at_set_up_takes_the_chips_under_this_light(design) -> None:  # type: ignore[no-untyped-def]
    setup = _frame((7, 7, 7, 7, 7, 5), design, seed=40, colour_temperature=0.8, exposure=0.7)
    learned = learn_colours(setup.image, LAYOUT)
    default = ColourModel()
    for k in "wugrky":
        rim = np.asarray(learned.tokens[k])
        assert rim.shape == (3,)
        # the learned rim is this table's chip: nearer its own letter's stored centres
        d = readers._distances(rim, {c: v for c, v in default.tokens.items() if c != "empty"})
        assert min(d, key=lambda c: d[c]) == k, (k, d)
    game = _frame((3, 4, 2, 5, 3, 4), design, seed=41, colour_temperature=0.8, exposure=0.7)
    t = _tally(game, learned)
    assert t["chip-wrong"] == 0 and t["empty-wrong"] == 0
    # 21 chips: none wrong, a few may abstain (the world renderer's paste of the
    # publisher's faces, cropped to their disc, left 2 of 21 unsure)
    assert t["chip-right"] >= 0.85 * 21, t


def test_set_up_learning_takes_the_first_frame_or_says_why_not(capsys) -> None:  # type: ignore[no-untyped-def]
    stored = replace(ColourModel(), source="stored")
    setup = _frame((7, 7, 7, 7, 7, 5), seed=50)
    learned = learn_or_keep(setup.image, LAYOUT, stored, print)
    assert learned.source == "set-up frame"
    assert "Colours learned from the set-up frame" in capsys.readouterr().out
    blank = np.full((300, 400, 3), 120, np.uint8)
    assert learn_or_keep(blank, LAYOUT, stored, print) is stored
    assert "not learned at set-up (no marker" in capsys.readouterr().out


def _rim(sectors: list[tuple[float, float, float]], noise: float = 0.0, seed: int = 0
         ) -> tuple[np.ndarray, np.ndarray]:
    """Rim pixels (Lab) and their angles: 75 per sector, each sector one colour."""
    rng = np.random.default_rng(seed)
    n = readers.RIM_SECTORS
    edges = np.linspace(-np.pi, np.pi, n + 1)
    angle = np.concatenate([rng.uniform(edges[k], edges[k + 1], 75) for k in range(n)])
    px = np.concatenate([np.tile(np.asarray(c, np.float32), (75, 1)) for c in sectors])
    return px + rng.normal(0, noise, px.shape).astype(np.float32), angle


def test_a_rim_is_one_colour_through_noise_and_a_glare_crescent_not_under_a_hand() -> None:
    """The rim is judged by sectors: noise that scatters single pixels, or a lamp's
    white crescent over a few sectors, leaves a red rim uniform; skin over 5 of its
    16 sectors does not; a white chip's rim, all white, is uniform."""
    red, white, skin = (150.0, 180.0, 145.0), (254.0, 128.0, 128.0), (170.0, 145.0, 160.0)
    n = readers.RIM_SECTORS

    def uniformity(sectors: list[tuple[float, float, float]], noise: float = 0.0) -> float:
        px, angle = _rim(sectors, noise)
        return readers._rim_colour(px, angle, np.float32([250, 128, 140]))[1]

    assert uniformity([red] * n, noise=20.0) >= readers.RIM_MIN_UNIFORM
    assert uniformity([red] * (n - 5) + [white] * 5) >= readers.RIM_MIN_UNIFORM
    assert uniformity([red] * (n - 5) + [skin] * 5) < readers.RIM_MIN_UNIFORM
    assert uniformity([white] * n) == 1.0


def test_a_lamps_crescent_over_half_a_red_rim_leaves_it_red_and_whole() -> None:
    """A highlight graded from the rim's red to white over 8 of 16 sectors is left
    out: the rim is the red of the rest, uniform.  Light skin over 6 sectors of a red
    rim is not a highlight (another hue), nor the lighter half of a grey rim beside the slot's dark
    printed ring (a white chip mapped off its slot: it must not read black)."""
    red = (150.0, 188.0, 148.0)
    crescent = [(150.0 + 100 * t, 188 - 60 * t, 148 - 20 * t)
                for t in (0.4, 0.55, 0.7, 0.85, 0.95, 0.85, 0.7, 0.5)]
    cream = np.float32([250, 128, 140])
    px, angle = _rim([red] * 8 + crescent, noise=6.0)
    rim, uniform = readers._rim_colour(px, angle, cream)
    assert uniform >= readers.RIM_MIN_UNIFORM
    assert float(np.abs(rim - np.float32(red)).max()) < 6
    # the median over the whole rim is drawn toward white: the crescent had to go
    assert float(np.abs(np.median(px, axis=0) - np.float32(red)).max()) > 15
    skin = (200.0, 145.0, 160.0)  # lighter than the red, as a lamp's crescent is
    px, angle = _rim([red] * 10 + [skin] * 6, noise=6.0)
    assert readers._rim_colour(px, angle, cream)[1] < readers.RIM_MIN_UNIFORM
    px, angle = _rim([(95.0, 128.0, 128.0)] * 7 + [(165.0, 129.0, 140.0)] * 9, noise=6.0)
    assert readers._rim_colour(px, angle, cream)[1] < readers.RIM_MIN_UNIFORM


def test_a_red_gem_faded_toward_its_sticker_is_red_a_grey_gem_is_not_blue() -> None:
    """Blur and a highlight mix a small gem with the cream round it: a pale pink gem
    is nearer red than white; a grey gem (a white chip's) is not taken for a blue
    faded toward a yellowish sticker (blue and cream mix to grey)."""
    gems = ColourModel().chip_gems
    sticker = np.float32([250, 124, 148])
    pale_red = np.float32([185, 152, 142])
    d = readers._distances(pale_red, gems, readers.GEM_SHADE, sticker)
    assert min(d, key=lambda k: d[k]) == "r", d
    grey = np.float32([200, 126, 132])
    d = readers._distances(grey, gems, readers.GEM_SHADE, sticker)
    assert min(d, key=lambda k: d[k]) == "w", d


def test_a_bare_slot_the_fill_class_misses_is_empty_by_its_ring_and_one_grey() -> None:
    """The fill's class learned elsewhere no longer matches (a lamp unlike the
    markers', the paper round the slot washed white): a slot one neutral grey from
    rim to middle inside its printed ring is empty, but not sure.  A sleeve hiding the
    ring, a washed-out chip, a cream sticker or a gem are not."""

    slot = LAYOUT.slots_of("token", "supply")[0]
    grey = np.float32([209, 125, 120])

    def look(rim, sticker=None, gem=None, ring: float = 0.9,  # type: ignore[no-untyped-def]
             edge: float = 8.9):
        rim = np.float32(rim)
        return readers.ChipLook(0.0, (0.0, 0.0), edge, 19.5, rim, 1.0,
                                rim if sticker is None else np.float32(sticker),
                                None if gem is None else np.float32(gem), 0.0, 8.0, ring)

    bare = readers.judge_chip(look(grey), slot, ColourModel())
    assert bare.state == "empty"
    # at most the reader's cap for a bare fill: whether that is sure is decided once
    # the chips network has joined it (vision.chip_net, thresholds in vision/sure.toml)
    assert bare.confidence <= readers.BARE_FILL_CONFIDENCE
    # a washed-out chip keeps its sharp edge (design world frames: 18-27)
    for other in (look(grey, ring=0.2), look((254, 128, 128), edge=18.0),
                  look((254, 128, 128), sticker=(225, 134, 146)),
                  look(grey, gem=(90, 138, 103))):
        assert readers.judge_chip(other, slot, ColourModel()).state != "empty"


def test_a_bare_slot_washed_white_is_empty_only_without_a_chips_edge() -> None:
    """A veil of glare (or a dim frame's strong gain) lifts a bare slot's grey to the
    top once balanced: with only its printed ring's faint gradient it is empty, not
    sure; the same whiteness with a chip's sharp edge stays unknown."""

    slot = LAYOUT.slots_of("token", "supply")[0]
    washed = np.float32([254, 128, 128])

    def look(edge: float) -> readers.ChipLook:
        return readers.ChipLook(0.0, (0.0, 0.0), edge, 20.2, washed, 1.0, washed, None,
                                0.0, 8.0, 1.0)

    # a bare slot's printed ring measures up to ~10 there, a whitened chip's edge 18-27
    for ring_step in (readers.CHIP_EDGE_MIN - 2.0, 10.0):
        bare = readers.judge_chip(look(ring_step), slot, ColourModel())
        assert bare.state == "empty"
        assert bare.confidence <= readers.BARE_FILL_CONFIDENCE  # see the test above
    for chip_edge in (15.0, 18.0):
        assert readers.judge_chip(look(chip_edge), slot, ColourModel()).state == "unknown"


def test_an_empty_supply_under_a_fill_class_from_another_light_is_not_unknown() -> None:
    """Rendered: every supply slot bare, the fill's class 45 levels darker than the
    print (learned under another light): the slots are read empty, none as a chip."""
    model = ColourModel()
    lum, a, b = np.asarray(model.tokens["empty"], np.float32).reshape(-1, 3)[0]
    dark = replace(model, tokens={**model.tokens, "empty": (float(lum) - 45, float(a), float(b))})
    t = _tally(_frame((0, 0, 0, 0, 0, 0), seed=4), dark)
    assert t["empty-wrong"] == 0
    assert t["empty-right"] >= 36  # of 40


def test_a_gem_in_shade_keeps_its_hue_and_black_stays_black() -> None:
    """A shadow darkens a red gem towards black's lightness but keeps its hue: by
    the gem's shade-tolerant distance it is nearer red; a black gem and a white one
    are still told apart by lightness, in full."""
    gems = {"r": (130.0, 153.0, 143.0), "k": (73.0, 134.0, 138.0), "w": (162.0, 126.0, 134.0)}

    def nearest(lab: tuple[float, float, float], shade: float) -> str:
        d = readers._distances(np.float32(lab), gems, shade)
        return min(d, key=d.__getitem__)

    shaded_red = (70.0, 151.0, 143.0)
    assert nearest(shaded_red, 1.0) == "k"
    assert nearest(shaded_red, readers.GEM_SHADE) == "r"
    assert nearest((65.0, 131.0, 136.0), readers.GEM_SHADE) == "k"
    assert nearest((150.0, 127.0, 133.0), readers.GEM_SHADE) == "w"


def test_a_chip_across_a_shadow_s_soft_edge_is_read() -> None:
    """A design world frame (hard, 4 players, the Camera Module 3): a soft shadow's
    edge crosses a blue chip, its rim 50 L darker on one side than the other, and by
    the markers' gain its sectors differed as under a hand.  Levelled by the paper of
    its slot's corners its rim is one blue, and the chip is read."""
    from vision.synth.facesets import shared_faces
    from vision.world_eval import evaluate_frame

    if shared_faces() is None:
        pytest.skip("the publisher's faces (../shared/card-faces) are not here")
    result = evaluate_frame(4, "hard", 1008, "design", "centre", "standard", True)
    chip = next(o for o in result.outcomes if o.slot == "supply.u.4")
    assert (chip.truth, chip.answer, chip.hidden) == ("u", "u", "")


def test_a_chip_under_a_hand_is_not_levelled_by_the_hand() -> None:
    """A design world frame (hard, 2 players, the Camera Module 3, warm light): a
    hand over a third of a green chip and its slot's corner, the skin passing for
    paper, would level the rim with the hand's edge; the slot's printed ring is
    hidden under the hand, so the rim is not judged levelled, and the chip is left
    unsure as the world labels it (hidden by a hand), while a red chip of the same
    frame, lit from one side, is read."""
    from vision.synth.facesets import shared_faces
    from vision.world_eval import evaluate_frame

    if shared_faces() is None:
        pytest.skip("the publisher's faces (../shared/card-faces) are not here")
    result = evaluate_frame(2, "hard", 1018, "design", "centre", "standard", True)
    got = {o.slot: o for o in result.outcomes}
    assert (got["supply.g.1"].hidden, got["supply.g.1"].answer) == ("hand", "?")
    assert (got["supply.r.4"].truth, got["supply.r.4"].answer) == ("r", "r")


def test_a_bare_slot_dimmed_by_a_shadow_band_is_not_a_black_chip() -> None:
    """A shadow band across an empty slot: its grey fill, darkened, passes for a
    chip's edge and a dark emblem on a one-colour chip.  Nearer the fill than black,
    that "rim" is the slot, not a chip: unknown, never black.  A black chip (a dark
    rim under a cream sticker, or a solid one) is still read."""
    slot = LAYOUT.slots_of("token", "supply")[0]

    def look(rim, sticker, gem) -> readers.ChipLook:  # type: ignore[no-untyped-def]
        return readers.ChipLook(0.0, (0.0, 0.0), 8.9, 19.5, np.float32(rim), 1.0,
                                np.float32(sticker), np.float32(gem), 0.0, 8.0, 1.0)

    shadowed = readers.judge_chip(look((120, 128, 128), (125, 128, 128), (84, 128, 129)),
                                  slot, ColourModel())
    assert shadowed.state == "unknown"
    for chip in (look((45, 128, 127), (225, 134, 146), (45, 130, 129)),
                 look((45, 128, 127), (47, 128, 127), (95, 128, 128))):
        got = readers.judge_chip(chip, slot, ColourModel())
        assert (got.state, got.colour) == ("token", "k")


def test_a_gold_rim_is_not_overruled_by_a_gem_between_gold_and_ruby() -> None:
    """A gold chip's amber gem lies between the gold and ruby gems' colours: a gem a
    little nearer ruby does not overrule a clear gold rim; a gem that is plainly
    another colour (skin or a shadow over the rim, a wrong rim) still does."""
    slot = LAYOUT.slots_of("token", "supply")[0]
    colours = ColourModel()
    rim = np.float32(colours.tokens["y"][0])
    sticker = np.float32((235, 128, 140))
    gold = np.float32(colours.chip_gems["y"][0])
    ruby = np.float32(colours.chip_gems["r"][0])

    def judged(gem: np.ndarray) -> tuple[str, str | None]:
        look = readers.ChipLook(0.0, (0.0, 0.0), 9.0, 19.6, rim, 1.0, sticker,
                                np.float32(gem), 0.0, 8.0, 1.0)
        got = readers.judge_chip(look, slot, colours)
        return got.state, got.colour

    def lead(gem: np.ndarray) -> float:  # how much nearer ruby than gold the gem is
        d = readers._distances(gem, colours.chip_gems, readers.GEM_SHADE, sticker)
        return d["y"] - d["r"]

    between = next(g for t in np.linspace(0, 1, 101)
                   if 0 < lead(g := np.float32(gold + t * (ruby - gold)))
                   < readers.GEM_AGREE_SLACK)
    assert judged(between) == ("token", "y")
    assert lead(ruby) > readers.GEM_AGREE_SLACK
    assert judged(ruby)[0] == "unknown"


def test_a_white_chip_under_a_cream_sticker_is_not_taken_for_a_solid_chip() -> None:
    """A real white chip: a neutral rim under a cream sticker (within ``SOLID_DIST``
    of it in Lab) and a pale diamond.  Taken for a one-colour chip it was asked for
    a grey emblem and abstained; read as a chip with a sticker it is white.  A
    solid white chip (sticker as neutral as its rim) keeps the grey-emblem test."""
    slot = LAYOUT.slots_of("token", "supply")[0]
    colours = ColourModel()
    rim = np.float32((249, 128, 128))
    cream = np.float32((251, 125, 145))
    pale_diamond = np.float32((186, 125, 137))
    assert float(readers.lab_distance(cream[None, None], rim)[0, 0]) < readers.SOLID_DIST

    def judged(sticker: np.ndarray) -> tuple[str, str | None]:
        look = readers.ChipLook(0.0, (0.0, 0.0), 20.0, 19.6, rim, 1.0, sticker,
                                pale_diamond, 0.03, -25.0, 1.0)
        got = readers.judge_chip(look, slot, colours)
        return got.state, got.colour

    assert judged(cream) == ("token", "w")
    # the same rim and emblem on a solid chip: the emblem is too pale to be sure of
    assert judged(np.float32((247, 128, 131)))[0] == "unknown"
