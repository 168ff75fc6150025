"""The card reader's parts: colour patterns, circle shapes, points, serif numerals."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.rules.splendor import catalogue
from vision import card_features, card_places, card_reader, card_seen, digits
from vision import cardface as cf
from vision.colours import GEM_BGR, ColourModel
from vision.synth import faces

S = card_reader.FACE_PX_PER_MM


def test_colour_patterns_leave_only_the_documented_pairs() -> None:
    """The colour stage names every card but a few pairs, which numerals settle."""
    pairs = set()
    for level in (1, 2, 3):
        groups: dict = {}
        for card in catalogue.cards_of_level(level):
            groups.setdefault(card_reader.pattern(card), []).append(card.id)
        assert all(len(g) <= 2 for g in groups.values())
        pairs |= {tuple(sorted(g)) for g in groups.values() if len(g) == 2}
    assert pairs == {("1w5", "1w6"), ("1u2", "1u3"), ("1g3", "1g4"), ("1r2", "1r5"),
                     ("1k3", "1k4"), ("2w2", "2w3"), ("2g2", "2g3"), ("2u5", "2u6"),
                     ("2g5", "2g6")}


def _grads(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)


def test_a_printed_circle_is_round_and_texture_is_not() -> None:
    rng = np.random.default_rng(5)
    h, w = round(cf.CARD_H * S), round(cf.CARD_W * S)
    texture = cv2.GaussianBlur(rng.integers(0, 255, (h, w, 3), dtype=np.uint8), (0, 0), 4)
    texture = cv2.normalize(texture, None, 0, 255, cv2.NORM_MINMAX)
    centre = cf.circle_center(0)
    circle = texture.copy()
    at = (round((centre[0] + 0.8) * S), round((centre[1] - 0.5) * S))
    cv2.circle(circle, at, round(cf.CIRCLE_R * S), (235, 235, 235), -1, cv2.LINE_AA)  # rim
    cv2.circle(circle, at, round(cf.CIRCLE_R * S) - 2, GEM_BGR["g"], -1, cv2.LINE_AA)
    share, found = card_reader.radiality(*_grads(circle), centre, cf.CIRCLE_R,
                                         card_reader.SEARCH_MM)
    assert share > card_reader.RADIALITY_MID + 3 * card_reader.RADIALITY_WIDTH
    assert abs(found[0] - centre[0] - 0.8) <= 0.5 and abs(found[1] - centre[1] + 0.5) <= 0.5
    plain, _ = card_reader.radiality(*_grads(texture), centre, cf.CIRCLE_R,
                                     card_reader.SEARCH_MM)
    assert plain < card_reader.RADIALITY_MID



def test_circles_blurred_and_noisy_are_present_and_bare_places_are_not() -> None:
    """A face blurred (2.5 px) with sensor noise (16 levels) on top: its red and
    green circles are still round, the places without a circle are not."""
    h, w = round(cf.CARD_H * S), round(cf.CARD_W * S)
    face = np.full((h, w, 3), (120, 150, 135), np.uint8)
    for pos, gem in ((0, "r"), (1, "g")):
        c = cf.circle_center(pos)
        cv2.circle(face, (round(c[0] * S), round(c[1] * S)), round(cf.CIRCLE_R * S),
                   GEM_BGR[gem], -1, cv2.LINE_AA)
    blurred = cv2.GaussianBlur(face.astype(np.float32), (0, 0), 2.5)
    for seed in range(4):
        noisy = blurred + np.random.default_rng(seed).normal(0, 16, face.shape)
        f = card_features.extract(np.clip(noisy, 0, 255).astype(np.uint8), ColourModel())
        assert min(f.presence[:2]) > 0.75, f.presence
        assert max(f.presence[2:]) < 0.1, f.presence


def test_a_faint_ring_on_blank_white_is_not_a_circle() -> None:
    """Snow clipped to white on the publisher's white cards: a ring one grey level
    deep is perfectly radial but carries no real edge, so it must not pass for a
    (white) cost circle; a printed circle on the same white still does."""
    h, w = round(cf.CARD_H * S), round(cf.CARD_W * S)
    blank = np.full((h, w, 3), 255, np.uint8)
    centre = cf.circle_center(1)
    at = (round(centre[0] * S), round(centre[1] * S))
    cv2.circle(blank, at, round(cf.CIRCLE_R * S), (254, 254, 254), -1)
    grads = _grads(blank)
    floor = card_reader.RIM_EDGE_FLOOR
    faint, _ = card_reader.radiality(*grads, centre, cf.CIRCLE_R, card_reader.SEARCH_MM, floor)
    unfloored, _ = card_reader.radiality(*grads, centre, cf.CIRCLE_R, card_reader.SEARCH_MM)
    assert unfloored > card_reader.RADIALITY_MID  # what the floor is there for
    assert faint < card_reader.RADIALITY_MID - card_reader.RADIALITY_WIDTH
    printed = np.full((h, w, 3), 255, np.uint8)
    cv2.circle(printed, at, round(cf.CIRCLE_R * S), (120, 120, 120), -1, cv2.LINE_AA)
    cv2.circle(printed, at, round(cf.CIRCLE_R * S) - 2, GEM_BGR["w"], -1, cv2.LINE_AA)
    share, _ = card_reader.radiality(*_grads(printed), centre, cf.CIRCLE_R,
                                     card_reader.SEARCH_MM, floor)
    assert share > card_reader.RADIALITY_MID + 3 * card_reader.RADIALITY_WIDTH

def test_points_are_seen_printed_or_blank_on_our_faces() -> None:
    colours = ColourModel()
    for card_id in ("1w1", "1w8", "2u5", "3k1"):
        card = catalogue.card(card_id)
        ev = card_features.extract(faces.card_face(card, S), colours)
        assert (ev.points_printed > 0.5) == (card.points > 0), card_id


def test_serif_templates_tell_their_digits_apart() -> None:
    """Each serif cost template matches a drawing of its own digit better than any
    other digit's templates (the templates come from serif_digits.json)."""
    bank = digits.serif_cost_templates("r", S)
    assert sorted(bank) == list(range(1, 8))
    for d in range(1, 8):
        probe = cv2.copyMakeBorder(bank[d][1], 4, 4, 4, 4, cv2.BORDER_REPLICATE)
        scores = {e: digits.best_match(probe, bank[e]) for e in range(1, 8)}
        assert max(scores, key=scores.get) == d


