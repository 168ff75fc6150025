"""The analysis of Splendor Duel games: search over the fast Duel engine, the
command on a logged Duel game and on a record file, and the review page."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.analysis import GameAnalysis, analyse_record
from companion.analysis.duel.search import DuelSampler, review_turn
from companion.analysis.game import duel_verdict
from companion.cli import main
from companion.record import GameLog, setup_headers
from companion.record.analyses import load_analysis
from companion.review import review_html
from companion.rules.duel import Buy, GameState, Hidden, describe_turn, parse_turn, play_game
from companion.rules.duel import cards as catalogue
from companion.rules.fast.duel.convert import to_state


def _log_duel(path: Path, seed: int) -> tuple[int, int]:
    record, states = play_game(seed, ("Ann", "Bob <b>"), "greedy")
    with GameLog.open(path) as log:
        gid = log.start_game("Splendor Duel", record.players, setup_headers(states[0]))
        for turn, after in zip(record.turns, states[1:], strict=True):
            log.append_turn(gid, str(turn), after.digest())
        log.finish_with(gid, states[-1].outcome())
    return gid, len(record.turns)


def test_a_duel_game_is_analysed_turn_by_turn() -> None:
    record, states = play_game(5, ("Ann", "Bob"), "greedy")
    one = analyse_record(record, budget=8, seed=4, jobs=1)
    two = analyse_record(record, budget=8, seed=4, jobs=2)
    assert one == two  # the processes share positions, not the result
    assert GameAnalysis.from_json(one.to_json()) == one
    assert one != analyse_record(record, budget=8, seed=5, jobs=1)
    assert one.extra == {"game": "Splendor Duel"}
    assert len(one.turns) == len(record.turns)
    # "Play again" keeps the mover: the movers are the states' players to move.
    assert [t.mover for t in one.turns] == [s.current for s in states[:-1]]
    winner = [p.name for p in states[-1].players].index(states[-1].outcome().winner)
    assert one.final[winner] == 100.0 and sum(one.final) == 100.0
    for t, state, played in zip(one.turns, states[:-1], record.turns, strict=True):
        assert abs(sum(t.chances) - 100.0) < 0.5
        assert t.loss == pytest.approx(max(0.0, t.best_chance - t.played_chance), abs=0.11)
        assert t.played == str(played) and t.played_words == describe_turn(state, played)
        best = parse_turn(t.best)  # the alternative is a Duel turn, told in words
        assert t.best_words == describe_turn(state, best)


def test_the_winning_turn_is_found_and_costs_nothing() -> None:
    """In the last position of a game the turn played wins at once: the search must
    rate it (or another winning turn) at 100 %."""
    for seed in (1, 2, 3):
        record, states = play_game(seed, ("A", "B"), "greedy")
        v = duel_verdict(states[-2], record.turns[-1], len(record.turns) - 1, 60, seed)
        assert v.played_chance == 100.0 and v.best_chance == 100.0 and v.loss == 0.0


def test_a_purchase_from_a_blind_reserve_is_analysed_with_that_card() -> None:
    """The card bought from a blind reserve is pinned there in every sample."""
    for seed in range(40):
        record, states = play_game(seed, ("A", "B"), "random")
        for state, turn in zip(states, record.turns, strict=False):
            a = turn.action
            if isinstance(a, Buy) and Hidden(catalogue.card(a.card).level) in \
                    state.player.reserved and state.find_in_pyramid(a.card) is None \
                    and catalogue.card(a.card) not in state.player.reserved:
                sampler = DuelSampler(state, [a.card])
                for k in range(5):
                    s = sampler.sample(random.Random(k))
                    assert catalogue.card(a.card).id in [
                        catalogue.cards()[c].id for c in s.reserved[state.current]]
                    assert to_state(s, [p.name for p in state.players]).to_text() == \
                        state.to_text()
                review = review_turn(state, turn, 8, 0)
                assert 0.0 <= review.loss <= 1.0
                return
    pytest.fail("no game of 40 bought a card reserved blind")


def test_a_logged_duel_game_is_analysed_stored_and_reviewed(tmp_path: Path, capsys) -> None:
    path = tmp_path / "games.db"
    gid, turns = _log_duel(path, seed=6)
    argv = ["analyse", str(gid), "--db", str(path), "--budget", "6", "--jobs", "1"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert f"{turns} turns, 6 playouts per position, seed 0" in out
    assert "stored the analysis" in err
    with GameLog.open(path) as log:
        stored = load_analysis(log, gid)
        assert stored is not None
        analysis = GameAnalysis.from_json(stored.data)
        page = review_html(log, gid)
    assert len(analysis.turns) == turns
    assert 'id="win-chart"' in page and 'id="accuracy"' in page
    assert "the bag's drawing order" in page
    assert page.count('class="flagged"') == len(analysis.flagged())
    assert "Bob &lt;b&gt;" in page and "Bob <b>" not in page
    assert main(argv) == 0  # read back, not searched again
    again, err = capsys.readouterr()
    assert again == out and "was analysed on" in err


def test_an_unanalysed_duel_game_says_how_to_analyse_it(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    gid, _ = _log_duel(path, seed=8)
    with GameLog.open(path) as log:
        assert 'id="no-analysis"' in review_html(log, gid)


def test_a_duel_record_file_is_analysed(tmp_path: Path, capsys) -> None:
    record, _ = play_game(9, ("Ann", "Bob"), "greedy")
    path = tmp_path / "duel.txt"
    path.write_text(record.text())
    out_json = tmp_path / "a.json"
    assert main(["analyse", "--record", str(path), "--budget", "4", "--jobs", "1",
                 "--json", str(out_json)]) == 0
    data = json.loads(out_json.read_text())
    assert len(data["turns"]) == len(record.turns) and data["extra"]["game"] == "Splendor Duel"
    assert "Players:" in capsys.readouterr().out


def test_states_are_unchanged_by_the_search() -> None:
    record, states = play_game(4, ("A", "B"), "greedy")
    mid = len(record.turns) // 2
    state: GameState = states[mid]
    text = state.to_text()
    review_turn(state, record.turns[mid], 8, 1)
    assert state.to_text() == text
