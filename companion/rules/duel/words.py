"""Duel turns and positions in words, for the screen and the CLI."""

from __future__ import annotations

from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import cell_name
from companion.rules.duel.position import Player, Position
from companion.rules.duel.table import Table, play_turn
from companion.rules.duel.tokens import Token
from companion.rules.duel.turns import Buy, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.errors import RulesError


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cells(state: Position, cells: tuple[int, ...]) -> str:
    parts = []
    for cell in cells:
        kind = state.board[cell]
        parts.append(f"{_label(kind)} ({cell_name(cell)})")
    return ", ".join(parts)


def _label(kind: Token | None) -> str:
    return kind.label if kind else "nothing"


def _board_before_action(state: Position, turn: Turn) -> list[Token | None]:
    """The board once the turn's privileges and replenish are done."""
    table = Table(state)
    try:
        table.use_privileges(turn.privileges)
        if turn.replenish is not None:
            table.replenish(turn.replenish)
    except RulesError:
        return list(state.board)
    return table.board


def describe_turn(state: Position, turn: Turn) -> str:
    """One sentence saying what ``turn`` does when played from ``state``.

    The consequences (privileges passed on, play again, victory) are read
    from the state after the turn when the turn is legal.
    """
    me, them = state.player, state.opponent
    try:
        after: Position | None = play_turn(state, turn)
    except RulesError:
        after = None
    parts: list[str] = []
    if turn.privileges:
        parts.append(
            f"uses {_plural(len(turn.privileges), 'privilege')} to take"
            f" {_cells(state, turn.privileges)}"
        )
    if turn.replenish is not None:
        parts.append(
            f"replenishes the board with {_plural(len(turn.replenish), 'token')}"
            f" ({them.name} takes a privilege)"
        )
    action = turn.action
    if isinstance(action, Take):
        board = _board_before_action(state, turn)
        text = "takes " + ", ".join(
            f"{_label(board[c])} ({cell_name(c)})" for c in action.cells
        )
        kinds = [board[c] for c in action.cells]
        if (len(kinds) == 3 and len(set(kinds)) == 1) or kinds.count(Token.PEARL) == 2:
            text += f" ({them.name} takes a privilege)"
        parts.append(text)
    elif isinstance(action, ReserveCard):
        card = catalogue.card(action.card)
        parts.append(f"takes the gold on {cell_name(action.gold)} and reserves {card.describe()}")
    elif isinstance(action, ReserveDeck):
        parts.append(
            f"takes the gold on {cell_name(action.gold)} and reserves the top card"
            f" of the level {action.level} deck"
        )
    elif isinstance(action, Buy):
        parts.append(_describe_buy(action, them.name))
    if turn.reveal:
        parts.append(f"{catalogue.card(turn.reveal).id} is revealed in the pyramid")
    for pick in turn.royals:
        royal = catalogue.royal(pick.royal)
        text = f"takes {royal.describe()}"
        if pick.steal is not None:
            text += f" and a {pick.steal.label} from {them.name}"
        parts.append(text)
    if turn.returned:
        parts.append(f"returns {turn.returned.describe()} to the bag")
    sentence = f"{me.name} " + "; ".join(parts)
    if after is not None:
        if after.result is not None:
            sentence += f". {after.result.reason}: {after.result.winner} wins"
        elif after.current == state.current:
            sentence += f". {me.name} plays again"
    return sentence + "."


def _describe_buy(action: Buy, opponent: str) -> str:
    card = catalogue.card(action.card)
    text = f"buys {card.describe()}"
    text += f", paying {action.payment.describe()}" if action.payment else " for free"
    if action.joker is not None:
        text += f"; it joins {action.joker.label}"
    if action.token is not None and card.colour is not None:
        text += f"; takes the {card.colour.label} on {cell_name(action.token)}"
    if action.steal is not None:
        text += f"; takes a {action.steal.label} from {opponent}"
    return text


def _player_line(p: Player, to_move: bool) -> str:
    colour, best = p.best_colour()
    marker = "*" if to_move else " "
    in_colour = f" ({best} on {colour.label})" if best else ""
    reserved = f", {len(p.reserved)} reserved" if p.reserved else ""
    royals = f", royals {' '.join(r.id for r in p.royals)}" if p.royals else ""
    return (
        f"{marker} {p.name}: {_plural(p.points, 'point')}{in_colour},"
        f" {_plural(p.crowns, 'crown')}, {_plural(p.tokens.total(), 'token')}"
        f" [{p.tokens}], {_plural(p.privileges, 'privilege')}{reserved}{royals}"
    )


def standings(state: Position) -> str:
    """A few lines for the screen: each player's score and holdings, then who is next."""
    lines = [_player_line(p, i == state.current) for i, p in enumerate(state.players)]
    if state.result is not None:
        lines.append(state.result.summary())
    else:
        lines.append(f"Turn {state.turn + 1}: {state.player.name} to move.")
    return "\n".join(lines)