def test_a_pair_is_told_apart_by_its_numerals() -> None:
    """1w5 and 1w6 share bonus, colours and blank points: only a cost numeral (2 or
    1 on the green circle) differs, and the reader names each correctly."""
    colours = ColourModel()
    for card_id in ("1w5", "1w6"):
        got, confidence, _, runner_up = card_reader.decode_face(
            faces.card_face(catalogue.card(card_id), S), 1, colours)
        assert got is not None and got.id == card_id
        assert runner_up in {"1w5", "1w6"} - {card_id}
        assert confidence > 0.5


def test_an_unplaced_card_is_named_beyond_its_distance_only_when_its_places_agree() -> None:
    """Readings (card, confidence, distance, runner-up, weakest) of a card read at
    several places round its slot: most places naming one card, none another, all
    on firm evidence -> the closest; a dissenting place or a weak piece -> None."""
    a, b = catalogue.card("3r1"), catalogue.card("3k1")
    firm = card_places.UNPLACED_AGREE_WEAKEST + 0.1
    R = card_reader.FaceReading
    agree = [R(a, 0.9, 0.26, "3k1", firm), R(a, 0.9, 0.25, "3k1", firm),
             R(None, 0.2, 0.38, "3r3", 0.0)]
    got = card_places.agreed_reading(agree)
    assert got is not None and got.card == a and got.distance == 0.25
    assert card_places.agreed_reading([*agree, R(b, 0.9, 0.3, "3r1", firm)]) is None
    assert card_places.agreed_reading([*agree[:1], R(a, 0.9, 0.27, "3k1", firm - 0.2)]) is None
    assert card_places.agreed_reading(agree[:1] + [R(None, 0.1, 0.4, None, 0.0)] * 3) is None


def test_a_card_found_far_from_its_slot_is_also_read_at_the_slot() -> None:
    """A fit that slid along the slot (pale band, noisy mat) gets the slot itself as
    a second place; a fit near the slot gets none."""
    from vision.layout import build_layout
    from vision.locate import Located

    slot = build_layout(2).slot_index["market.3.0"]
    x, y = slot.center
    far = Located(0.8, (x, y + 8.0), 1.5, 1.02)
    (again,) = card_places.in_slot(slot, far)
    assert again.center == slot.center and again.angle == 1.5 and again.scale == 1.02
    assert card_places.in_slot(slot, Located(0.8, (x + 1.0, y - 1.0))) == ()
    assert card_places.in_slot(slot, Located(0.05)) == ()


def test_a_firm_reading_far_from_the_slot_is_checked_at_the_slot(monkeypatch) -> None:
    """A card fitted 8 mm off its slot is read at the slot too, in the same pass,
    even when its first reading is firm; the two readings naming different cards on
    comparable fits leave the slot unknown.  A firm reading near the slot is the
    answer at once."""
    from vision.layout import build_layout
    from vision.locate import Located

    monkeypatch.setattr(card_places, "firm", lambda r, good: True)
    slot = build_layout(2).slot_index["market.3.0"]
    x, y = slot.center
    R = card_reader.FaceReading
    wrong, right = catalogue.card("3w3"), catalogue.card("3w2")
    places = card_places.Places(slot, Located(0.8, (x + 8.0, y), 0.0, 1.0))
    assert [p.center for p in places.todo] == [(x + 8.0, y), slot.center]
    places.take([R(wrong, 0.95, 0.13, "3w4", 0.42), R(right, 0.99, 0.10, "3w3", 0.6)])
    assert places.todo == ()
    assert places.answer is not None and places.answer.state == "unknown"
    near = card_places.Places(slot, Located(0.8, (x + 1.0, y), 0.0, 1.0))
    assert len(near.todo) == 1
    near.take([R(right, 0.99, 0.10, "3w3", 0.6)])
    assert near.todo == () and near.answer is not None and near.answer.card == right


