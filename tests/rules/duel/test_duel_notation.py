"""The Duel turn notation and the record format."""

from __future__ import annotations

import pytest

from companion.rules.duel import (
    Buy,
    DuelTokens,
    RecordError,
    ReserveCard,
    ReserveDeck,
    RoyalPick,
    Take,
    Token,
    Turn,
    describe_turn,
    format_turn,
    is_duel_record,
    parse_cell,
    parse_turn,
    play_game,
    read_record,
    replay_record,
    simulate_game,
    standings,
)
from companion.rules.errors import NotationError
from tests.rules.duel.duel_helpers import new_game

CANONICAL = [
    "take c3,c4,c5",
    "take a1",
    "privilege b2 replenish kkwpu take a1,b2",
    "privilege a1,e5 take c3",
    "reserve 3x1 gold e1 reveal 3g2",
    "reserve deck2 gold e1",
    "buy 1w2 pay ugrk reveal 1u1",
    "buy 1w4",
    "buy 1j2 pay kkkkp as r reveal 1w4 royal r3 return g",
    "buy 1w3 pay rrky token b2",
    "buy 2w2 pay uuuurrr steal p reveal 2w1 royal r1 steal u",
    "take b3,c3,d3 return wk",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_notation_round_trips(text):
    turn = parse_turn(text)
    assert format_turn(turn) == text == str(turn)
    assert parse_turn(format_turn(turn)) == turn
    assert eval(repr(turn), {"parse_turn": parse_turn}) == turn


def test_notation_builds_the_documented_values():
    turn = parse_turn("buy 2w2 pay uuuurrr steal p reveal 2w1 royal r1 steal u")
    assert turn == Turn(
        Buy("2w2", DuelTokens.parse("uuuurrr"), steal=Token.PEARL),
        reveal="2w1",
        royals=(RoyalPick("r1", Token.BLUE),),
    )
    assert parse_turn("reserve deck2 gold e1").action == ReserveDeck(2, parse_cell("e1"))
    assert parse_turn("reserve 2w1 gold a5").action == ReserveCard("2w1", 0)
    assert parse_turn("privilege e5 replenish wp take a1").replenish == (Token.WHITE, Token.PEARL)


def test_reading_is_lenient_writing_is_canonical():
    turn = parse_turn("  TAKE c5,C3,c4   RETURN kw ")
    assert turn.action == Take((parse_cell("c3"), parse_cell("c4"), parse_cell("c5")))
    assert str(turn) == "take c3,c4,c5 return wk"
    assert str(parse_turn("reveal 1u1 buy 1w2 pay kgru")) == "buy 1w2 pay ugrk reveal 1u1"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty turn"),
        ("take", "needs a value"),
        ("grab a1", "not part of a Duel turn"),
        ("take f1", "not a board cell"),
        ("take a1 take a2", "twice"),
        ("take a1 buy 1w1", "one mandatory action"),
        ("privilege a1", "needs its mandatory action"),
        ("reserve 1w1", "needs the gold taken"),
        ("reserve deck4 gold a1", "not a deck"),
        ("buy 1w9", "not a Duel card id"),
        ("buy 1w1 pay wq", "not a Duel token letter"),
        ("take a1 pay ww", "does not go with 'take'"),
        ("buy 1j1 as rg", "one token letter"),
        ("buy 1w1 royal r9", "not a royal card id"),
        ("buy 1w1 royal r1 steal u steal r", "two steals"),
    ],
)
def test_bad_notation_says_what_could_not_be_read(text, words):
    with pytest.raises(NotationError, match=words):
        parse_turn(text)


def test_every_turn_of_simulated_games_round_trips():
    for seed in range(3):
        record, _ = play_game(seed, policy=("random", "greedy"))
        for turn in record.turns:
            assert parse_turn(str(turn)) == turn


def test_record_text_reads_back_and_replays():
    text = simulate_game(7, ("Ann", "Bob"), "greedy")
    assert is_duel_record(text)
    record = read_record(text)
    assert record.players == ["Ann", "Bob"] and record.headers["Game"] == "Splendor Duel"
    assert record.text() == text
    states, outcome = replay_record(text)
    assert outcome is not None and outcome.winner in ("Ann", "Bob")
    assert outcome.summary() == record.headers["Result"]
    assert states[0] == record.initial_state()


def test_an_illegal_turn_is_reported_with_its_line_number():
    text = simulate_game(8)
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    lines[index] = "3. take a1,a2,a3,a4"
    with pytest.raises(RecordError) as info:
        replay_record("\n".join(lines))
    assert info.value.line == index + 1
    assert "1 to 3 tokens, not 4" in str(info.value) and "turn 3" in str(info.value)


def test_unreadable_records_are_refused_with_a_line():
    with pytest.raises(RecordError, match="line 1: this is a Splendor record"):
        read_record('[Game "Splendor"]\n\n1. take wug\n')
    with pytest.raises(RecordError, match="line 3: turn number 2 where 1"):
        read_record('[Game "Splendor Duel"]\n\n2. take a1\n')
    with pytest.raises(RecordError, match="line 2: cannot read turn 1"):
        read_record('[Game "Splendor Duel"]\n1. take z9\n')
    with pytest.raises(RecordError, match="no Board header"):
        read_record('[Game "Splendor Duel"]\n[Players "A, B"]\n1. take a1\n').initial_state()
    assert not is_duel_record('[Game "Splendor"]\n1. take wug\n')


def test_describe_turn_and_standings_say_it_in_words():
    state = new_game()
    text = describe_turn(state, parse_turn("take c5,d5,e5"))
    assert text == "Ann takes red (c5), black (d5), pearl (e5)."
    reserve = describe_turn(state, parse_turn("reserve 2w1 gold e1 reveal 2w2"))
    assert reserve.startswith("Ann takes the gold on e1 and reserves level 2 white card 2w1")
    board = standings(state)
    assert "Ann: 0 points" in board and "Bob:" in board and "1 privilege" in board
    assert board.endswith("Turn 1: Ann to move.")
    record, states = play_game(5, ("Ann", "Bob"))
    last = describe_turn(states[-2], record.turns[-1])
    outcome = states[-1].outcome()
    assert outcome is not None and outcome.reason in last and "wins" in standings(states[-1])
