"""A privilege place under a warm lamp is known by its scroll's printed bars, but only
on a scroll yellower than the paper: a hand's fingers over an empty place show bars
too."""

from __future__ import annotations

import numpy as np

from vision.duel import read
from vision.duel.layout import build_duel_layout
from vision.layout import Slot
from vision.mats import PAPER

S = 6.0  # px per mm of the drawn table


def _place_with_bars(colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, Slot]:
    """Paper all round, the place filled with ``colour`` (BGR) and crossed by two
    darker bars along it, as the scroll's print (or two fingers) shows them."""
    src = build_duel_layout().slots_of("privilege", "privileges")[0]
    slot = Slot(src.id, src.kind, src.zone, src.mat, (60.0, 60.0), src.size, src.angle)
    image = np.zeros((round(120 * S), round(120 * S), 3), np.uint8)
    image[:] = PAPER
    w, h = src.size
    x0, y0 = round((60 - w / 2) * S), round((60 - h / 2) * S)
    x1, y1 = round((60 + w / 2) * S), round((60 + h / 2) * S)
    image[y0:y1, x0:x1] = colour
    for at in (0.35, 0.65):
        cx = round(x0 + at * (x1 - x0))
        image[y0:y1, cx - 4:cx + 4] = (np.array(colour) * 0.75).astype(np.uint8)
    return image, np.diag([S, S, 1.0]), slot


def test_bars_on_a_scroll_yellower_than_the_paper_are_a_privilege() -> None:
    scroll = (PAPER[0] - 8, PAPER[1] - 1, PAPER[2])  # 4 yellower (Lab b) than the paper
    image, h, slot = _place_with_bars(scroll)
    got = read._presence(image, h, slot, np.ones(3, np.float32), "fill")
    assert got.value == "present"


def test_bars_as_light_and_as_yellow_as_the_paper_are_not() -> None:
    image, h, slot = _place_with_bars(PAPER)
    got = read._presence(image, h, slot, np.ones(3, np.float32), "fill")
    assert got.value != "present"


def _place(colour: tuple[int, int, int], bars: bool = True) -> tuple[np.ndarray, np.ndarray,
                                                                      Slot]:
    image, h, slot = _place_with_bars(colour)
    if not bars:
        src = build_duel_layout().slots_of("privilege", "privileges")[0]
        w, hh = src.size
        image[round((60 - hh / 2) * S):round((60 + hh / 2) * S),
              round((60 - w / 2) * S):round((60 + w / 2) * S)] = colour
    return image, h, slot


SCROLL = (150, 200, 214)  # cream, ~20 yellower (Lab b) than the paper
FILL = (150, 150, 150)  # the grey fill's print (vision.mats.TOKEN_SLOT_FILL)


def test_an_arm_over_two_sides_of_the_band_leaves_the_scroll_a_scroll() -> None:
    # a dim frame the markers' balance lifts a little past the paper, and a dark arm
    # over the band's right and bottom sides and a third of the place (less than the
    # quarter that hides it to a person), as on design frame wide hard 9306
    image, h, slot = _place(SCROLL)
    image = (image * 0.6).astype(np.uint8)
    w, hh = slot.size
    image[:, round((60 + w / 2 - 0.3 * w) * S):] = (70, 95, 120)
    image[round((60 + hh / 2 - 1) * S):, :] = (70, 95, 120)
    got = read._presence(image, h, slot, np.full(3, 1.1 / 0.6, np.float32), "fill")
    assert got.value == "present"


def test_the_band_s_lightest_sides_leave_out_one_under_an_arm() -> None:
    raw = np.full((40, 20, 3), 200, np.uint8)
    raw[:, -4:] = 90  # the right side under an arm
    assert len(read.paper_band(raw, 4)) == 2 * 4 * 20 + 2 * 4 * 40  # all four sides
    band = read.paper_band(raw, 4, read.BAND_SIDE_DARKER)
    assert len(band) == 2 * 4 * 20 + 4 * 40 and float(np.median(band)) == 200.0


def test_a_hand_s_edge_over_a_sleeve_is_no_scroll_on_a_second_look() -> None:
    # a pale sleeve over the place, as light as the paper and a little yellower, the
    # hand dark over three sides of the band and its edge a dark column down the place
    # (design frame standard hard 9610, privilege.2): bars, but no scroll's colour
    sleeve = (PAPER[0] - 4, PAPER[1], PAPER[2])
    image, h, slot = _place(sleeve, bars=False)
    image = (image * 0.6).astype(np.uint8)
    w, hh = slot.size
    dark = (40, 50, 60)
    image[:, round(60 * S) - 4:round(60 * S) + 4] = dark
    image[:, round((60 + w / 2 + 1) * S):] = dark
    image[:, :round((60 - w / 2 - 1) * S)] = dark
    image[round((60 + hh / 2 + 1) * S):, :] = dark
    got = read._presence(image, h, slot, np.full(3, 1.1 / 0.6, np.float32), "fill")
    assert got.value is None


