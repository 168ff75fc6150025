"""Splendor's computer seat: the search's turn, said as what to move on the table.

The :class:`~companion.referee.computer.Brain` of Splendor for
:class:`~companion.referee.computer.ComputerReferee`.  The steps name every
thing a person moves, in the order the rules have them (the main action,
the payment, the card revealed, the tokens returned, the noble), and name a
card by its place, colour, points and cost as well as its id, so nobody has
to read the notation to carry the turn out.

A candidate is the computer's turn when its action (payment included) is
the planned one and, where the table pinned them, its return and noble too:
the camera sees a token paid with gold rather than a gem, and that is not
the turn the computer chose.
"""

from __future__ import annotations

from companion.analysis.seat import Choice, Level, splendor_choice
from companion.i18n import _
from companion.i18n.words import describe_card, describe_cost, describe_tokens
from companion.referee.splendor.candidates import Candidate, _candidate
from companion.referee.splendor.hooks import SPLENDOR, Quirks, SplendorGame
from companion.referee.splendor.reading import TableReading, describe_differences
from companion.rules.gems import Gem
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.state import GameState, needs_reveal


def card_words(card_id: str) -> str:
    """"2g3, the level 2 green card (1 point), cost 3 black + 2 red"."""
    card = catalogue.find_card(card_id)
    if card is None:
        return card_id
    return _("{id}, {card}, cost {cost}").format(
        id=card.id, card=describe_card(card), cost=describe_cost(card.cost)
    )


def _place(state: GameState, card_id: str) -> str:
    where = state.find_in_market(card_id)
    if where is None:
        return ""
    return _("market level {level}, place {slot}").format(level=where[0] + 1, slot=where[1] + 1)


def turn_steps(state: GameState, turn: Turn) -> list[str]:
    """What to move for ``turn`` played from ``state``, one step a line."""
    name = state.player.name
    action = turn.action
    steps: list[str] = []
    if isinstance(action, Take):
        steps.append(_("Take {tokens} from the supply and put them with {name}'s tokens").format(
            tokens=describe_tokens(action.gems), name=name))
    elif isinstance(action, ReserveCard):
        steps.append(_("Move {card} ({place}) to {name}'s reserved cards").format(
            card=card_words(action.card), place=_place(state, action.card), name=name))
        if state.supply[Gem.GOLD]:
            steps.append(_("Give {name} 1 gold from the supply").format(name=name))
    elif isinstance(action, ReserveDeck):
        steps.append(_("Move the top card of the level {level} deck, face down, to {name}'s"
                       " reserved cards").format(level=action.level, name=name))
        if state.supply[Gem.GOLD]:
            steps.append(_("Give {name} 1 gold from the supply").format(name=name))
    elif isinstance(action, Buy):
        place = _place(state, action.card)
        where = place or _("{name}'s reserve").format(name=name)
        steps.append(_("Move {card} ({place}) to {name}'s cards").format(
            card=card_words(action.card), place=where, name=name))
        if action.payment:
            steps.append(_("Pay {tokens}: from {name}'s tokens back to the supply").format(
                tokens=describe_tokens(action.payment), name=name))
        else:
            steps.append(_("It costs no tokens: {name}'s bonuses pay for it").format(name=name))
    elif isinstance(action, Pass):
        steps.append(_("{name} passes: nothing to move").format(name=name))
    level = needs_reveal(state, action)
    if level is not None:
        steps.append(_("Fill the empty market place with the top card of the level {level}"
                       " deck, face up").format(level=level))
    if turn.returned:
        steps.append(_("Return {tokens} from {name}'s tokens to the supply").format(
            tokens=describe_tokens(turn.returned), name=name))
    if turn.noble:
        noble = catalogue.find_noble(turn.noble)
        need = describe_cost(noble.requirement) if noble else ""
        steps.append(_("Noble {id} ({need}) visits: move it to {name}").format(
            id=turn.noble, need=need, name=name))
    return steps


class SplendorBrain:
    """Splendor's answers to the computer seat (see :class:`Brain`)."""

    @property
    def game(self) -> SplendorGame:
        return SPLENDOR

    @property
    def prelude(self) -> None:
        """Splendor has no part of a turn that must be seen before it is planned."""
        return None

    def choose(self, state: GameState, level: Level, seed: int,
               blind: bool) -> Choice[Turn] | None:
        return splendor_choice(state, level, seed, blind)

    def steps(self, state: GameState, choice: Choice[Turn]) -> list[str]:
        return turn_steps(state, choice.turn)

    def matches(self, plan: Turn, candidate: Candidate) -> Turn | None:
        turn = candidate.turn
        if turn.action != plan.action:
            return None
        if "return" not in candidate.ask and turn.returned != plan.returned:
            return None
        if "noble" not in candidate.ask and turn.noble != plan.noble:
            return None
        return Turn(plan.action, turn.reveal, plan.returned, plan.noble)

    def finish_answers(self, plan: Turn, candidate: Candidate, turn: Turn) -> dict[str, object]:
        answers = SPLENDOR.asked_answers(candidate)
        answers["returned"] = plan.returned
        if plan.noble is not None:
            answers["noble"] = plan.noble
        return answers

    def by_buttons(self, state: GameState, plan: Turn) -> tuple[dict[str, object], None]:
        answers: dict[str, object] = {"action": plan.action, "returned": plan.returned}
        if isinstance(plan.action, Buy):
            answers["payment"] = plan.action.payment
        if plan.noble is not None:
            answers["noble"] = plan.noble
        return answers, None

    def unplanned(self, state: GameState) -> str:
        # never called: the search always has a turn (a pass at worst)
        return _("{name} has no turn to offer: play one for {name} as you think best.").format(
            name=state.player.name)

    def differences(self, state: GameState, plan: Turn, reading: TableReading,
                    quirks: Quirks) -> str:
        names = [p.name for p in state.players]
        cand = _candidate(state, plan.action, reading, names, quirks)
        if cand is None:
            return ""
        parts = []
        if cand.differences:
            parts.append(describe_differences(cand.differences))
        if "return" not in cand.ask and cand.turn.returned != plan.returned:
            parts.append(_("{name} should have returned {tokens}").format(
                name=state.player.name, tokens=describe_tokens(plan.returned)))
        return _("Expected: {turn}; but {what}").format(
            turn=plan, what="; ".join(parts)) if parts else ""


#: The one Splendor brain (it holds no state).
SPLENDOR_BRAIN = SplendorBrain()
