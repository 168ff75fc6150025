"""Short three-button menus that build a Duel turn (or a new game's table).

The Splendor menus (:mod:`companion.referee.splendor.entry`) carried over to Duel: the
same :class:`~companion.referee.menu.Question` and
:class:`~companion.referee.menu.Option`, the same rule that each question
offers only what is legal given the answers so far, asked in the order the
rules build a turn (:class:`~companion.rules.duel.planner.TurnPlanner`):

1. privileges, one cell at a time, until "no more";
2. the replenish, then the token placed on each cell along the spiral;
3. the mandatory action: take (cell by cell along one line), reserve (the
   gold's cell, then the card or the deck), buy (where the card is, the card,
   the payment, then its joker colour / token / steal choices);
4. the card revealed in the pyramid (its colour, then the card);
5. each royal due (with its steal);
6. the tokens returned, one at a time.

Everything is a pure function of (state, answers): the state machine keeps
the answers in order, BACK drops the last one, and :func:`next_turn_step`
says what to ask next or returns the finished :class:`Turn` and state.
Answers are keyed ``privilege1``, ``draw3``, ``cell2``, ``return1``... so a
mapping keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.referee.menu import Finished, Option, Question
from companion.rules.duel import cards as catalogue
from companion.rules.duel.board import CELLS, SPIRAL, cell_name
from companion.rules.duel.cards import LEVELS, JewelCard
from companion.rules.duel.planner import TurnPlanner
from companion.rules.duel.position import ALL_TOKENS, PYRAMID_WIDTH
from companion.rules.duel.state import GameState, Hidden
from companion.rules.duel.tokens import KINDS, DuelTokens, Token
from companion.rules.duel.turns import Buy, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.errors import IllegalAction

#: The answer that ends a repeated step (no more privileges, the take is complete).
DONE = "done"


def card_label(card: JewelCard) -> str:
    """A card in a menu line: id, colour, points and crowns, cost."""
    colour = "joker" if card.is_joker else (card.colour.label if card.colour else "grey")
    bits = [card.id, colour]
    if card.points:
        bits.append(f"{card.points} pt")
    if card.crowns:
        bits.append(f"{card.crowns} crown{'s' if card.crowns > 1 else ''}")
    cost = str(card.cost) if card.cost else "free"
    return " · ".join(bits) + f" · costs {cost}"


def _cell_label(board: Sequence[Token | None], cell: int) -> str:
    kind = board[cell]
    return f"{cell_name(cell)} ({kind.label if kind else 'empty'})"


def _buy_label(buy: Buy) -> str:
    parts = []
    if buy.joker is not None:
        parts.append(f"joins {buy.joker.label}")
    if buy.token is not None:
        parts.append(f"token from {cell_name(buy.token)}")
    if buy.steal is not None:
        parts.append(f"steals a {buy.steal.label}")
    return ", ".join(parts) or "no choice"


def _pick_card(
    answers: Mapping[str, object], key: str, title: str, allowed: Sequence[JewelCard]
) -> str | Question:
    """One card among ``allowed``: first its colour, then the card (menus stay short)."""
    chosen = answers.get(key)
    if isinstance(chosen, str) and chosen in {c.id for c in allowed}:
        return chosen
    groups = sorted({_group(c) for c in allowed})
    group = answers.get(key + "/colour")
    if group not in groups:
        return Question(
            key + "/colour", title, tuple(Option(g.capitalize(), g) for g in groups),
            "First the card's colour (its bonus gem).",
        )
    cards = sorted((c for c in allowed if _group(c) == group), key=lambda c: c.id)
    return Question(key, title, tuple(Option(card_label(c), c.id) for c in cards))


def _group(card: JewelCard) -> str:
    return "joker" if card.is_joker else (card.colour.label if card.colour else "grey")


def next_turn_step(
    state: GameState, answers: Mapping[str, object]
) -> Question | Finished[Turn, GameState]:
    """The next question of the turn being entered, or the finished turn.

    Raises :class:`IllegalAction` when the answers fixed by a proposal (or a
    stale answer after an undo) do not fit the rules.
    """
    planner = TurnPlanner(state)
    name = state.player.name
    # 1. privileges
    for i in range(1, state.player.privileges + 1):
        cells = planner.privilege_cells()
        if not cells:
            break
        key = f"privilege{i}"
        value = answers.get(key)
        if value == DONE:
            break
        if not isinstance(value, int):
            board = planner.table.board
            title = f"Did {name} use a privilege?" if i == 1 else "Another privilege?"
            return Question(
                key, title,
                (Option("No" if i == 1 else "No more", DONE),
                 *(Option(f"Take {_cell_label(board, c)}", c) for c in cells)),
            )
        planner.use_privilege(value)
    # 2. replenish
    if planner.can_replenish():
        choice = answers.get("replenish")
        must = planner.must_replenish()
        if choice not in (True, False) or (must and choice is False):
            options = [Option("Replenish the board", True)]
            if not must:
                options.insert(0, Option("No replenish", False))
            return Question("replenish", f"Did {name} replenish the board?", tuple(options))
        if choice:
            asked = _draw_step(planner, answers)
            if asked is not None:
                return asked
    # 3. the mandatory action
    step = _action(state, planner, answers)
    if isinstance(step, Question):
        return step
    planner.play(step)
    # 4. the reveal
    level = planner.reveal_level()
    reveal: str | None = None
    if level is not None:
        unseen = [
            c for c in state.unseen(level) if c not in planner.table.seen()
        ]
        picked = _pick_card(answers, "reveal", f"Which level {level} card was revealed?", unseen)
        if isinstance(picked, Question):
            return picked
        reveal = picked
        planner.reveal(reveal)
    # 5. royals
    n = 0
    while planner.royals_due():
        n += 1
        picks = planner.royal_options()
        value = answers.get(f"royal{n}")
        pick = next((p for p in picks if p == value), None)
        if pick is None:
            return Question(
                f"royal{n}", f"{name} takes a royal card: which?",
                tuple(Option(str(p), p) for p in picks),
            )
        planner.take_royal(pick)
    # 6. returns
    count = planner.tokens_to_return()
    back: list[Token] = []
    for i in range(1, count + 1):
        left = planner.held() - DuelTokens.of(*back)
        value = answers.get(f"return{i}")
        if not isinstance(value, Token) or not left[value]:
            return Question(
                f"return{i}", f"{name} returns a token to the bag ({i} of {count})",
                tuple(Option(k.label.capitalize(), k) for k in KINDS if left[k]),
                "Over 10 tokens: return to the bag.",
            )
        back.append(value)
    turn, after = planner.finish(DuelTokens.of(*back))
    return Finished(turn, after)


def _draw_step(planner: TurnPlanner[GameState], answers: Mapping[str, object]) -> Question | None:
    """The token placed on each empty cell along the spiral (``draw1``, ``draw2``...);
    None once every answer is there, the planner then replenished."""
    bag = planner.bag()
    empty = [c for c in SPIRAL if planner.table.board[c] is None][: bag.total()]
    draw: list[Token] = []
    for i, cell in enumerate(empty, start=1):
        left = bag - DuelTokens.of(*draw)
        value = answers.get(f"draw{i}")
        if not isinstance(value, Token) or not left[value]:
            # the cells further on already answered (read by the camera) hold theirs
            later = DuelTokens.of(*(v for j in range(i + 1, len(empty) + 1)
                                    if isinstance(v := answers.get(f"draw{j}"), Token)))
            if left.covers(later) and (left - later).total():
                left = left - later
            kinds = [k for k in KINDS if left[k]]
            if len(kinds) == 1:
                draw.append(kinds[0])
                continue
            return Question(
                f"draw{i}", f"Which token went on {cell_name(cell)}?",
                tuple(Option(k.label.capitalize(), k) for k in kinds),
                f"Replenishing along the spiral: token {i} of {bag.total()}.",
            )
        draw.append(value)
    planner.replenish(draw)
    return None


def next_refill_step(state: GameState, answers: Mapping[str, object]) -> Question | GameState:
    """The next question of a replenish entered alone, or the position it leads to
    (:meth:`~companion.rules.duel.planner.TurnPlanner.midway`: the mover still to act).

    The same ``draw<i>`` questions as a whole turn's replenish; a computer seat's
    forced refill is entered so, and its action planned on the board it leaves.
    Raises :class:`IllegalAction` when the bag is empty.
    """
    planner = TurnPlanner(state)
    if not planner.can_replenish():
        raise IllegalAction("The bag is empty, so the board cannot be replenished")
    asked = _draw_step(planner, answers)
    return asked if asked is not None else planner.midway()


def refill_answers(state: GameState, board: Sequence[str | None]) -> dict[str, object]:
    """The ``draw<i>`` answers a read board gives for a replenish from ``state``: the
    tokens read on the cells the spiral fills, while the bag holds them; a cell
    not read (unsure, or emptied again) is left to ask."""
    bag = state.bag
    empty = [c for c in SPIRAL if state.board[c] is None][: bag.total()]
    answers: dict[str, object] = {}
    drawn: list[Token] = []
    for i, cell in enumerate(empty, start=1):
        letter = board[cell]
        if not letter:
            continue
        kind = Token.from_letter(letter)
        if not (bag - DuelTokens.of(*drawn))[kind]:
            break
        drawn.append(kind)
        answers[f"draw{i}"] = kind
    return answers


_KINDS = (
    ("take", "Take tokens"),
    ("buy", "Buy a card"),
    ("reserve", "Reserve a pyramid card"),
    ("deck", "Reserve from a deck"),
)


def _action(
    state: GameState, planner: TurnPlanner[GameState], answers: Mapping[str, object]
) -> Take | ReserveCard | ReserveDeck | Buy | Question:
    name = state.player.name
    takes = planner.takes()
    reserves = planner.reserves()
    blind = [c for c in state.player.reserved if isinstance(c, Hidden)]
    buys = planner.buys()
    kinds = {
        "take": bool(takes),
        "buy": bool(buys) or bool(blind),
        "reserve": any(isinstance(r, ReserveCard) for r in reserves),
        "deck": any(isinstance(r, ReserveDeck) for r in reserves),
    }
    kind = answers.get("kind")
    if kind not in kinds or not kinds[str(kind)]:
        return Question(
            "kind", f"What did {name} do?",
            tuple(Option(label, k) for k, label in _KINDS if kinds[k]),
        )
    board = planner.table.board
    if kind == "take":
        return _take(planner, answers, takes, board)
    if kind in ("reserve", "deck"):
        golds = sorted({r.gold for r in reserves})
        gold = answers.get("gold")
        if gold not in golds:
            return Question(
                "gold", "Which gold was taken?",
                tuple(Option(_cell_label(board, g), g) for g in golds),
            )
        if kind == "deck":
            levels = [r.level for r in reserves if isinstance(r, ReserveDeck) and r.gold == gold]
            level = answers.get("deck")
            if level not in levels:
                return Question(
                    "deck", "From which deck?",
                    tuple(Option(f"Level {lv} deck", lv) for lv in levels),
                )
            assert isinstance(level, int) and isinstance(gold, int)
            return ReserveDeck(level, gold)
        allowed = [catalogue.card(r.card) for r in reserves if isinstance(r, ReserveCard)]
        picked = _pyramid_card(state, answers, allowed, "Which card was reserved?")
        if isinstance(picked, Question):
            return picked
        assert isinstance(gold, int)
        return ReserveCard(picked, gold)
    return _buy(state, planner, answers, buys, blind)


def _take(
    planner: TurnPlanner[GameState], answers: Mapping[str, object], takes: Sequence[Take],
    board: Sequence[Token | None],
) -> Take | Question:
    chosen: list[int] = []
    legal = {frozenset(t.cells) for t in takes}
    for i in range(1, 4):
        value = answers.get(f"cell{i}")
        current = frozenset(chosen)
        if value == DONE and current in legal:
            break
        extend = sorted(
            c for c in CELLS if c not in current and any(current | {c} <= t for t in legal)
        )
        if not isinstance(value, int) or value not in extend:
            options = [Option(f"{_cell_label(board, c)}", c) for c in extend]
            if current in legal:
                options.insert(0, Option("That is all", DONE))
            title = "Which token was taken?" if i == 1 else "And which other token?"
            return Question(f"cell{i}", title, tuple(options), "Cell by cell, in one line.")
        chosen.append(value)
    return Take(tuple(chosen))


def _pyramid_card(
    state: GameState, answers: Mapping[str, object], allowed: Sequence[JewelCard], title: str,
) -> str | Question:
    """A pyramid card: its row, then the card in the row."""
    rows = sorted({where[0] for c in allowed if (where := state.find_in_pyramid(c.id))})
    row = answers.get("row")
    if row not in rows:
        return Question(
            "row", title,
            tuple(Option(f"Level {r + 1} row ({PYRAMID_WIDTH[r + 1]} places)", r) for r in rows),
        )
    in_row = [c for c in allowed if (w := state.find_in_pyramid(c.id)) and w[0] == row]
    value = answers.get("card")
    if value in {c.id for c in in_row}:
        assert isinstance(value, str)
        return value
    return Question("card", title, tuple(Option(card_label(c), c.id) for c in in_row))


def _buy(
    state: GameState, planner: TurnPlanner[GameState], answers: Mapping[str, object],
    buys: Sequence[Buy], blind: Sequence[Hidden],
) -> Buy | Question:
    name = state.player.name
    reserved_ids = {c.id for c in state.player.reserved if isinstance(c, JewelCard)}
    wheres = sorted(
        {"reserved" if b.card in reserved_ids else "pyramid" for b in buys}
        | ({"blind"} if blind else set())
    )
    where = answers.get("where")
    if where not in wheres:
        labels = {"pyramid": "From the pyramid", "reserved": "A reserved card",
                  "blind": "A card reserved face down"}
        return Question(
            "where", f"Which card did {name} buy?",
            tuple(Option(labels[w], w) for w in wheres),
        )
    card_id: str | Question
    if where == "pyramid":
        allowed = [catalogue.card(b.card) for b in buys if b.card not in reserved_ids]
        card_id = _pyramid_card(state, answers, allowed, "Which card was bought?")
    elif where == "reserved":
        allowed = [catalogue.card(b.card) for b in buys if b.card in reserved_ids]
        value = answers.get("card")
        card_id = (
            value if isinstance(value, str) and value in {c.id for c in allowed}
            else Question("card", "Which reserved card?",
                          tuple(Option(card_label(c), c.id) for c in allowed))
        )
    else:
        levels = {h.level for h in blind}
        unseen = [
            c for level in LEVELS if level in levels for c in state.unseen(level)
            if planner.table.affordable(c)
        ]
        if not unseen:
            raise IllegalAction(f"{name} cannot afford any card that may be reserved face down")
        card_id = _pick_card(answers, "card", "Which card was it?", unseen)
    if isinstance(card_id, Question):
        return card_id
    card = catalogue.card(card_id)
    payments = planner.payments(card)
    if not payments:
        raise IllegalAction(f"{name} cannot pay for {card.id}")
    pay = answers.get("payment")
    if pay not in payments:
        if len(payments) == 1:
            pay = payments[0]
        else:
            return Question(
                "payment", f"How did {name} pay for {card.id}?",
                tuple(Option(p.describe() if p else "free", p) for p in payments),
            )
    assert isinstance(pay, DuelTokens)
    options = planner.buy_options(Buy(card.id, pay), card)
    if len(options) == 1:
        return options[0]
    value = answers.get("choices")
    if value in options:
        assert isinstance(value, Buy)
        return value
    return Question(
        "choices", f"{card.id}'s abilities: what did {name} choose?",
        tuple(Option(_buy_label(b), b) for b in options),
    )


# ------------------------------------------------------------------- set-up
def next_setup_step(
    names: Sequence[str], answers: Mapping[str, object]
) -> Question | GameState:
    """The next question of a new game's table, or the state it sets up.

    ``answers`` holds ``cell<i>`` (a token letter for board cell ``i``) and
    ``pyramid<level>.<slot>`` (a card id) for every place; the places the
    camera read surely are given, the rest are asked here.
    """
    board: list[str] = []
    for cell in CELLS:
        value = answers.get(f"cell{cell}")
        if not isinstance(value, str) or len(value) != 1:
            placed = DuelTokens.of(*(Token.from_letter(b) for b in board))
            left = [k for k in KINDS if (ALL_TOKENS - _clip(placed))[k]] or list(KINDS)
            return Question(
                f"cell{cell}", f"Which token is on {cell_name(cell)}?",
                tuple(Option(k.label.capitalize(), k.letter) for k in left),
            )
        board.append(value)
    pyramid: list[list[str]] = []
    for level in LEVELS:
        row: list[str] = []
        for slot in range(1, PYRAMID_WIDTH[level] + 1):
            key = f"pyramid{level}.{slot}"
            value = answers.get(key)
            if not isinstance(value, str) or not value:
                taken = {v for k, v in answers.items() if k.startswith("pyramid") and "/" not in k}
                allowed = [c for c in catalogue.cards_of_level(level) if c.id not in taken]
                picked = _pick_card(
                    answers, key, f"Which card is level {level}, place {slot}?", allowed
                )
                if isinstance(picked, Question):
                    return picked
                value = picked
            row.append(value)
        pyramid.append(row)
    kinds = "".join(board[c] for c in SPIRAL)
    return GameState.new(list(names), kinds, pyramid)


def _clip(tokens: DuelTokens) -> DuelTokens:
    return DuelTokens(min(a, b) for a, b in zip(tokens.counts, ALL_TOKENS.counts, strict=True))

