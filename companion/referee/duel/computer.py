"""Splendor Duel's computer seat: the search's turn, said as what to move on the table.

The :class:`~companion.referee.computer.Brain` of Splendor Duel.  The steps
follow a Duel turn's order: the tokens taken (by cell, as the board's
reminder strip names them) and the privilege the opponent gains, the gold
and the card reserved, or the card bought with its payment back to the bag
and its abilities (the joker's colour, the token taken from the board, the
token stolen), the pyramid refilled, the royals, the tokens returned and a
"play again".  The computer never spends privileges and never replenishes
by choice (see :mod:`companion.analysis.seat`), so those steps never come up
for it.

A candidate is the computer's turn when one of its turns is the planned one
with only the card revealed differing (the pyramid refills from the table).
"""

from __future__ import annotations

from dataclasses import replace

from companion.analysis.seat import Choice, Level, duel_choice
from companion.i18n import _
from companion.i18n.words import gem_name, join_words
from companion.referee.duel.candidates import Candidate
from companion.referee.duel.compare import Quirks, describe, differences
from companion.referee.duel.hooks import DUEL, DuelGame, Reading, _seen
from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import cell_name
from companion.rules.duel.state import GameState
from companion.rules.duel.tokens import DuelTokens, Token
from companion.rules.duel.turns import Buy, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.duel.view import view_of
from companion.rules.errors import RulesError


def token_name(kind: Token | None) -> str:
    """A Duel token in the player's language: the gem's name, "pearl" or "gold"."""
    if kind is None:
        return _("nothing")
    gem = kind.gem
    if gem is None:  # the pearl: no gem of Splendor's
        return _("pearl")
    return gem_name(gem)


def tokens_words(tokens: DuelTokens) -> str:
    """"2 red and 1 pearl"."""
    return join_words([f"{n} {token_name(kind)}" for kind, n in tokens.items() if n]) \
        or _("nothing")


def _card(card_id: str) -> str:
    return catalogue.card(card_id).describe()


def turn_steps(state: GameState, choice: Choice[Turn]) -> list[str]:
    """What to move for the planned turn, one step a line."""
    turn, example = choice.turn, choice.example
    me, them = state.player.name, state.opponent.name
    action = turn.action
    steps: list[str] = []
    if isinstance(action, Take):
        cells = join_words([
            _("the {token} on {cell}").format(token=token_name(state.board[c]),
                                              cell=cell_name(c))
            for c in action.cells
        ])
        steps.append(_("Take {cells} from the board to {name}").format(cells=cells, name=me))
    elif isinstance(action, ReserveCard | ReserveDeck):
        steps.append(_("Take the gold on {cell} from the board to {name}").format(
            cell=cell_name(action.gold), name=me))
        if isinstance(action, ReserveCard):
            where = state.find_in_pyramid(action.card)
            place = (_("pyramid level {level}, place {slot}").format(
                level=where[0] + 1, slot=where[1] + 1) if where else "")
            steps.append(_("Move {card} ({place}) to {name}'s reserved cards").format(
                card=_card(action.card), place=place, name=me))
        else:
            steps.append(_("Move the top card of the level {level} deck, face down, to"
                           " {name}'s reserved cards").format(level=action.level, name=me))
    elif isinstance(action, Buy):
        where = state.find_in_pyramid(action.card)
        place = (_("pyramid level {level}, place {slot}").format(
            level=where[0] + 1, slot=where[1] + 1) if where
            else _("{name}'s reserve").format(name=me))
        steps.append(_("Move {card} ({place}) to {name}'s cards").format(
            card=_card(action.card), place=place, name=me))
        if action.payment:
            steps.append(_("Pay {tokens}: from {name}'s tokens into the bag").format(
                tokens=tokens_words(action.payment), name=me))
        else:
            steps.append(_("It costs no tokens: {name}'s bonuses pay for it").format(name=me))
        if action.joker is not None:
            steps.append(_("Place it with {name}'s {colour} cards (joker)").format(
                name=me, colour=token_name(action.joker)))
        if action.token is not None:
            steps.append(_("Take the {token} on {cell} from the board (the card's ability)")
                         .format(token=token_name(state.board[action.token]),
                                 cell=cell_name(action.token)))
        if action.steal is not None:
            steps.append(_("Take 1 {token} from {them} (the card's ability)").format(
                token=token_name(action.steal), them=them))
    if example.reveal is not None and isinstance(action, ReserveCard | Buy):
        level = catalogue.card(action.card).level
        if state.find_in_pyramid(action.card) is not None:
            steps.append(_("Fill the empty pyramid place with the top card of the level"
                           " {level} deck, face up").format(level=level))
    for pick in turn.royals:
        steps.append(_("Take {royal} to {name}").format(
            royal=catalogue.royal(pick.royal).describe(), name=me))
        if pick.steal is not None:
            steps.append(_("Take 1 {token} from {them} (the royal's ability)").format(
                token=token_name(pick.steal), them=them))
    if turn.returned:
        steps.append(_("Return {tokens} from {name}'s tokens to the bag").format(
            tokens=tokens_words(turn.returned), name=me))
    try:
        after = state.apply(example)
    except RulesError:
        return steps
    gained = after.players[1 - state.current].privileges - state.opponent.privileges
    if gained > 0:
        steps.append(_("{them} takes {n} privilege(s)").format(them=them, n=gained))
    if not after.is_over() and after.current == state.current:
        steps.append(_("{name} plays again: wait for the next instructions").format(name=me))
    return steps


def _bare(turn: Turn) -> Turn:
    return replace(turn, reveal=None)


class DuelBrain:
    """Splendor Duel's answers to the computer seat (see :class:`Brain`)."""

    @property
    def game(self) -> DuelGame:
        return DUEL

    def choose(self, state: GameState, level: Level, seed: int,
               blind: bool) -> Choice[Turn] | None:
        return duel_choice(state, level, seed, blind)

    def steps(self, state: GameState, choice: Choice[Turn]) -> list[str]:
        return turn_steps(state, choice)

    def matches(self, plan: Turn, candidate: Candidate) -> Turn | None:
        for turn in candidate.turns:
            if _bare(turn) == plan:
                return turn
        return None

    def finish_answers(self, plan: Turn, candidate: Candidate, turn: Turn) -> dict[str, object]:
        return {"which": turn}

    def by_buttons(self, state: GameState, plan: Turn) -> tuple[dict[str, object], Candidate]:
        action = plan.action
        level = None
        if isinstance(action, ReserveCard | Buy):
            where = state.find_in_pyramid(action.card)
            if where is not None and state.decks[where[0]]:
                level = where[0] + 1
        # a candidate with nothing read: only the card revealed is asked
        return {"which": plan}, Candidate((plan,), (state,), 0.0, (), (level,))

    def differences(self, state: GameState, plan: Turn, reading: Reading,
                    quirks: Quirks) -> str:
        seen = _seen(state, reading, quirks)
        action = plan.action
        where = state.find_in_pyramid(action.card) \
            if isinstance(action, ReserveCard | Buy) else None
        if where is not None:  # the card revealed is the table's: take the one read there
            read = seen.pyramid[where[0]][where[1]]
            if isinstance(read, str) and read:
                plan = replace(plan, reveal=read)
        try:
            after = state.apply(plan)
        except (RulesError, ValueError):
            return ""  # not playable as read: the problem names what differs in general
        diffs = differences(view_of(after), seen, [p.name for p in state.players])
        return _("Expected: {turn}; but {what}").format(turn=plan, what=describe(diffs)) \
            if diffs else ""


#: The one Duel brain (it holds no state).
DUEL_BRAIN = DuelBrain()
