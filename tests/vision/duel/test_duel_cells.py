"""The board cell's own marks of emptiness, on drawn cells: the printed arrow, the
border alike along each side, the plain centre; and the rules that use them."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.duel import chips as C
from vision.duel.chip_classes import CLASSES
from vision.duel.confidence import SURE
from vision.duel.layout import CELL_MM, DUEL_TOKEN_MM, build_duel_layout
from vision.layout import Slot
from vision.pixels import lab_image

S = C.CHIP_PX_PER_MM
N = round(C.PATCH_MM * S)
CREAM = (190, 222, 235)
WOOD = (60, 80, 120)


def _mm(v: float) -> int:
    return round((N - 1) / 2 + v * S)


def _cell_six() -> tuple[Slot, np.ndarray]:
    """The board's cell 6 and the homography that centres it in an N-square view at S
    px/mm (the views ``_cell`` draws)."""
    slot = build_duel_layout().slots_of("token", "board")[6]
    cx, cy = slot.center
    return slot, np.array([[S, 0, (N - 1) / 2 - S * cx], [0, S, (N - 1) / 2 - S * cy],
                           [0, 0, 1]])


def _cell(arrow: bool = True) -> np.ndarray:
    """An empty cell as the board prints it: cream square, dark outline, wood round it."""
    img = np.full((N, N, 3), WOOD, np.uint8)
    h = CELL_MM / 2
    cv2.rectangle(img, (_mm(-h), _mm(-h)), (_mm(h), _mm(h)), (70, 90, 110), -1)
    cv2.rectangle(img, (_mm(-h + 0.6), _mm(-h + 0.6)), (_mm(h - 0.6), _mm(h - 0.6)), CREAM, -1)
    if arrow:  # a line from the centre to the right side, as on the board
        cv2.line(img, (_mm(0), _mm(0)), (_mm(h - 1), _mm(0)), (70, 90, 110), 2)
    return img


def _chip(img: np.ndarray, rim: tuple[int, int, int], centre: tuple[int, int, int],
          off: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    out = img.copy()
    c = (_mm(off[0]), _mm(off[1]))
    cv2.circle(out, c, round(DUEL_TOKEN_MM / 2 * S), rim, -1)
    cv2.circle(out, c, round((DUEL_TOKEN_MM / 2 - 1.3) * S), CREAM, -1)
    cv2.circle(out, c, round(5 * S), centre, -1)
    return out


def _lab(img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(lab_image(img), (0, 0), 0.7)


def test_the_arrow_shows_on_an_empty_cell_and_not_under_a_chip() -> None:
    empty = C.arrow_line(_lab(_cell())[..., 0])
    bare = C.arrow_line(_lab(_cell(arrow=False))[..., 0])
    white = C.arrow_line(_lab(_chip(_cell(), (255, 255, 255), (235, 230, 225)))[..., 0])
    assert empty >= C.LINE_EMPTY
    assert bare < 5 and white < 5


def test_the_arrow_is_found_a_little_off_the_cells_centre() -> None:
    shifted = np.roll(_cell(), round(2 * S), axis=0)  # the board 2 mm off in its frame
    assert C.arrow_line(_lab(shifted)[..., 0]) >= C.LINE_EMPTY


def test_a_chip_changes_the_middle_of_the_border_and_not_its_ends() -> None:
    empty_border, empty_outline = C.border_change(_lab(_cell()))
    white = _chip(_cell(), (255, 255, 255), (235, 230, 225))
    chip_border, chip_outline = C.border_change(_lab(white))
    assert empty_border <= C.BORDER_EMPTY
    assert chip_border > C.BORDER_EMPTY
    # the ends of the sides are never under the cell's chip: both show the border
    assert min(empty_outline, chip_outline) >= C.OUTLINE_MIN


def test_a_hand_over_the_cell_hides_the_ends_of_its_border() -> None:
    hand = np.full((N, N, 3), (120, 150, 200), np.uint8)
    border, outline = C.border_change(_lab(hand))
    assert border <= C.BORDER_EMPTY and outline < C.OUTLINE_MIN


def test_the_centre_is_the_cells_cream_only_when_empty() -> None:
    gx, gy = C._grid(N, S)
    assert C.plain_centre(_lab(_cell(arrow=False)), gx, gy) <= C.PLAIN_EMPTY
    pearl = _chip(_cell(), (180, 150, 235), (200, 170, 200))
    assert C.plain_centre(_lab(pearl), gx, gy) > C.PLAIN_EMPTY


def _look(**kw: float) -> C.PlaceLook:
    """An empty cell's look by the drawn classes, the marks set as given."""
    mean = np.asarray(CLASSES["drawn"]["board"]["e"][0][0], np.float32)
    base = C.PlaceLook(mean, float(mean[-1]), (0.0, 0.0), 12.5, 0.0, 0.0, 100.0,
                       line=50.0, border=4.0, outline=100.0, plain=2.0)
    return replace(base, **kw)


def test_the_marks_decide_empty_or_a_chip_before_the_colours() -> None:
    classes = CLASSES["drawn"]["board"]
    assert C.judge_place(_look(), classes, "wugrkpye").value == ""
    # the same colours, but the border differs at the middles and the arrow is faint:
    # never "empty", and as the colours are an empty cell's, no chip either: unsure (a
    # hand's edge over the cell)
    edge = C.judge_place(_look(border=C.BORDER_CHIP + 1, line=C.LINE_EMPTY - 1), classes,
                         "wugrkpye")
    assert edge.value is None
    # no arrow and the border not alike: never "empty"; unsure as the colours say empty
    # (and the ends of the sides less plain than a chip's: a hand's edge)
    conflict = C.judge_place(_look(line=0.0, border=C.BORDER_EMPTY + 2,
                                   outline=C.PALE_OUTLINE_MIN - 10), classes, "wugrkpye")
    assert conflict.value is None and "e by the colours" in conflict.why
    # the border's ends hidden: unsure
    hidden = C.judge_place(_look(outline=C.OUTLINE_MIN - 1), classes, "wugrkpye")
    assert hidden.value is None and "hidden" in hidden.why


