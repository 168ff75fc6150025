"""Colours of the screen.

A dark background (the box sits beside a lit table; a dark screen does not
dazzle and makes the gem colours stand out).  Gem colours are the tokens'
own; since about one man in twelve cannot tell red from green, a gem is never
told by its colour alone: every gem header carries its letter (W U G R K, a
drawn star for gold) and counts sit in a fixed column under it.  Text on a
chip is dark on light chips (white, gold) and light on dark ones.
"""

from __future__ import annotations

from companion.rules.gems import Gem
from companion.screen.view import Mode

Colour = tuple[int, int, int]

BACKGROUND: Colour = (22, 25, 31)
PANEL: Colour = (36, 40, 49)
PANEL_EDGE: Colour = (58, 63, 75)
CURRENT_ROW: Colour = (44, 62, 96)
CURRENT_EDGE: Colour = (120, 170, 255)
TEXT: Colour = (236, 238, 242)
TEXT_DIM: Colour = (150, 156, 168)
TEXT_DARK: Colour = (20, 20, 24)
FAINT: Colour = (70, 75, 88)
BANNER: Colour = (255, 140, 40)
WINNER: Colour = (242, 194, 48)
NOBLE: Colour = (176, 120, 200)
RESERVED: Colour = (120, 132, 150)

GEM: dict[Gem, Colour] = {
    Gem.WHITE: (240, 240, 240),
    Gem.BLUE: (45, 110, 225),
    Gem.GREEN: (40, 160, 80),
    Gem.RED: (215, 55, 55),
    Gem.BLACK: (40, 40, 44),
    Gem.GOLD: (242, 194, 48),
}
#: Duel's pearl (a token kind Splendor has not, hence not a :class:`Gem`) and its rim.
PEARL: Colour = (232, 214, 232)
PEARL_EDGE: Colour = (172, 154, 172)
#: Duel's privilege scrolls: parchment.
PRIVILEGE: Colour = (222, 196, 140)
#: The track of a progress bar towards a victory condition.
TRACK: Colour = (58, 63, 75)


#: A light rim so the black gem shows on the dark background.
def darker(colour: Colour, by: int = 60) -> Colour:
    """The same colour, darker: rims, pressed states."""
    return (max(colour[0] - by, 0), max(colour[1] - by, 0), max(colour[2] - by, 0))


GEM_EDGE: dict[Gem, Colour] = {
    gem: (185, 185, 190) if gem is Gem.BLACK else darker(colour) for gem, colour in GEM.items()
}


def ink_on(gem: Gem) -> Colour:
    """Text colour that reads on a chip of this gem."""
    return TEXT_DARK if gem in (Gem.WHITE, Gem.GOLD) else TEXT


#: The prompt's accent colour by mode.
MODE_ACCENT: dict[Mode, Colour] = {
    Mode.SETUP: (90, 160, 255),
    Mode.WAITING: (130, 140, 160),
    Mode.PROPOSAL: (60, 200, 110),
    Mode.CHOICE: (245, 205, 60),
    Mode.ERROR: (235, 70, 70),
    Mode.END: WINNER,
}

#: The physical buttons' colours: CONFIRM green, NEXT yellow, BACK red.
BUTTON_CONFIRM: Colour = (50, 185, 90)
BUTTON_NEXT: Colour = (240, 200, 50)
BUTTON_BACK: Colour = (220, 60, 60)
