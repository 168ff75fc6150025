"""How the network's guess joins the printed-feature decode (cards and nobles)."""

from __future__ import annotations

import numpy as np

from companion.rules.splendor import catalogue
from vision import card_net, noble_net
from vision.card_seen import Seen
from vision.confidence import SURE
from vision.learned.recognizer import Guess
from vision.observation import CardReading, NobleReading

C1, C2 = catalogue.card("1w1"), catalogue.card("1w2")


def test_agreement_is_surer_than_either_alone() -> None:
    got = card_net.join(CardReading("market.1.0", "card", C1, 0.9, 0.1, "1w3"),
                        Guess("1w1", 0.95, "1w2", 0.03))
    assert got.card == C1 and got.confidence > 0.99


def test_a_disagreement_on_colour_is_never_sure() -> None:
    other = "1k1"
    for p_net in (0.3, 0.6, 0.99):
        got = card_net.join(CardReading("market.1.0", "card", C1, 0.999, 0.1, "1w3"),
                            Guess(other, p_net, C1.id, 0.0))
        assert got.confidence < SURE["market cards"]
        assert got.card is None or got.card == C1
    strong = card_net.join(CardReading("market.1.0", "card", C1, 0.999, 0.1, "1w3"),
                           Guess(other, 0.99, C1.id, 0.01))
    assert strong.state == "unknown" and strong.runner_up == other


def test_on_numerals_the_decode_keeps_its_answer() -> None:
    decoded = CardReading("market.1.0", "card", C1, 0.999, 0.1, "1w3")
    assert card_net.join(decoded, Guess(C2.id, 0.8, C1.id, 0.2)) == decoded


def test_the_network_names_what_the_decode_left_unsure() -> None:
    unsure = CardReading("market.1.0", "unknown", None, 0.3, 0.2, "1w1")
    named = card_net.join(unsure, Guess("1w1", 0.995, "1w2", 0.004))
    assert named.state == "card" and named.card == C1 and named.confidence == 0.995
    still = card_net.join(unsure, Guess("1w1", 0.55, "1w2", 0.4))
    assert still.state == "unknown" and still.runner_up == "1w1"
    led_elsewhere = CardReading("market.1.0", "unknown", None, 0.3, 0.2, "1w3")
    held = card_net.join(led_elsewhere, Guess("1w1", 0.995, "1w2", 0.004))
    assert held.state == "unknown" and held.confidence <= 0.5


def test_an_empty_slot_and_an_unseen_face_keep_the_decodes_answer() -> None:
    empty = CardReading("market.1.0", "empty", None, 0.98)
    assert card_net.join(empty, Guess("1w1", 1.0, "1w2", 0.0)) == empty
    face = np.zeros((352, 252, 3), np.uint8)
    assert card_net.guess([face], [Seen(unseen="glare", glare=0.5)], 1) is None


def test_nobles_join_the_same_way() -> None:
    n1, n2 = catalogue.noble("n1"), catalogue.noble("n2")
    agree = noble_net.join(NobleReading("noble.0", "noble", n1, 0.9), Guess("n1", 0.9, "n2", 0.1))
    assert agree.noble == n1 and agree.confidence > 0.98
    clash = noble_net.join(NobleReading("noble.0", "noble", n1, 0.99), Guess("n2", 0.9, "n1", 0.1))
    assert clash.state == "unknown"
    alone = noble_net.join(NobleReading("noble.0", "unknown", None, 0.2),
                           Guess("n2", 0.97, "n1", 0))
    assert alone.noble == n2 and alone.confidence == 0.97
