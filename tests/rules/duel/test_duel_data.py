"""The Duel catalogues, the board geometry and the setup rule."""

import sys

import pytest

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import LINES, SPIRAL, cell_name, line_problem, parse_cell
from companion.rules.duel.cards import Ability
from companion.rules.duel.state import ALL_TOKENS, GameState
from companion.rules.duel.tokens import DuelTokens, Token
from companion.rules.errors import NotationError, SetupError
from tests.rules.duel.duel_helpers import SETUP_BOARD, SETUP_PYRAMID, new_game


def test_67_cards_30_24_13_with_unique_stable_ids():
    cards = catalogue.cards()
    assert [sum(c.level == lv for c in cards) for lv in (1, 2, 3)] == [30, 24, 13]
    assert len({c.id for c in cards}) == 67
    # Pinned from the CSV rows (never reordered).
    assert catalogue.card("1w1").abilities == {Ability.AGAIN}
    assert catalogue.card("1j1").cost == DuelTokens.parse("wwwwp")
    assert catalogue.card("2u1").bonus == 2
    assert catalogue.card("3x1").points == 6 and catalogue.card("3x1").colour is None
    assert catalogue.card("3j2").abilities == {Ability.WILD, Ability.AGAIN}


def test_id_kinds_per_level():
    ids = {c.id for c in catalogue.cards()}
    for level, per_colour, jokers in ((1, 5, 4), (2, 4, 3), (3, 2, 2)):
        for letter in "wugrk":
            assert {f"{level}{letter}{i}" for i in range(1, per_colour + 1)} <= ids
        assert {f"{level}j{i}" for i in range(1, jokers + 1)} <= ids
        assert f"{level}x1" in ids


def test_four_royals():
    royals = catalogue.royals()
    assert [r.id for r in royals] == ["r1", "r2", "r3", "r4"]
    assert [r.ability for r in royals] == [Ability.STEAL, Ability.AGAIN, Ability.PRIVILEGE, None]
    assert [r.points for r in royals] == [2, 2, 2, 3]


def test_bad_ids_are_notation_errors():
    with pytest.raises(NotationError):
        catalogue.card("1w9")
    with pytest.raises(NotationError):
        catalogue.royal("r5")


def test_cells_are_named_like_chess_squares_with_the_strip_at_the_top():
    assert cell_name(0) == "a5" and cell_name(24) == "e1" and cell_name(12) == "c3"
    assert all(parse_cell(cell_name(c)) == c for c in range(25))
    for bad in ("f1", "a6", "a0", "c", "c33"):
        with pytest.raises(NotationError):
            parse_cell(bad)


def test_spiral_starts_at_the_centre_goes_down_then_clockwise_and_ends_bottom_right():
    names = [cell_name(c) for c in SPIRAL]
    assert names[:10] == ["c3", "c2", "b2", "b3", "b4", "c4", "d4", "d3", "d2", "d1"]
    assert names[-1] == "e1" and sorted(SPIRAL) == list(range(25))


def test_145_lines_of_one_to_three_cells():
    assert len(LINES) == 145
    assert sum(len(line) == 3 for line in LINES) == 48
    assert line_problem((parse_cell("b3"), parse_cell("b5"))) == "b3 and b5 are not adjacent"


def test_setup_reveals_3_level3_4_level2_5_level1_cards():
    state = new_game()
    assert [len(row) for row in state.pyramid] == [5, 4, 3]
    assert state.decks == (25, 20, 10)


def test_setup_draws_all_25_tokens_onto_the_board_along_the_spiral():
    state = new_game()
    assert state.board_tokens() == ALL_TOKENS == DuelTokens.parse("4w4u4g4r4k2p3y")
    assert not state.bag
    for letter, cell in zip(SETUP_BOARD, SPIRAL, strict=True):
        assert state.board[cell] == Token.from_letter(letter)


def test_setup_3_privileges_the_second_player_takes_one_and_4_royals():
    state = new_game()
    assert state.privileges == 2
    assert [p.privileges for p in state.players] == [0, 1]
    assert state.current == 0 and state.player.name == "Ann"
    assert len(state.royals) == 4


@pytest.mark.parametrize(
    ("names", "board", "pyramid", "words"),
    [
        (("Ann",), SETUP_BOARD, SETUP_PYRAMID, "2 players"),
        (("Ann", "Ann"), SETUP_BOARD, SETUP_PYRAMID, "different"),
        (("Ann", "Bob"), SETUP_BOARD[:-1] + "w", SETUP_PYRAMID, "all 25 tokens"),
        (("Ann", "Bob"), SETUP_BOARD, (SETUP_PYRAMID[0][:4], *SETUP_PYRAMID[1:]), "5 level-1"),
        (("Ann", "Bob"), SETUP_BOARD, (SETUP_PYRAMID[1] + ("2k1",), *SETUP_PYRAMID[1:]), "level 1"),
        (("Ann", "Bob"), SETUP_BOARD, (("1w1",) * 5, *SETUP_PYRAMID[1:]), "twice"),
    ],
)
def test_setup_errors_name_the_problem(names, board, pyramid, words):
    with pytest.raises(SetupError, match=words):
        GameState.new(names, board, pyramid)


def test_the_duel_rules_import_only_the_standard_library_and_companion_rules():
    """DESIGN.md: companion.rules imports nothing of the project above it, no pixels or pins."""
    import ast
    from pathlib import Path

    import companion.rules.duel as duel

    allowed_project = ("companion.rules",)
    for path in Path(duel.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in ("companion", "vision", "firmware"):
                    assert name.startswith(allowed_project), f"{path.name} imports {name}"
                else:
                    assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