def test_under_a_warm_lamp_the_grey_fill_stays_empty_and_a_scroll_present() -> None:
    # a strong warm cast on the paper and the place; the markers' balance a little
    # brighter and a little less warm-corrected than the band's, as on design frame
    # wide hard 9504 (the fill came out 10 yellower than the paper lifted to white)
    cast = np.array([0.45, 0.7, 0.85], np.float32)
    markers = (1.35 / cast * np.array([0.96, 1.03, 1.07])).astype(np.float32)
    for colour, want in ((FILL, ""), (SCROLL, "present")):
        image, h, slot = _place(colour, bars=colour == SCROLL)
        warm = np.clip(image.astype(np.float32) * cast, 0, 255).astype(np.uint8)
        got = read._presence(warm, h, slot, markers, "fill")
        assert got.value == want, (colour, got)


def test_the_band_s_own_balance_is_paper_s_when_grey_or_of_the_markers_cast() -> None:
    markers = np.array([2.7, 1.9, 1.6], np.float32)
    assert read.local_paper(np.array([1.0, 1.05, 0.95], np.float32), markers)
    assert read.local_paper(markers * 0.75, markers)
    assert not read.local_paper(np.array([0.6, 1.0, 1.9], np.float32), markers)


def _white_scroll(ends: tuple[int, int, int], which: tuple[bool, bool] = (True, True)
                  ) -> tuple[np.ndarray, np.ndarray, Slot]:
    """A scroll a cool lamp washes to the paper's own white, ``ends`` (BGR) over the
    first and last 4 mm of its length where ``which`` says, as on design frame
    standard hard 9103 (privilege.0-2: "0 below the paper, 0 yellower")."""
    image, h, slot = _place(PAPER, bars=False)
    w, hh = slot.size
    x0, x1 = round((60 - w / 2) * S), round((60 + w / 2) * S)
    y0, y1 = round((60 - hh / 2) * S), round((60 + hh / 2) * S)
    if which[0]:
        image[y0:y0 + round(4 * S), x0:x1] = ends
    if which[1]:
        image[y1 - round(4 * S):y1, x0:x1] = ends
    return image, h, slot


YELLOW_ENDS = (120, 200, 225)  # ~28 yellower (Lab b) than the paper, as measured


def test_a_scroll_washed_to_the_paper_s_white_is_known_by_its_rolled_ends() -> None:
    image, h, slot = _white_scroll(YELLOW_ENDS)
    got = read._presence(image, h, slot, np.ones(3, np.float32), "fill")
    assert got.value == "present" and got.confidence > 0.5


def test_one_yellow_end_or_a_yellow_place_is_not_a_scroll_s_ends() -> None:
    # a hand's edge over one end of a pale place, or skin over all of it
    one, h, slot = _white_scroll(YELLOW_ENDS, (True, False))
    assert read._presence(one, h, slot, np.ones(3, np.float32), "fill").value != "present"
    w, hh = slot.size
    skin = one.copy()
    skin[round((60 - hh / 2) * S):round((60 + hh / 2) * S),
         round((60 - w / 2) * S):round((60 + w / 2) * S)] = YELLOW_ENDS
    ends, lift = read.scroll_ends(
        skin[round((60 - hh / 2) * S):round((60 + hh / 2) * S),
             round((60 - w / 2) * S):round((60 + w / 2) * S)], np.ones(3, np.float32), 0.0)
    assert ends > read.SCROLL_ENDS_YELLOW and lift < read.SCROLL_ENDS_LIFT


def _printed_place(scroll: bool) -> tuple[np.ndarray, np.ndarray, Slot]:
    """A privilege place as the mat prints it (vision.duel.mats): paper, the slot's ink
    outline 1 mm wide inside its edge, the grey fill 1.2 mm in; a cream scroll (20 x 40
    mm, two bars along it) in it if ``scroll``."""
    src = build_duel_layout().slots_of("privilege", "privileges")[0]
    slot = Slot(src.id, src.kind, src.zone, src.mat, (60.0, 60.0), src.size, src.angle)
    image = np.zeros((round(120 * S), round(120 * S), 3), np.uint8)
    image[:] = PAPER
    w, hh = src.size

    def box(mw: float, mh: float, colour: tuple[int, int, int]) -> None:
        image[round((60 - mh / 2) * S):round((60 + mh / 2) * S),
              round((60 - mw / 2) * S):round((60 + mw / 2) * S)] = colour

    box(w, hh, INK)
    box(w - 2.4, hh - 2.4, FILL)
    if scroll:
        box(20.0, 40.0, SCROLL)
        for at in (-3.0, 3.0):
            image[round((60 - 20) * S):round((60 + 20) * S),
                  round((60 + at) * S) - 3:round((60 + at) * S) + 3] = (110, 150, 160)
    return image, np.diag([S, S, 1.0]), slot


