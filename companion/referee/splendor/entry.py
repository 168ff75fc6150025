"""Short menus that build a turn (or a new game's table) with three buttons.

Entering a turn is a chain of small questions asked in the order the rules
enumerate a turn: what kind of action, which gems or which card, the payment,
the card revealed in its place, the tokens returned, the noble.  Each
question offers only what is legal given the answers so far, so a player can
never build an illegal turn, and no menu is long: a card is chosen by its row
then its slot, a revealed card by its colour then among the (at most eight)
cards of that colour and level; tokens are returned one at a time.

The same chain finishes a turn proposed from the camera: the parts the table
pinned are *fixed* answers and only the rest is asked (an unsure reveal among
its slot's candidates, the return above 10, the choice between two nobles).

Everything is a pure function of (state, answers): the state machine keeps
the answers as a tuple, BACK drops the last one, and :func:`next_turn_step`
says what to ask next or returns the finished :class:`Turn`.

This module is Splendor's (its market, supply, nobles and ``Turn``), typed
with Splendor's own ``GameState``: it is one of Splendor's hooks
(:class:`~companion.referee.splendor.hooks.SplendorGame`) into the one referee
machine (:mod:`companion.referee.machine`), which knows no game's state class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.i18n import N_, _
from companion.i18n.words import describe_noble, describe_tokens, gem_name, list_tokens
from companion.referee.menu import OTHER, Option, Question
from companion.rules.gems import COLOURS, TOKENS, Gem, Tokens
from companion.rules.hidden import Hidden
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.catalogue import LEVELS, Card
from companion.rules.splendor.state import MARKET_WIDTH, GameState, needs_reveal


def card_label(card: Card) -> str:
    pts = _("{n} pt · ").format(n=card.points) if card.points else ""
    cost = list_tokens(card.cost)
    return f"{card.id} · {gem_name(card.bonus)} · {pts}" + _("costs {cost}").format(cost=cost)


def _pick_card(
    answers: Mapping[str, object],
    key: str,
    title: str,
    allowed: Sequence[Card],
    offered: Sequence[str] = (),
) -> str | Question:
    """Ask for one card among ``allowed``: first among ``offered``, else colour then card."""
    chosen = _card_answer(answers, key)
    if chosen is not None:
        return chosen
    allowed_ids = {c.id for c in allowed}
    offered = [c for c in offered if c in allowed_ids]
    if offered and key not in answers:
        options = [Option(card_label(catalogue.card(c)), c) for c in offered]
        options.append(Option(_("Another card…"), OTHER))
        return Question(key, title, tuple(options), _("The camera is not sure of this card."))
    colour = answers.get(key + "/colour")
    if not isinstance(colour, Gem):
        colours = [g for g in COLOURS if any(c.bonus is g for c in allowed)]
        return Question(
            key + "/colour",
            title,
            tuple(
                Option(
                    _("{Gem} card ({L})").format(Gem=gem_name(g).capitalize(), L=g.letter.upper()),
                    g,
                )
                for g in colours
            ),
            _("First the card's colour (its bonus gem, top right)."),
        )
    cards = sorted((c for c in allowed if c.bonus is colour), key=lambda c: c.id)
    return Question(key + "/card", title, tuple(Option(card_label(c), c.id) for c in cards))


def _card_answer(answers: Mapping[str, object], key: str) -> str | None:
    value = answers.get(key)
    if isinstance(value, str) and value != OTHER:
        return value
    value = answers.get(key + "/card")
    return value if isinstance(value, str) else None


# ------------------------------------------------------------------- turns
_KINDS = (
    ("take3", N_("Take different gems")),
    ("take2", N_("Take 2 of one colour")),
    ("buy", N_("Buy a card")),
    ("reserve", N_("Reserve a face-up card")),
    ("deck", N_("Reserve from a deck")),
    ("pass", N_("Pass (no action possible)")),
)


def _kind_of(action: Action) -> str:
    if isinstance(action, Take):
        return "take2" if action.is_pair else "take3"
    if isinstance(action, Buy):
        return "buy"
    if isinstance(action, ReserveCard):
        return "reserve"
    if isinstance(action, ReserveDeck):
        return "deck"
    return "pass"


def _action_label(state: GameState, action: Action) -> str:
    if isinstance(action, Take):
        return f"{describe_tokens(action.gems)} ({action.gems})"
    if isinstance(action, ReserveDeck):
        return _("Level {level} deck ({n} cards)").format(
            level=action.level, n=state.decks[action.level - 1]
        )
    if isinstance(action, ReserveCard | Buy):
        return card_label(catalogue.card(action.card))
    return _("Pass")


def _row_of(state: GameState, card_id: str) -> int:
    where = state.find_in_market(card_id)
    return where[0] if where is not None else len(LEVELS)


def next_turn_step(
    state: GameState,
    answers: Mapping[str, object],
    reveal_hints: Sequence[str] = (),
) -> Question | Turn:
    """The next question of the turn being entered, or the finished turn."""
    name = state.player.name
    action = answers.get("action")
    if isinstance(action, tuple):  # ("blind", level): a card reserved blind is bought
        return _blind_step(state, answers, reveal_hints)
    if not isinstance(action, Take | Buy | ReserveCard | ReserveDeck | Pass):
        legal = state.legal_actions()
        blind = sorted({c.level for c in state.player.reserved if isinstance(c, Hidden)})
        kinds = {_kind_of(a) for a in legal} | ({"buy"} if blind else set())
        kind = answers.get("kind")
        if kind not in kinds:
            return Question(
                "kind",
                _("What did {name} do?").format(name=name),
                tuple(Option(_(label), k) for k, label in _KINDS if k in kinds),
            )
        if kind == "pass":
            action = Pass()
        elif kind in ("take3", "take2", "deck"):
            matching = [a for a in legal if _kind_of(a) == kind]
            return Question(
                "action",
                _("Which gems?") if kind != "deck" else _("Which deck?"),
                tuple(Option(_action_label(state, a), a) for a in matching),
            )
        else:
            of_kind = [a for a in legal if _kind_of(a) == kind]
            rows = sorted({_row_of(state, a.card) for a in of_kind})  # type: ignore[union-attr]
            if kind == "buy" and blind:
                rows = sorted(set(rows) | {len(LEVELS)})
            row = answers.get("row")
            if row not in rows:
                return Question(
                    "row",
                    _("Which card? First its row"),
                    tuple(
                        Option(
                            _("Level {level} market").format(level=r + 1)
                            if r < len(LEVELS)
                            else _("Reserved"),
                            r,
                        )
                        for r in rows
                    ),
                )
            options = [
                Option(_action_label(state, a), a)
                for a in of_kind
                if _row_of(state, a.card) == row  # type: ignore[union-attr]
            ]
            if row == len(LEVELS) and kind == "buy":
                options += [
                    Option(
                        _("The level {level} card reserved blind").format(level=lv), ("blind", lv)
                    )
                    for lv in blind
                ]
            return Question("action", _("Which card?"), tuple(options))
    return _after_main(state, action, answers, reveal_hints)


def _blind_step(
    state: GameState, answers: Mapping[str, object], reveal_hints: Sequence[str]
) -> Question | Turn:
    blind = answers["action"]
    assert isinstance(blind, tuple)
    level: int = blind[1]
    affordable = [c for c in state.unseen(level) if state.payments(c)]
    card_id = _pick_card(
        answers,
        "blindcard",
        _("Which level {level} card was reserved blind?").format(level=level),
        affordable,
    )
    if isinstance(card_id, Question):
        return card_id
    return _after_main(state, Buy(card_id, state.payments(card_id)[0]), answers, reveal_hints)


def _after_main(
    state: GameState, action: Action, answers: Mapping[str, object], reveal_hints: Sequence[str]
) -> Question | Turn:
    if isinstance(action, Buy):
        payment = answers.get("payment")
        payments = state.payments(action.card)
        if isinstance(payment, Tokens) and payment in payments:
            action = replace(action, payment=payment)
        elif len(payments) > 1:
            return Question(
                "payment",
                _("How was it paid?"),
                tuple(Option(f"{list_tokens(p)} ({p})", p) for p in payments),
            )
    reveal: str | None = None
    level = needs_reveal(state, action)
    if level is not None:
        picked = _pick_card(
            answers,
            "reveal",
            _("Which card now fills the level {level} slot?").format(level=level),
            sorted(state.unseen(level), key=lambda c: c.id),
            reveal_hints,
        )
        if isinstance(picked, Question):
            return picked
        reveal = picked
    mid = state.after_action(action, reveal)
    returned = answers.get("returned")
    if not isinstance(returned, Tokens):
        need = state.tokens_to_return(mid)
        back: list[Gem] = []
        for i in range(need):
            gem = answers.get(f"return{i + 1}")
            if not isinstance(gem, Gem):
                left = mid.player.tokens - Tokens.of(*back)
                return Question(
                    f"return{i + 1}",
                    _("{name} holds {n}: return {need}").format(
                        name=mid.player.name, n=mid.player.tokens.total(), need=need
                    ),
                    tuple(
                        Option(
                            _("{Gem} ({L}), {n} held").format(
                                Gem=gem_name(g).capitalize(), L=g.letter.upper(), n=left[g]
                            ),
                            g,
                        )
                        for g in TOKENS
                        if left[g]
                    ),
                    _("Token {i} of {need} to put back in the supply.").format(
                        i=i + 1, need=need
                    ),
                )
            back.append(gem)
        returned = Tokens.of(*back)
    after_return = mid.after_return(returned)
    qualifying = after_return.qualifying_nobles()
    noble = answers.get("noble")
    if len(qualifying) == 1:
        noble = qualifying[0].id
    elif qualifying and noble not in {n.id for n in qualifying}:
        return Question(
            "noble",
            _("Which noble visits {name}?").format(name=mid.player.name),
            tuple(Option(describe_noble(n), n.id) for n in qualifying),
            _("Two nobles qualify; the player chooses one."),
        )
    elif not qualifying:
        noble = None
    return Turn(action, reveal, returned, noble if isinstance(noble, str) else None)


# ------------------------------------------------------------------- setup
@dataclass(frozen=True, slots=True)
class Setup:
    """The table of a new game: the 12 market card ids by level, the noble ids."""

    market: tuple[tuple[str, ...], ...]
    nobles: tuple[str, ...]


def slot_key(row: int, slot: int) -> str:
    return f"market{row + 1}.{slot + 1}"


def next_setup_step(
    players: int,
    answers: Mapping[str, object],
    hints: Mapping[str, Sequence[str]] | None = None,
) -> Question | Setup:
    """Ask each market card then each noble not already answered."""
    hints = hints or {}
    taken: set[str] = set()
    for r in range(len(LEVELS)):
        for s in range(MARKET_WIDTH):
            card = _card_answer(answers, slot_key(r, s))
            if card:
                taken.add(card)
    market: list[tuple[str, ...]] = []
    for r, level in enumerate(LEVELS):
        row: list[str] = []
        for s in range(MARKET_WIDTH):
            key = slot_key(r, s)
            card = _card_answer(answers, key)
            if card is None:
                allowed = [c for c in catalogue.cards_of_level(level) if c.id not in taken]
                picked = _pick_card(
                    answers,
                    key,
                    _("Level {level} market, slot {slot}").format(level=level, slot=s + 1),
                    allowed,
                    hints.get(key, ()),
                )
                if isinstance(picked, Question):
                    return picked
                card = picked
            row.append(card)
        market.append(tuple(row))
    nobles: list[str] = []
    for i in range(players + 1):
        key = f"noble{i + 1}"
        value = answers.get(key)
        if not isinstance(value, str):
            options = [
                Option(describe_noble(n), n.id) for n in catalogue.nobles() if n.id not in nobles
            ]
            return Question(
                key, _("Noble {i} of {n}").format(i=i + 1, n=players + 1), tuple(options)
            )
        nobles.append(value)
    return Setup(tuple(market), tuple(nobles))
