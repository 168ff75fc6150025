"""The pure rules of Splendor, beside :mod:`companion.rules.duel` for Splendor Duel.

The same module names for the same job in both games: ``state`` (the
immutable game value), ``record`` (the replayable text record), ``outcome``,
``scoreboard`` (what the screen shows) and ``simulate`` (seeded self-play).
What both games share sits at the root of :mod:`companion.rules`: the engine
contract, the errors, the gems and the record format.

Once the root of :mod:`companion.rules` (Duel had its subpackage, Splendor
none): a newcomer now finds each game in the same shape.
"""