def test_a_card_less_likely_right_than_not_is_not_named() -> None:
    """Below a coin toss the reader says "unknown" and keeps its guess as the hint."""
    slot = "market.1.0"
    card = catalogue.card("1r1")
    R = card_reader.FaceReading
    from vision.layout import build_layout

    s = build_layout(2).slot_index[slot]
    low = card_places.as_reading(s, R(card, 0.3, 0.2, "1r8", 0.5))
    assert low.state == "unknown" and low.card is None and low.runner_up == "1r1"
    assert low.confidence <= card_places.UNKNOWN_CONFIDENCE
    named = card_places.as_reading(s, R(card, 0.8, 0.2, "1r8", 0.5))
    assert named.state == "card" and named.card == card and named.runner_up == "1r8"
    # just above a coin toss is not enough: the model's low end overstates
    barely = card_places.as_reading(s, R(card, 0.6, 0.2, "1r8", 0.5))
    assert barely.state == "unknown" and barely.confidence <= card_places.UNKNOWN_CONFIDENCE


def test_glare_is_lifted_off_a_face_and_a_clean_face_is_left_alone() -> None:
    """Additive white light over part of a face is taken off; a face without glare
    (something dark in every window) comes back as it was, and white stays white."""
    face = faces.card_face(catalogue.card("2r1"), S)
    clean = card_features.lift_glare(face)
    for x, y in (cf.circle_center(0), cf.circle_center(1), cf.GEM_CENTER):
        r = round(0.7 * cf.CIRCLE_R * S)
        y0, x0 = round(y * S), round(x * S)
        ring = np.s_[y0 - r:y0 + r, x0 - r:x0 + r]
        assert np.abs(clean[ring].astype(int) - face[ring]).mean() < 4.0
    glared = face.astype(np.float32)
    h, w = face.shape[:2]
    yy, xx = np.mgrid[:h, :w]
    spot = np.exp(-(((xx - w * 0.25) ** 2 + (yy - h * 0.85) ** 2) / (2 * (12 * S) ** 2)))
    glared = glared + (255 - glared) * 0.45 * spot[:, :, None]
    glared = glared.clip(0, 255).astype(np.uint8)
    lifted = card_features.lift_glare(glared)
    cx, cy = cf.circle_center(0)
    x0, y0 = round((cx + 0.72 * cf.CIRCLE_R) * S), round(cy * S)
    ring = np.s_[y0 - 2:y0 + 3, x0 - 1:x0 + 2]
    before = np.abs(glared[ring].mean((0, 1)) - face[ring].mean((0, 1))).sum()
    after = np.abs(lifted[ring].mean((0, 1)) - face[ring].mean((0, 1))).sum()
    assert before > 30
    assert after < 0.6 * before
    white = np.full_like(face, 255)
    assert (card_features.lift_glare(white) == 255).all()


def test_points_printed_or_blank_counts_only_where_it_tells_cards_apart() -> None:
    """Level 1 mixes cards with one point and none; every card of levels 2 and 3
    scores, so there a washed-out numeral must not count against a card."""
    assert card_reader.points_tell(1)
    assert not card_reader.points_tell(2) and not card_reader.points_tell(3)
    assert card_reader.max_colour_score(False) == card_reader.MAX_COLOUR_SCORE - 1.0


