"""Splendor's card catalogue, now :mod:`companion.rules.splendor.catalogue`.

Kept, as a re-export of what vision/ reads, until vision's import lines move
(the learned reader is work in progress there); tests/test_shape.py lists
this module as pending.  Import the new path in new code.
"""

from companion.rules.splendor.catalogue import Card as Card
from companion.rules.splendor.catalogue import Noble as Noble
from companion.rules.splendor.catalogue import card as card
from companion.rules.splendor.catalogue import cards as cards
from companion.rules.splendor.catalogue import cards_of_level as cards_of_level
from companion.rules.splendor.catalogue import noble as noble
from companion.rules.splendor.catalogue import nobles as nobles
