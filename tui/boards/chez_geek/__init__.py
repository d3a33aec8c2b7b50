"""Chez Geek at the table: the shared flat (every room a panel of its cards, with the job as a
card and a bar towards its goal), your hand as a row of cards, and in the middle the cards being
played with the interrupt banner and its countdown, when others may answer them.

The registry needs `Board` and `describe` from here (and `quiet`: the events the log leaves
out); the rest lives in the modules beside.
"""

from tui.boards.chez_geek.board import Board
from tui.boards.chez_geek.events import describe, quiet
from tui.boards.chez_geek.text import TEXTS
from tui.i18n import register

register(TEXTS)

__all__ = ["Board", "describe", "quiet"]
