"""Splendor Duel on the screen: what is drawn says what the position says, and fits.

As ``test_content`` and ``test_layout`` do for Splendor: the painter's
records (each text with where it went, each shape with its label) are read
for positions of seeded games, and every Duel sample screen goes through
``layout_problems`` at several sizes.  The numbers expected come from the
Duel engine's own questions (``Player.points``, ``crowns``,
``colour_points``), not from the scoreboard the screen draws.
"""

from __future__ import annotations

from functools import cache

import pygame
import pytest

from companion.games import scoreboard_of
from companion.rules import duel
from companion.rules.duel.tokens import COLOURS
from companion.rules.splendor.simulate import play_game as play_splendor
from companion.screen import Mode, Screen, ScreenView, palette
from companion.screen.duel.samples import LONG_NAMES, duel_sample_views
from companion.screen.painter import Drawn, layout_problems

SIZES = [(800, 480), (1024, 600), (1280, 720), (640, 480)]


@cache
def views() -> dict[str, ScreenView]:
    return duel_sample_views()


@cache
def screen(size: tuple[int, int]) -> Screen:
    return Screen(size)


def draw(view: ScreenView, size: tuple[int, int] = (800, 480)) -> list[Drawn]:
    s = screen(size)
    s.draw(view)
    return list(s.drawn)


def texts(drawn: list[Drawn]) -> list[str]:
    return [d.label for d in drawn if d.kind == "text"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("kind", sorted(views()))
def test_duel_screens_fit_without_overlap(kind, size):
    drawn = draw(views()[kind], size)
    assert drawn, "nothing was drawn"
    assert layout_problems(drawn, size) == []


@pytest.mark.parametrize("seed", [0, 5, 41])
def test_each_row_shows_progress_towards_the_three_victory_conditions(seed):
    _, states = duel.play_game(seed, LONG_NAMES, "greedy")
    for state in (states[len(states) // 3], states[-2]):
        drawn = draw(ScreenView.waiting(state))
        shown = texts(drawn)
        goals = [d.label for d in drawn if d.kind == "shape" and d.label.startswith("goal ")]
        # points, crowns and one bar per colour, for each of the two players
        assert goals.count("goal points") == 2 and goals.count("goal crowns") == 2
        assert goals.count("goal colour") == 2 * len(COLOURS)
        for player in state.players:
            assert str(player.points) in shown
            assert f"{player.points}/{duel.state.WIN_POINTS}" in shown
            assert f"{player.crowns}/{duel.state.WIN_CROWNS}" in shown
            for colour in COLOURS:
                assert f"{player.colour_points(colour)}/{duel.state.WIN_COLOUR_POINTS}" in shown


def test_the_board_privileges_and_tokens_are_those_of_the_position():
    state = duel.play_game(0, LONG_NAMES, "greedy")[1][20]
    board = scoreboard_of(state)
    on_board = state.board_tokens()
    assert board.table_tokens == tuple(on_board[k] for k in duel.Token)
    assert board.privileges == state.privileges
    for seat, player in zip(board.seats, state.players, strict=True):
        assert seat.tokens == tuple(player.tokens[k] for k in duel.Token)
        assert seat.privileges == player.privileges
        assert seat.bonuses == player.bonuses
        assert sum(seat.colour_points) <= player.points
    shown = texts(draw(ScreenView.waiting(state)))
    assert "Board" in shown and state.player.name in " ".join(shown)


@pytest.mark.parametrize(
    ("seed", "termination"),
    [(0, duel.Termination.POINTS), (5, duel.Termination.CROWNS), (41, duel.Termination.COLOUR)],
)
def test_the_end_names_the_winner_and_the_condition_met(seed, termination):
    final = duel.play_game(seed, LONG_NAMES, "greedy")[1][-1]
    outcome = final.outcome()
    assert outcome is not None and outcome.termination is termination
    view = ScreenView.end(final)
    assert view.mode is Mode.END and view.text == outcome.reason
    drawn = draw(view)
    shown = " ".join(texts(drawn))
    assert outcome.winner in shown and outcome.reason in shown
    winner = next(p for p in final.players if p.name == outcome.winner)
    goal = {duel.Termination.POINTS: "points", duel.Termination.CROWNS: "crowns",
            duel.Termination.COLOUR: "colour"}[outcome.termination]
    seat = next(s for s in scoreboard_of(final).seats if s.name == winner.name)
    assert next(g for g in seat.goals if g.name == goal).met
    assert [d for d in drawn if d.label == "standing"], "no standings drawn"


def test_setup_shows_the_pyramid_and_royals_to_check():
    state = duel.play_game(0, LONG_NAMES, "greedy")[1][0]
    drawn = draw(ScreenView.setup(state))
    labels = {d.label for d in drawn if d.kind == "shape"}
    for card in state.pyramid_cards():
        assert f"card {card.id}" in labels
    for royal in state.royals:
        assert f"royal {royal.id}" in labels


def test_a_proposal_takes_the_turns_words_from_either_referee():
    record, states = duel.play_game(0, LONG_NAMES, "greedy")
    said = duel.describe_turn(states[3], record.turns[3])
    assert ScreenView.proposal(states[3], said).text == said
    with pytest.raises(TypeError, match="Splendor turn"):
        ScreenView.proposal(states[3], play_splendor(2, 2)[0].turns[0])


def test_the_duel_scoreboard_says_what_the_splendor_one_has_not():
    splendor = scoreboard_of(play_splendor(2, 2)[1][5])
    assert not splendor.has_goals and splendor.privileges is None
    assert all(s.crowns is None and s.goals == () for s in splendor.seats)
    duel_board = scoreboard_of(duel.play_game(0, LONG_NAMES, "greedy")[1][5])
    assert duel_board.has_goals and duel_board.token_letters == "wugrkpy"


def test_the_preview_saves_every_duel_screen(tmp_path, capsys):
    from companion.screen.__main__ import main

    assert main(["--game", "duel", "--out", str(tmp_path)]) == 0
    saved = sorted(p.name for p in tmp_path.glob("*.png"))
    assert saved == sorted(f"duel_{name}.png" for name in views())


def test_a_goal_met_is_drawn_in_gold():
    final = duel.play_game(41, LONG_NAMES, "greedy")[1][-1]
    winner = next(p for p in final.players if p.name == final.outcome().winner)
    _colour, best = winner.best_colour()
    assert best >= duel.state.WIN_COLOUR_POINTS
    s = screen((800, 480))
    s.draw(ScreenView.waiting(final))

    def gold_pixels(label: str) -> int:
        rect = next(d.rect for d in s.drawn if d.kind == "text" and d.label == label)
        pixels = pygame.surfarray.array3d(s.surface)[rect.left:rect.right, rect.top:rect.bottom]
        return int((abs(pixels.astype(int) - palette.WINNER).sum(axis=2) < 40).sum())

    assert gold_pixels(f"{best}/10") > 10, "a met goal is not drawn in gold"
    assert gold_pixels(f"{winner.crowns}/10") == 0 or winner.crowns >= 10
