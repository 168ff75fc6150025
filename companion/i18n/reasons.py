"""The rules' refusals in the player's language.

``IllegalAction`` messages are made by :mod:`companion.rules`, which stays
pure and English (its messages are also the records' and the tests'
language).  A player who does not read English must still hear *why* a turn
is refused, so each message the rules can raise is matched here by its
English shape and re-worded through the catalog, its numbers, names and
card ids kept, its token lists ("2 red, 1 gold") translated.  A message no
pattern knows (a new rule) is shown as it is: English, but never lost.
A test (``tests/speech/test_reasons.py``) raises every refusal it can and
checks each one has a pattern.
"""

from __future__ import annotations

import re

from companion.i18n import N_, _, language
from companion.i18n.words import gem_count, gem_name
from companion.rules.gems import Gem

#: (the English message as a regex with named groups, its catalog template)
PATTERNS: tuple[tuple[str, str], ...] = (
    (r"The game is over; no more turns can be played",
     N_("The game is over; no more turns can be played")),
    (r"Gold can never be taken with a take action; reserve a card",
     N_("Gold can never be taken with a take action; reserve a card")),
    (r"Take needs at least one gem", N_("Take needs at least one gem")),
    (r"Take 2 needs at least (?P<gems>4 \w+) in the supply; there are (?P<n>\d+)",
     N_("Take 2 needs at least {gems} in the supply; there are {n}")),
    (r"Take either up to 3 gems of different colours or 2 of one colour, not (?P<gems>.+)",
     N_("Take either up to 3 gems of different colours or 2 of one colour, not {gems}")),
    (r"There is no (?P<gems>.+) left in the supply", N_("There is no {gems} left in the supply")),
    (r"Take 3 different gems: only when fewer than 3 colours are left may fewer be taken;"
     r" (?P<left>\d+) colours are left and you took (?P<took>\d+)",
     N_("Take 3 different gems: only when fewer than 3 colours are left may fewer be taken;"
        " {left} colours are left and you took {took}")),
    (r"You may hold at most (?P<limit>\d+) reserved cards; you hold (?P<held>\d+)",
     N_("You may hold at most {limit} reserved cards; you hold {held}")),
    (r"Card (?P<card>\S+) is not face up in the market",
     N_("Card {card} is not face up in the market")),
    (r"The level (?P<level>\d) deck is empty; there is no card to reserve",
     N_("The level {level} deck is empty; there is no card to reserve")),
    (r"Card (?P<card>\S+) is already on the table, so it cannot be the card you reserved blind"
     r" from the level (?P<level>\d) deck",
     N_("Card {card} is already on the table, so it cannot be the card you reserved blind"
        " from the level {level} deck")),
    (r"Card (?P<card>\S+) is neither face up in the market nor reserved by (?P<name>.+)",
     N_("Card {card} is neither face up in the market nor reserved by {name}")),
    (r"(?P<name>.+) cannot pay (?P<pay>.+): they hold (?P<held>.+)",
     N_("{name} cannot pay {pay}: they hold {held}")),
    (r"Buying (?P<card>\S+) costs (?P<price>.+) after bonuses; the payment gives too much"
     r" (?P<over>.+)",
     N_("Buying {card} costs {price} after bonuses; the payment gives too much {over}")),
    (r"Buying (?P<card>\S+) costs (?P<price>.+) after bonuses; paying (?P<pay>.+) leaves"
     r" (?P<short>\d+) to cover with gold, but (?P<gold>\d+) gold (?:was|were) paid",
     N_("Buying {card} costs {price} after bonuses; paying {pay} leaves {short} to cover"
        " with gold, but {gold} gold paid")),
    (r"Card (?P<card>\S+) came from (?P<name>.+)'s reserve; no market card is revealed",
     N_("Card {card} came from {name}'s reserve; no market card is revealed")),
    (r"The level (?P<level>\d) deck still has (?P<n>\d+) cards: name the card revealed to fill"
     r" the market",
     N_("The level {level} deck still has {n} cards: name the card revealed to fill the"
        " market")),
    (r"The level (?P<level>\d) deck is empty; no card can be revealed",
     N_("The level {level} deck is empty; no card can be revealed")),
    (r"Card (?P<card>\S+) is level (?P<level>\d); the empty slot is level (?P<slot>\d)",
     N_("Card {card} is level {level}; the empty slot is level {slot}")),
    (r"Card (?P<card>\S+) is already on the table", N_("Card {card} is already on the table")),
    (r"Passing is only allowed when no action is possible; (?P<action>.+) is possible",
     N_("Passing is only allowed when no action is possible; {action} is possible")),
    (r"(?P<name>.+) holds (?P<held>\d+) tokens and must return (?P<must>\d+) to come down to"
     r" (?P<limit>\d+); the turn returns (?P<back>\d+)",
     N_("{name} holds {held} tokens and must return {must} to come down to {limit};"
        " the turn returns {back}")),
    (r"(?P<name>.+) cannot return (?P<back>.+): they hold (?P<held>.+)",
     N_("{name} cannot return {back}: they hold {held}")),
    (r"Tokens are returned only above (?P<limit>\d+); (?P<name>.+) holds (?P<held>\d+)",
     N_("Tokens are returned only above {limit}; {name} holds {held}")),
    (r"A noble visit cannot be refused: (?P<names>.+) must visit (?P<name>.+)",
     N_("A noble visit cannot be refused: {names} must visit {name}")),
    (r"Noble (?P<id>\S+) is not on the table", N_("Noble {id} is not on the table")),
    (r"Noble (?P<id>\S+) \((?P<need>.+)\) cannot visit (?P<name>.+), whose bonuses are"
     r" (?P<bonuses>.+)",
     N_("Noble {id} ({need}) cannot visit {name}, whose bonuses are {bonuses}")),
)
_COMPILED = tuple((re.compile(pattern, re.DOTALL), template) for pattern, template in PATTERNS)
_GEMS = {gem.label: gem for gem in Gem}
_COUNTED = re.compile(r"\b(\d+) (white|blue|green|red|black|gold)\b")
_ALONE = re.compile(r"\b(white|blue|green|red|black|gold)\b")


