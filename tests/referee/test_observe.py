"""Vision's Observation as the referee's reading: what is trusted and what is left unread."""

from __future__ import annotations

from dataclasses import replace

from companion.referee.splendor.observe import from_observation
from companion.referee.splendor.reading import predict
from companion.rules.gems import Tokens
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Turn
from tests.referee.referee_helpers import new_state, referee_at, show
from vision.observation import (
    CardReading,
    NobleReading,
    Observation,
    ReservedReading,
    TableauReading,
    TokenSlotReading,
    ZoneTokens,
)

LETTERS = "wugrky"


def _observation(state) -> Observation:
    """A perfect observation of ``state`` as the reader would give it."""
    cards = [
        CardReading(f"market.{level}.{s}", "card", card, 0.995)
        for level, row in enumerate(state.market, start=1)
        for s, card in enumerate(row)
    ]
    nobles = [NobleReading(f"noble.{i}", "noble", n) for i, n in enumerate(state.nobles)]
    nobles.append(NobleReading(f"noble.{len(nobles)}", "empty"))
    zones = [ZoneTokens("supply", dict(zip(LETTERS, state.supply.counts, strict=True)), 0, True)]
    reserved, tableau = [], []
    for p, player in enumerate(state.players, start=1):
        counts = dict(zip(LETTERS, player.tokens.counts, strict=True))
        zones.append(ZoneTokens(f"player{p}.tokens", counts, 0, True))
        for i in range(3):
            reserved.append(ReservedReading(f"player{p}.reserved.{i}", p, i < len(player.reserved)))
        for g, n in zip(LETTERS, player.bonuses.counts, strict=False):
            tableau.append(TableauReading(p, g, n, 0.99))
    return Observation(
        True, (100, 100), cards=tuple(cards), nobles=tuple(nobles), tokens=tuple(zones),
        reserved=tuple(reserved), tableau=tuple(tableau[: 5 * len(state.players)]),
    )


def test_a_perfect_observation_reads_as_the_predicted_table() -> None:
    state = new_state()
    reading = from_observation(_observation(state), 3)
    expected = predict(state)
    assert reading.supply == expected.supply and reading.market is not None
    assert [[c.best for c in row] for row in reading.market] == [
        [c.best for c in row] for row in expected.market or ()
    ]
    assert all(c.sure for row in reading.market for c in row)
    assert sorted(reading.nobles) == sorted(expected.nobles)
    assert [p.tokens for p in reading.players] == [p.tokens for p in expected.players]
    assert all(p.reserved == () for p in reading.players)


def test_unsure_zones_are_left_unread_not_guessed() -> None:
    state = new_state()
    obs = _observation(state)
    zones = list(obs.tokens)
    zones[0] = replace(zones[0], unknown=2, exact=False)
    cards = list(obs.cards)
    cards[5] = CardReading("market.2.1", "unknown", None, 0.0)
    cards[6] = CardReading("market.2.2", "card", catalogue.card("2u3"), 0.5, runner_up="2g1")
    nobles = list(obs.nobles)
    nobles[1] = NobleReading("noble.1", "unknown")
    obs = replace(obs, tokens=tuple(zones), cards=tuple(cards), nobles=tuple(nobles))
    reading = from_observation(obs, 3)
    assert reading.supply is None and reading.nobles is None
    assert reading.market is not None
    assert not reading.market[1][1].known
    unsure = reading.market[1][2]
    assert not unsure.sure and unsure.ids() == ("2u3", "2g1")


def test_an_uncalibrated_frame_is_an_abstention() -> None:
    reading = from_observation(Observation(False, (10, 10), reason="no marker"), 3)
    assert reading.abstained


def test_one_miscounted_token_still_gives_a_proposal_with_the_difference() -> None:
    state = new_state()
    ref = referee_at(state)
    after = predict(state.apply(Turn.parse("take wug")))
    assert after.supply is not None
    show(ref, replace(after, supply=after.supply + Tokens.parse("k")))
    assert str(ref.candidates[0].turn) == "take wug"
    assert "black" in ref.view().note


def _piles(state, player: int, wobble: dict[str, int] | None = None) -> tuple:
    """Pile readings of ``player``'s tokens (one pile a colour), counts off by ``wobble``."""
    from vision.observation import PileReading

    held = state.players[player - 1].tokens
    out = []
    for g, n in zip(LETTERS, held.counts, strict=True):
        n = max(0, n + (wobble or {}).get(g, 0)) if n else 0
        out.append(PileReading(f"player{player}.pile.{g}", f"player{player}.tokens",
                               g if n else None, n, 0.8))
    return tuple(out)


