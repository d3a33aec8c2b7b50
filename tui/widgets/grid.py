"""A window onto an unbounded grid: a board that grows in every direction (tiles laid on a table)
seen through a widget that pans over it.

The canvas knows nothing of any game. The board hands it a `paint(x, y)` function that says
how one grid cell looks (a fill character, its style, and an optional mark in the cell's
bottom-right corner), chooses how large a cell is drawn (`set_cell`: columns × rows, so a cell
of 2 × 1 or 4 × 2 terminal cells looks square-ish), and asks it to keep a region in sight
(`keep_in_sight`) or centred (`centre_on`). The mouse is reported in grid coordinates
(`Hovered`, `Clicked`), so a board never does the arithmetic of where its cells are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widget import Widget


@dataclass(frozen=True)
class CellLook:
    """How one grid cell is drawn: `fill` repeated over the cell in `style`, and `mark` (one
    character, may be empty) in its bottom-right corner in `mark_style`."""

    fill: str
    style: str = ""
    mark: str = ""
    mark_style: str = ""


BLANK = CellLook(" ")

Region = tuple[int, int, int, int]  # x0, y0, x1, y1 inclusive, in grid cells
Painter = Callable[[int, int], CellLook | None]


class GridCanvas(Widget):
    """Draws the grid cells in view, `cell` terminal cells each; `origin` is the grid cell at
    the top-left corner."""

    DEFAULT_CSS = """
    GridCanvas { width: 1fr; height: 1fr; }
    """

    class Hovered(Message):
        """The mouse is over grid cell (x, y)."""

        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x, self.y = x, y

    class Resized(Message):
        """The canvas got a new size: a board may want to centre its content again."""

    class Clicked(Message):
        """Grid cell (x, y) was clicked."""

        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x, self.y = x, y

    def __init__(self, paint: Painter, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.paint = paint
        self.cell: tuple[int, int] = (2, 1)
        self.origin: tuple[int, int] = (0, 0)
        self._hovered: tuple[int, int] | None = None

    # -- geometry ------------------------------------------------------------------------------
    @property
    def span(self) -> tuple[int, int]:
        """How many grid cells fit across and down."""
        w, h = self.cell
        return max(1, self.size.width // w), max(1, self.size.height // h)

    def set_cell(self, cell: tuple[int, int]) -> None:
        if cell != self.cell:
            self.cell = cell
            self.refresh()

    def largest_cell(self, region: Region, cells: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """The largest of `cells` (largest first) in which `region` fits, else the smallest."""
        x0, y0, x1, y1 = region
        for w, h in cells:
            if (x1 - x0 + 1) * w <= self.size.width and (y1 - y0 + 1) * h <= self.size.height:
                return (w, h)
        return cells[-1]

    def fits(self, region: Region) -> bool:
        cols, rows = self.span
        x0, y0, x1, y1 = region
        return x1 - x0 < cols and y1 - y0 < rows

    def centre_on(self, region: Region) -> None:
        cols, rows = self.span
        x0, y0, x1, y1 = region
        self._set_origin((x0 + x1 + 1 - cols) // 2, (y0 + y1 + 1 - rows) // 2)

    def keep_in_sight(self, region: Region, margin: int = 1) -> None:
        """Pan as little as possible so `region` (and `margin` cells round it, where there is
        room) is in view."""
        cols, rows = self.span
        ox, oy = self.origin
        x0, y0, x1, y1 = region
        mx = min(margin, max(0, (cols - (x1 - x0 + 1)) // 2))
        my = min(margin, max(0, (rows - (y1 - y0 + 1)) // 2))
        if x0 - mx < ox:
            ox = x0 - mx
        elif x1 + mx >= ox + cols:
            ox = x1 + mx - cols + 1
        if y0 - my < oy:
            oy = y0 - my
        elif y1 + my >= oy + rows:
            oy = y1 + my - rows + 1
        self._set_origin(ox, oy)

    def pan(self, dx: int, dy: int) -> None:
        self._set_origin(self.origin[0] + dx, self.origin[1] + dy)

    def _set_origin(self, x: int, y: int) -> None:
        if (x, y) != self.origin:
            self.origin = (x, y)
            self.refresh()

    def cell_at(self, x: int, y: int) -> tuple[int, int]:
        """The grid cell under widget offset (x, y)."""
        w, h = self.cell
        return self.origin[0] + x // w, self.origin[1] + y // h

    # -- drawing -------------------------------------------------------------------------------
    def render(self) -> Content:
        w, h = self.cell
        cols, rows = self.span
        ox, oy = self.origin
        lines: list[Content] = []
        for gy in range(oy, oy + rows):
            looks = [self.paint(gx, gy) or BLANK for gx in range(ox, ox + cols)]
            for sub in range(h):
                parts: list[tuple[str, str]] = []
                for look in looks:
                    if sub == h - 1 and look.mark:
                        parts.append((look.fill * (w - 1), look.style))
                        parts.append((look.mark, look.mark_style or look.style))
                    else:
                        parts.append((look.fill * w, look.style))
                lines.append(Content.assemble(*parts))
        return Content("\n").join(lines)

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Resized())

    # -- the mouse -----------------------------------------------------------------------------
    def on_mouse_move(self, event: events.MouseMove) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell != self._hovered:
            self._hovered = cell
            self.post_message(self.Hovered(*cell))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(*self.cell_at(event.x, event.y)))