def _words(value: str) -> str:
    """Token lists and colour names of a message part, in the current language."""
    value = _COUNTED.sub(lambda m: gem_count(_GEMS[m.group(2)], int(m.group(1))), value)
    value = _ALONE.sub(lambda m: gem_name(_GEMS[m.group(1)]), value)
    value = re.sub(r"\bnothing\b", _("nothing"), value)
    return re.sub(r" or ", " " + _("or") + " ", value)


def known(message: str) -> bool:
    """Whether a pattern matches ``message`` (so it can be translated)."""
    return any(rx.fullmatch(message) for rx, _t in _COMPILED)


#: The referee's own explanations of a table no legal turn explains (referee.splendor.explain):
#: their parts may hold a rules' refusal (``reason``), translated in turn.
TABLE_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"(?P<name>.+?) took (?P<gems>.+), but: (?P<reason>.+)",
     N_("{name} took {gems}, but: {reason}")),
    (r"(?P<name>.+?) bought (?P<card>\S+) paying (?P<gems>.+), but: (?P<reason>.+)",
     N_("{name} bought {card} paying {gems}, but: {reason}")),
    (r"(?P<name>.+?) reserved from the level (?P<level>\d) deck, but: (?P<reason>.+)",
     N_("{name} reserved from the level {level} deck, but: {reason}")),
    (r"(?P<name>.+?) reserved (?P<card>\S+), but: (?P<reason>.+)",
     N_("{name} reserved {card}, but: {reason}")),
    (r"(?P<name>.+?) passed, but: (?P<reason>.+)", N_("{name} passed, but: {reason}")),
    (r"No legal turn of (?P<name>.+) matches the table\. Closest: (?P<turn>.+?) — (?P<diff>.+)",
     N_("No legal turn of {name} matches the table. Closest: {turn} — {diff}")),
    (r"No legal turn of (?P<name>.+) matches the table",
     N_("No legal turn of {name} matches the table")),
    (r"Tokens do not add up: (?P<missing>.+) missing from the table and (?P<extra>.+) too many"
     r" on the table",
     N_("Tokens do not add up: {missing} missing from the table and {extra} too many on the"
        " table")),
    (r"Tokens do not add up: (?P<missing>.+) missing from the table",
     N_("Tokens do not add up: {missing} missing from the table")),
    (r"Tokens do not add up: (?P<extra>.+) too many on the table",
     N_("Tokens do not add up: {extra} too many on the table")),
    (r"(?P<name>.+?)'s tokens changed \((?P<before>.+) became (?P<after>.+)\) but it is"
     r" (?P<mover>.+)'s turn",
     N_("{name}'s tokens changed ({before} became {after}) but it is {mover}'s turn")),
)
_TABLE = tuple((re.compile(pattern, re.DOTALL), template) for pattern, template in TABLE_PATTERNS)