def test_a_cell_alike_all_round_that_is_no_cell_is_unsure() -> None:
    classes = CLASSES["drawn"]["board"]
    far = _look(outline=C.PLAIN_OUTLINE_MIN - 5)
    far = replace(far, features=far.features + 200.0)
    assert C.judge_place(far, classes, "wugrkpye").value is None


def test_a_plain_cell_with_its_border_showing_is_empty_whatever_its_colours() -> None:
    classes = CLASSES["drawn"]["board"]
    # colours far from every class (a sleeve's colour beside the cell) or a white
    # chip's, yet the border alike, its ends plain and the centre the cell's cream
    far = _look(outline=C.PLAIN_OUTLINE_MIN + 5, plain=C.PLAIN_EMPTY_CLEAR - 1, line=0.0)
    far = replace(far, features=far.features + 200.0)
    assert C.judge_place(far, classes, "wugrkpye", arrow=False).value == ""
    white = np.asarray(classes["w"][0][0], np.float32)
    pale = replace(far, features=white, edge=float(white[-1]))
    assert C.judge_place(pale, classes, "wugrkpye", arrow=False).value == ""
    # the centre not the cream, the ends of the border faint, or washed out: not so
    for kw in ({"plain": C.PLAIN_EMPTY_CLEAR + 5}, {"outline": C.PLAIN_OUTLINE_MIN - 5},
               {"washed": C.LIT_WASHED_MAX + 0.02}):
        got = C.judge_place(replace(pale, **kw), classes, "wugrkpye", arrow=False)
        assert got.value != "", kw


def test_a_chip_ruled_in_by_the_border_is_read_by_its_colours() -> None:
    classes = CLASSES["drawn"]["board"]
    mean = np.asarray(classes["k"][0][0], np.float32)
    black = replace(_look(), features=mean, edge=float(mean[-1]), line=0.0,
                    border=C.BORDER_CHIP + 5, plain=60.0)
    assert C.judge_place(black, classes, "wugrkpye").value == "k"


def test_a_washed_out_cell_is_read_only_by_its_arrow_or_its_border() -> None:
    classes = CLASSES["drawn"]["board"]
    washed = C.WASHED_MAX + 0.2
    # the arrow's dark line shows through: empty
    assert C.judge_place(_look(washed=washed), classes, "wugrkpye").value == ""
    # alike all round and no arrow: a pale chip washed to the cream, or nothing: unsure
    pale = C.judge_place(_look(washed=washed, line=0.0), classes, "wugrkpye")
    assert pale.value is None and pale.why == "glare"
    # a player's place has neither: washed out, unsure
    mean = np.asarray(CLASSES["drawn"]["player"]["E"][0][0], np.float32)
    place = replace(_look(), features=mean, edge=float(mean[-1]), washed=washed, fill=1.0)
    assert C.judge_place(place, CLASSES["drawn"]["player"], "wugrkpyE").value is None


def test_a_plain_cell_is_never_read_as_a_chip() -> None:
    classes = CLASSES["drawn"]["board"]
    mean = np.asarray(classes["w"][0][0], np.float32)
    # a white chip's colours, but the border alike all round and the centre the cream,
    # with no arrow to tell (the last cell): unsure, not "w"
    white = replace(_look(), features=mean, edge=float(mean[-1]), line=0.0,
                    border=C.BORDER_EMPTY - 2, plain=C.PLAIN_EMPTY - 2,
                    outline=C.PLAIN_OUTLINE_MIN - 5)
    got = C.judge_place(white, classes, "wugrkpye", C.LAST_CELL_MIN_RATIO, arrow=False)
    assert got.value is None and "plain cell" in got.why


def _between(first: str, second: str, *, a: float, b: float, bg: float = 0.0,
             washed: float = 0.0, edge: float | None = None) -> C.PlaceLook:
    """A chip's look exactly halfway between two sprite classes (a tie), its gem and
    rim coloured ``a``, ``b`` (Lab less 128) and blue less green ``bg``."""
    board = CLASSES["sprites"]["board"]
    mean = (np.asarray(board[first][0][0], np.float32)
            + np.asarray(board[second][0][0], np.float32)) / 2
    for i in C.CHROMA_RINGS:
        mean[4 * i + 1], mean[4 * i + 2] = 128 + a, 128 + b
    veil = np.tile(np.asarray([0.0, bg, 0.0], np.float32), len(C.VEIL_RINGS_MM) - 1)
    return C.PlaceLook(mean, float(mean[-1]) if edge is None else edge, (0.0, 0.0), 12.5,
                       washed, 0.0, 100.0, line=0.0, border=C.BORDER_CHIP + 5, outline=80.0,
                       plain=40.0, veil=veil)


def test_a_tie_goes_to_the_kind_whose_colour_no_other_reaches() -> None:
    assert C.tie_break(_between("k", "u", a=0.0, b=-15.0), "k", "u") == "u"
    assert C.tie_break(_between("k", "r", a=20.0, b=10.0), "r", "k") == "r"
    assert C.tie_break(_between("g", "k", a=-14.0, b=10.0), "k", "g") == "g"
    assert C.tie_break(_between("g", "k", a=5.0, b=3.0), "g", "k") == "k"
    assert C.tie_break(_between("w", "y", a=8.0, b=28.0, bg=-45.0), "w", "y") == "y"


def test_a_tie_stays_unsure_when_the_colour_is_a_black_or_white_chips() -> None:
    # within what black and white chips reach: no answer (and the chip's edge too faint
    # for the cream to settle it)
    faint = C.CREAM_EDGE_MIN - 1
    assert C.tie_break(_between("k", "u", a=0.0, b=-5.0), "k", "u") is None
    assert C.tie_break(_between("k", "r", a=8.0, b=5.0), "k", "r") is None
    assert C.tie_break(_between("w", "y", a=13.7, b=23.7, bg=-30.7, edge=faint),
                       "w", "y") is None
    # glare tints the colour: a washed cell is never settled so
    assert C.tie_break(_between("k", "r", a=20.0, b=10.0, washed=0.3), "k", "r") is None
    # a pearl and a white chip under a hand's edge: no number settles them
    assert C.tie_break(_between("p", "w", a=10.0, b=0.0, edge=faint), "p", "w") is None


