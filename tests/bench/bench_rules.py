"""Splendor rules speed: complete random games per second (2 and 4 players)
and microseconds to list the legal actions of a mid-game state.

Baseline, measured in the same run: the time to copy the state's fields with
``dataclasses.replace`` (the cheapest step every turn does), so figures can be
compared across machines as ratios.
"""

from __future__ import annotations

from dataclasses import replace

from timing import micro, per_second  # also puts the repository on sys.path

from companion.rules.splendor.simulate import play_game


def main() -> None:
    _, states = play_game(11, 4, "random")
    mid = states[len(states) // 2]
    base = micro(lambda: replace(mid, turn=mid.turn))
    legal = micro(mid.legal_actions)
    print(f"baseline: dataclasses.replace of a state        {base:8.1f} us")
    print(f"legal actions of a mid-game 4-player state      {legal:8.1f} us"
          f"  ({legal / base:.0f}x baseline, {len(mid.legal_actions())} actions)")
    for players in (2, 4):
        rate = per_second(lambda i, p=players: play_game(1000 + i, p, "random"))
        print(f"complete random {players}-player games per second    {rate:8.1f}")


if __name__ == "__main__":
    main()
