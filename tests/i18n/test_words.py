"""Turns, standings and refusals in words: English as the rules say them, French too."""

from __future__ import annotations

import itertools

import pytest

from companion.i18n import set_language
from companion.i18n.reasons import known, translate_reason
from companion.i18n.words import describe_turn, outcome_reason, place_notes, standings_text
from companion.rules.errors import IllegalAction
from companion.rules.gems import COLOURS, Gem, Tokens
from companion.rules.splendor.actions import Buy, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.catalogue import cards_of_level
from companion.rules.splendor.describe import describe_turn as rules_describe
from companion.rules.splendor.outcome import decide
from companion.rules.splendor.simulate import play_game


@pytest.fixture
def french():
    set_language("fr")
    yield
    set_language("en")


def _games():
    for seed in range(6):
        for policy in ("random", "greedy"):
            yield play_game(seed, ("Ann", "Bob", "Cy", "Dee")[: 2 + seed % 3], policy)


def test_english_words_are_the_rules_own() -> None:
    for record, states in _games():
        for state, turn in zip(states, record.turns, strict=False):
            assert describe_turn(state, turn) == rules_describe(state, turn)
        outcome = states[-1].outcome()
        assert outcome is not None and outcome_reason(outcome) == outcome.reason


def test_french_words_for_every_turn(french: None) -> None:
    for record, states in _games():
        for state, turn in zip(states, record.turns, strict=False):
            text = describe_turn(state, turn)
            assert text.startswith(state.player.name)
            for english in (" takes ", " buys ", " reserves ", " white", " paying ", " and "):
                assert english not in text, text


def test_every_place_is_explained_not_only_the_first() -> None:
    # Cy 2nd and Bob 3rd on 10 points: fewer cards; Dee and Eve share 4th
    outcome = decide([("Ann", 15, 9), ("Bob", 10, 12), ("Cy", 10, 8), ("Dee", 7, 5),
                      ("Eve", 7, 5)])
    notes = place_notes(outcome)
    assert notes == [
        "Cy is 2nd and Bob 3rd: both have 10 points, Cy bought fewer cards (8 against 12).",
        "Dee and Eve share 4th place: 7 points and 5 cards each.",
    ]
    spoken = standings_text(outcome)
    assert all(note in spoken for note in notes) and outcome.reason in spoken


def test_places_in_french(french: None) -> None:
    outcome = decide([("Ann", 15, 9), ("Bob", 10, 12), ("Cy", 10, 8)])
    assert place_notes(outcome) == [
        "Cy est 2e et Bob 3e : tous deux ont 10 points de Prestige, Cy a acheté moins de"
        " cartes (8 contre 12)."
    ]
    assert outcome_reason(outcome) == "Ann gagne avec 15 points de Prestige."


def _refusals():
    """Every kind of illegal action the rules refuse, from real positions."""
    messages = set()
    for record, states in _games():
        for state, turn in itertools.islice(zip(states, record.turns, strict=False), 0, None, 3):
            tries = [Take(Tokens()), Take(Tokens.of(Gem.GOLD)),
                     Take(Tokens.of(*COLOURS[:4])), Take(Tokens.of(Gem.RED, Gem.RED, Gem.BLUE))]
            tries += [Take(Tokens.of(g, g)) for g in COLOURS]
            tries += [ReserveCard(c.id) for c in cards_of_level(1)[:6]]
            tries += [ReserveDeck(level) for level in (1, 2, 3)]
            tries += [Buy(c.id, Tokens.of(Gem.GOLD, Gem.GOLD)) for c in state.market_cards()]
            tries += [Buy(c.id, Tokens()) for c in cards_of_level(3)[:4]]
            for action in tries:
                try:
                    state.check_action(action)
                except IllegalAction as exc:
                    messages.add(str(exc))
            bad = [Turn(turn.action, turn.reveal, Tokens.of(Gem.WHITE), turn.noble),
                   Turn(turn.action, turn.reveal, turn.returned, "n1")]
            for wrong in bad:
                try:
                    state.apply(wrong)
                except IllegalAction as exc:
                    messages.add(str(exc))
    return messages


def test_every_refusal_has_a_french_wording(french: None) -> None:
    messages = _refusals()
    assert len(messages) > 20
    unknown = [m for m in messages if not known(m)]
    assert unknown == []
    for message in messages:
        french_text = translate_reason(message)
        assert french_text != message, message
        for english in (" the supply", " cards;", "deck is", " hold ", " costs "):
            assert english not in french_text, french_text


def test_the_referees_own_refusal_of_a_table_is_french(french: None) -> None:
    """Two gems taken where fewer than 4 were left: the screen and the ear get French."""
    from dataclasses import replace

    from companion.referee.splendor import Phase, Referee, TableRead
    from companion.referee.splendor.reading import predict

    for _record, states in _games():
        for state in states:
            low = [g for g in COLOURS if 2 <= state.supply[g] < 4]
            if low and len(state.players) == 2:
                break
        else:
            continue
        break
    gem = low[0]
    seen = predict(state)
    pair = Tokens.of(gem, gem)
    players = list(seen.players)
    players[state.current] = replace(players[state.current],
                                     tokens=state.player.tokens + pair)
    seen = replace(seen, supply=state.supply - pair, players=tuple(players))
    ref = Referee([p.name for p in state.players], state=state)
    for _ in range(2):
        ref.handle(TableRead(seen))
    assert ref.phase is Phase.PROBLEM
    assert ref.problem.startswith(f"{state.player.name} a pris 2 "), ref.problem
    assert "mais : Prendre 2 jetons demande au moins 4" in ref.problem
