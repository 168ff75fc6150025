"""How the network's guess joins the printed-feature decode (cards and nobles)."""

from __future__ import annotations

from unittest import mock

import numpy as np

from companion.rules.splendor import catalogue
from vision import card_net, noble_net
from vision.card_seen import Seen
from vision.confidence import is_sure
from vision.join_fit import JoinFit
from vision.learned.recognizer import Guess
from vision.observation import CardReading, NobleReading

C1, C2 = catalogue.card("1w1"), catalogue.card("1w2")


def _sure(reading: CardReading) -> bool:
    return reading.state == "card" and is_sure("market cards", reading.confidence, "card")


def test_the_case_names_how_decode_and_network_stand() -> None:
    def case(state: str, card: str | None, led: str | None, net: str) -> str:
        answer = CardReading("market.1.0", state, catalogue.card(card) if card else None,
                             0.9, 0.1, led)
        return card_net.case_of(answer, Guess(net, 0.9, "1w8", 0.1))
    assert case("card", "1w1", "1w3", "1w1") == "agree"
    assert case("card", "1w1", None, "1w2") == "same colour"
    assert case("card", "1r2", None, "1r5") == "same pattern"  # numerals tell them apart
    assert case("card", "1w1", None, "1k1") == "other colour"
    assert case("unknown", None, "1w1", "1w1") == "abstained"
    assert case("unknown", None, None, "1w1") == "abstained"
    assert case("unknown", None, "1w3", "1w1") == "abstained on numerals"
    assert case("unknown", None, "1r5", "1r2") == "abstained on its pair"
    assert case("unknown", None, "1k3", "1w1") == "abstained elsewhere"


def test_the_shipped_fit_trusts_agreement_more_as_the_network_is_surer() -> None:
    fit = card_net.fitted()
    for case in ("agree", "abstained"):
        low, high = (fit.probability(case, p, 0.7) for p in (0.6, 0.999))
        assert high > low
    decoded = CardReading("market.1.0", "card", C1, 0.9, 0.1, "1w3")
    assert _sure(card_net.join(decoded, Guess("1w1", 0.9999, "1w2", 0.0)))


def test_a_disagreement_on_colour_is_never_sure() -> None:
    decoded = CardReading("market.1.0", "card", C1, 0.999, 0.1, "1w3")
    for p_net in (0.3, 0.6, 0.99, 0.9999):
        assert not _sure(card_net.join(decoded, Guess("1k1", p_net, C1.id, 0.0)))


def test_an_unsure_network_never_makes_an_unsure_decode_sure() -> None:
    for case_answer in (CardReading("market.1.0", "card", C1, 0.7, 0.1, "1w3"),
                        CardReading("market.1.0", "unknown", None, 0.3, 0.2, "1w1")):
        got = card_net.join(case_answer, Guess("1w1", 0.4, "1w2", 0.35))
        assert not _sure(got)


def test_the_join_names_the_network_card_unless_the_fit_says_otherwise() -> None:
    fit = JoinFit({c: 3.0 for c in card_net.CASES}, {c: 0.0 for c in card_net.CASES},
                           0.0, frozenset({"same colour"}), 0.9)
    decoded = CardReading("market.1.0", "card", C1, 0.9, 0.1, "1w3")
    with mock.patch.object(card_net, "fitted", lambda: fit):
        kept = card_net.join(decoded, Guess(C2.id, 0.9, C1.id, 0.1))
        assert kept.card == C1 and kept.runner_up == C2.id
        other = card_net.join(decoded, Guess("1k1", 0.9, C1.id, 0.1))
        assert other.card == catalogue.card("1k1") and other.runner_up == C1.id
    coin = JoinFit({c: 0.0 for c in card_net.CASES},
                            {c: 0.0 for c in card_net.CASES}, 0.0, frozenset(), 0.9)
    with mock.patch.object(card_net, "fitted", lambda: coin):
        unsure = card_net.join(decoded, Guess("1w1", 0.99, "1w2", 0.0))
        assert unsure.state == "unknown" and unsure.runner_up == "1w1"