def translate_reason(message: str) -> str:
    """``message`` (a refusal of the rules or the referee) in the current language."""
    if language() == "en":
        return message
    for rx, template in _COMPILED:
        match = rx.fullmatch(message)
        if match is not None:
            values = {k: _words(v) for k, v in match.groupdict().items()}
            return _(template).format(**values)
    for rx, template in _TABLE:
        match = rx.fullmatch(message)
        if match is not None:
            values = {
                k: translate_reason(v) if k == "reason" else v if k in ("turn", "diff")
                else _words(v)
                for k, v in match.groupdict().items()
            }
            return _(template).format(**values)
    return message


#: Where a difference between the table and the rules was seen (see referee.splendor.reading).
_WHERE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"level (?P<level>\d) slot (?P<slot>\d)"), N_("level {level} slot {slot}")),
    (re.compile(r"the supply: (?P<gem>\w+)"), N_("the supply: {gem}")),
    (re.compile(r"the nobles"), N_("the nobles")),
    (re.compile(r"(?P<name>.+)'s tokens: (?P<gem>\w+)"), N_("{name}'s tokens: {gem}")),
    (re.compile(r"(?P<name>.+)'s token piles: (?P<gem>\w+)"), N_("{name}'s token piles: {gem}")),
    (re.compile(r"(?P<name>.+) reserved"), N_("{name} reserved")),
    (re.compile(r"(?P<name>.+)'s (?P<gem>\w+) cards"), N_("{name}'s {gem} cards")),
)


def translate_difference(where: str, seen: str, expected: str) -> str:
    """"level 1 slot 2 shows 1r3, expected 1r4" in the current language."""
    if language() != "en":
        for rx, template in _WHERE:
            match = rx.fullmatch(where)
            if match is not None:
                where = _(template).format(**{k: _words(v) for k, v in match.groupdict().items()})
                break
        seen, expected = _words(seen), _words(expected)
        seen = re.sub(r"\babout\b", _("about"), re.sub(r"\bnone\b", _("none"), seen))
        expected = re.sub(r"\bnone\b", _("none"), expected)
        seen = re.sub(r"\bempty\b", _("empty"), seen)
        expected = re.sub(r"\bempty\b", _("empty"), expected)
        seen = re.sub(r"(\d+) cards\b", lambda m: _("{n} cards").format(n=m.group(1)), seen)
        expected = re.sub(r"(\d+) cards\b", lambda m: _("{n} cards").format(n=m.group(1)),
                          expected)
    return _("{where} shows {seen}, expected {expected}").format(
        where=where, seen=seen, expected=expected
    )
