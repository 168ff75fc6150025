"""What the companion says, worked out from the referee's effects and views.

The referee stays pure and silent: it emits effects (a turn confirmed, a
turn undone, the game over) and a :class:`~companion.screen.view.ScreenView`
after every event, with its texts already in the player's language.  The
:class:`Announcer` listens to both, as the screen does, and turns them into
:class:`~companion.speech.speaker.Utterance` values:

* a proposal: the turn in words, then "confirm or next";
* a menu (manual entry, tokens to return, the noble to choose, an unsure
  card): its question and the highlighted choice; NEXT then says only the
  newly highlighted choice and its place ("2 of 5");
* a refusal (a change no legal turn explains, a turn the rules refuse):
  its title and its reason;
* each confirmed turn, then who plays next; the final round when it
  begins; an undo;
* the standings: every place with points and cards, the winner's reason
  and the tie-break of every other place (:func:`~companion.i18n.words.standings_text`).

On demand, through the buttons, with gestures that mean nothing to the
referee (holding BACK stays "undo"): **hold NEXT** (2 s) reads the next
part of the table -- market level 1, level 2, level 3, the nobles, the
tokens and bonuses of the player to move, the scores -- one part per hold,
round and round; **hold CONFIRM** repeats the last prompt.  Any press cuts
what is being said short (the press's own effect is then announced).
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _, words
from companion.referee.machine import GameOver, TurnConfirmed, TurnUndone
from companion.rules.splendor.catalogue import Card
from companion.rules.splendor.state import WINNING_POINTS, GameState
from companion.screen.view import Mode, ScreenView
from companion.speech.speaker import Speaker, Utterance

#: The parts read aloud in turn by holding NEXT.
SECTIONS = ("market1", "market2", "market3", "nobles", "mine", "scores")


def describe_market_card(card: Card) -> str:
    """"1w3: white, 1 point, costs 1 blue, 2 red" for the ear."""
    parts = [card.id, words.gem_name(card.bonus)]
    if card.points:
        parts.append(words.points(card.points))
    parts.append(_("costs {cost}").format(cost=words.list_tokens(card.cost)))
    return ", ".join(parts[:1]) + ": " + ", ".join(parts[1:])


def section_text(state: GameState, section: str) -> str:
    """One part of the table in words (see :data:`SECTIONS`)."""
    if section.startswith("market"):
        level = int(section[-1])
        cards = [c for c in state.market[level - 1] if c is not None]
        head = _("Level {level} market, {n} left in the deck.").format(
            level=level, n=state.decks[level - 1]
        )
        body = ". ".join(describe_market_card(c) for c in cards) or _("empty")
        return f"{head} {body}."
    if section == "nobles":
        nobles = "; ".join(words.describe_noble(n) for n in state.nobles) or _("none")
        return _("Nobles: {nobles}.").format(nobles=nobles)
    if section == "mine":
        player = state.player
        held = words.list_tokens(player.tokens)
        bonus = words.list_tokens(player.bonuses)
        return _("{name}: tokens {tokens}; bonuses {bonuses}; {reserved} reserved.").format(
            name=player.name, tokens=held, bonuses=bonus, reserved=len(player.reserved)
        )
    scores = ", ".join(
        f"{p.name} {words.points(p.points)}" for p in state.players
    )
    return _("Scores: {scores}.").format(scores=scores)


class Announcer:
    """Feeds a :class:`Speaker` from the referee's effects and views; see the module doc."""

    def __init__(self, speaker: Speaker) -> None:
        self.speaker = speaker
        self._last_key: tuple[object, ...] | None = None
        self._last_prompt = ""
        self._section = -1

    # ---------------------------------------------------------------- inputs
    def after(self, view: ScreenView, effects: list[Any]) -> None:
        """After one referee event: announce its effects, then the view if it changed."""
        news = False
        for effect in effects:
            if isinstance(effect, TurnConfirmed):
                self.speaker.say(Utterance(self.turn_text(effect.before, effect.turn,
                                                          effect.after), "turn", keep=True))
            elif isinstance(effect, TurnUndone):
                self.speaker.say(Utterance(
                    _("Undone: {turn}").format(turn=words.describe_turn(effect.restored,
                                                                        effect.turn)),
                    "undo", keep=True))
            elif isinstance(effect, GameOver):
                self.speaker.say(Utterance(words.standings_text(effect.outcome), "standings",
                                           keep=True))
            news = news or isinstance(effect, TurnConfirmed | GameOver)
        if news and view.mode in (Mode.WAITING, Mode.END):
            # the turn's words already said who plays next (and the final round)
            self._last_key = self._key(view)
            return
        self.view(view)

    @staticmethod
    def _key(view: ScreenView) -> tuple[object, ...]:
        return (view.mode, view.title, view.text, view.menu, view.selected, view.candidate,
                view.note, view.spoken)

    def view(self, view: ScreenView) -> None:
        """Say the prompt of ``view`` if it is new (or its menu's new choice)."""
        key = self._key(view)
        if key == self._last_key:
            return
        last, self._last_key = self._last_key, key
        same_menu = (
            last is not None and view.mode is Mode.CHOICE and last[0] is Mode.CHOICE
            and last[1:4] == key[1:4]
        )
        text, kind, keep = self.prompt(view, only_choice=same_menu)
        if not text:
            return
        if not same_menu:
            self._last_prompt = text
        self.speaker.say(Utterance(text, kind, keep))

    def on_button(self, event: Any) -> bool:
        """A button event, before the referee sees it.  True when it was a speech gesture."""
        kind = getattr(getattr(event, "kind", None), "value", "")
        button = getattr(getattr(event, "button", None), "value", "")
        if kind == "hold" and button in ("next", "confirm"):
            self.speaker.stop()
            return True
        self.speaker.stop()  # a press: the player has heard enough
        return False

    def on_hold(self, event: Any, state: GameState | None) -> None:
        """The gestures of the module doc: hold NEXT reads on, hold CONFIRM repeats."""
        button = getattr(getattr(event, "button", None), "value", "")
        if button == "confirm":
            if self._last_prompt:
                self.speaker.say(Utterance(self._last_prompt, "repeat"))
            return
        if state is None:
            self.speaker.say(Utterance(_("No game yet."), "table"))
            return
        self._section = (self._section + 1) % len(SECTIONS)
        self.speaker.say(Utterance(section_text(state, SECTIONS[self._section]), "table"))

    # ---------------------------------------------------------------- words
    @staticmethod
    def turn_text(before: GameState, turn: Any, after: GameState) -> str:
        text = _("Confirmed: {turn}.").format(turn=words.describe_turn(before, turn))
        if after.end_triggered and not before.end_triggered:
            mover = after.players[before.current]
            text += " " + _(
                "Final round! {name} reached {points} points ({needed} needed):"
                " play until {last} has played"
            ).format(name=mover.name, points=mover.points, needed=WINNING_POINTS,
                     last=after.players[-1].name) + "."
        if not after.is_over():
            text += " " + _("{name} to play").format(name=after.player.name) + "."
        return text

    @staticmethod
    def prompt(view: ScreenView, only_choice: bool = False) -> tuple[str, str, bool]:
        """(words, kind, keep) for a view's prompt; "" when it has nothing to say."""
        if view.mode is Mode.PROPOSAL:
            ask = _("Confirm or next.") if view.hints.next else _("Confirm or back.")
            return f"{view.text}. {ask}", "proposal", False
        if view.mode is Mode.CHOICE and view.menu:
            item = view.menu[view.selected]
            where = _("{i} of {n}").format(i=view.selected + 1, n=len(view.menu))
            if only_choice:
                return f"{item}, {where}.", "choice", False
            lead = ". ".join(t for t in (view.title, view.text) if t)
            how = _("Next for the next choice, confirm to choose.")
            return f"{lead}. {item}, {where}. {how}", "menu", False
        if view.mode is Mode.ERROR:
            return f"{view.title}. {view.text}", "refusal", True
        if view.mode is Mode.SETUP:
            return ". ".join(t for t in (view.title, view.text) if t), "setup", False
        if view.mode is Mode.WAITING and view.spoken:  # a computer turn's steps, a hint
            lines = [view.title, *view.text.splitlines()]
            return " ".join(t if t.endswith((".", ":", "?", "!")) else f"{t}." for t in lines
                            if t), "steps", False
        if view.mode is Mode.WAITING and view.note and not view.note.startswith(
            tuple(p.name + ":" for p in (view.state.players if view.state else ()))
        ):
            return view.note, "note", False
        return "", "", False