def test_piles_give_estimates_and_the_rules_pin_the_turn() -> None:
    """A player keeping piles: the take is found from which piles grew, though two of
    the counts are read one off; the rules give the exact counts."""
    state = new_state()
    after = state.apply(Turn.parse("take wug"))
    obs = _observation(after)
    zones = tuple(z for z in obs.tokens if z.zone != "player1.tokens")
    obs = replace(obs, tokens=zones, piles=_piles(after, 1, {"w": 1, "g": 1}))
    reading = from_observation(obs, 3)
    seat = reading.players[0]
    assert seat.tokens is None and seat.token_estimate == Tokens.parse("wwugg")
    # the supply was read exactly too; hide it so only the piles tell the colours
    reading = replace(reading, supply=None)
    ref = referee_at(state)
    show(ref, reading)
    assert str(ref.candidates[0].turn) == "take wug"


def test_a_pile_where_none_should_be_is_a_difference() -> None:
    from companion.referee.splendor.reading import differences, predict

    state = new_state().apply(Turn.parse("take wug"))
    seat = replace(predict(state).players[0], tokens=None,
                   token_estimate=Tokens.parse("wwugk"))
    reading = replace(predict(state), players=(seat, *predict(state).players[1:]))
    diff = differences(predict(state), reading)
    assert [d.where for d in diff] == ["player 1's token piles: black"]
    assert diff[0].seen == "about 1" and diff[0].weight == 1.0
    # a count one off is no difference; two off is half a difference per extra token
    seat = replace(seat, token_estimate=Tokens.parse("wwwug"))
    reading = replace(reading, players=(seat, *reading.players[1:]))
    assert [d.weight for d in differences(predict(state), reading)] == [0.5]


def test_wobbling_pile_counts_do_not_unsettle_the_table() -> None:
    from companion.referee.splendor.reading import PlayerReading, TableReading

    a = TableReading(players=(PlayerReading(token_estimate=Tokens.parse("wwu")),))
    b = TableReading(players=(PlayerReading(token_estimate=Tokens.parse("wu")),))
    c = TableReading(players=(PlayerReading(token_estimate=Tokens.parse("wk")),))
    assert a.key() == b.key() != c.key()


def test_a_reserved_row_cut_by_the_frame_edge_is_unread_not_counted() -> None:
    """Seen through the frame's edge, one reserved slot shows and the others do not:
    counting the one would say the player holds fewer cards than they do."""
    state = new_state()
    ann = replace(state.players[0], reserved=(catalogue.card("1w1"), catalogue.card("1u1")))
    state = replace(state, players=(ann, *state.players[1:]))
    obs = _observation(state)
    kept = tuple(r for r in obs.reserved if r.slot != "player1.reserved.1")
    obs = replace(obs, reserved=kept, unseen=("player1.reserved.1",))
    reading = from_observation(obs, 3)
    assert reading.players[0].reserved is None
    assert reading.players[1].reserved == ()


def _supply_slots(supply: Tokens, unsure: dict[str, str]) -> tuple[TokenSlotReading, ...]:
    """The supply's printed rows as the reader gives them, slot by slot; ``unsure``
    maps a slot id to ``"unknown"`` or a colour read below the sure threshold."""
    out = []
    for letter, n in zip(LETTERS, supply.counts, strict=True):
        for i in range(5 if letter == "y" else 7):
            sid = f"supply.{letter}.{i}"
            if sid in unsure and unsure[sid] == "unknown":
                out.append(TokenSlotReading(sid, "supply", "unknown", None, 0.2))
            elif sid in unsure:
                out.append(TokenSlotReading(sid, "supply", "token", unsure[sid], 0.1))
            elif i < n:
                out.append(TokenSlotReading(sid, "supply", "token", letter, 0.99))
            else:
                out.append(TokenSlotReading(sid, "supply", "empty", None, 0.99))
    return tuple(out)


def _centre_only(obs: Observation, unsure: dict[str, str], supply: Tokens) -> Observation:
    """``obs`` as the camera over the central mat gives it: no player's tokens, the
    supply slot by slot with ``unsure`` slots, so the zone is not exact."""
    zones = (ZoneTokens("supply", dict(zip(LETTERS, supply.counts, strict=True)),
                        sum(v == "unknown" for v in unsure.values()), not unsure),)
    return replace(obs, tokens=zones, token_slots=_supply_slots(supply, unsure),
                   tableau=(), reserved=())


def test_one_unsure_supply_slot_leaves_only_its_row_unread() -> None:
    state = new_state()
    obs = _centre_only(_observation(state), {"supply.r.2": "unknown"}, state.supply)
    reading = from_observation(obs, 3)
    assert reading.supply is None  # the zone as a whole is not exact
    want = list(state.supply.counts)
    want[3] = None  # red (w u g r k y)
    assert reading.supply_part == tuple(want)


