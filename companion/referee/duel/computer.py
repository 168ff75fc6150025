"""Splendor Duel's computer seat: the search's turn, said as what to move on the table.

The :class:`~companion.referee.computer.Brain` of Splendor Duel.  The steps
follow a Duel turn's order: the tokens taken (by cell, as the board's
reminder strip names them) and the privilege the opponent gains, the gold
and the card reserved, or the card bought with its payment back to the bag
and its abilities (the joker's colour, the token taken from the board, the
token stolen), the pyramid refilled, the royals, the tokens returned and a
"play again".  At level 5 the computer may first spend privileges (put back
above the board, the tokens they take named by cell); it never replenishes
by choice (see :mod:`companion.analysis.seat`).

When no mandatory action is possible the rules force a replenish first,
and nobody can know what the bag gives before the draw: :class:`DuelPrelude`
makes that refill the first part of the computer's turn ("Refill the board
from the bag (Ann takes 1 privilege)").  The draw is read off the board
along the spiral, or entered with the menus of a person's replenish
(:func:`~companion.referee.duel.entry.next_refill_step`); the search then
plans the rest on the board it left, and the turn confirmed and logged is
the whole of it (``replenish ... take ...``).

A candidate is the computer's turn when one of its turns is the planned one
with only the card revealed differing (the pyramid refills from the table).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace

from companion.analysis.seat import Choice, Level, duel_choice
from companion.i18n import _, ngettext
from companion.i18n.words import gem_name, join_words, points
from companion.referee.duel.candidates import Candidate
from companion.referee.duel.compare import Quirks, describe, differences
from companion.referee.duel.entry import next_refill_step, refill_answers
from companion.referee.duel.hooks import DUEL, DuelGame, Reading, _seen
from companion.referee.menu import Question
from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import SPIRAL, cell_name
from companion.rules.duel.planner import TurnPlanner
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


def card_words(card_id: str) -> str:
    """"the red card 2r4 (2 points, 1 crown)": what tells the card on the table apart.

    Shorter than the catalogue's English :meth:`~companion.rules.duel.cards.JewelCard.describe`
    and in the player's language: the step names where the card lies (its
    level is its row) and the payment names the tokens, so neither the level
    nor the cost is repeated, and the abilities have steps of their own.
    """
    card = catalogue.card(card_id)
    if card.is_joker:
        text = _("the joker card {id}").format(id=card.id)
    elif card.colour is None:
        text = _("the grey card {id}").format(id=card.id)
    else:
        text = _("the {colour} card {id}").format(id=card.id, colour=token_name(card.colour))
    bits = []
    if card.points:
        bits.append(points(card.points))
    if card.crowns:
        bits.append(crowns(card.crowns))
    if card.bonus == 2:
        bits.append(_("2 bonuses"))
    return f"{text} ({', '.join(bits)})" if bits else text


def _source(state: GameState, card_id: str) -> str:
    """"from pyramid level 2, place 4" or "from Ann's reserve"."""
    where = state.find_in_pyramid(card_id)
    if where is None:
        return _("from {name}'s reserve").format(name=state.player.name)
    return _("from pyramid level {level}, place {slot}").format(level=where[0] + 1,
                                                                slot=where[1] + 1)


def royal_words(royal_id: str) -> str:
    """"the royal card r1 (2 points)": its ability has a step of its own."""
    royal = catalogue.royal(royal_id)
    return _("the royal card {id} ({points})").format(id=royal.id, points=points(royal.points))


def crowns(n: int) -> str:
    """"1 crown", "2 crowns" ("2 couronnes")."""
    return ngettext("{n} crown", "{n} crowns", n).format(n=n)


def turn_steps(state: GameState, choice: Choice[Turn]) -> list[str]:
    """What to move for the planned turn, one step a line."""
    turn, example = choice.turn, choice.example
    me, them = state.player.name, state.opponent.name
    action = turn.action
    steps: list[str] = []
    if turn.privileges:
        steps.append(ngettext("{name} uses {n} privilege: put it back above the board",
                              "{name} uses {n} privileges: put them back above the board",
                              len(turn.privileges)).format(name=me, n=len(turn.privileges)))
        steps.append(_("For the privileges, take {cells} from the board to {name}").format(
            cells=_cells_words(state, turn.privileges), name=me))
    if isinstance(action, Take):
        steps.append(_("Take {cells} from the board to {name}").format(
            cells=_cells_words(state, action.cells), name=me))
    elif isinstance(action, ReserveCard | ReserveDeck):
        steps.append(_("Take the gold on {cell} from the board to {name}").format(
            cell=cell_name(action.gold), name=me))
        if isinstance(action, ReserveCard):
            steps.append(_("Move {card} {source} to {name}'s reserved cards").format(
                card=card_words(action.card), source=_source(state, action.card), name=me))
        else:
            steps.append(_("Move the top card of the level {level} deck, face down, to"
                           " {name}'s reserved cards").format(level=action.level, name=me))
    elif isinstance(action, Buy):
        steps.append(_("Move {card} {source} to {name}'s cards").format(
            card=card_words(action.card), source=_source(state, action.card), name=me))
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
            steps.append(_("Fill the empty place from the level {level} deck, face up")
                         .format(level=level))
    for pick in turn.royals:
        steps.append(_("Take {royal} to {name}").format(
            royal=royal_words(pick.royal), name=me))
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
    # the privileges spent went back above the board before any was gained
    mine = after.players[state.current].privileges \
        - (state.player.privileges - len(turn.privileges))
    theirs = after.players[1 - state.current].privileges - state.opponent.privileges
    if mine > 0 and theirs < 0:  # none left in the supply: taken from the opponent
        steps.append(ngettext("{name} takes {n} privilege from {them}",
                              "{name} takes {n} privileges from {them}", mine)
                     .format(name=me, n=mine, them=them))
    elif mine > 0:
        steps.append(ngettext("{name} takes {n} privilege", "{name} takes {n} privileges",
                              mine).format(name=me, n=mine))
    if theirs > 0:
        steps.append(ngettext("{name} takes {n} privilege", "{name} takes {n} privileges",
                              theirs).format(name=them, n=theirs))
    if not after.is_over() and after.current == state.current:
        steps.append(_("{name} plays again: wait for the next instructions").format(name=me))
    return steps


def _cells_words(state: GameState, cells: tuple[int, ...]) -> str:
    """"the red on c3 and the pearl on d2": the tokens on ``cells`` before the turn."""
    return join_words([_("the {token} on {cell}").format(token=token_name(state.board[c]),
                                                        cell=cell_name(c)) for c in cells])


def _bare(turn: Turn) -> Turn:
    return replace(turn, reveal=None)


def refill_steps(state: GameState) -> list[str]:
    """The forced refill in steps: from the bag, along the spiral, and the privilege the
    opponent takes (from the supply; else from the mover; none when they hold all 3)."""
    me, them = state.player.name, state.opponent.name
    if state.privileges:
        first = _("Refill the board from the bag ({them} takes 1 privilege)")
    elif state.player.privileges:
        first = _("Refill the board from the bag ({them} takes 1 privilege from {name})")
    else:
        first = _("Refill the board from the bag")
    return [first.format(name=me, them=them),
            _("Draw the tokens one at a time onto the empty cells, from the centre along"
              " the spiral")]


def _orders_on_emptied(state: GameState, draw: tuple[Token, ...],
                       after: GameState) -> list[tuple[Token, ...]]:
    """``draw`` first, then its other orders on the refilled cells empty in ``after``
    (at most 3: one action empties at most 3 cells)."""
    empty = [c for c in SPIRAL if state.board[c] is None][: len(draw)]
    holes = [i for i, c in enumerate(empty) if after.board[c] is None]
    orders = [draw]
    for kinds in dict.fromkeys(itertools.permutations([draw[i] for i in holes])):
        other = list(draw)
        for i, kind in zip(holes, kinds, strict=True):
            other[i] = kind
        if tuple(other) not in orders:
            orders.append(tuple(other))
    return orders


class DuelPrelude:
    """The refill from the bag that a Duel computer seat must make before its action
    (see :class:`~companion.referee.computer.Prelude`).

    Only the forced refill: when no mandatory action is possible the rules make
    the mover refill the board first (the rulebook's "special case"), and the
    computer cannot plan an action on tokens the bag has not yet given.  A
    refill by choice stays out of its candidates (:mod:`companion.analysis.seat`).
    The draw is read off the board along the spiral, or entered with the
    replenish menus a person's turn uses (:func:`~.entry.next_refill_step`).
    """

    def steps(self, state: GameState) -> list[str]:
        if not TurnPlanner(state).must_replenish():
            return []
        return refill_steps(state)

    def answers(self, state: GameState, reading: Reading, quirks: Quirks) -> dict[str, object]:
        return refill_answers(state, _seen(state, reading, quirks).board)

    def step(self, state: GameState, answers: Mapping[str, object]) -> Question | GameState:
        return next_refill_step(state, answers)

    def midways(self, state: GameState, candidate: Candidate) -> list[GameState]:
        """Every board the refill may have left: the tokens on the cells the action
        emptied again are in the mover's hand, in an order the table no longer shows
        (the candidate keeps one), and the computer's plan may depend on it."""
        found: dict[str, GameState] = {}
        for turn, after in zip(candidate.turns, candidate.afters, strict=True):
            if turn.replenish is None or turn.privileges:
                continue  # after a refill the computer spends no privileges
            for draw in _orders_on_emptied(state, turn.replenish, after):
                planner = TurnPlanner(state)
                planner.replenish(draw)
                mid = planner.midway()
                found.setdefault(mid.digest(), mid)
        return list(found.values())

    def join(self, state: GameState, midway: GameState, turn: Turn) -> Turn:
        empty = [c for c in SPIRAL if state.board[c] is None][: state.bag.total()]
        draw = tuple(midway.board[c] for c in empty)
        assert all(kind is not None for kind in draw), "a midway has every drawn cell full"
        return replace(turn, replenish=tuple(k for k in draw if k is not None))

    def undone_note(self) -> str:
        return _("Undone: the refill as read. The board is read again; CONFIRM to enter it")


class DuelBrain:
    """Splendor Duel's answers to the computer seat (see :class:`Brain`)."""

    @property
    def game(self) -> DuelGame:
        return DUEL

    @property
    def prelude(self) -> DuelPrelude:
        return DUEL_PRELUDE

    def choose(self, state: GameState, level: Level, seed: int,
               blind: bool) -> Choice[Turn] | None:
        return duel_choice(state, level, seed, blind)

    def steps(self, state: GameState, choice: Choice[Turn]) -> list[str]:
        return turn_steps(state, choice)

    def matches(self, plan: Turn, candidate: Candidate) -> Turn | None:
        for turn in candidate.turns:
            if _bare(turn) == plan:
                return turn
            if turn.replenish is not None and plan.replenish is not None \
                    and _bare(replace(turn, replenish=plan.replenish)) == plan:
                # the draw differs only on cells the action emptied again, which the
                # table cannot show: the draw seen before the action is the one
                return replace(turn, replenish=plan.replenish)
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

    def unplanned(self, state: GameState) -> str:
        # never called: a forced refill is the prelude, and after it a take is always
        # possible (Duel has no pass: companion.rules.duel.state)
        return _("{name} has no turn to offer: play one for {name} as you think best.").format(
            name=state.player.name)

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


#: The one forced refill (it holds no state).
DUEL_PRELUDE = DuelPrelude()
#: The one Duel brain (it holds no state).
DUEL_BRAIN = DuelBrain()
