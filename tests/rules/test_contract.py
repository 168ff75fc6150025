"""Both engines through the one contract (:mod:`companion.rules.contract`).

Every golden game of each game is replayed with nothing but the verbs of its
:class:`~companion.games.GameKind` and the contract's questions, and
compared with the engine's own replay: the same states, words, face-up
cards, purchases and honours.  The review is then shown to let a real bug
through instead of hiding it behind the turn's notation.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion import games as kinds_module
from companion.games import DUEL, SPLENDOR, UnknownGameType, kind, kind_of_state
from companion.record import GameLog, setup_headers
from companion.review import game_story
from companion.rules import duel
from companion.rules.record_format import game_name
from companion.rules.splendor.actions import Turn as SplendorTurn
from companion.rules.splendor.catalogue import Card
from companion.rules.splendor.describe import describe_turn as splendor_words
from companion.rules.splendor.record import Record
from companion.rules.splendor.record import read_record as read_splendor
from companion.rules.splendor.state import GameState as SplendorState
from companion.rules.splendor.state import Player as SplendorPlayer

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
RECORDS = sorted(GOLDEN.glob("*/*.txt"))


def _engine_record(text: str) -> duel.DuelRecord | Record:
    """The record read by its own engine (the format is shared, the turns are not)."""
    return duel.read_record(text) if game_name(text) == duel.GAME_NAME else read_splendor(text)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_golden_game_replays_the_same_through_the_contract(path: Path) -> None:
    text = path.read_text()
    own = _engine_record(text)
    turns, states = own.turns, own.states()
    game = kind(game_name(text) or SPLENDOR)
    setup = {k: v for k, v in own.headers.items() if k not in ("Result", "Winner")}
    record = game.make_record(setup, [str(t) for t in turns])
    state = game.initial_state(record.headers)
    assert state == states[0] and kind_of_state(state) is game
    for number, (turn, before, after) in enumerate(
        zip(turns, states[:-1], states[1:], strict=True), start=1
    ):
        parsed = game.parse_turn(str(turn))
        assert game.describe_turn(state, parsed) == _own_words(state, turn), number
        assert state.round == before.turn // len(before.players) + 1
        assert set(game.face_up_ids(state)) == _face_up(before)
        state = game.apply(state, parsed)
        assert state == after and state.digest() == after.digest(), number
        for seat, player in enumerate(after.players):
            bought = game.purchases(state, seat)
            assert [c.id for c, _ in bought] == [_card_id(x) for x in player.cards]
            assert [colour for _, colour in bought] == [_colour(x) for x in player.cards]
            assert tuple(player.honours) == _honours(player)
        assert tuple(state.honours) == _honours(after)
    assert state.outcome() == states[-1].outcome()


def _own_words(state: object, turn: object) -> str:
    if isinstance(state, duel.GameState) and isinstance(turn, duel.Turn):
        return state.describe_turn(turn)
    assert isinstance(state, SplendorState) and isinstance(turn, SplendorTurn)
    return splendor_words(state, turn)


def _face_up(state: object) -> set[str]:
    if isinstance(state, duel.GameState):
        return {c.id for c in state.pyramid_cards()}
    assert isinstance(state, SplendorState)
    return {c.id for c in state.market_cards()}


def _card_id(entry: object) -> str:
    if isinstance(entry, duel.Owned):
        return entry.card.id
    assert isinstance(entry, Card)
    return entry.id


def _colour(entry: object) -> str | None:
    if isinstance(entry, duel.Owned):
        return entry.colour.letter if entry.colour is not None else None
    assert isinstance(entry, Card)
    return entry.bonus.letter


def _honours(holder: object) -> tuple[object, ...]:
    """The engine's own name for them: royals in Duel, nobles in Splendor."""
    if isinstance(holder, duel.GameState | duel.Player):
        return holder.royals
    assert isinstance(holder, SplendorState | SplendorPlayer)
    return holder.nobles


def test_a_duel_round_is_two_turns_and_a_play_again_stays_in_it() -> None:
    _, states = duel.play_game(1, ("Ann", "Bob"))
    assert [s.round for s in states[:5]] == [1, 1, 2, 2, 3]
    assert all(s.round == s.turn // 2 + 1 for s in states)


def test_setup_headers_and_kinds_cover_both_games_and_refuse_others() -> None:
    _, duel_states = duel.play_game(2, ("Ann", "Bob"))
    assert kind_of_state(duel_states[0]).name == DUEL
    headers = setup_headers(duel_states[0], Event="test")
    assert headers["Game"] == DUEL and headers["Event"] == "test" and "Result" not in headers
    assert kind(DUEL).initial_state(headers) == duel_states[0]
    with pytest.raises(UnknownGameType, match="unknown game type 'Chess'"):
        kind("Chess")
    with pytest.raises(UnknownGameType, match="not a game state"):
        kind_of_state("a string")  # type: ignore[arg-type]  # the point of the test


def test_the_review_lets_a_bug_through_instead_of_showing_the_notation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record, states = duel.play_game(3, ("Ann", "Bob"))
    with GameLog.open(tmp_path / "g.db") as log:
        gid = log.start_game(DUEL, record.players, setup_headers(states[0]))
        for turn, after in zip(record.turns[:4], states[1:5], strict=True):
            log.append_turn(gid, str(turn), after.digest())
        assert game_story(log, gid).problem is None

        def broken(state: object, turn: object) -> str:
            raise AttributeError("a bug in the words")

        monkeypatch.setitem(
            kinds_module._KINDS, DUEL, dataclasses.replace(kind(DUEL), describe_turn=broken)
        )
        with pytest.raises(AttributeError, match="a bug in the words"):
            game_story(log, gid)
