"""Your tiles, each drawn as its 2 × 2 pieces with the key that picks it, framed exactly as on
the table; the picked tile is shown turned as its ghost lies on the table, so the hand and the
ghost always agree."""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from tui.boards.schoko.looks import tile_pieces
from tui.i18n import tr
from tui.widgets.grid import cell_rows

PICKED = "▶"


class HandTiles(Widget):
    """`show(tiles, picked, pieces)`: `pieces[i]` are tile i's colours as drawn (TL, TR, BL,
    BR); `Picked(index)` when a tile is clicked."""

    DEFAULT_CSS = """
    HandTiles { height: auto; width: 1fr; }
    """

    class Picked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tiles: list[str] = []
        self.pieces: list[list[str]] = []
        self.picked: int | None = None
        self.names: list[str] = []
        self.cell: tuple[int, int] = (2, 1)

    def show(
        self,
        tiles: Sequence[str],
        picked: int | None,
        pieces: Sequence[list[str]],
        names: Sequence[str],
    ) -> None:
        self.tiles, self.picked = list(tiles), picked
        self.pieces, self.names = [list(p) for p in pieces], list(names)
        self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return max(1, self.tile_rows * len(self.tiles))

    @property
    def tile_rows(self) -> int:
        return 2 * self.cell[1]

    def set_cell(self, cell: tuple[int, int]) -> None:
        """Draw each piece `cell` (columns, rows) large."""
        if cell != self.cell:
            self.cell = cell
            self.refresh(layout=True)

    def render(self) -> Content:
        if not self.tiles:
            return Content.styled(tr("schoko.hand_empty"), "$text-muted")
        w, h = self.cell
        lines: list[Content] = []
        for i, tile in enumerate(self.tiles):
            picked = i == self.picked
            looks = tile_pieces(self.pieces[i], smartie=tile.endswith("s"))
            drawn = [cell_rows(look, w, h) for look in looks]
            for row in range(2 * h):
                left, right = drawn[0:2] if row < h else drawn[2:4]
                parts: list[tuple[str, str]] = [
                    (f"{i + 1}", "bold $accent" if picked else "$text-muted")
                    if row == 0
                    else (" ", ""),
                    (PICKED if picked and row == 0 else " ", "bold $accent"),
                    *left[row % h],
                    *right[row % h],
                ]
                if row == 0:
                    parts.append((" " + self.names[i], "bold" if picked else ""))
                elif row == 1 and tile.endswith("s"):
                    parts.append((" " + tr("schoko.smartie"), "$text-muted"))
                lines.append(Content.assemble(*parts))
        return Content("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        index = event.y // self.tile_rows
        if 0 <= index < len(self.tiles):
            self.post_message(self.Picked(index))