def _against_cream(look: C.PlaceLook, gem_ab: float, ring4_l: float, inner: float,
                   mid: float) -> C.PlaceLook:
    """``look`` with its colours set so :func:`against_cream` gives these numbers."""
    f = look.features.copy()
    cream = 4 * (len(C.RINGS_MM) - 2)
    f[cream + 1], f[cream + 2] = 128.0, 128.0
    f[1], f[2] = 128.0 + gem_ab / 2, 128.0 - gem_ab / 2
    f[16] = ring4_l
    f[5], f[6] = 128.0 + inner / 2, 128.0 + inner / 2
    f[9], f[10] = 128.0 + mid / 2, 128.0 + mid / 2
    out = replace(look, features=f)
    got = C.against_cream(out)
    assert got == pytest.approx({"gem a-b": gem_ab, "ring4 L": ring4_l, "inner a+b": inner,
                                 "mid a+b": mid})
    return out


def test_a_pale_tie_goes_by_the_colours_against_the_cells_cream() -> None:
    tie = _between("p", "w", a=5.0, b=5.0, edge=C.CREAM_EDGE_MIN + 2)
    pearl = _against_cream(tie, gem_ab=15.0, ring4_l=20.0, inner=-5.0, mid=-3.0)
    white = _against_cream(tie, gem_ab=1.0, ring4_l=2.0, inner=-1.0, mid=-3.0)
    assert C.tie_break(pearl, "p", "w") == "p"
    assert C.tie_break(white, "w", "p") == "w"
    # a dim blue chip's numbers but its sticker's blue middle ring: never a pearl
    blue = _against_cream(tie, gem_ab=7.0, ring4_l=20.0, inner=-19.0,
                          mid=C.PEARL_MID_MIN - 5)
    assert C.tie_break(blue, "p", "w") is None
    assert C.tie_break(replace(blue, pink=C.PEARL_PINK_MIN + 2), "p", "w") is None
    # the two numbers disagree: unsure
    mixed = _against_cream(tie, gem_ab=15.0, ring4_l=2.0, inner=-1.0, mid=-3.0)
    assert C.tie_break(mixed, "p", "w") is None
    # the same look with a hand's faint edge: unsure
    assert C.tie_break(replace(pearl, edge=C.CREAM_EDGE_MIN - 0.5), "p", "w") is None
    red = _against_cream(tie, gem_ab=25.0, ring4_l=35.0, inner=30.0, mid=25.0)
    assert C.tie_break(red, "p", "r") == "r"
    # a dim red chip tied between a pearl and a white chip: neither
    assert C.tie_break(red, "p", "w") is None
    assert C.tie_break(pearl, "r", "p") == "p"
    gold = _against_cream(tie, gem_ab=-20.0, ring4_l=-10.0, inner=20.0, mid=22.0)
    assert C.tie_break(replace(gold, veil=np.zeros(0, np.float32)), "w", "y") == "y"
    assert C.tie_break(replace(white, veil=np.zeros(0, np.float32)), "y", "w") == "w"


def test_a_coloured_chip_reads_where_glare_lights_the_board_round_it() -> None:
    board = CLASSES["sprites"]["board"]
    mean = np.asarray(board["r"][0][0], np.float32)
    lit = C.PlaceLook(mean, 12.0, (0.0, 0.0), 12.5, 0.05, 0.0, C.SURROUND_MAX + 10,
                      line=0.0, border=C.BORDER_CHIP + 5, outline=80.0, plain=60.0)
    assert C.judge_place(lit, board, "wugrkpye").value == "r"
    # its edge faint: only its colours against the cell's cream tell (a red chip's do)
    faint = C.judge_place(replace(lit, edge=C.LIT_EDGE_MIN - 1), board, "wugrkpye")
    assert faint.value == "r" and "by the cream" in faint.why
    # its edge washed out, or the glare over it: unsure
    assert C.judge_place(replace(lit, edge=C.CREAM_KIND_EDGE_MIN - 1), board,
                         "wugrkpye").value is None
    assert C.judge_place(replace(lit, washed=C.LIT_WASHED_MAX + 0.05), board,
                         "wugrkpye").value is None
    # a white chip there: never read
    white = replace(lit, features=np.asarray(board["w"][0][0], np.float32))
    assert C.judge_place(white, board, "wugrkpye").value is None


def test_a_dim_white_chip_tied_with_a_pearl_goes_to_white_by_its_grey_rim() -> None:
    # its outline faint, too faint for the cream's ties, yet a chip's (not a hand's)
    tie = _between("p", "w", a=5.0, b=5.0, edge=(C.WHITE_EDGE_MIN + C.CREAM_EDGE_MIN) / 2)
    white = replace(_against_cream(tie, gem_ab=6.5, ring4_l=-4.0, inner=-1.5, mid=-3.0),
                    pink=C.WHITE_PINK_MAX - 1.5)
    assert C.tie_break(white, "w", "p") == "w"
    # a pearl's pink rim, a hand's outline, or a green or blue chip's gem: not so
    assert C.tie_break(replace(white, pink=C.PEARL_PINK_MIN - 2), "w", "p") is None
    assert C.tie_break(replace(white, edge=C.WHITE_EDGE_MIN - 1), "w", "p") is None
    blue = _against_cream(white, gem_ab=6.5, ring4_l=-4.0, inner=-17.0, mid=-3.0)
    assert C.tie_break(blue, "w", "p") is None
    # black and white tied under a veil: a black chip's dark rim against the cream
    dark = _between("k", "w", a=4.0, b=0.0, edge=C.CREAM_EDGE_MIN + 1)
    black = _against_cream(dark, gem_ab=2.0, ring4_l=25.0, inner=-3.0, mid=-5.0)
    assert C.tie_break(black, "k", "w") == "k"
    assert C.tie_break(_against_cream(dark, gem_ab=2.0, ring4_l=10.0, inner=-3.0, mid=-5.0),
                       "k", "w") is None
    # a green chip's gem, or a pearl's, with the same rim: neither
    for gem in (-9.0, 7.0):
        assert C.tie_break(_against_cream(dark, gem_ab=gem, ring4_l=25.0, inner=-3.0,
                                          mid=-5.0), "k", "w") is None, gem


