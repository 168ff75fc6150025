"""Where things are printed on a Splendor card and a noble tile, in mm.

Measured on the real components (the publisher's scans at 1.9 px/mm):
the renderer draws its own faces with this geometry and the reader looks
at these places, so both read the card "as a person does".

Card, 63 × 88 mm, upright:
* a lighter top band 21 mm high; the points numeral at its left (blank for 0),
  the bonus gem at its right;
* the cost circles in a column at the bottom-left, one per colour that costs
  anything, in the order white, blue, green, red, black from top to bottom,
  the last one at the bottom (so the stack grows upwards).

Noble, 60 × 60 mm: a lighter band down the left side with the points at the
top and the requirement squares bottom-aligned, white at the bottom, then
blue, green, red, black going up.
"""

from __future__ import annotations

from companion.rules.catalogue import Card
from companion.rules.gems import COLOURS

CARD_W, CARD_H = 63.0, 88.0
BAND_H = 21.0
#: x0, y0, x1, y1 of the points numeral.
POINTS_BOX = (2.0, 2.0, 16.0, 17.0)
GEM_CENTER = (51.5, 9.5)
GEM_R = 7.0
CIRCLE_X = 7.3
CIRCLE_R = 4.8
CIRCLE_BOTTOM_Y = 79.8
CIRCLE_PITCH = 13.2
#: Most cost colours on any card.
MAX_CIRCLES = 4
COST_DIGIT_H = 5.6
POINTS_DIGIT_H = 10.0

NOBLE_W, NOBLE_H = 60.0, 60.0
NOBLE_BAND_W = 15.5
NOBLE_POINTS_BOX = (1.5, 1.5, 14.0, 16.0)
SQUARE_X = 7.4
SQUARE_HALF = 3.8
SQUARE_BOTTOM_Y = 43.0
SQUARE_PITCH = 11.0
MAX_SQUARES = 3
#: The publisher's requirement squares (both printings), where its tiles print them
#: rather than ours: centres x and y bottom first, half width and half height (mm).
#: Measured on the publisher's ten noble scans (115 px for 60 mm, resized to 8 px/mm;
#: the saturated or dark squares segmented, their bounding boxes): 7.4 × 10.4 mm,
#: centred at x 8.3 mm (7.4-8.9 from scan to scan) and y 51.8, 38.5, 25.2 mm.
PUBLISHER_SQUARE_X = 8.3
PUBLISHER_SQUARE_YS = (51.8, 38.5, 25.2)
PUBLISHER_SQUARE_HALF = (3.7, 5.2)


def circle_center(position: int) -> tuple[float, float]:
    """Centre of the cost circle ``position`` places above the bottom one."""
    return CIRCLE_X, CIRCLE_BOTTOM_Y - position * CIRCLE_PITCH


def square_center(position: int) -> tuple[float, float]:
    """Centre of the noble's requirement square ``position`` places above the bottom one."""
    return SQUARE_X, SQUARE_BOTTOM_Y - position * SQUARE_PITCH


#: What the colour stage can see of a card: its bonus colour, its costs' colours,
#: whether it scores points (``pattern``).
Pattern = tuple[str, tuple[str, ...], bool]


def pattern(card: Card) -> Pattern:
    """What the colour stage can see of a card: bonus, cost colours, points or not.
    Cards of one level with one pattern (1r2 and 1r5) differ in their numerals only."""
    return card.bonus.letter, tuple(g.letter for g in COLOURS if card.cost[g]), card.points > 0
