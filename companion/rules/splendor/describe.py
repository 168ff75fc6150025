"""Turns in words, for the screen, the records' review and the referee's prompts.

The notation (``buy 2r3 pay kkky reveal 2g5 noble n4``) is for machines and
records; a player at the table reads a sentence:

    Bob buys the level 2 red card (2 points) paying 3 black and 1 gold;
    2g5 is revealed; noble n4 (4 white + 4 blue) visits: 3 points

Design decisions:

* Pure and total: describing never applies the turn, so an illegal or
  half-known turn (a proposal the referee is about to reject) still gets
  words.  Only the catalogue is consulted; a card id that is not in it is
  shown as it is written.
* The card bought or reserved is named by what a player sees on it (level,
  colour, points), not by its id; the revealed card keeps its short id too
  because the next player checks it against the market.
* Lists read as English: "1 white, 1 blue and 1 green".
* The state is the one *before* the turn: it says who moves, whether gold
  comes with a reservation and whether the card is bought from the market or
  from the player's reserve.
* When the turn brings the mover to 15 points or more (and the final round
  has not begun yet) the sentence ends with "reaches N points: final round".
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.gems import Gem, Tokens
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.catalogue import Card, Noble
from companion.rules.splendor.state import WINNING_POINTS, GameState, Hidden


def join_words(parts: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c" (no Oxford comma, as the rulebook writes)."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def describe_tokens(tokens: Tokens) -> str:
    """"2 red", "1 white, 1 blue and 1 green", "nothing"."""
    return join_words([f"{n} {gem.label}" for gem, n in tokens.items() if n]) or "nothing"


def plural(n: int, word: str) -> str:
    """"1 point", "3 points"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_card(card: Card) -> str:
    """"the level 2 red card (2 points)"; cards without points just "the level 1 red card"."""
    points = f" ({plural(card.points, 'point')})" if card.points else ""
    return f"the level {card.level} {card.bonus.label} card{points}"


def describe_noble(noble: Noble) -> str:
    """"noble n4 (4 white + 4 blue)"."""
    need = " + ".join(f"{n} {gem.label}" for gem, n in noble.requirement.items() if n)
    return f"noble {noble.id} ({need})"


def describe_action(state: GameState, action: Action) -> str:
    """The main action alone, with the mover's name: "Ann takes 2 red"."""
    name = state.player.name
    if isinstance(action, Take):
        return f"{name} takes {describe_tokens(action.gems)}"
    if isinstance(action, ReserveCard):
        card = catalogue.find_card(action.card)
        what = describe_card(card) if card else action.card
        return f"{name} reserves {what}{_gold_note(state)}"
    if isinstance(action, ReserveDeck):
        return (
            f"{name} reserves the top card of the level {action.level} deck, unseen"
            f"{_gold_note(state)}"
        )
    if isinstance(action, Buy):
        card = catalogue.find_card(action.card)
        what = describe_card(card) if card else action.card
        source = " from their reserve" if from_reserve(state, card) else ""
        paid = (
            f" paying {describe_tokens(action.payment)}"
            if action.payment
            else " for free with their bonuses"
        )
        return f"{name} buys {what}{source}{paid}"
    if isinstance(action, Pass):
        return f"{name} passes: no action is possible"
    raise TypeError(f"not an action: {action!r}")


def from_reserve(state: GameState, card: Card | None) -> bool:
    """Whether the mover buys ``card`` from their reserve (it is not in the market,
    and they hold it face up or a blind card of its level)."""
    if card is None or state.find_in_market(card.id) is not None:
        return False
    held = state.player.reserved
    return card in held or Hidden(card.level) in held


def _gold_note(state: GameState) -> str:
    return " and takes 1 gold" if state.supply[Gem.GOLD] else " (no gold is left)"


def describe_turn(state: GameState, turn: Turn) -> str:
    """The whole turn in one sentence, for the player whose turn it is in ``state``."""
    parts = [describe_action(state, turn.action)]
    if turn.reveal:
        revealed = catalogue.find_card(turn.reveal)
        extra = ""
        if revealed is not None:
            extra = f" (level {revealed.level} {revealed.bonus.label}"
            extra += f", {plural(revealed.points, 'point')})" if revealed.points else ")"
        parts.append(f"{turn.reveal}{extra} is revealed")
    if turn.returned:
        parts.append(f"returns {describe_tokens(turn.returned)}")
    noble = catalogue.find_noble(turn.noble) if turn.noble else None
    if turn.noble:
        if noble is None:
            parts.append(f"noble {turn.noble} visits")
        else:
            parts.append(
                f"{describe_noble(noble)} visits: {plural(noble.points, 'point')}"
            )
    sentence = "; ".join(parts)
    points = points_after(state, turn, noble)
    if not state.final_round and points >= WINNING_POINTS > state.player.points:
        sentence += f"; reaches {points} points: final round"
    return sentence


def points_after(state: GameState, turn: Turn, noble: Noble | None) -> int:
    """The mover's points after the turn, computed without applying it."""
    points = state.player.points
    if isinstance(turn.action, Buy):
        card = catalogue.find_card(turn.action.card)
        points += card.points if card else 0
    if noble is not None:
        points += noble.points
    return points