def test_the_board_reader_settles_a_dim_blue_chips_tie_by_its_colour() -> None:
    board = CLASSES["sprites"]["board"]
    # its colours against the cream in no kind's box (else that settles it too)
    tie = _against_cream(_between("k", "u", a=0.0, b=-15.0), gem_ab=17.8, ring4_l=78.8,
                         inner=-18.0, mid=-30.0)
    assert C.cream_kind(tie) is None
    got = C.judge_place(tie, board, "wugrkpye")
    assert got.value == "u" and "by its colour" in got.why
    black = _between("k", "u", a=0.0, b=-5.0)  # a black chip's colour: never blue
    assert C.judge_place(black, board, "wugrkpye").value in (None, "k")
    # a player's place (no printed cell to vouch it is a chip) keeps the tie unsure
    player = CLASSES["sprites"]["player"]
    assert C.judge_place(replace(tie, fill=0.0), player, "wugrkpyE").value is None


def test_a_tie_settled_as_the_cream_round_the_chip_names_it_is_as_sure_as_that() -> None:
    board = CLASSES["sprites"]["board"]
    chip, _ = SURE["board cells"]
    tie = replace(_between("k", "u", a=0.0, b=-15.0), edge=3 * C.CREAM_HAND_EDGE)
    # its colour says blue, its colours against the cream are blue's and no other's:
    # two readings agree, and the cream's (the chip's outline plain) is sure
    blue = _against_cream(tie, gem_ab=12.0, ring4_l=28.0, inner=-45.0, mid=-45.0)
    assert C.cream_kind(blue) == "u"
    got = C.judge_place(blue, board, "wugrkpye")
    assert got.value == "u" and got.confidence >= chip
    assert got.confidence == pytest.approx(C.cream_confidence(blue))
    # the cream naming no kind: the tie's answer stands, not sure
    alone = _against_cream(tie, gem_ab=17.8, ring4_l=78.8, inner=-18.0, mid=-30.0)
    assert C.cream_kind(alone) is None
    got = C.judge_place(alone, board, "wugrkpye")
    assert got.value == "u" and "by its colour" in got.why and got.confidence < chip


def test_a_plain_cell_tied_with_white_is_empty_only_with_its_border_ends_showing() -> None:
    board = CLASSES["sprites"]["board"]
    e, w = (np.asarray(board[k][0][0], np.float32) for k in ("e", "w"))
    tie = C.PlaceLook((e + w) / 2, float(e[-1]), (0.0, 0.0), 12.5, 0.0, 0.0, 100.0,
                      line=0.0, border=4.0, outline=80.0, plain=13.0)
    assert C.PLAIN_EMPTY < tie.plain <= C.PLAIN_EMPTY_CLEAR
    assert C.judge_place(tie, board, "wugrkpye", arrow=False).value == ""
    # a hand over a chip leaves the border alike and the centre plain, but hides the
    # ends of the cell's sides: unsure
    hand = replace(tie, outline=C.PLAIN_OUTLINE_MIN - 15)
    assert C.judge_place(hand, board, "wugrkpye", arrow=False).value is None


def _veiled(first: str, second: str, **cream: float) -> C.PlaceLook:
    """A chip the nine rings' colours cannot place (halfway between two pale kinds, its
    outline's strength as no class's) whose colours against the cream are ``cream``."""
    tie = _between(first, second, a=3.0, b=3.0, edge=C.CREAM_KIND_EDGE_MIN + 2)
    f = tie.features.copy()
    f[-1] = 300.0
    tie = replace(tie, features=f, border=C.BORDER_CHIP - 5)
    return _against_cream(tie, cream["gem_ab"], cream["ring4_l"], cream["inner"],
                          cream["mid"])


def test_a_veiled_chip_goes_to_the_one_kind_its_colours_against_the_cream_fit() -> None:
    board = CLASSES["sprites"]["board"]
    green = _veiled("w", "p", gem_ab=-27.0, ring4_l=22.0, inner=-22.0, mid=-21.0)
    assert C.cream_kind(green) == "g"
    got = C.judge_place(green, board, "wugrkpye")
    assert got.value == "g" and "by the cream" in got.why
    red = _veiled("w", "p", gem_ab=16.0, ring4_l=16.0, inner=19.0, mid=16.0)
    assert C.judge_place(red, board, "wugrkpye").value == "r"
    # its outline faint (a hand's edge) or washed out: unsure
    assert C.judge_place(replace(green, edge=C.CREAM_KIND_EDGE_MIN - 1), board,
                         "wugrkpye").value is None
    assert C.judge_place(replace(green, washed=C.LIT_WASHED_MAX + 0.02), board,
                         "wugrkpye").value is None
    # a player's place (no cell's cream round it) keeps the tie unsure
    player = CLASSES["sprites"]["player"]
    assert C.judge_place(replace(green, fill=0.0), player, "wugrkpyE").value is None
    # between two boxes' kinds, or in none: no kind
    assert C.cream_kind(_veiled("w", "p", gem_ab=0.0, ring4_l=30.0, inner=-1.0,
                                mid=-1.0)) is None


