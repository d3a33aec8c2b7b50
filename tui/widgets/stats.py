"""A finished game's statistics as Board Game Arena lays them out under a game: one row per
statistic, one column per player. The columns narrow to the window (names are cut short
first, then the statistics' names), so seven players still fit 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from engines.stats import Stat
from tui.i18n import tr

GAP = 2  # columns between two columns of the table
NAME_WIDTH = 12  # the widest a player's column grows for a long name
NARROWEST_NAME = 4
NARROWEST_LABEL = 10


def shown_value(stat: Stat) -> str:
    return f"{stat.value}%" if stat.kind == "percent" else str(stat.value)


def cut(text: str, width: int, *, right: bool = False) -> str:
    """`text` in exactly `width` cells: an ellipsis marks what was cut, spaces fill the rest
    (on the left when `right`, for numbers and the names above them)."""
    if cell_len(text) > width:
        while text and cell_len(text) > width - 1:
            text = text[:-1]
        text = f"{text}…"
    fill = " " * (width - cell_len(text))
    return fill + text if right else text + fill


def cut_name(name: str, width: int) -> str:
    """A player's name in `width` cells, right-aligned, cut in the middle: names at one table
    often differ only at the end ("Player 1", "Player 2")."""
    if cell_len(name) > width:
        tail = (width - 1) // 2
        name = f"{name[: width - 1 - tail]}…{name[len(name) - tail :] if tail else ''}"
    return cut(name, width, right=True)  # wide characters may still need the end cut off


def widths(labels: Sequence[str], names: Sequence[str], values: Sequence[Sequence[str]],
           room: int) -> tuple[int, int]:
    """The width of the label column and of each player's column in `room` cells."""
    value = max((cell_len(v) for row in values for v in row), default=1)
    label = max((cell_len(t) for t in labels), default=0)
    name = max(value, min(NAME_WIDTH, max((cell_len(n) for n in names), default=0)))
    columns = len(names)
    fits = max(value, NARROWEST_NAME, (room - label) // max(columns, 1) - GAP)
    name = min(name, fits)
    label = max(NARROWEST_LABEL, min(label, room - columns * (name + GAP)))
    return label, name


class StatsTable(Widget):
    """The statistics `stats[seat]` of game `game` (words `stats.<game>.<name>`), the players'
    columns in the order `seats` gives (the results' order), headed by `names[seat]`."""

    DEFAULT_CSS = """
    StatsTable { height: auto; width: 1fr; }
    """

    def __init__(self, game: str, names: Sequence[str], stats: Sequence[Sequence[Stat]],
                 seats: Sequence[int], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game = game
        self.names = list(names)
        self.stats = [list(row) for row in stats]
        self.seats = list(seats)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + len(self.stats[0]) if self.stats and self.stats[0] else 0

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as the table wants, up to the room there is (the window's, inside a box
        still being sized: `max-width` keeps it inside the box)."""
        labels, names, values = self._cells()
        label, name = widths(labels, names, values, container.width or viewport.width)
        return label + len(names) * (GAP + name) if labels else 0

    def _cells(self) -> tuple[list[str], list[str], list[list[str]]]:
        """The statistics' names, the players' names and the values shown, row by row."""
        if not self.stats or not self.stats[0]:
            return [], [], []
        rows = [[self.stats[seat][i] for seat in self.seats] for i in range(len(self.stats[0]))]
        labels = [tr(f"stats.{self.game}.{row[0].name}") for row in rows]
        names = [self.names[seat] for seat in self.seats]
        return labels, names, [[shown_value(stat) for stat in row] for row in rows]

    def render(self) -> Content:
        labels, names, values = self._cells()
        if not labels:
            return Content("")
        label, name = widths(labels, names, values, self.size.width)
        pad = " " * GAP
        head: list[str | tuple[str, str]] = [(cut(tr("stats.title"), label), "bold $accent")]
        for player in names:
            head += [pad, (cut_name(player, name), "bold")]
        lines = [Content.assemble(*head)]
        for text, row in zip(labels, values, strict=True):
            parts = [cut(text, label)]
            for shown in row:
                parts += [pad, cut(shown, name, right=True)]
            lines.append(Content.assemble(*parts))
        return Content("\n").join(lines)
