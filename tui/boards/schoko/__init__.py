"""Scho K.O. at the table: the layout drawn to scale on a grid that pans as it grows, your hand
of four tiles beside it, and a ghost of the tile you are placing that follows the arrow keys or
the mouse and says at once whether it fits and why not.

The registry needs `Board` and `describe` from here; the rest lives in the modules beside:
`looks` (colours and frames), `ghost` (the tile being placed and its legal spots), `hand`,
`final` (the table as it ended, for the results), `events` (the log) and `text` (every
sentence, English and German).
"""

from tui.boards.schoko.board import Board
from tui.boards.schoko.events import describe
from tui.boards.schoko.text import TEXTS
from tui.i18n import register

register(TEXTS)

__all__ = ["Board", "describe"]