def test_a_kind_told_by_the_cream_alone_is_sure_only_with_the_chips_outline_plain() -> None:
    board = CLASSES["sprites"]["board"]
    chip, _ = SURE["board cells"]
    green = _veiled("w", "p", gem_ab=-27.0, ring4_l=22.0, inner=-22.0, mid=-21.0)
    # the chip's outline plain, well past what a hand over a chip leaves: sure, but
    # never more than the box alone may say
    plain = C.judge_place(replace(green, edge=3 * C.CREAM_HAND_EDGE), board, "wugrkpye")
    assert plain.value == "g" and "by the cream" in plain.why
    assert chip <= plain.confidence <= C.CREAM_KIND_CONFIDENCE
    # the outline faint as a hand over part of the chip leaves it (the box then names
    # its skin's colour or the rim it shows): still answered, but not sure
    for edge in (C.CREAM_KIND_EDGE_MIN + 0.5, C.CREAM_HAND_EDGE + 1.0):
        hand = C.judge_place(replace(green, edge=edge), board, "wugrkpye")
        assert hand.value == "g" and hand.confidence < chip, edge
    # the same for a kind the cream names over the colours' answer (a veiled blue chip
    # nearest "k" by its rings)
    blue = _against_cream(_clear_chip("k", plain=60.0), gem_ab=12.0, ring4_l=28.0,
                          inner=-45.0, mid=-45.0)
    over = C.judge_place(replace(blue, edge=C.CREAM_HAND_EDGE + 1.0), board, "wugrkpye")
    assert over.value == "u" and over.confidence < chip
    assert C.judge_place(replace(blue, edge=3 * C.CREAM_HAND_EDGE), board,
                         "wugrkpye").confidence >= chip


def test_a_white_box_reads_only_where_the_border_rules_empty_out() -> None:
    board = CLASSES["sprites"]["board"]
    white = _veiled("w", "p", gem_ab=0.0, ring4_l=-5.0, inner=-2.0, mid=-4.0)
    assert C.cream_kind(white) == "w"
    # the border alike all round, so "empty" still allowed (an empty cell's colours are
    # the cream's): unsure
    alike = replace(white, border=C.BORDER_EMPTY - 2, plain=C.PLAIN_EMPTY_CLEAR + 20)
    assert C.judge_place(alike, board, "wugrkpye").value is None
    # the border changed at the middles of the sides as only a chip changes it: white
    assert C.judge_place(replace(white, border=C.BORDER_CHIP + 5), board,
                         "wugrkpye").value == "w"


def _clear_chip(kind: str, plain: float) -> C.PlaceLook:
    """A chip of ``kind`` seen clearly: the class's own colours, its edge, the border
    changed as only a chip changes it, no arrow's line."""
    c = np.asarray(CLASSES["sprites"]["board"][kind][0][0], np.float32)
    return C.PlaceLook(c, float(c[-1]), (0.0, 0.0), 12.5, 0.0, 0.0, 120.0, line=0.0,
                       border=C.BORDER_CHIP + 10, outline=80.0, plain=plain)


def test_gold_and_white_answers_must_agree_with_the_cream_round_the_chip() -> None:
    board = CLASSES["sprites"]["board"]
    gold = _clear_chip("y", plain=40.0)
    assert C.judge_place(gold, board, "wugrkpye").value == "y"
    # the same colours, but the cream round it as yellow (a warm cast on a white chip)
    warm = _against_cream(gold, gem_ab=-1.0, ring4_l=-5.0, inner=1.0, mid=-2.0)
    assert C.contradicted(warm, "y") and not C.contradicted(warm, "w")
    assert C.judge_place(warm, board, "wugrkpye").value != "y"
    # a pearl's pink gem and light sticker: never "w"
    pearl = _against_cream(gold, gem_ab=6.5, ring4_l=10.5, inner=-8.0, mid=-4.0)
    assert C.contradicted(pearl, "w")


@pytest.mark.parametrize(("rim", "centre", "kind"), [
    ((50, 150, 30), (40, 130, 20), "g"), ((180, 90, 20), (170, 80, 10), "u")])
def test_a_drawn_chip_keeps_its_kind_against_the_cream_under_a_veil(
        rim: tuple[int, int, int], centre: tuple[int, int, int], kind: str) -> None:
    slot, h = _cell_six()
    img = _chip(_cell(), rim, centre)
    for veil in (0, 15):  # a lamp's glare adds the same light to every channel
        lit = np.clip(img.astype(np.int32) + veil, 0, 255).astype(np.uint8)
        look = C.look_at_place(lit, h, slot, np.ones(3, np.float32))
        assert C.cream_kind(look) == kind, veil


def test_an_arrowed_plain_cell_is_empty_though_a_shadows_edge_lifts_its_border() -> None:
    classes = CLASSES["drawn"]["board"]
    white = np.asarray(classes["w"][0][0], np.float32)
    # the arrow shows, the centre is the cream, the border's ends plain, but its
    # middles differ a little from its ends (a shadow's edge across the cell)
    cell = replace(_look(line=C.LINE_EMPTY + 20, border=C.BORDER_EMPTY + 2, plain=4.0,
                         outline=C.PLAIN_OUTLINE_MIN + 20), features=white,
                   edge=float(white[-1]))
    assert C.BORDER_EMPTY < cell.border <= C.LINED_BORDER_MAX
    assert C.judge_place(cell, classes, "wugrkpye").value == ""
    # no arrow (the spiral's last cell): not so
    assert C.judge_place(cell, classes, "wugrkpye", arrow=False).value != ""
    # the border changed more, or the wood round it lit up: still empty by the arrow
    for kw in ({"border": C.LINED_BORDER_MAX + 20}, {"surround": C.SURROUND_MAX + 10}):
        assert C.judge_place(replace(cell, **kw), classes, "wugrkpye").value == "", kw
    # ... but not with the centre off the cream, the ends faint, a chip's outline or
    # the cell washed out
    for kw in ({"plain": C.PLAIN_EMPTY_CLEAR + 5}, {"outline": C.PLAIN_OUTLINE_MIN - 5},
               {"edge": C.LINED_EDGE_MAX + 1}, {"washed": C.LIT_WASHED_MAX + 0.02}):
        got = C.judge_place(replace(cell, border=C.LINED_BORDER_MAX + 20, **kw), classes,
                            "wugrkpye")
        assert got.value != "", kw