def test_the_network_names_alone_only_an_unpaired_card_above_the_gate() -> None:
    fit = card_net.fitted()
    assert fit.alone <= 1.0  # the shipped fit found a gate
    sure_net = Guess("1w1", max(fit.alone, 0.999), "1w2", 0.0)
    named = card_net.alone("market.1.0", sure_net)
    assert named is not None and named.card == C1 and named.distance is None
    assert card_net.alone("market.1.0", Guess("1r2", 0.9999, "1r5", 0.0)) is None  # paired
    assert card_net.alone("market.1.0", Guess("1w1", fit.alone - 0.01, "1w2", 0.0)) is None
    assert card_net.alone("market.1.0", None) is None


def test_an_empty_slot_and_an_unseen_face_keep_the_decodes_answer() -> None:
    empty = CardReading("market.1.0", "empty", None, 0.98)
    assert card_net.join(empty, Guess("1w1", 1.0, "1w2", 0.0)) == empty
    face = np.zeros((352, 252, 3), np.uint8)
    assert card_net.guess([face], [Seen(unseen="glare", glare=0.5)], 1) is None


def test_the_noble_case_names_how_decode_and_network_stand() -> None:
    n1, n2 = catalogue.noble("n1"), catalogue.noble("n2")
    net = Guess("n1", 0.9, "n2", 0.1)
    assert noble_net.case_of(NobleReading("noble.0", "noble", n1, 0.9), net) == "agree"
    assert noble_net.case_of(NobleReading("noble.0", "noble", n2, 0.9), net) == "disagree"
    assert noble_net.case_of(NobleReading("noble.0", "unknown", None, 0.2), net) == "abstained"
    unread = NobleReading("noble.0", "unknown", None, 0.0)
    assert noble_net.case_of(unread, net, looked=False) == "abstained"


def test_nobles_join_by_their_own_fit() -> None:
    n1, n2 = catalogue.noble("n1"), catalogue.noble("n2")
    fit = JoinFit({c: 3.0 for c in noble_net.CASES}, {c: 0.0 for c in noble_net.CASES},
                  0.0, frozenset({"disagree"}), 0.9)
    with mock.patch.object(noble_net, "fitted", lambda: fit):
        clash = noble_net.join(NobleReading("noble.0", "noble", n1, 0.99),
                               Guess("n2", 0.9, "n1", 0.1))
        assert clash.noble == n1  # the fit found the decode right in that case
        alone = noble_net.join(NobleReading("noble.0", "unknown", None, 0.2),
                               Guess("n2", 0.97, "n1", 0))
        assert alone.noble == n2 and abs(alone.confidence - 1 / (1 + np.exp(-3.0))) < 1e-9
        unread = noble_net.join(NobleReading("noble.0", "unknown", None, 0.0),
                                Guess("n2", 0.999, "n1", 0), looked=False)
        assert unread == alone  # not looking at the squares is abstaining
    rare = JoinFit({c: 3.0 for c in noble_net.CASES}, {c: 0.0 for c in noble_net.CASES},
                   0.0, frozenset(), 0.9, frozenset({"abstained"}))
    with mock.patch.object(noble_net, "fitted", lambda: rare):
        assert noble_net.join(NobleReading("noble.0", "unknown", None, 0.2),
                              Guess("n2", 0.97, "n1", 0)).state == "unknown"  # names nothing
    empty = NobleReading("noble.0", "empty", None, 0.9)
    assert noble_net.join(empty, Guess("n2", 1.0, "n1", 0)) == empty


def test_the_shipped_noble_fit_trusts_agreement_over_a_network_alone() -> None:
    n1 = catalogue.noble("n1")
    agree = noble_net.join(NobleReading("noble.0", "noble", n1, 0.99),
                           Guess("n1", 0.999, "n2", 0.001))
    assert agree.noble == n1 and is_sure("nobles", agree.confidence, "n1")
    # where the decode abstained, the network alone names the tile, less trusted than
    # agreement (the design tables found it wrong there now and then: a tile half
    # under glare, a blank slot the slots network let through)
    alone = noble_net.join(NobleReading("noble.0", "unknown", None, 0.03),
                           Guess("n7", 1.0, "n1", 0.0))
    assert alone.noble is not None and alone.noble.id == "n7"
    assert alone.confidence < agree.confidence
    # a tile whose squares the decode never looked at: the network alone, as above
    unlooked = noble_net.join(NobleReading("noble.0", "unknown", None, 0.0),
                              Guess("n7", 1.0, "n1", 0.0), looked=False)
    assert unlooked.noble is not None and unlooked.noble.id == "n7"
    assert unlooked.confidence < agree.confidence
