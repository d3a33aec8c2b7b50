"""Skip-Bo Breakers at the table: your tiles sorted and grouped (jokers gold), a selection read
aloud before it is sent ("straight 8-9-10, joker as 10 · beats straight 5-6-7 by Bob"), the set
to beat with the trick so far, tiles left and scores towards the goal for everybody, and a hand
summary between hands.

The registry needs `Board` and `describe` from here; the rest lives in the modules beside.
"""

from tui.boards.skipbo_breakers.board import Board
from tui.boards.skipbo_breakers.events import describe
from tui.boards.skipbo_breakers.picker import Picker
from tui.boards.skipbo_breakers.summary import HandSummary
from tui.boards.skipbo_breakers.text import TEXTS
from tui.i18n import register

register(TEXTS)

__all__ = ["Board", "HandSummary", "Picker", "describe"]