def _glare_discs(img: np.ndarray) -> np.ndarray:
    """A lamp's veil on the chips of three neighbouring cells, spread over this cell's
    sides as the world renders it (design frame standard medium 9507, board.16)."""
    out = img.copy()
    for x, y in ((-28.8, 0.0), (28.8, 0.0), (0.0, 28.8)):
        cv2.circle(out, (_mm(x), _mm(y)), round(17.5 * S), (250, 250, 250), -1)
    return out


def test_an_empty_cell_under_its_neighbours_glare_is_read_by_its_arrow() -> None:
    slot, h = _cell_six()
    board = CLASSES["sprites"]["board"]
    gain = np.ones(3, np.float32)
    empty = C.look_at_place(_glare_discs(_cell()), h, slot, gain)
    assert empty.border > C.BORDER_CHIP  # the veil over the sides' middles
    assert C.judge_place(empty, board, "wugrkpye").value == ""
    # a white chip under the same veil hides the arrow: never empty
    white = _chip(_cell(), (200, 200, 200), (235, 230, 225))
    chip = C.look_at_place(_glare_discs(white), h, slot, gain)
    assert C.judge_place(chip, board, "wugrkpye").value != ""


def test_a_chip_answer_the_cream_round_it_names_otherwise_goes_to_the_creams_kind() -> None:
    board = CLASSES["sprites"]["board"]
    black = _clear_chip("k", plain=60.0)
    assert C.judge_place(black, board, "wugrkpye").value == "k"
    # a veiled blue chip: its rings nearest "k" with a clear lead, its colours against
    # the cream blue's and no other kind's (design frame standard medium 9105, board.22)
    blue = _against_cream(black, gem_ab=12.0, ring4_l=28.0, inner=-45.0, mid=-45.0)
    assert min("wugrkpye", key=lambda c: C._distance(blue, board[c])) == "k"
    got = C.judge_place(blue, board, "wugrkpye")
    assert got.value == "u" and got.confidence == C.CREAM_KIND_CONFIDENCE
    # its outline faint or washed out: the colours' answer stands
    for kw in ({"edge": C.CREAM_KIND_EDGE_MIN - 1}, {"washed": C.LIT_WASHED_MAX + 0.02}):
        assert C.judge_place(replace(blue, **kw), board, "wugrkpye").value != "u", kw
    # a player's place (no cell's cream round it): never so
    player = CLASSES["sprites"]["player"]
    assert C.judge_place(replace(blue, fill=0.0), player, "wugrkpyE").value != "u"


def test_a_pearls_rim_is_pink_against_the_cream_and_a_white_chips_is_not() -> None:
    gx, gy = C._grid(N, S)
    pearl = _chip(_cell(), (190, 150, 235), (225, 215, 240), off=(1.5, -1.0))
    white = _chip(_cell(), (200, 200, 200), (235, 230, 225), off=(1.5, -1.0))
    assert C.rim_pink(_lab(pearl), gx, gy) >= C.PEARL_PINK_MIN + 5
    assert C.rim_pink(_lab(white), gx, gy) < C.PEARL_PINK_MIN - 5
    assert C.rim_pink(_lab(_cell()), gx, gy) < C.PEARL_PINK_MIN


def test_a_pale_tie_with_a_pink_rim_and_gem_goes_to_the_pearl_whatever_its_edge() -> None:
    faint = C.CREAM_EDGE_MIN - 2
    tie = _between("p", "w", a=5.0, b=5.0, edge=faint)
    pearl = replace(_against_cream(tie, gem_ab=10.0, ring4_l=9.0, inner=-6.0, mid=-3.0),
                    pink=C.PEARL_PINK_MIN + 2)
    assert C.tie_break(pearl, "w", "p") == "p"
    # the rim grey, or the gem grey (a hand's skin over a chip): unsure
    assert C.tie_break(replace(pearl, pink=C.PEARL_PINK_MIN - 2), "w", "p") is None
    grey = replace(_against_cream(tie, gem_ab=-1.0, ring4_l=9.0, inner=-6.0, mid=-3.0),
                   pink=C.PEARL_PINK_MIN + 2)
    assert C.tie_break(grey, "w", "p") is None
    # the colours against the cream another kind's (a hand over a red chip): not so
    red = replace(_against_cream(tie, gem_ab=10.0, ring4_l=16.0, inner=19.0, mid=16.0),
                  pink=C.PEARL_PINK_MIN + 2)
    assert C.cream_kind(red) == "r" and C.tie_break(red, "w", "p") != "p"
    # a dim red chip (a pink rim, its gem red against the cream, in no box): not so
    dim = replace(_against_cream(tie, gem_ab=8.0, ring4_l=7.0, inner=C.PEARL_INNER_MAX + 4,
                                 mid=13.0), pink=C.PEARL_PINK_MIN + 10)
    assert C.cream_kind(dim) is None and C.tie_break(dim, "w", "p") != "p"


def test_a_white_chip_washed_to_the_cream_reads_white_by_its_plain_sides() -> None:
    board = CLASSES["sprites"]["board"]
    e = np.asarray(board["e"][0][0], np.float32)
    # the colours an empty cell's, the arrow gone, the border changed at its middles
    # and the ends of the sides plain: a white chip a lamp washed to the cream
    washed = C.PlaceLook(e, float(e[-1]), (0.0, 0.0), 12.5, 0.1, 0.0, 140.0, line=1.0,
                         border=C.BORDER_EMPTY + 10, outline=C.PALE_OUTLINE_MIN + 20,
                         plain=12.0)
    got = C.judge_place(washed, board, "wugrkpye")
    assert got.value == "w"
    # the ends less plain (a hand's edge over an empty cell), the arrow showing, the
    # border alike, or the spiral's last cell (no arrow to miss): not white
    for kw in ({"outline": C.PALE_OUTLINE_MIN - 15}, {"line": C.PALE_LINE_MAX + 4},
               {"line": C.LINE_EMPTY + 1},
               {"border": C.BORDER_EMPTY - 1}):
        assert C.judge_place(replace(washed, **kw), board, "wugrkpye").value != "w", kw
    assert C.judge_place(washed, board, "wugrkpye", arrow=False).value is None


