"""Scho K.O.: the components and every ruling of ours, in one place.

The tiles (tiles.py), the layout on the table (geometry.py) and the engine (engine.py) read
their numbers from here, so changing a ruling is changing one line.
"""

from __future__ import annotations

# -- components (ruling: counts) --------------------------------------------------------------
# (mix, white pieces of the four, tiles, of them Smartie tiles). The mix is also the plain tile
# id; its Smartie twin is the id with "s" appended. The order is the display order of a hand.
MIXES: tuple[tuple[str, int, int, int], ...] = (
    ("w3", 3, 11, 3),
    ("w2", 2, 10, 4),
    ("w1", 1, 11, 3),
)
HAND_SIZE = 4

# -- rulings: where the printed rules are silent (how we decided each) ------------------
# Who starts (and so chooses the colour) is not said: a seat drawn from the seed.
RANDOM_FIRST_PLAYER = True
# The first tile lies with its top-left piece at this grid cell; later ones may go negative.
FIRST_TILE_AT = (0, 0)
# A player who can place no tile passes and does not draw.
PASS_DRAWS = False
# The game also ends when this many passes follow each other (both players, in a row).
PASSES_TO_END = 2
# A level-1 tile must touch this many pieces of the layout edge to edge...
CONTACTS_NEEDED = 2
# ...and at least this many of those contacts must join two pieces of the same colour.
SAME_COLOUR_CONTACTS_NEEDED = 1
# Contacts are judged in the top view: a cell under a level-2 tile touches with the colour of
# the level-2 piece lying on it (False would judge by the level-1 piece beneath).
CONTACT_BY_TOP_VIEW = True
# A level-2 tile rests on at least this many level-1 tiles (never exactly on one).
LEVEL2_MIN_TILES_BELOW = 2
# A level-2 tile needs no contact with the layout beyond its support.
LEVEL2_NEEDS_CONTACT = False
# Scoring looks from above: pieces on different levels that touch edge to edge in the top
# view are in one group.
LEVELS_CONNECT = True
# Tie-break: compare the second-largest groups, then the third and so on through every group;
# a player with fewer groups counts this for each missing one. All equal: a draw.
MISSING_GROUP_COUNTS = 0
