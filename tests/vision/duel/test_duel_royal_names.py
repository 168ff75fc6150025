"""A royal is named among four pictures that share nothing: a lower score suffices
than for a jewel card among its level's look-alikes, never a small lead."""

from __future__ import annotations

import numpy as np

from vision.duel import cards as C


def _bank_scoring(face: np.ndarray, scores: tuple[float, ...]) -> C.CardBank:
    """A bank whose cards score ``scores`` against ``face`` (scores are dot products)."""
    d = C.descriptor(face)
    vectors = np.stack([s * d / float(d @ d) for s in scores]).astype(np.float32)
    return C.CardBank("test", tuple(f"r{i + 1}" for i in range(len(scores))), vectors)


def _face() -> np.ndarray:
    return np.random.default_rng(3).integers(0, 255, (120, 80, 3), dtype=np.uint8)


def test_a_royal_scoring_under_a_jewel_cards_bound_is_still_named() -> None:
    face = _face()
    bank = _bank_scoring(face, (0.6, 0.3, 0.1, 0.0))
    assert C.name_card([face], bank).value is None  # a jewel card's bound: unsure
    named = C.name_card([face], bank, C.ROYAL_MIN_SCORE, C.ROYAL_MIN_MARGIN)
    assert named.value == "r1"


def test_a_royal_too_faint_or_too_near_another_stays_unsure() -> None:
    face = _face()
    faint = _bank_scoring(face, (C.ROYAL_MIN_SCORE - 0.05, 0.1, 0.0, 0.0))
    assert C.name_card([face], faint, C.ROYAL_MIN_SCORE, C.ROYAL_MIN_MARGIN).value is None
    near = _bank_scoring(face, (0.6, 0.6 - C.ROYAL_MIN_MARGIN / 2, 0.0, 0.0))
    assert C.name_card([face], near, C.ROYAL_MIN_SCORE, C.ROYAL_MIN_MARGIN).value is None


def test_a_royal_scoring_as_well_as_a_jewel_card_needs_no_more_lead() -> None:
    face = _face()
    bank = _bank_scoring(face, (0.85, 0.85 - 0.05, 0.0, 0.0))  # led by 0.05 only
    assert C.name_card([face], bank).value == "r1"
    assert C.name_card([face], bank, C.ROYAL_MIN_SCORE, C.ROYAL_MIN_MARGIN).value == "r1"
