"""Chez Geek at the table: the shared flat (every room with its job, cards, bonus tokens and a
slack bar towards the goal), your hand in words, the phase, and the interrupt banner with its
countdown when a card is being played that others may answer.

The registry needs `Board` and `describe` from here; the rest lives in the modules beside.
"""

from tui.boards.chez_geek.board import Board
from tui.boards.chez_geek.events import describe
from tui.boards.chez_geek.text import TEXTS
from tui.i18n import register

register(TEXTS)

__all__ = ["Board", "describe"]
