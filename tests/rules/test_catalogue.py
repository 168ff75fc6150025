from companion.rules.gems import COLOURS, Gem, Tokens
from companion.rules.splendor import catalogue


def test_ninety_cards_forty_thirty_twenty():
    levels = [c.level for c in catalogue.cards()]
    assert (levels.count(1), levels.count(2), levels.count(3)) == (40, 30, 20)


def test_each_level_has_8_6_4_cards_of_each_bonus():
    for level, per_colour in ((1, 8), (2, 6), (3, 4)):
        for gem in COLOURS:
            got = [c for c in catalogue.cards_of_level(level) if c.bonus is gem]
            assert len(got) == per_colour


def test_card_ids_are_stable_and_unique():
    ids = [c.id for c in catalogue.cards()]
    assert len(set(ids)) == 90
    # Pinned: the documented white level-1 card that sources once disputed.
    assert catalogue.card("1w4").cost == Tokens({Gem.BLUE: 2, Gem.BLACK: 2})
    assert catalogue.card("2r1").level == 2


def test_ten_nobles_worth_three():
    assert [n.id for n in catalogue.nobles()] == [f"n{i}" for i in range(1, 11)]
    assert all(n.points == 3 for n in catalogue.nobles())


def test_cards_nobles_and_states_survive_pickling() -> None:
    """Readings cross to vision's worker processes by pickle: values must round-trip."""
    import pickle

    from companion.rules.duel.tokens import DuelTokens

    for value in (*catalogue.cards()[:5], *catalogue.nobles()[:3], Tokens.parse("wwuy"),
                  DuelTokens.parse("2w1p")):
        back = pickle.loads(pickle.dumps(value))
        assert back == value and type(back) is type(value)
