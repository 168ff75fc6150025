"""Splendor Duel rules speed: complete random games per second and
microseconds to list the legal actions of a mid-game state.

Baselines, measured in the same run: the time to copy the state's fields
with ``dataclasses.replace`` (the cheapest step every turn does) and to hash
the state (``digest``), and Splendor's 2-player games per second, so the
figures compare across machines as ratios.
"""

from __future__ import annotations

from dataclasses import replace

from timing import micro, per_second  # also puts the repository on sys.path

from companion.rules.duel.simulate import play_game


def main() -> None:
    record, states = play_game(11, ("A", "B"), "random")
    mid = states[len(states) // 2]
    base = micro(lambda: replace(mid, turn=mid.turn))
    digest = micro(mid.digest)
    legal = micro(mid.legal_actions)
    turn = record.turns[len(states) // 2]
    apply = micro(lambda: mid.apply(turn))
    print(f"baseline: dataclasses.replace of a Duel state   {base:8.1f} us")
    print(f"baseline: digest (hash) of a Duel state         {digest:8.1f} us")
    print(
        f"legal actions of a mid-game Duel state          {legal:8.1f} us"
        f"  ({legal / base:.0f}x replace, {len(mid.legal_actions())} actions)"
    )
    print(
        f"apply one recorded turn (full rules check)      {apply:8.1f} us"
        f"  ({apply / base:.0f}x replace)"
    )
    rate = per_second(lambda i: play_game(1000 + i, ("A", "B"), "random"))
    checked = per_second(lambda i: play_game(2000 + i, ("A", "B"), "random", check=True))
    print(f"complete random Duel games per second           {rate:8.1f}")
    print(f"  ... with every turn replayed through apply    {checked:8.1f}")
    try:
        from companion.rules.splendor.simulate import play_game as splendor_game
    except ImportError:  # the Splendor engine is optional for this figure
        return
    splendor = per_second(lambda i: splendor_game(1000 + i, 2, "random"))
    print(f"baseline: complete random 2-player Splendor games/s {splendor:8.1f}")


if __name__ == "__main__":
    main()