def test_a_face_mostly_hidden_by_something_flat_is_not_named() -> None:
    """A card's face has detail everywhere but its light parts; a face two-thirds
    under a flat brown thing (a box lid, the edge of the view) abstains."""
    card = catalogue.card("3w2")
    face = faces.card_face(card, S)
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert card_seen.hidden_share(grey) < card_seen.MAX_HIDDEN
    hidden = face.copy()
    hidden[: face.shape[0] * 2 // 3] = (40, 75, 120)
    assert card_reader.decode_face(face, 3, ColourModel())[0] == card
    assert card_reader.decode_face(hidden, 3, ColourModel())[0] is None
    grey = cv2.cvtColor(hidden, cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert card_seen.hidden_share(grey) > card_seen.MAX_HIDDEN


def test_a_flat_occluder_over_a_reading_region_is_not_seen() -> None:
    """A hand (skin colour) or any flat thing over the bonus corner or the cost
    column: the face is not seen there and nothing is named; the clean face is."""
    colours = ColourModel()
    for card_id in ("1k7", "2g6", "3w1"):
        card = catalogue.card(card_id)
        face = faces.card_face(card, S)
        assert card_seen.judge(face).ok
        assert card_reader.decode_face(face, card.level, colours)[0] == card
        for region, colour in (("bonus", (150, 175, 215)), ("costs", (90, 60, 40))):
            x0, y0, x1, y1 = card_seen.REGIONS[region]
            covered = face.copy()  # a hand is larger than the region it hides
            covered[max(0, round((y0 - 3) * S)):round((y1 + 3) * S),
                    max(0, round((x0 - 3) * S)):round((x1 + 3) * S)] = colour
            seen = card_seen.judge(covered)
            assert not seen.ok and seen.unseen.startswith(region)
            got, confidence, _, _ = card_reader.decode_face(covered, card.level, colours)
            assert got is None and confidence <= 0.5


def test_glare_clipping_the_cost_column_is_not_seen() -> None:
    card = catalogue.card("2g6")
    face = faces.card_face(card, S)
    _, y0, x1, y1 = card_seen.REGIONS["costs"]
    glared = face.copy()
    glared[round(y0 * S):round(y1 * S), :round(x1 * S) + 20] = 255
    assert card_seen.judge(glared).unseen == "costs: glare"
    assert card_reader.decode_face(glared, card.level, ColourModel())[0] is None


def test_a_washed_out_card_in_its_slot_is_unknown_not_empty(layout2) -> None:
    """Glare clipping a card to white makes it pass for the mat's paper: the slot
    is not seen bare, so it is "unknown", never "empty" (issue 12: "empty" at 0.945)."""
    from vision.calibrate import calibrate
    from vision.synth import Camera, TableScene, random_scene, render

    white = np.full((352, 252, 3), 255, np.uint8)
    scene = random_scene(2, 9)
    market = (("1w1", "1u1", "1g1", None), scene.market[1], scene.market[2])
    scene = TableScene(market, scene.decks, scene.nobles, scene.supply, scene.players)
    r = render(scene, layout2, Camera(px_per_mm=3.5, window=(-400.0, -224.0, 20.0, 224.0),
                                      noise=2), seed=1, face_images={"1w1": white})
    cal = calibrate(r.image, layout2)
    assert cal is not None
    h = cal.h_for("centre")
    washed = layout2.slot_index["market.1.0"]
    empty = layout2.slot_index["market.1.3"]
    got = card_reader.read_card(r.image, h, washed, cal.gain_at(washed.center), ColourModel())
    assert got.state == "unknown" and got.confidence <= 0.5
    assert card_reader.read_card(r.image, h, empty, cal.gain_at(empty.center),
                                 ColourModel()).state == "empty"


def test_an_empty_slot_under_a_flat_sleeve_is_not_empty(layout2) -> None:
    """A grey sleeve lying over a bare slot looks like paper in shade, flat and
    untextured; it hides the slot's printed outline, so the slot is not "empty"
    (design world frames: a row under a sleeve read "empty" at 0.99).  The same
    slot uncovered, its outline seen, is empty."""
    import cv2

    from vision.calibrate import calibrate
    from vision.synth import Camera, TableScene, random_scene, render

    scene = random_scene(2, 9)
    market = (("1w1", "1u1", "1g1", None), scene.market[1], scene.market[2])
    scene = TableScene(market, scene.decks, scene.nobles, scene.supply, scene.players)
    r = render(scene, layout2, Camera(px_per_mm=3.5, window=(-400.0, -224.0, 20.0, 224.0),
                                      noise=2), seed=1)
    cal = calibrate(r.image, layout2)
    assert cal is not None
    h = cal.h_for("centre")
    slot = layout2.slot_index["market.1.3"]
    gain = cal.gain_at(slot.center)
    assert card_reader.read_card(r.image, h, slot, gain, ColourModel()).state == "empty"
    # a sleeve the colour of the paper in light shade, reaching well past the slot
    x, y = slot.center
    w, hh = slot.size[0] / 2 + 40.0, slot.size[1] / 2 + 40.0
    mm = np.array([[x - w, y - hh], [x + w, y - hh], [x + w, y + hh], [x - w, y + hh]],
                  np.float64).reshape(-1, 1, 2)
    px = cv2.perspectiveTransform(mm, h).reshape(-1, 2).round().astype(np.int32)
    paper = np.median(r.image[px[:, 1].min():px[:, 1].max(), px[:, 0].min():px[:, 0].max()]
                      .reshape(-1, 3), axis=0)
    sleeve = r.image.copy()
    cv2.fillConvexPoly(sleeve, px, tuple(int(0.9 * v) for v in paper))
    noise = np.random.default_rng(0).normal(0, 2, sleeve.shape)
    sleeve = np.clip(sleeve + noise, 0, 255).astype(np.uint8)
    got = card_reader.read_card(sleeve, h, slot, gain, ColourModel())
    assert got.state == "unknown"


def test_confidence_follows_the_evidence() -> None:
    """The calibrated confidence rises with the lead and falls with a poor fit and
    with numerals that favour the runner-up."""
    from vision import card_confidence as cc
    from vision.card_decode import Decoded

    a, b = catalogue.card("1w5"), catalogue.card("1w6")

    def p(margin: float, distance: float, lead: float) -> float:
        return cc.probability(Decoded(a, a, b, margin, distance, 0.6, 0.7, lead, 0.5, 0.0), 0.0)

    assert p(1.0, 0.05, 0.1) > 0.99
    assert p(1.0, 0.05, 0.1) > p(0.3, 0.05, 0.1)
    assert p(0.5, 0.05, 0.1) > p(0.5, 0.35, 0.1)
    assert p(0.5, 0.2, 0.1) > p(0.5, 0.2, -0.2)


def test_contradicting_evidence_lowers_the_confidence() -> None:
    """Cost circles that favour another pattern than the bonus's card, or a cost
    numeral that reads as another value, make a named card less sure."""
    from vision import card_confidence as cc
    from vision.card_decode import Decoded

    a, b = catalogue.card("1g1"), catalogue.card("1w2")

    def p(cost_lead: float, digit_lead: float) -> float:
        return cc.probability(Decoded(a, a, b, 0.8, 0.1, 0.5, 0.0, 0.05, 0.4, 0.0,
                                      cost_lead, digit_lead), 0.0)

    assert p(0.8, 0.2) > 0.98
    assert p(-0.3, 0.2) < p(0.8, 0.2)
    assert p(0.8, -0.2) < p(0.8, 0.2)
    assert p(-0.3, -0.2) < 0.9


def test_a_face_brighter_than_the_markers_is_not_clipped_by_their_gain() -> None:
    """The markers' gain is lowered so a card's own whites stay below clipping,
    and what the camera clipped (glare) stays clipped."""
    from vision import face_cut

    face = np.full((80, 60, 3), 120, np.uint8)
    face[:20] = (225, 235, 240)  # the card's white band, brighter than the markers
    face[70:, :10] = 255  # glare
    gain = np.array([1.5, 1.4, 1.3])
    lowered = face_cut.face_gain(face, gain)
    assert np.all(lowered < gain)
    assert np.allclose(lowered / lowered[0], gain / gain[0])  # the cast is kept
    assert float(np.max(face[:20].reshape(-1, 3) * lowered)) <= face_cut.FACE_WHITE_PEAK + 1
    dim = np.full((80, 60, 3), 100, np.uint8)  # whites at 150 under the gain: raised, capped
    assert np.allclose(face_cut.face_gain(dim, gain), gain * face_cut.FACE_GAIN_CEIL)
    shaded = np.full((80, 60, 3), 100, np.uint8)
    shaded[:20] = 170  # the white band a little dimmer than the markers' light
    raised = face_cut.face_gain(shaded, gain)
    assert float(np.max(170 * raised)) == pytest.approx(face_cut.FACE_WHITE_PEAK)


def test_a_green_circle_that_lost_saturation_still_reads_green() -> None:
    """Blur and noise keep a circle's hue and lose its saturation: the circles'
    similarity forgives down to ``DESATURATION_FLOOR`` of a class's chroma; the bonus
    gem's similarity does not."""
    from vision.card_features import DESATURATION_FLOOR, FADED_CHROMA_MIN, colour_similarities
    from vision.colours import ColourModel
    from vision.sampling import COLOUR_SIGMA

    gems = ColourModel().gems
    green = np.asarray(gems["g"], np.float32).reshape(-1, 3)[0]
    faded = green.copy()
    faded[1:] = 128 + 0.6 * (green[1:] - 128)
    strict = colour_similarities(faded[None], gems)[0]
    forgiving = colour_similarities(faded[None], gems, DESATURATION_FLOOR)[0]
    assert forgiving["g"] > 0.95 > strict["g"]
    assert max(forgiving, key=lambda k: forgiving[k]) == "g"
    grey = np.array([[180.0, 128.0, 128.0]])
    strict_grey = colour_similarities(grey, gems)[0]
    for name, sim in colour_similarities(grey, gems, DESATURATION_FLOOR)[0].items():
        # a grey is never closer than FADED_CHROMA_MIN to a coloured class's chroma
        assert sim <= max(strict_grey[name], np.exp(-((FADED_CHROMA_MIN / COLOUR_SIGMA) ** 2)))


def test_places_that_disagree_do_not_name_a_card_surely() -> None:
    """A card read at several places: another place naming another card on a
    comparable fit stops the naming; another place's best fit being another card
    caps the confidence."""
    from vision.card_decode import Decoded

    a, b = catalogue.card("3r1"), catalogue.card("3w3")

    def reading(card: object, best: object, distance: float) -> card_reader.FaceReading:
        dec = Decoded(card, best, a, 0.8, distance, 0.5, 0.0)  # type: ignore[arg-type]
        return card_reader.FaceReading(card, 0.99, distance, None, 0.5,  # type: ignore[arg-type]
                                       dec)

    named = reading(b, b, 0.10)
    assert card_places.consistent(named, [named, reading(b, b, 0.2)]) == named
    assert card_places.consistent(named, [named, reading(a, a, 0.15)]).card is None
    far = card_places.consistent(named, [named, reading(a, a, 0.35)])
    assert far.card == b and far.confidence <= card_places.PLACES_DISAGREE_CONFIDENCE
    unnamed = card_places.consistent(named, [named, reading(None, a, 0.25)])
    assert unnamed.card == b and unnamed.confidence <= card_places.PLACES_DISAGREE_CONFIDENCE


def test_points_twins_are_the_single_circle_cards_of_a_bonus() -> None:
    """Each level-1 bonus has one card of a single circle and no point and one of a
    single circle and a point (1u7, 3 black, and 1u8, 4 red; 1r1, 3 white, and 1r8,
    4 white): with the point's thin "1" blurred away, only the circle's colour and
    the numerals tell them apart, so the reader asks the numerals too."""
    from vision.card_decode import _points_twin

    assert _points_twin(catalogue.card("1r1")).id == "1r8"  # type: ignore[union-attr]
    assert _points_twin(catalogue.card("1r8")).id == "1r1"  # type: ignore[union-attr]
    assert _points_twin(catalogue.card("1u7")).id == "1u8"  # type: ignore[union-attr]
    assert _points_twin(catalogue.card("1u2")) is None
    twins = {c.id: t.id for level in (1, 2, 3) for c in catalogue.cards_of_level(level)
             if (t := _points_twin(c)) is not None}
    assert twins == {"1w2": "1w8", "1w8": "1w2", "1u7": "1u8", "1u8": "1u7",
                     "1g7": "1g8", "1g8": "1g7", "1r1": "1r8", "1r8": "1r1",
                     "1k5": "1k8", "1k8": "1k5"}


def test_the_slot_reading_stands_when_the_fits_far_from_it_name_nothing() -> None:
    """A fit slid 8 mm up the slot (a dark shadow over the card's top passes for
    card) reads dark picture as black circles and names nothing; the reading at the
    slot names the card on every piece: it is the answer, not a sure one.  A weak
    reading at the slot is taken only over fits whose evidence is weaker still."""
    from vision.card_decode import Decoded
    from vision.layout import build_layout
    from vision.locate import Located

    slot = build_layout(4).slot_index["market.3.2"]
    x, y = slot.center
    R = card_reader.FaceReading
    right, dark = catalogue.card("3u4"), catalogue.card("3k3")

    def abstained(distance: float, weakest: float = 0.01) -> R:
        dec = Decoded(None, dark, right, 0.9, distance, weakest, 0.0, reason="weak")
        return R(None, 0.99, distance, "3k3", weakest, dec)

    def run(at_slot: R, weakest: float = 0.01) -> object:
        others = tuple(Located(0.9, (x, y - 8.0), a, 1.0) for a in (0.0, 3.0))
        places = card_places.Places(slot, Located(0.9, (x, y - 8.0), 1.5, 1.0, others))
        assert len(places.todo) == 2 and places.todo[-1].center == slot.center
        places.take([abstained(0.33, weakest), at_slot])
        assert len(places.todo) == 2  # the other fits
        places.take([abstained(0.21, weakest)] * 2)
        assert places.answer is not None
        return places.answer

    named = run(R(right, 1.0, 0.33, "3k3", 0.49))
    assert named.state == "card" and named.card == right
    assert named.confidence <= card_places.PLACES_DISAGREE_CONFIDENCE
    weak = R(right, 1.0, 0.33, "3k3", card_places.GOOD_WEAKEST - 0.1)
    assert run(weak).state == "card"
    assert run(weak, card_places.GOOD_WEAKEST - 0.05).state == "unknown"


def test_a_closest_fit_that_abstains_on_the_card_another_place_names_agrees() -> None:
    """The closest fit leads with 2g6 but abstains (a circle half cut); another place
    names 2g6 on a looser fit with every piece holding: that is agreement, 2g6 is
    chosen.  A place naming a card the closest fit does not lead with, or naming it
    on a weak piece, needs to fit within FIT_SLACK."""
    from vision.card_decode import Decoded

    R = card_reader.FaceReading
    card, other = catalogue.card("2g6"), catalogue.card("2g5")
    lead = Decoded(None, card, other, 0.1, 0.15, 0.04, 0.3, reason="close call")
    closest = R(None, 0.9, 0.15, "2g6", 0.04, lead)
    named = R(card, 1.0, 0.22, "2g5", 0.56)
    assert card_places.choose([closest, named]) is named
    rival = R(other, 1.0, 0.22, "2g6", 0.56)
    assert card_places.choose([closest, rival]) is closest
    weak = R(card, 1.0, 0.22, "2g5", card_places.GOOD_WEAKEST - 0.2)
    assert card_places.choose([closest, weak]) is closest


def test_a_place_naming_a_card_below_a_coin_toss_does_not_outrank_the_others() -> None:
    """One cut (a white circle half out) fits 1w4 closest but its numerals are
    against it (confidence 0.02); four places name 1w1 at 0.99 on looser fits.
    1w1 is the answer, not a sure one (a place read another card); the same place
    at a confidence above a coin toss is a rival, and nothing is named."""
    from vision.card_decode import Decoded
    from vision.layout import build_layout

    slot = build_layout(2).slot_index["market.1.1"]
    R = card_reader.FaceReading
    right, other = catalogue.card("1w1"), catalogue.card("1w4")

    def reading(card: object, confidence: float, distance: float) -> R:
        rival = other if card is right else right
        dec = Decoded(card, card, rival, 0.3, distance, 0.4, 0.5)
        return R(card, confidence, distance, rival.id, 0.4, dec)

    places = [reading(other, 0.02, 0.16)] + [reading(right, 0.99, d)
                                             for d in (0.19, 0.21, 0.27, 0.32)]
    best = card_places.choose(places)
    assert best.card == right
    answer = card_places.as_reading(slot, card_places.consistent(best, places))
    assert answer.card == right
    assert answer.confidence <= card_places.PLACES_DISAGREE_CONFIDENCE
    places[0] = reading(other, 0.8, 0.16)
    best = card_places.choose(places)
    assert card_places.as_reading(slot, card_places.consistent(best, places)).card is None


def test_places_all_below_a_coin_toss_on_one_card_stay_unsure() -> None:
    """Every place misses the same white circle and reads 1w4, mostly below a coin
    toss: the closest fit (0.35) decides and the slot stays unknown; the one place at
    0.55 on a looser fit does not name it."""
    from vision.card_decode import Decoded
    from vision.layout import build_layout

    slot = build_layout(2).slot_index["market.1.1"]
    R = card_reader.FaceReading
    card, rival = catalogue.card("1w4"), catalogue.card("1w1")
    dec = Decoded(card, card, rival, 0.6, 0.14, 0.6, 0.0)
    places = [R(card, p, d, "1w1", 0.6, replace(dec, distance=d))
              for p, d in ((0.35, 0.14), (0.55, 0.16), (0.24, 0.14), (0.17, 0.26))]
    best = card_places.choose(places)
    assert card_places.as_reading(slot, card_places.consistent(best, places)).card is None


def test_the_slot_s_cut_outweighs_fits_off_it_that_lack_a_piece() -> None:
    """A card fitted off its slot, a circle cut away, leads with another card on a
    missing piece; the cut where the slot is names the card on every piece: the slot's
    reading is the answer, held below sure.  A fit off the slot whose every piece holds
    as well keeps the slot unknown."""
    from vision.card_decode import Decoded
    from vision.layout import build_layout
    from vision.locate import Located

    right, wrong = catalogue.card("3g4"), catalogue.card("3w3")

    def reading(card: object, best: object, weakest: float) -> card_reader.FaceReading:
        dec = Decoded(card, best, right, 0.8, 0.2, weakest, 0.0)  # type: ignore[arg-type]
        return card_reader.FaceReading(card, 0.99, 0.2, None, weakest,  # type: ignore[arg-type]
                                       dec)

    slot = build_layout(2).slot_index["market.3.0"]
    x, y = slot.center

    def answer(off_slot: list[card_reader.FaceReading]) -> object:
        other = Located(0.8, (x, y + 3.5), 1.0, 1.0)
        places = card_places.Places(slot, Located(0.8, (x, y + 3.0), 0.0, 1.0, (other,)))
        # the place found and the slot's in one pass; the other fit, a second pass
        assert len(places.todo) == 2 and places.todo[-1].center == slot.center
        places.take([off_slot[0], reading(right, right, 0.25)])
        assert [p.center for p in places.todo] == [other.center]
        places.take(off_slot[1:2])
        # the slot's reading is weighed last, as if read after the other fit
        assert places.at_slot == 2 and places.readings[2].card == right
        return places.answer

    cut = [reading(None, wrong, 0.01), reading(wrong, wrong, 0.12)]
    got = answer(cut)
    assert got.card == right  # type: ignore[attr-defined]
    assert got.confidence <= card_places.PLACES_DISAGREE_CONFIDENCE  # type: ignore[attr-defined]
    whole = [reading(None, wrong, 0.01), reading(wrong, wrong, 0.4)]
    assert answer(whole).card is None  # type: ignore[attr-defined]


def test_a_white_circle_in_a_shadow_band_is_white_by_its_dark_numeral() -> None:
    """A shadow band over the cost column dims a white circle to a grey that matches
    black or a pale blue better than white; its numeral, darker than its ring with
    nothing lighter, still says white, and the card is named.  A black circle's light
    numeral never does."""
    card = catalogue.card("1u4")  # 1 white and 2 black circles
    face = faces.card_face(card, S).astype(np.float32)
    face[int(0.55 * face.shape[0]):] *= 0.45
    shaded = np.clip(face, 0, 255).astype(np.uint8)
    got = card_reader.read_face(shaded, 1, ColourModel())
    assert got.card == card
    grey = cv2.cvtColor(shaded, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab = cv2.cvtColor(shaded, cv2.COLOR_BGR2LAB)
    white_c, black_c = cf.circle_center(1), cf.circle_center(0)

    def ring(c: tuple[float, float]) -> np.ndarray:
        return lab[round(c[1] * S), round((c[0] - 0.7 * cf.CIRCLE_R) * S)].astype(float)

    assert card_features.white_by_numeral(grey, white_c, ring(white_c)) > 0.8
    assert card_features.white_by_numeral(grey, black_c, ring(black_c)) == 0.0


def test_a_card_with_no_outline_read_firmly_is_read_once() -> None:
    """A pale card (no outline found) read firmly where its slot is is the answer:
    the place is not read a second time."""
    from vision.card_decode import Decoded
    from vision.layout import build_layout
    from vision.locate import Located

    card = catalogue.card("1w2")
    slot = build_layout(2).slot_index["market.1.3"]
    places = card_places.Places(slot, Located(0.09))
    assert [p.center for p in places.todo] == [slot.center]
    dec = Decoded(card, card, catalogue.card("1w7"), 0.8, 0.09, 0.6, 0.0)
    places.take([card_reader.FaceReading(card, 0.99, 0.09, "1w7", 0.6, dec,
                                         margin_confidence=0.96)])
    assert places.todo == ()
    assert places.answer is not None and places.answer.card == card


def test_a_dim_noisy_frame_s_empty_slot_is_empty_and_its_cards_are_not(layout2) -> None:
    """Under a dim lamp the white balance lifts the sensor's noise until nearly every
    pixel is darker than its lightest neighbour ("ink" everywhere: a hand-written
    outline test then saw a sleeve's outline on every side).  The slots network
    still tells the bare slot from the cards beside it."""
    from vision.calibrate import calibrate
    from vision.synth import Camera, TableScene, random_scene, render

    scene = random_scene(2, 9)
    market = (("1w1", "1u1", "1g1", None), scene.market[1], scene.market[2])
    scene = TableScene(market, scene.decks, scene.nobles, scene.supply, scene.players)
    r = render(scene, layout2, Camera(px_per_mm=3.5, window=(-400.0, -224.0, 20.0, 224.0),
                                      noise=2), seed=1)
    for sigma in (4.0, 6.0):  # a dim frame (a third of the light), then its noise
        dim = r.image.astype(np.float64) * 0.3 + np.random.default_rng(0).normal(
            0, sigma, r.image.shape)
        img = np.clip(dim, 0, 255).astype(np.uint8)
        cal = calibrate(img, layout2)
        assert cal is not None
        for i, held in enumerate(market[0]):
            slot = layout2.slot_index[f"market.1.{i}"]
            got = card_reader.read_card(img, cal.h_for("centre"), slot,
                                        cal.gain_at(slot.center), ColourModel())
            assert (got.state == "empty") == (held is None), (sigma, slot.id, got)


class _Numerals:
    """Numeral fits per card and bank, as ``card_decode.FaceScores`` gives them."""

    def __init__(self, fits: dict[tuple[str, bool], float]) -> None:
        self.fits = fits

    def numeral_score(self, card, serif: bool = False) -> float:  # type: ignore[no-untyped-def]
        return self.fits[(card.id, serif)]


@pytest.mark.parametrize("serif_fit, named", [(0.55, True), (0.45, False)])
def test_a_small_serif_lead_names_a_pair_only_where_the_serif_fits_well(
        serif_fit: float, named: bool) -> None:
    """1r5 (all ones) and 1r2 (a 2 on its white circle) share every colour: only that
    numeral tells them apart, and on a white circle at 1.7 px/mm the publisher's
    numeral leads by 0.02-0.1.  Where its templates fit well the lead is trusted
    (design frames: no pair read the wrong way above a mean fit of 0.5); where
    they fit poorly it is not (3 of 60 led the wrong way, by up to 0.11)."""
    from vision import card_decode

    right, twin = catalogue.card("1r5"), catalogue.card("1r2")
    n = 5  # four cost numerals and the points box
    fits = {("1r5", True): serif_fit * n, ("1r2", True): serif_fit * n - 0.06,
            ("1r5", False): 0.3 * n, ("1r2", False): 0.3 * n}
    ranked, lead, need, fit = card_decode._by_numerals(  # type: ignore[arg-type]
        _Numerals(fits), [twin, right])
    assert ranked[0] == right and lead == pytest.approx(0.06)
    assert fit == pytest.approx(serif_fit)
    assert (lead >= need) is named



def test_a_single_circle_card_named_on_a_blank_points_box_needs_its_numerals(
        monkeypatch) -> None:
    """1u8 (4 red and a point) under blur: its red circle reads red (0.71; black
    0.26), its thin "1" vanishes, and the blank box counted for 1u7 (3 black, no
    point) as much as the circle's colour against it.  1u7 is 1u8's points twin:
    named on a blank box only when the numerals favour it, which numerals that fit
    every value alike do not."""
    from vision import card_decode

    monkeypatch.setattr(card_decode.FaceScores, "digit", lambda self, *a, **k: 0.5)
    monkeypatch.setattr(card_decode.FaceScores, "points", lambda self, *a, **k: 0.5)
    none = dict.fromkeys("wugrk", 0.0)
    flat = np.zeros((8, 8), np.float32)
    features = card_features.FaceFeatures(
        bonus_sim={**none, "u": 0.87, "k": 0.38},
        circle_sim=({**none, "r": 0.71, "k": 0.26}, none, none, none),
        centres=tuple(card_features.CIRCLE_CENTRES),
        presence=(0.71, 0.0, 0.0, 0.0),
        points_printed=0.13,
        circle_crops=(flat,) * 4,
        points_crops=(flat, flat))
    got = card_decode.decode(features, 1)
    assert got.best.id == "1u7" and got.card is None
    assert got.runner_up.id == "1u8" and got.reason == "its points twin is not ruled out"