def test_a_chip_named_unsurely_in_another_row_hides_its_own_colour_too() -> None:
    state = new_state()
    obs = _centre_only(_observation(state), {"supply.w.6": "k"}, state.supply)
    part = from_observation(obs, 3).supply_part
    assert part is not None and part[0] is None and part[4] is None
    assert part[1:4] == state.supply.counts[1:4]


def test_the_supply_colours_read_still_pin_the_take() -> None:
    """Only the supply tells a take when the players' areas are out of view: with
    the red row unread, white, blue and green still show which three were taken."""
    state = new_state()
    after = state.apply(Turn.parse("take wug"))
    obs = _centre_only(_observation(after), {"supply.r.0": "unknown"}, after.supply)
    reading = from_observation(obs, 3)
    ref = referee_at(state)
    show(ref, reading)
    assert str(ref.candidates[0].turn) == "take wug"
    assert ref.candidates[0].distance < ref.candidates[1].distance
    # with no supply colour read, nothing on the table shows a take at all
    blind = referee_at(state)
    show(blind, replace(reading, supply_part=None))
    assert not blind.candidates


def _world_game_states():  # type: ignore[no-untyped-def]
    from pathlib import Path

    from companion.rules.splendor.record import read_record

    text = (Path(__file__).parents[1] / "data" / "world-game" / "game.txt").read_text()
    game = read_record(text)
    states = [game.initial_state()]
    for turn in game.turns:
        states.append(states[-1].apply(turn))
    return game.turns, states


def test_a_bonus_only_buy_shows_through_the_readers_hint_for_the_new_card() -> None:
    """Turn 58 of the world game buys 1r5 with bonuses alone: no token moves, and the
    camera over the central mat sees only the market slot change.  When the reader
    abstains on the revealed card but leans to it (its hint), the turn is proposed
    with that card, asked; without the hint the table shows no change at all."""
    turns, states = _world_game_states()
    before, after = states[57], states[58]
    assert str(turns[57]) == "buy 1r5 reveal 1w1"
    seen = predict(after)
    row, slot = after.find_in_market("1w1") or (0, 0)
    market = [list(r) for r in seen.market or ()]
    market[row][slot] = replace(market[row][slot], candidates=(), hint="1w1")
    centre = replace(seen, market=tuple(tuple(r) for r in market),
                     players=tuple(type(p)() for p in seen.players))
    ref = referee_at(before)
    show(ref, centre)
    assert ref.candidates and str(ref.candidates[0].turn) == "buy 1r5 reveal 1w1"
    assert "reveal" in ref.candidates[0].ask  # a hint is a guess, never taken as read
    market[row][slot] = replace(market[row][slot], hint=None)
    blind = referee_at(before)
    show(blind, replace(centre, market=tuple(tuple(r) for r in market)))
    assert not blind.candidates


def test_a_free_buy_is_proposed_before_reserving_that_card_when_gold_is_unread() -> None:
    """With the players' areas out of view, buying 1r5 with bonuses alone and reserving
    it (taking a gold) differ only in the gold row; a lamp's glint on one gold chip
    leaves that row unread, and the two tie.  The buy comes first (a card one can have
    for nothing is bought); the reserve stays the next guess."""
    turns, states = _world_game_states()
    before, after = states[57], states[58]
    assert str(turns[57]) == "buy 1r5 reveal 1w1"
    seen = predict(after)
    assert seen.supply is not None
    centre = replace(seen, supply=None, supply_part=(*seen.supply.counts[:5], None),
                     players=tuple(type(p)() for p in seen.players))
    ref = referee_at(before)
    show(ref, centre)
    guesses = [str(c.turn) for c in ref.candidates]
    assert guesses[:2] == ["buy 1r5 reveal 1w1", "reserve 1r5 reveal 1w1"]


def test_a_stray_hint_on_an_unchanged_table_raises_no_problem() -> None:
    """A hint that is another card than the slot holds, with nothing else changed,
    weighs less than a misread: no buzz, the referee goes on watching."""
    _, states = _world_game_states()
    state = states[40]
    seen = predict(state)
    market = [list(r) for r in seen.market or ()]
    held = state.market[0][0]
    stray = next(c.id for c in state.unseen(1) if held is None or c.id != held.id)
    market[0][0] = replace(market[0][0], candidates=(), hint=stray)
    ref = referee_at(state)
    effects = show(ref, replace(seen, market=tuple(tuple(r) for r in market)))
    assert ref.phase.name == "WATCH" and not any(type(e).__name__ == "Buzz" for e in effects)