def _washed_cell(line_grey: int | None) -> np.ndarray:
    """A cell whose cream a lamp clips to white, its arrow a faint grey line (None: none,
    as under a chip washed as flat)."""
    img = np.full((N, N, 3), WOOD, np.uint8)
    h = CELL_MM / 2
    cv2.rectangle(img, (_mm(-h), _mm(-h)), (_mm(h), _mm(h)), (70, 90, 110), -1)
    cv2.rectangle(img, (_mm(-h + 0.6), _mm(-h + 0.6)), (_mm(h - 0.6), _mm(h - 0.6)),
                  (255, 255, 255), -1)
    if line_grey is not None:
        cv2.line(img, (_mm(0), _mm(0)), (_mm(h - 1), _mm(0)), (line_grey,) * 3, 1)
    return img


def test_a_washed_cell_is_empty_by_a_faint_arrow_and_unsure_without_one() -> None:
    slot, h = _cell_six()
    board = CLASSES["sprites"]["board"]
    gain = np.ones(3, np.float32)
    faint = C.look_at_place(_washed_cell(225), h, slot, gain)
    assert faint.washed > C.WASHED_MAX and C.WASHED_LINE_MIN <= faint.line < C.LINE_EMPTY
    assert C.judge_place(faint, board, "wugrkpye").value == ""
    # no arrow (a pale chip washed as flat, or the spiral's last cell): glare, unsure
    flat = C.look_at_place(_washed_cell(None), h, slot, gain)
    assert C.judge_place(flat, board, "wugrkpye").value is None
    assert C.judge_place(faint, board, "wugrkpye", arrow=False).value is None
    # the centre not the cream: unsure
    off = replace(faint, plain=C.WASHED_PLAIN_MAX + 5)
    assert C.judge_place(off, board, "wugrkpye").value is None


def test_a_cell_alike_all_round_with_a_faint_arrow_is_empty_whatever_its_colours() -> None:
    board = CLASSES["sprites"]["board"]
    w = np.asarray(board["w"][0][0], np.float32)
    # a white chip's colours and a centre off the cream (a dim cell), yet the border
    # alike, its ends plain and a faint arrow's line: empty
    dim = C.PlaceLook(w, 3.0, (0.0, 0.0), 12.5, 0.0, 0.0, 120.0,
                      line=C.ALIKE_LINE_MIN + 2, border=C.BORDER_EMPTY - 3,
                      outline=C.PLAIN_OUTLINE_MIN + 10, plain=C.PLAIN_EMPTY_CLEAR + 10)
    assert C.judge_place(dim, board, "wugrkpye").value == ""
    far = replace(dim, features=dim.features + 200.0)  # a sleeve's colour: still empty
    assert C.judge_place(far, board, "wugrkpye").value == ""
    # ... and where a lamp lights the wood round the cell
    lit = replace(dim, surround=C.SURROUND_MAX + 10)
    assert C.judge_place(lit, board, "wugrkpye").value == ""
    # no line (a white chip hides the arrow), the ends hidden (a hand), a chip's outline,
    # or the spiral's last cell: not so
    for kw in ({"line": C.ALIKE_LINE_MIN - 8}, {"outline": C.PLAIN_OUTLINE_MIN - 10},
               {"edge": C.LINED_EDGE_MAX + 1}):
        assert C.judge_place(replace(dim, **kw), board, "wugrkpye").value != "", kw
    assert C.judge_place(dim, board, "wugrkpye", arrow=False).value != ""


def test_a_gold_chip_where_glare_lights_the_board_reads_by_the_cream_past_its_border() -> None:
    board = CLASSES["sprites"]["board"]
    w = np.asarray(board["w"][0][0], np.float32)
    # the wood round the cell lit up, the chip's edge faint, its colours against the
    # cream gold's (standard medium 9504 board.1), its border changed, no arrow
    lit = C.PlaceLook(w, C.LIT_EDGE_MIN - 1, (0.0, 0.0), 12.5, 0.02, 0.0,
                      C.SURROUND_MAX + 15, line=0.0, border=C.BORDER_EMPTY + 7,
                      outline=40.0, plain=17.0)
    gold = _against_cream(lit, gem_ab=-16.0, ring4_l=-1.0, inner=9.0, mid=9.0)
    assert C.cream_kind(gold) == "y"
    got = C.judge_place(gold, board, "wugrkpye")
    assert got.value == "y" and "by the cream" in got.why
    # its border alike (empty still possible) or an arrow showing: unsure
    for kw in ({"border": C.BORDER_EMPTY - 1}, {"line": C.LINE_EMPTY + 1}):
        assert C.judge_place(replace(gold, **kw), board, "wugrkpye").value is None, kw


def test_a_white_answer_with_an_arrows_line_needs_a_chips_outline() -> None:
    board = CLASSES["sprites"]["board"]
    w = np.asarray(board["w"][0][0], np.float32)
    white = C.PlaceLook(w, float(w[-1]), (0.0, 0.0), 12.5, 0.0, 0.0, 150.0, line=2.0,
                        border=C.BORDER_EMPTY + 7, outline=45.0, plain=25.0)
    assert C.judge_place(white, board, "wugrkpye").value == "w"
    # an arrow's line nearly whole and a faint outline: an empty cell a lamp paled
    # (standard hard 9105 board.17), never white, nor white by the cream
    lined = replace(white, line=C.ALIKE_LINE_MIN + 5, edge=C.WHITE_LINED_EDGE_MIN - 2)
    assert C.contradicted(lined, "w")
    assert C.judge_place(lined, board, "wugrkpye").value != "w"
    # a plain chip's outline across a shadow's edge: white still
    shadowed = replace(lined, edge=C.WHITE_LINED_EDGE_MIN + 4)
    assert not C.contradicted(shadowed, "w")


