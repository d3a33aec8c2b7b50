"""A window onto an unbounded grid: a board that grows in every direction (tiles laid on a table)
seen through a widget that pans over it.

The canvas knows nothing of any game. The board hands it a `paint(x, y)` function that says
how one grid cell looks (a fill character and its style, marks in the cell's corners, and which
of its sides are the edge of a piece, drawn as a frame so that neighbouring cells make one
framed tile), chooses how large a cell is drawn (`set_cell`: columns × rows, so a cell
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
class Mark:
    """One character in a corner of a cell: "tl" (top-left) or "br" (bottom-right), or "in":
    the corner of a framed piece nearest its tile's middle (across from its frame's corner),
    "in2" the cell beside that one, away from the middle along the row."""

    char: str
    style: str
    corner: str = "br"


@dataclass(frozen=True)
class CellLook:
    """How one grid cell is drawn: `fill` repeated over the cell in `style`; `edges` the sides
    ("t", "l", "b", "r") drawn as a frame of `frame` lines in `edge_style`, so the cells of
    one tile share one outline; `marks` on top, in the cell's corners."""

    fill: str
    style: str = ""
    marks: tuple[Mark, ...] = ()
    edges: str = ""
    edge_style: str = ""
    frame: str = ""  # LIGHT when empty


# Frame pieces: horizontal, vertical, then the corners top-left, top-right, bottom-left,
# bottom-right.
LIGHT = "─│┌┐└┘"
HEAVY = "━┃┏┓┗┛"
DOUBLE = "═║╔╗╚╝"
BLANK = CellLook(" ")

Segment = tuple[str, str]
Region = tuple[int, int, int, int]  # x0, y0, x1, y1 inclusive, in grid cells
Painter = Callable[[int, int], CellLook | None]


def cell_rows(look: CellLook, w: int, h: int) -> list[list[Segment]]:
    """The `h` rows of one cell `w` columns wide, as (text, style) segments: so a widget
    that draws pieces beside the grid (a hand of tiles) draws them exactly alike."""
    frame = look.frame or LIGHT
    edges = look.edges
    left, right = "l" in edges, "r" in edges
    rows: list[list[Segment]] = []
    for sub in range(h):
        across = ("t" in edges and sub == 0) or ("b" in edges and sub == h - 1)
        top_half = "t" in edges and sub == 0
        chars = [frame[0] if across else look.fill] * w
        styles = [look.edge_style if across else look.style] * w
        if left:
            chars[0] = (frame[2] if top_half else frame[4]) if across else frame[1]
            styles[0] = look.edge_style
        if right:
            chars[-1] = (frame[3] if top_half else frame[5]) if across else frame[1]
            styles[-1] = look.edge_style
        inner_row = h - 1 if "t" in edges else 0
        inner_col = w - 1 if left else 0
        for mark in look.marks:
            if mark.corner == "tl" and sub == 0:
                chars[0], styles[0] = mark.char, mark.style
            elif mark.corner == "br" and sub == h - 1:
                chars[-1], styles[-1] = mark.char, mark.style
            elif mark.corner in ("in", "in2") and sub == inner_row:
                col = inner_col if mark.corner == "in" else inner_col + (-1 if left else 1)
                if 0 <= col < w:
                    chars[col], styles[col] = mark.char, mark.style
        rows.append(_runs(chars, styles))
    return rows


def draw_grid(paint: Painter, region: Region, cell: tuple[int, int]) -> Content:
    """The grid cells of `region`, each `cell` (columns, rows) large."""
    w, h = cell
    x0, y0, x1, y1 = region
    lines: list[Content] = []
    for gy in range(y0, y1 + 1):
        drawn = [cell_rows(paint(gx, gy) or BLANK, w, h) for gx in range(x0, x1 + 1)]
        for sub in range(h):
            lines.append(Content.assemble(*(seg for rows in drawn for seg in rows[sub])))
    return Content("\n").join(lines)


def _solid_pixel(upper: str, lower: str, up: bool, down: bool) -> Segment:
    """One character of square pixels where only solid cells are blocks: the others are the
    cell's background (a half beside an empty cell widens to the whole character)."""
    if up and down:
        return "█", upper
    if up:
        return "▀", f"{upper} on {lower}" if lower else upper
    if down:
        return "▄", f"{lower} on {upper}" if upper else lower
    back = upper or lower
    return " ", f"on {back}" if back else ""


def _runs(chars: list[str], styles: list[str]) -> list[Segment]:
    """Characters joined into runs of one style."""
    runs: list[Segment] = []
    for char, style in zip(chars, styles, strict=True):
        if runs and runs[-1][1] == style:
            runs[-1] = (runs[-1][0] + char, style)
        else:
            runs.append((char, style))
    return runs


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
        cols, rows = self.span
        ox, oy = self.origin
        return draw_grid(self.paint, (ox, oy, ox + cols - 1, oy + rows - 1), self.cell)

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


def half_blocks(colour: Callable[[int, int], str], region: Region,
                solid: Callable[[int, int], bool] | None = None) -> Content:
    """`region` in square pixels, one grid cell a column wide and half a row high ("▀" in
    the upper cell's colour on the lower one's): a whole layout in a corner of a screen.
    `colour(x, y)` is a colour or theme variable, "" for an empty cell. With `solid`, the
    cells it names are the only ones drawn as blocks (the others as the background they lie
    on), so the picture's shapes say which they are without colour."""
    x0, y0, x1, y1 = region
    lines: list[Content] = []
    for y in range(y0, y1 + 1, 2):
        runs: list[Segment] = []
        for x in range(x0, x1 + 1):
            upper, lower = colour(x, y), colour(x, y + 1) if y + 1 <= y1 else ""
            if solid is not None:
                runs.append(_solid_pixel(upper, lower, solid(x, y),
                                         y + 1 <= y1 and solid(x, y + 1)))
            elif upper and lower:
                runs.append(("▀", f"{upper} on {lower}"))
            elif upper or lower:
                runs.append(("▀" if upper else "▄", upper or lower))
            else:
                runs.append((" ", ""))
        lines.append(Content.assemble(*runs))
    return Content("\n").join(lines)