INK = (110, 110, 110)  # the mats' line (vision.mats.INK)
SKIN = (120, 170, 215)  # a hand: as yellow as a scroll (Lab b), a little redder
ONE = np.ones(3, np.float32)


def _read(image: np.ndarray, h: np.ndarray, slot: Slot) -> read.PlaceReading:
    """As ``read_duel_places`` reads a privilege place: by its colour, then its outline."""
    return read._outline_seen(image, h, slot, read._presence(image, h, slot, ONE, "fill"))


def test_a_readable_scroll_and_an_empty_place_stay_sure_by_their_whole_outline() -> None:
    for scroll, want in ((True, "present"), (False, "")):
        image, h, slot = _printed_place(scroll)
        assert read.outline_hidden(image, h, slot) == (0, 18)
        got = _read(image, h, slot)
        assert got.value == want and got.sure, got


def _arm(image: np.ndarray, colour: tuple[int, int, int], x_mm: float) -> None:
    """An arm from the right over the place from ``x_mm`` on, as long as the place: over
    the band's right side, the paper above and below the place left bare."""
    image[round(38 * S):round(82 * S), round(x_mm * S):] = colour


def test_a_hand_over_an_empty_place_is_no_sure_scroll() -> None:
    # skin over two thirds of an empty place: its median is the skin's, as yellow as a
    # scroll's (design frame wide medium 9409, privilege.2)
    image, h, slot = _printed_place(False)
    _arm(image, SKIN, 54.0)
    before = read._presence(image, h, slot, ONE, "fill")
    assert before.value == "present" and before.sure  # by its colour alone
    assert read.outline_hidden(image, h, slot)[0] >= read.OUTLINE_HIDDEN
    assert not _read(image, h, slot).sure


def test_a_sleeve_over_a_scroll_is_no_sure_empty() -> None:
    # a dark sleeve over two thirds of a scroll: as dark as the grey fill, and no bars
    image, h, slot = _printed_place(True)
    _arm(image, (60, 60, 66), 54.0)
    before = read._presence(image, h, slot, ONE, "fill")
    assert before.value == "" and before.sure  # by its lightness alone
    assert not _read(image, h, slot).sure


def test_an_arm_beside_the_place_leaves_its_outline_whole() -> None:
    # an arm over the paper just outside the place's right side, not over its line
    image, h, slot = _printed_place(True)
    w, _ = slot.size
    image[:, round((60 + w / 2 + 0.6) * S):] = (60, 80, 110)
    assert read.outline_hidden(image, h, slot)[0] == 0
    assert _read(image, h, slot).sure


WASHED = np.array([1.75, 1.6, 1.45], np.float32)  # an overexposed frame, a little cool


def test_an_overexposed_empty_place_is_known_by_its_grey_fill_s_blue() -> None:
    # the paper clipped to white, the grey fill lifted to 16 below it and 9 bluer (b*),
    # as on design frame standard hard 11509 (privilege.0: "18 below the paper, -10
    # yellower", left unsure)
    image, h, slot = _printed_place(False)
    washed = np.clip(image.astype(np.float32) * WASHED, 0, 255).astype(np.uint8)
    got = _read(washed, h, slot)
    # named empty; whether that is sure is vision/sure.toml's (chosen on design frames)
    assert got.value == "" and got.confidence >= 0.5, got


def test_a_place_as_dark_but_no_bluer_than_the_paper_stays_unsure() -> None:
    # a hand's shadow over a place: darker than the paper round it, its colour the paper's
    image, h, slot = _printed_place(False)
    washed = np.clip(image.astype(np.float32) * WASHED, 0, 255).astype(np.uint8)
    w, hh = slot.size
    shade = (237, 237, 237)  # the clipped paper's white, 7 % darker
    washed[round((60 - hh / 2 + 1.2) * S):round((60 + hh / 2 - 1.2) * S),
           round((60 - w / 2 + 1.2) * S):round((60 + w / 2 - 1.2) * S)] = shade
    got = read._presence(washed, h, slot, ONE, "fill")
    assert got.value is None and got.why.startswith(("14 below", "15 below", "16 below",
                                                     "17 below", "18 below")), got