def test_a_white_chip_across_a_shadows_edge_keeps_its_kind_by_its_border_and_outline(
        ) -> None:
    board = CLASSES["sprites"]["board"]
    w = np.asarray(board["w"][0][0], np.float32)
    # a shadow's edge across the chip draws a line like the arrow's; the border and a
    # plain outline say a chip (standard hard 9001 board.5)
    shadowed = C.PlaceLook(w, C.WHITE_LINED_EDGE_MIN + 2, (0.0, 0.0), 12.5, 0.0, 0.0,
                           150.0, line=C.LINE_EMPTY + 1, border=C.BORDER_CHIP + 10,
                           outline=100.0, plain=33.0)
    assert C.judge_place(shadowed, board, "wugrkpye").value == "w"
    # the outline faint, or the border not a chip's for certain: never pale
    for kw in ({"edge": C.WHITE_LINED_EDGE_MIN - 2}, {"border": C.BORDER_CHIP - 10}):
        assert C.judge_place(replace(shadowed, **kw), board, "wugrkpye").value != "w", kw


def test_a_veiled_green_chip_tied_with_white_goes_to_green() -> None:
    # a warm lamp's veil over a green chip: the rings' colours tie it with white, its
    # gem and inner ring against the cream stay green (design frame standard hard
    # 9100, board.21: gem a-b -20.5, inner a+b -10.8)
    tie = _between("g", "w", a=-5.0, b=8.0, edge=C.CREAM_EDGE_MIN + 1)
    green = _against_cream(tie, gem_ab=-20.5, ring4_l=8.8, inner=-10.8, mid=-10.4)
    assert C.tie_break(green, "w", "g") == "g"
    # a white chip's gem, or a gold chip's inner ring: not so settled
    white = _against_cream(tie, gem_ab=-4.0, ring4_l=2.0, inner=-10.8, mid=-3.0)
    assert C.tie_break(white, "w", "g") is None
    gold = _against_cream(tie, gem_ab=-20.5, ring4_l=-5.0, inner=7.0, mid=5.0)
    assert C.tie_break(gold, "w", "g") is None


def test_a_veiled_green_chip_whose_gem_fades_to_minus_thirteen_is_still_green() -> None:
    # the board round it lit up (design frame standard hard 9100, board.16)
    green = _veiled("w", "p", gem_ab=-13.6, ring4_l=20.8, inner=-25.6, mid=-24.8)
    assert C.cream_kind(green) == "g"


def test_a_chip_its_colours_name_by_far_keeps_its_kind_whatever_the_cream() -> None:
    # a black chip whose gem is blue-grey: against the cream its numbers fall in the
    # blue box, but its colours fit black by far (fresh check frame easy 9977, board.3)
    board = CLASSES["sprites"]["board"]
    black = replace(_against_cream(_clear_chip("k", 80.0), gem_ab=8.3, ring4_l=88.2,
                                   inner=-32.0, mid=-32.5), edge=30.0)
    assert C.cream_kind(black) == "u"
    assert C.judge_place(black, board, "wugrkpye").value == "k"


def test_an_empty_answer_without_the_cells_arrow_is_never_sure() -> None:
    classes = CLASSES["drawn"]["board"]
    _, empty = SURE["board cells"]
    # the border alike, the centre the cream, the ends plain, the arrow showing: sure
    assert C.judge_place(_look(line=30.0), classes, "wugrkpye").confidence >= empty
    # the same with no arrow's line at all (a hand's plain skin over a chip): the
    # answer stands, never sure
    hidden = C.judge_place(_look(line=C.EMPTY_LINE_MIN - 2), classes, "wugrkpye")
    assert hidden.value == "" and hidden.confidence < empty
    # the spiral's last cell has no arrow to show: its other marks still make it sure
    last = C.judge_place(_look(line=C.EMPTY_LINE_MIN - 2), classes, "wugrkpye", arrow=False)
    assert last.value == "" and last.confidence >= empty


def test_a_white_answer_without_a_chips_outline_is_never_sure() -> None:
    board = CLASSES["sprites"]["board"]
    chip, _ = SURE["board cells"]
    white = _clear_chip("w", plain=40.0)
    seen = C.judge_place(replace(white, edge=C.WHITE_EDGE_MIN + 2), board, "wugrkpye")
    assert seen.value == "w" and seen.confidence >= chip
    # the same colours with no outline (a hand's pale skin over the cell): not sure
    faint = C.judge_place(replace(white, edge=C.WHITE_EDGE_MIN - 1), board, "wugrkpye")
    assert faint.value == "w" and faint.confidence < chip
    # a player's place (no cell, no outline asked): as before
    player = CLASSES["sprites"]["player"]
    mat = np.asarray(player["w"][0][0], np.float32)
    look = C.PlaceLook(mat, C.WHITE_EDGE_MIN - 1, (0.0, 0.0), 12.5, 0.0, 0.0)
    assert C.judge_place(look, player, "wugrkpyE").confidence > 0


def test_a_white_answer_with_a_rim_as_pink_as_a_pearls_is_not_taken() -> None:
    board = CLASSES["sprites"]["board"]
    white = replace(_clear_chip("w", plain=40.0), pink=2.0)
    assert C.judge_place(white, board, "wugrkpye").value == "w"
    # a white chip's colours, but a pearl's pink rim round them (a hand's pale skin
    # over a pearl, or a red chip): no white answer
    pink = replace(white, pink=C.PEARL_PINK_MIN + 3)
    assert C.contradicted(pink, "w") and not C.contradicted(white, "w")
    assert C.judge_place(pink, board, "wugrkpye").value != "w"
