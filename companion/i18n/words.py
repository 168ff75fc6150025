"""Turns, tokens, cards, nobles and standings in the player's language.

The same sentences as :mod:`companion.rules.splendor.describe` and
``Outcome.reason`` (in English they are word for word the same, so English
screens do not change), made through the catalogs so that the screen and
the speech say them in French too.  The rules stay free of gettext: they
keep their English for records, errors and tests; whatever reaches a player
is worded here.

French follows the publisher's quick rules (``splendor-quick-fr``): jetons,
cartes Développement, tuiles Noble, points de Prestige, la réserve (the
supply), and the gems by their stone (diamant, saphir, émeraude, rubis,
onyx, or), since French colour adjectives would have to agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from companion.i18n import _, ngettext, npgettext
from companion.rules.contract import Position
from companion.rules.gems import Gem, Tokens
from companion.rules.splendor import catalogue
from companion.rules.splendor.actions import Action, Buy, Pass, ReserveCard, ReserveDeck, Take, Turn
from companion.rules.splendor.catalogue import Card, Noble
from companion.rules.splendor.describe import from_reserve, points_after
from companion.rules.splendor.outcome import Outcome, Standing, Termination
from companion.rules.splendor.state import WINNING_POINTS, GameState


def gem_name(gem: Gem) -> str:
    """The gem as a player names it: "red" in English, "rubis" in French."""
    names = {
        Gem.WHITE: _("white"), Gem.BLUE: _("blue"), Gem.GREEN: _("green"),
        Gem.RED: _("red"), Gem.BLACK: _("black"), Gem.GOLD: _("gold"),
    }  # fmt: skip
    return names[gem]


def gem_count(gem: Gem, n: int) -> str:
    """"2 red" / "2 rubis", "1 white" / "1 diamant"."""
    forms = {
        Gem.WHITE: ngettext("{n} white", "{n} white", n),
        Gem.BLUE: ngettext("{n} blue", "{n} blue", n),
        Gem.GREEN: ngettext("{n} green", "{n} green", n),
        Gem.RED: ngettext("{n} red", "{n} red", n),
        Gem.BLACK: ngettext("{n} black", "{n} black", n),
        Gem.GOLD: ngettext("{n} gold", "{n} gold", n),
    }
    return forms[gem].format(n=n)


def join_words(parts: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c" ("a, b et c")."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return _("{items} and {last}").format(items=", ".join(parts[:-1]), last=parts[-1])


def describe_tokens(tokens: Tokens) -> str:
    """"1 white, 1 blue and 1 green", "nothing"."""
    return join_words([gem_count(gem, n) for gem, n in tokens.items() if n]) or _("nothing")


def list_tokens(tokens_: Tokens) -> str:
    """"2 red, 1 gold" (a list, as a menu shows it), "nothing"."""
    return ", ".join(gem_count(gem, n) for gem, n in tokens_.items() if n) or _("nothing")


def points(n: int) -> str:
    """"1 point", "3 points" ("3 points de Prestige")."""
    return ngettext("{n} point", "{n} points", n).format(n=n)


def short_points(n: int) -> str:
    """"3 points" where space is short (the standings' column): no "de Prestige"."""
    return npgettext("short", "{n} point", "{n} points", n).format(n=n)


def cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def nobles(n: int) -> str:
    return ngettext("{n} noble", "{n} nobles", n).format(n=n)


def tokens(n: int) -> str:
    return ngettext("{n} token", "{n} tokens", n).format(n=n)


def describe_card(card: Card) -> str:
    """"the level 2 red card (2 points)"; without points "the level 1 red card"."""
    text = _("the level {level} {gem} card").format(level=card.level, gem=gem_name(card.bonus))
    return f"{text} ({points(card.points)})" if card.points else text


def describe_cost(tokens_: Tokens) -> str:
    """"3 black + 2 red": a cost or a noble's requirement."""
    return " + ".join(gem_count(gem, n) for gem, n in tokens_.items() if n)


def describe_noble(noble: Noble) -> str:
    """"noble n4 (4 white + 4 blue)"."""
    return _("noble {id} ({need})").format(id=noble.id, need=describe_cost(noble.requirement))


def _gold_note(state: GameState) -> str:
    return _(" and takes 1 gold") if state.supply[Gem.GOLD] else _(" (no gold is left)")


def describe_action(state: GameState, action: Action) -> str:
    """The main action with the mover's name: "Ann takes 2 red"."""
    name = state.player.name
    if isinstance(action, Take):
        return _("{name} takes {tokens}").format(name=name, tokens=describe_tokens(action.gems))
    if isinstance(action, ReserveCard):
        card = catalogue.find_card(action.card)
        what = describe_card(card) if card else action.card
        return _("{name} reserves {what}").format(name=name, what=what) + _gold_note(state)
    if isinstance(action, ReserveDeck):
        return _("{name} reserves the top card of the level {level} deck, unseen").format(
            name=name, level=action.level
        ) + _gold_note(state)
    if isinstance(action, Buy):
        card = catalogue.find_card(action.card)
        what = describe_card(card) if card else action.card
        source = _(" from their reserve") if from_reserve(state, card) else ""
        paid = (
            _(" paying {tokens}").format(tokens=describe_tokens(action.payment))
            if action.payment
            else _(" for free with their bonuses")
        )
        return _("{name} buys {what}").format(name=name, what=what) + source + paid
    if isinstance(action, Pass):
        return _("{name} passes: no action is possible").format(name=name)
    raise TypeError(f"not an action: {action!r}")


def describe_turn_on(state: Position, turn: Turn) -> str:
    """:func:`describe_turn` for a position typed by the engine contract (the
    screen's): a Splendor turn can only be said on a Splendor table."""
    if not isinstance(state, GameState):
        raise TypeError(f"a Splendor turn cannot be said on a {type(state).__name__}")
    return describe_turn(state, turn)


def describe_turn(state: GameState, turn: Turn) -> str:
    """The whole turn in one sentence, for the player whose turn it is in ``state``."""
    parts = [describe_action(state, turn.action)]
    if turn.reveal:
        revealed = catalogue.find_card(turn.reveal)
        extra = ""
        if revealed is not None:
            level = _("level {level} {gem}").format(
                level=revealed.level, gem=gem_name(revealed.bonus)
            )
            extra = f" ({level}, {points(revealed.points)})" if revealed.points else f" ({level})"
        parts.append(_("{card} is revealed").format(card=f"{turn.reveal}{extra}"))
    if turn.returned:
        parts.append(_("returns {tokens}").format(tokens=describe_tokens(turn.returned)))
    noble = catalogue.find_noble(turn.noble) if turn.noble else None
    if turn.noble:
        if noble is None:
            parts.append(_("noble {id} visits").format(id=turn.noble))
        else:
            parts.append(
                _("{noble} visits: {points}").format(
                    noble=describe_noble(noble), points=points(noble.points)
                )
            )
    sentence = _("; ").join(parts)  # French sets a space before the semicolon
    after = points_after(state, turn, noble)
    if not state.final_round and after >= WINNING_POINTS > state.player.points:
        sentence += _("; reaches {points} points: final round").format(points=after)
    return sentence


# ------------------------------------------------------------------ standings
def ordinal(n: int) -> str:
    """"1st", "2nd" ("1er", "2e")."""
    if n == 1:
        return _("1st")
    if n % 10 == 2 and n % 100 != 12:
        return _("{n}nd").format(n=n)
    if n % 10 == 3 and n % 100 != 13:
        return _("{n}rd").format(n=n)
    if n % 10 == 1 and n % 100 != 11:
        return _("{n}st").format(n=n)
    return _("{n}th").format(n=n)


def _names(names: Sequence[str]) -> str:
    return join_words(list(names))


def outcome_reason(outcome: Outcome) -> str:
    """Who won and why, as ``Outcome.reason`` says it (rebuilt from the standings)."""
    standings = outcome.standings
    top = standings[0].points
    tied = [s for s in standings if s.points == top]
    winners = list(outcome.winners)
    fewest = min(s.cards for s in tied)
    if len(tied) == 1:
        reason = _("{name} wins with {points}.").format(name=winners[0], points=points(top))
    elif len(winners) == 1:
        others = [s for s in tied if s.name != winners[0]]
        reason = _(
            "{names} tie on {points}; {winner} wins with fewer development cards"
            " ({fewest} against {others})."
        ).format(
            names=_names([s.name for s in tied]), points=points(top), winner=winners[0],
            fewest=fewest, others=_names([str(s.cards) for s in others]),
        )
    else:
        reason = _(
            "{names} tie on {points} and {cards} development cards each: they share the victory."
        ).format(names=_names(winners), points=points(top), cards=fewest)
    if outcome.termination is Termination.NO_MOVES:
        reason = (
            _("No player could take any action, so the game is scored as it stands.")
            + " " + reason
        )
    return reason


def place_notes(outcome: Outcome) -> list[str]:
    """Why each place below the winners is where it is, when points alone do not say.

    One sentence for every pair of neighbours on the same points (the
    winners' own tie is the reason's business): fewer development cards
    place higher, and the same cards share the place.
    """
    notes = []
    standings: Sequence[Standing] = outcome.standings
    for above, below in itertools.pairwise(standings):
        if above.points != below.points or below.name in outcome.winners or above.rank == 1:
            continue  # points decide, or the reason already explains the winners' tie
        if above.cards < below.cards:
            notes.append(_(
                "{a} is {ra} and {b} {rb}: both have {points}, {a} bought fewer cards"
                " ({ca} against {cb})."
            ).format(a=above.name, b=below.name, ra=ordinal(above.rank), rb=ordinal(below.rank),
                     points=points(above.points), ca=above.cards, cb=below.cards))
        else:
            notes.append(_(
                "{a} and {b} share {rank} place: {points} and {cards} each."
            ).format(a=above.name, b=below.name, rank=ordinal(above.rank),
                     points=points(above.points), cards=cards(above.cards)))
    return notes


def standings_text(outcome: Outcome) -> str:
    """The whole result for the ear: every place, its points and cards, then the reasons."""
    lines = [
        _("{rank}: {name}, {points}, {cards}.").format(
            rank=ordinal(s.rank), name=s.name, points=points(s.points), cards=cards(s.cards)
        )
        for s in outcome.standings
    ]
    return " ".join([outcome_reason(outcome), *lines, *place_notes(outcome)])
