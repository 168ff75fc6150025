"""What the announcer says for each situation, from views and effects alone."""

from __future__ import annotations

from pathlib import Path

from companion.referee.machine import GameOver, TurnConfirmed, TurnUndone
from companion.rules.splendor.simulate import play_game
from companion.screen.view import ScreenView
from companion.speech.announcer import Announcer, section_text
from companion.speech.speaker import Speaker
from tests.speech.fakes import FakeVoice


def _announcer(tmp_path: Path) -> tuple[Announcer, Speaker]:
    speaker = Speaker(FakeVoice(), out_dir=tmp_path)
    return Announcer(speaker), speaker


def _said(speaker: Speaker) -> list[tuple[str, str, bool]]:
    assert speaker.wait(timeout=30)
    return [(u.kind, u.text, u.keep) for u in speaker.spoken]


def test_a_refusal_is_said_with_its_reason_and_kept(tmp_path: Path) -> None:
    _record, states = play_game(3, ("Ann", "Bob"), "greedy")
    announcer, speaker = _announcer(tmp_path)
    reason = "Ann: Take 2 needs at least 4 red in the supply; there are 3"
    announcer.after(ScreenView.error(states[5], reason), [])
    announcer.after(ScreenView.error(states[5], reason), [])  # the same view: said once
    assert _said(speaker) == [("refusal", f"That does not fit the rules. {reason}", True)]
    speaker.close()


def test_a_menu_says_its_question_then_only_the_new_choice(tmp_path: Path) -> None:
    _record, states = play_game(3, ("Ann", "Bob"), "greedy")
    announcer, speaker = _announcer(tmp_path)
    items = ("Return 1 white", "Return 1 blue", "Return 1 green")
    for selected in (0, 1):
        announcer.after(ScreenView.choice(states[4], "Ann: return 1 token", items, selected,
                                          "11 tokens held"), [])
    said = _said(speaker)
    assert said[0] == ("menu", "Ann: return 1 token. 11 tokens held. Return 1 white, 1 of 3."
                       " Next for the next choice, confirm to choose.", False)
    assert said[1] == ("choice", "Return 1 blue, 2 of 3.", False)
    speaker.close()


def test_turns_the_final_round_an_undo_and_the_standings(tmp_path: Path) -> None:
    record, states = play_game(2, ("Ann", "Bob"), "greedy")
    announcer, speaker = _announcer(tmp_path)
    final = next(i for i, s in enumerate(states[1:]) if s.end_triggered)
    before, turn, after = states[final], record.turns[final], states[final + 1]
    announcer.after(ScreenView.waiting(after), [TurnConfirmed(turn, before, after)])
    announcer.after(ScreenView.waiting(before), [TurnUndone(turn, before)])
    outcome = states[-1].outcome()
    assert outcome is not None
    announcer.after(ScreenView.end(states[-1]), [GameOver(outcome, states[-1])])
    said = _said(speaker)
    kinds = [k for k, _t, _keep in said]
    assert kinds[:2] == ["turn", "undo"] and kinds[-1] == "standings"
    assert "Final round!" in said[0][1] and said[0][1].endswith("to play.")
    assert said[1][1].startswith("Undone: ")
    assert all(keep for _k, _t, keep in said)
    speaker.close()


def test_the_table_read_aloud_part_by_part() -> None:
    _record, states = play_game(2, ("Ann", "Bob"), "greedy")
    state = states[10]
    market = section_text(state, "market2")
    assert market.startswith("Level 2 market, ")
    for card in state.market[1]:
        if card is not None:
            assert f"{card.id}: " in market
    assert all(n.id in section_text(state, "nobles") for n in state.nobles)
    mine = section_text(state, "mine")
    assert mine.startswith(f"{state.player.name}: tokens ") and "bonuses" in mine
    assert section_text(state, "scores") == "Scores: " + ", ".join(
        f"{p.name} {p.points} point{'s' if p.points != 1 else ''}" for p in state.players
    ) + "."


def test_a_computer_turn_and_a_hint_are_said_step_by_step(tmp_path: Path) -> None:
    from companion.referee.computer import ComputerReferee
    from companion.referee.machine import Key, Press
    from companion.referee.splendor.computer import SPLENDOR_BRAIN
    from companion.rules.splendor.deck import Deck

    state = Deck(7).deal(("Ann", "Bob"))
    ref = ComputerReferee(("Ann", "Bob"), brain=SPLENDOR_BRAIN, seats={"Ann": 1},
                          state=state, camera=False, hinted=[])  # type: ignore[var-annotated]
    announcer, speaker = _announcer(tmp_path)
    view = ref.view()
    assert view.spoken and view.title.startswith("Ann (computer")
    announcer.after(view, [])
    announcer.after(view, [])  # the same steps: said once
    said = _said(speaker)
    assert len(said) == 1 and said[0][0] == "steps"
    text = said[0][1]
    assert text.startswith("Ann (computer, level 1) plays: 1. ")
    assert all(line.split(". ", 1)[-1] in text for line in view.text.splitlines())
    speaker.close()
    human = ComputerReferee(("Ann", "Bob"), brain=SPLENDOR_BRAIN, seats={"Bob": 1},
                            state=state, camera=False, hinted=[])  # type: ignore[var-annotated]
    human.handle(Press(Key.BACK))
    hint = human.view()
    announcer, speaker = _announcer(tmp_path)
    announcer.after(hint, [])
    said = _said(speaker)
    assert said[0][0] == "steps" and said[0][1].startswith("Hint for Ann. Best: Ann ")
    assert "%" in said[0][1]
    speaker.close()
    plain = ScreenView.waiting(state)
    assert not plain.spoken
