"""What is drawn says what the state says: points, gems, turn, banner, prompts, standings.

These read the painter's records (each text with where it went, each chip
with its gem and shape) rather than pixels, so they check the meaning of the
screen for many seeded positions, not one picture.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from companion.rules.gems import COLOURS, TOKENS, Gem
from companion.rules.splendor.simulate import play_game
from companion.rules.splendor.state import GameState
from companion.screen import ButtonHints, Mode, Screen, ScreenView, palette
from companion.screen import layout as lay
from companion.screen.painter import Drawn
from companion.screen.splendor.samples import LONG_NAMES, sample_views

SIZE = (800, 480)


@pytest.fixture(scope="module")
def screen() -> Screen:
    return Screen(SIZE)


@pytest.fixture(scope="module")
def game() -> list[GameState]:
    return play_game(7, LONG_NAMES, "greedy")[1]


def texts_in(drawn: list[Drawn], rect: pygame.Rect) -> list[Drawn]:
    return [d for d in drawn if d.kind == "text" and rect.contains(d.rect)]


def chip_count(drawn: list[Drawn], shape: Drawn) -> int:
    """The number written on a chip; an empty chip means none."""
    inside = texts_in(drawn, shape.rect)
    return int(inside[0].label) if inside else 0


def row_rects(state: GameState) -> tuple[pygame.Rect, ...]:
    return lay.compute(SIZE, len(state.players), state.final_round).rows


@pytest.mark.parametrize("index", [0, 9, 31, 60, -1])
def test_rows_show_each_players_points_bonuses_tokens_nobles_reserved(screen, game, index):
    state = game[index] if index != -1 else game[-2]
    screen.draw(ScreenView.waiting(state))
    drawn = screen.drawn
    for player, row in zip(state.players, row_rects(state), strict=True):
        cells = lay.columns(row.inflate(0, -4))
        points = texts_in(drawn, cells[1])
        assert [d.label for d in points] == [str(player.points)]
        shapes = [d for d in drawn if d.kind == "shape" and row.contains(d.rect)]
        for gem in TOKENS:
            (token,) = [s for s in shapes if s.label == f"token {gem.letter}"]
            assert chip_count(drawn, token) == player.tokens[gem]
        for gem in COLOURS:
            (card,) = [s for s in shapes if s.label == f"card {gem.letter}"]
            assert chip_count(drawn, card) == player.bonuses[gem]
        (nobles,) = [s for s in shapes if s.label == "nobles"]
        assert chip_count(drawn, nobles) == len(player.nobles)
        (reserved,) = [s for s in shapes if s.label == "reserved"]
        assert chip_count(drawn, reserved) == len(player.reserved)


def test_mover_is_highlighted_and_named_with_the_round(screen, game):
    for state in game[:8]:
        screen.draw(ScreenView.waiting(state))
        markers = [d for d in screen.drawn if d.kind == "shape" and d.label == "marker"]
        rows = row_rects(state)
        assert [rows.index(next(r for r in rows if r.contains(m.rect))) for m in markers] == [
            state.current
        ]
        # The highlighted row's colour is at the row's edge, only for the mover.
        for i, row in enumerate(rows):
            colour = screen.surface.get_at((row.centerx, row.top + 2))[:3]
            assert (colour == palette.CURRENT_EDGE) == (i == state.current)
        top = [d.label for d in texts_in(screen.drawn, pygame.Rect(0, 0, 800, 44))]
        assert f"Round {state.round} · {state.player.name} to play" in top


def test_supply_counts_in_the_top_bar(screen, game):
    state = game[20]
    screen.draw(ScreenView.waiting(state))
    bar = pygame.Rect(0, 0, 800, 44)
    chips = [d for d in screen.drawn if d.kind == "shape" and bar.contains(d.rect)]
    assert [c.label for c in chips] == [f"token {g.letter}" for g in TOKENS]
    for gem, chip in zip(TOKENS, chips, strict=True):
        right = pygame.Rect(chip.rect.right, 0, 40, 44)
        count = [d for d in texts_in(screen.drawn, bar) if right.colliderect(d.rect)]
        assert count and count[0].label == str(state.supply[gem])


def test_gems_are_told_by_letter_and_colour(screen, game):
    screen.draw(ScreenView.waiting(game[0]))
    header = lay.compute(SIZE, 4, False).header
    letters = [d.label for d in texts_in(screen.drawn, header) if len(d.label) == 1]
    assert letters == ["W", "U", "G", "R", "K"]  # gold has a drawn star instead
    chips = [d for d in screen.drawn if d.kind == "shape" and header.contains(d.rect)]
    gold = next(c for c in chips if c.label == "token y")
    # The star: dark ink at the chip's centre on a gold chip.
    assert screen.surface.get_at(gold.rect.center)[:3] == palette.TEXT_DARK
    r = gold.rect  # between two points of the star, inside the chip
    edge = (r.left + r.width // 5 + 1, r.top + r.height // 5 + 1)
    assert screen.surface.get_at(edge)[:3] == palette.GEM[Gem.GOLD]


def test_final_round_banner_only_once_someone_reached_15(screen, game):
    for state in game:
        screen.draw(ScreenView.waiting(state))
        banner = [d for d in screen.drawn if d.kind == "shape" and d.label == "banner"]
        assert bool(banner) == state.final_round
        if banner:
            (words,) = texts_in(screen.drawn, banner[0].rect)
            assert words.label.startswith("FINAL ROUND")
            leaders = [p.name for p in state.players if p.points >= 15]
            assert any(name.split("-")[0] in words.label for name in leaders)


def flat(text: str) -> str:
    """Text without spaces: lines wrapped after a hyphen or a space compare equal."""
    return text.replace(" ", "")


def test_proposal_says_the_turn_in_words_and_which_candidate(screen):
    view = sample_views(4)["candidate"]
    screen.draw(view)
    labels = [d.label for d in screen.drawn if d.kind == "text"]
    assert "2 of 3" in labels
    assert "Is this what happened?" in labels
    assert flat(view.text) in flat(" ".join(labels))
    assert " pays " in view.text or " paying " in view.text


def test_button_hints_name_each_button_and_dim_unused_ones(screen, game):
    hints = ButtonHints(
        confirm="Yes, apply", next="", back="No, cancel", hold_back="Hold 2 s: undo"
    )
    screen.draw(ScreenView(game[3], Mode.PROPOSAL, "Is this what happened?", "x", hints=hints))
    bar = lay.compute(SIZE, 4, False).buttons
    labels = [d.label for d in texts_in(screen.drawn, bar)]
    assert labels == ["CONFIRM", "Yes, apply", "NEXT", "BACK · Hold 2 s: undo", "No, cancel"]
    lamps = {d.label: d.rect for d in screen.drawn if d.label.startswith("button ")}
    assert screen.surface.get_at(lamps["button CONFIRM"].center)[:3] == palette.BUTTON_CONFIRM
    assert screen.surface.get_at(lamps["button BACK"].center)[:3] == palette.BUTTON_BACK
    assert screen.surface.get_at(lamps["button NEXT"].center)[:3] == palette.PANEL  # unused


def test_menu_highlights_the_selected_item_and_pages(screen, game):
    items = [f"Item {i}" for i in range(30)]
    screen.draw(ScreenView.choice(game[5], "Pick", items, 0))
    per_page = len([d for d in screen.drawn if d.label == "menu item"])
    assert 6 <= per_page < 30
    for selected in (0, 7, 29):
        screen.draw(ScreenView.choice(game[5], "Pick", items, selected))
        chosen = [d for d in screen.drawn if d.kind == "shape" and d.label == "menu item"]
        highlighted = [
            c for c in chosen
            if screen.surface.get_at((c.rect.centerx, c.rect.top + 4))[:3]
            == palette.MODE_ACCENT[Mode.CHOICE]
        ]
        assert len(highlighted) == 1
        (label,) = texts_in(screen.drawn, highlighted[0].rect)
        assert label.label == f"Item {selected}"
        page_tags = [d.label for d in screen.drawn if d.label.startswith("page ")]
        pages = -(-30 // per_page)
        assert page_tags == [f"page {selected // per_page + 1} of {pages}"]


def test_error_shows_the_reason(screen):
    view = sample_views(4)["error"]
    screen.draw(view)
    body = " ".join(d.label for d in screen.drawn if d.kind == "text")
    assert "That does not fit the rules" in body
    assert "needs at least 4" in body


def test_end_standings_with_the_tie_break_explained(screen):
    view = sample_views(4)["end"]
    assert view.outcome is not None
    screen.draw(view)
    labels = [d.label for d in screen.drawn if d.kind == "text"]
    for standing in view.outcome.standings:
        assert f"{standing.points} points" in labels
        assert f"{standing.cards} cards" in labels
    assert "fewer development cards" in view.outcome.reason
    assert flat(view.outcome.reason) in flat(" ".join(labels))
    rows = [d for d in screen.drawn if d.kind == "shape" and d.label == "standing"]
    gold = [r for r in rows if screen.surface.get_at((r.rect.centerx, r.rect.top + 3))[:3]
            == palette.WINNER]
    assert len(gold) == len(view.outcome.winners) == 1


def test_setup_shows_every_market_card_and_noble(screen, game):
    state = game[0]
    screen.draw(ScreenView.setup(state))
    labels = {d.label for d in screen.drawn if d.kind == "text"}
    for card in state.market_cards():
        assert card.id in labels
    for noble in state.nobles:
        assert noble.id in labels
    assert {f"{n} left" for n in state.decks} <= labels


def test_no_state_yet_draws_a_prompt_only(screen):
    view = ScreenView(None, Mode.CHOICE, "How many players?", "", menu=("2", "3", "4"), selected=1)
    screen.draw(view)
    labels = [d.label for d in screen.drawn if d.kind == "text"]
    assert "How many players?" in labels and "3" in labels


def test_a_stalemate_end_is_explained(screen, game):
    state = replace(game[-1], passes=len(game[-1].players))
    screen.draw(ScreenView.end(state))
    words = " ".join(d.label for d in screen.drawn if d.kind == "text")
    assert "No player could take any action" in words
