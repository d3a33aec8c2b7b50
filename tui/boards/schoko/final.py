"""The table as the game left it, under the results: drawn as on the board (framed tiles,
level 2, Smarties) where the screen has room for it, else in square pixels (a piece a column
wide and half a row high, the dark pieces the blocks and the white ones the ground they lie on,
so the dark pieces' shapes read without colour too), so the whole layout always shows, even at
80×24."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widget import Widget

from engines import get_engine
from engines.schoko.tiles import COLOURS
from tui.boards.schoko.looks import GROUND, Picture
from tui.widgets.grid import draw_grid, half_blocks

ENGINE: Any = get_engine("schoko")
# Cell sizes tried, largest first, before the square pixels.
SIZES: tuple[tuple[int, int], ...] = ((6, 3), (4, 2), (3, 1), (2, 1))


class FinalTable(Widget):
    DEFAULT_CSS = """
    FinalTable { width: 1fr; height: 1fr; min-height: 4; margin-top: 1; }
    """

    def __init__(self, tiles: list[dict[str, Any]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        layout = ENGINE.layout_of({"tiles": tiles})
        cells = [[x, y, COLOURS[c], lv] for x, y, c, lv in layout.cells()]
        self.picture = Picture.of({"tiles": tiles, "cells": cells})
        self.picture.near = set()  # no spots to lay on: the game is over
        self.extent = self.picture.region() or (0, 0, 1, 1)

    def piece_cell(self) -> tuple[int, int] | None:
        """The largest cell at which the whole table fits the widget; None: square pixels."""
        x0, y0, x1, y1 = self.extent
        for w, h in SIZES:
            if (x1 - x0 + 1) * w <= self.size.width and (y1 - y0 + 1) * h <= self.size.height:
                return w, h
        return None

    def render(self) -> Content:
        cell = self.piece_cell()
        if cell is not None:
            drawn = draw_grid(self.picture.look, self.extent, cell)
        else:
            drawn = half_blocks(self._colour, self.extent, self._dark)
        # Centred across: the lines padded on the left by half the room they leave.
        lines = drawn.split()
        widest = max((line.cell_length for line in lines), default=0)
        pad = Content(" " * max(0, (self.size.width - widest) // 2))
        return Content("\n").join(pad + line for line in lines)

    def _dark(self, x: int, y: int) -> bool:
        """Dark pieces are the blocks of the square pixels: their shapes read without colour."""
        found = self.picture.cells.get((x, y))
        return found is not None and found[0] == "dark"

    def _colour(self, x: int, y: int) -> str:
        found = self.picture.cells.get((x, y))
        return GROUND[found] if found is not None else ""
