"""The token multiset both games share (:class:`companion.rules.gems.TokenCounts`).

Splendor's ``Tokens`` and Duel's ``DuelTokens`` are one class with two sets
of kinds; the payments and returns the two rulebooks agree on are written
once.  These properties check that shared code against brute force for both.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.duel.tokens import DuelTokens
from companion.rules.gems import TokenCounts, Tokens

CLASSES = (Tokens, DuelTokens)


def counts(size: int, most: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, most), min_size=size, max_size=size)


@st.composite
def price_and_held(draw: st.DrawFn) -> tuple[TokenCounts, TokenCounts]:
    cls = draw(st.sampled_from(CLASSES))
    size = len(cls.KINDS)
    price = cls([*draw(counts(size - 1, 4)), 0])
    held = cls(draw(counts(size, 4)))
    return price, held


def _brute_payments(price: TokenCounts, held: TokenCounts) -> set[TokenCounts]:
    """Every sub-multiset of ``held`` that pays ``price`` exactly, gold as a joker."""
    cls = type(held)
    gold = len(cls.KINDS) - 1
    found = set()
    for paid in itertools.product(*(range(n + 1) for n in held.counts)):
        kinds_ok = all(paid[i] <= price.counts[i] for i in range(gold))
        if kinds_ok and sum(paid) == price.total():
            found.add(cls(paid))
    return found


@given(price_and_held())
def test_payments_are_every_exact_payment_least_gold_first(case: tuple) -> None:
    price, held = case
    ways = held.payments_for(price)
    assert len(ways) == len(set(ways))
    assert set(ways) == _brute_payments(price, held)
    gold = [w.counts[-1] for w in ways]
    assert gold == sorted(gold)
    assert all(type(w) is type(held) and held.covers(w) for w in ways)


@given(st.sampled_from(CLASSES).flatmap(lambda c: st.tuples(st.just(c), counts(len(c.KINDS), 3))),
       st.integers(0, 3))
def test_returns_are_every_multiset_of_that_size_held(case: tuple, count: int) -> None:
    cls, values = case
    held = cls(values)
    options = held.returns(count)
    assert len(options) == len(set(options))
    assert all(held.covers(o) and o.total() == max(count, 0) for o in options)
    brute = {
        cls(c)
        for c in itertools.product(*(range(n + 1) for n in held.counts))
        if sum(c) == count
    }
    assert set(options) == brute


@given(st.sampled_from(CLASSES).flatmap(lambda c: st.tuples(st.just(c), counts(len(c.KINDS), 5))))
def test_text_round_trips_and_the_games_never_compare_equal(case: tuple) -> None:
    cls, values = case
    tokens = cls(values)
    assert cls.parse(str(tokens)) == tokens
    assert repr(tokens) == f"{cls.__name__}.parse({str(tokens)!r})"
    other = DuelTokens if cls is Tokens else Tokens
    assert tokens != other(values[: len(other.KINDS)])


@pytest.mark.parametrize(("cls", "size"), [(Tokens, 6), (DuelTokens, 7)])
def test_each_game_keeps_its_own_size_and_messages(cls: type[TokenCounts], size: int) -> None:
    with pytest.raises(ValueError, match=f"expected {size} counts, got {size + 1}"):
        cls([0] * (size + 1))
    with pytest.raises(AttributeError, match=f"{cls.__name__} is immutable"):
        cls().x = 1
