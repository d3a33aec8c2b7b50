"""How chocolate looks in a terminal. Pieces are solid blocks of colour (white chocolate light,
dark chocolate dark, far apart in brightness as well as hue, so a monochrome terminal still
tells them apart), and every tile is framed, so its four pieces read as one tile and two tiles
side by side as two. A tile on level 2 is framed in heavy lines and a shade lighter, as if the
light caught it; a Smartie tile carries a ● where its four pieces meet (the bottom-right corner
of its top-left piece).

Colour is never all a piece says: every dark piece carries a small ▪ in its corner nearest the
tile's middle (beside the ● on a Smartie tile), so the pieces read without colour too, and
the pieces of a highlighted group are filled with ░ as well as lit.

The last tile of each player is framed in double lines of that player's colour with their
initial in its top-left corner, so a bot's move is easy to find after it lands. The ghost of
the tile being placed is see-through, framed green or red, and marks ✓ or ✗ beside its
centre, so the verdict shows without colour too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
from textual.content import Content

from tui.boards.base import Table
from tui.i18n import tr
from tui.widgets.grid import DOUBLE, HEAVY, LIGHT, CellLook, Mark

# Piece colours by (colour, level), the seams framing them, the sweet on a Smartie tile.
GROUND: dict[tuple[str, int], str] = {
    ("white", 1): "$choc-white",
    ("dark", 1): "$choc-dark",
    ("white", 2): "$choc-white-top",
    ("dark", 2): "$choc-dark-top",
}
EDGE: dict[str, str] = {"white": "$choc-white-edge", "dark": "$choc-dark-edge"}
SMARTIE_MARK = "●"
DARK_MARK = "▪"
HIGHLIGHT_FILL = "░"
SMARTIE_INK = "$smartie"
FRONTIER = CellLook(" ", marks=(Mark("·", "$felt-edge"),))
# The ghost where it fits / where it does not: its frame, and a mark beside its centre so the
# verdict shows without colour too. A highlighted group gets a background.
# The ghost's pieces are see-through, so it never passes for a tile already laid.
GHOST_ALPHA = "60%"
FITS = "$success"
MISFITS = "$error"
FITS_MARK = "✓"
MISFITS_MARK = "✗"
HIGHLIGHT = "$accent"
# Whose last tile is whose: this seat's in the "you" colour, the other's in the rival one.
MARK_COLOURS = ("$you", "$rival")
BADGE_INK = "$card-ink"

Cell = tuple[int, int]


@dataclass(frozen=True)
class Badge:
    """How a player's last tile is marked: the frame colour and the letter in its corner."""

    colour: str
    letter: str

    def chip(self) -> Content:
        """The badge inside a line of text, as the tile carries it."""
        return Content.styled(self.letter, f"bold {BADGE_INK} on {self.colour}")


def badges_for(table: Table) -> dict[int, Badge]:
    """Each seat's badge: the initial of its name (seat numbers when two initials agree or
    one is not a plain letter), in the "you" colour for the seat on show and the rival
    colour for the other."""
    names = table.names
    letters = [name[:1].upper() for name in names]
    plain = all(letter.isalnum() and cell_len(letter) == 1 for letter in letters)
    if not plain or len(set(letters)) < len(letters):
        letters = [str(seat + 1) for seat in range(len(names))]
    me = table.seat if table.seat is not None else 0
    return {
        seat: Badge(MARK_COLOURS[min(seat != me, 1)], letters[seat])
        for seat in range(len(names))
    }


def swatch(colour: str, level: int = 1) -> Content:
    """A piece of `colour` inside a line of text."""
    return Content.styled("  ", f"on {GROUND[(colour, level)]}")


def legend(badges: list[Badge]) -> Content:
    """What the frames mean (the players' areas show the colours); with `badges`, whose last
    tile is whose. One line, for the narrow panel of an 80-column table."""
    level2 = Content.styled("┏┓", f"bold {EDGE['white']} on {GROUND[('white', 2)]}")
    parts = [level2, Content(f" {tr('schoko.legend.level2')}")]
    if badges:
        chips = Content(" ").join(badge.chip() for badge in badges)
        parts += [Content("  "), chips, Content(f" {tr('schoko.legend.last')}")]
    return Content.assemble(*parts)


def piece(
    colour: str,
    level: int,
    corner: Cell,
    *,
    ground: str = "",
    edge: str = "",
    smartie: bool = False,
    badge: Badge | None = None,
    verdict: tuple[str, str] | None = None,
) -> CellLook:
    """One piece of a tile: `corner` is where it lies in its tile ((0, 0) top-left, (1, 1)
    bottom-right), which says which sides of it are the tile's frame."""
    dx, dy = corner
    back = ground or GROUND[(colour, level)]
    ink = edge or EDGE[colour]
    marks: list[Mark] = []
    if colour == "dark":  # beside a Smartie's ● or the ghost's verdict where both would go
        crowded = (smartie and corner == (0, 0)) or (verdict is not None and corner == (1, 1))
        place = "in2" if crowded else "in"
        marks.append(Mark(DARK_MARK, f"bold {EDGE['white']} on {back}", place))
    if corner == (0, 0):
        if smartie:
            marks.append(Mark(SMARTIE_MARK, f"bold {SMARTIE_INK} on {back}"))
        if badge is not None:
            marks.append(Mark(badge.letter, f"bold {BADGE_INK} on {badge.colour}", "tl"))
    if corner == (1, 1) and verdict is not None:
        marks.append(Mark(verdict[0], f"bold {verdict[1]} on {back}", "tl"))
    bold = "bold " if edge else ""
    return CellLook(
        HIGHLIGHT_FILL if ground == HIGHLIGHT else " ",
        f"on {back}",
        tuple(marks),
        ("l" if dx == 0 else "r") + ("t" if dy == 0 else "b"),
        f"{bold}{ink} on {back}",
        DOUBLE if badge is not None else HEAVY if level == 2 else LIGHT,
    )


def tile_pieces(colours: list[str], level: int = 1, smartie: bool = False) -> list[CellLook]:
    """A tile's four pieces (top-left, top-right, bottom-left, bottom-right) drawn alone, as
    the hand shows them."""
    corners = [(0, 0), (1, 0), (0, 1), (1, 1)]
    return [
        piece(colour, level, corner, smartie=smartie)
        for colour, corner in zip(colours, corners, strict=True)
    ]


@dataclass
class Picture:
    """Everything the grid shows, in grid cells: the table from a view, and on top of it the
    ghost of the tile being placed and a highlighted group."""

    cells: dict[Cell, tuple[str, int]] = field(default_factory=dict)  # colour, level
    top: dict[Cell, tuple[int, Cell]] = field(default_factory=dict)  # tile on top, corner
    smarties: set[int] = field(default_factory=set)  # indices of Smartie tiles
    badges: dict[int, Badge] = field(default_factory=dict)  # tile index -> whose last tile
    near: set[Cell] = field(default_factory=set)  # empty cells beside the layout
    ghost: dict[Cell, str] = field(default_factory=dict)  # colour of each ghost piece
    ghost_at: Cell = (0, 0)  # the ghost's top-left cell
    ghost_level: int = 1
    ghost_smartie: bool = False
    ghost_fits: bool = False
    highlight: set[Cell] = field(default_factory=set)

    @classmethod
    def of(cls, view: dict[str, Any], badges: dict[int, Badge] | None = None) -> Picture:
        """The table of `view`; `badges` marks each seat's last tile (by seat)."""
        pic = cls()
        pic.cells = {(x, y): (colour, level) for x, y, colour, level in view["cells"]}
        last: dict[int, int] = {}
        for index, tile in enumerate(view["tiles"]):
            # Later tiles lie on top: a level-2 tile is always laid after those under it.
            for dx in (0, 1):
                for dy in (0, 1):
                    pic.top[(tile["x"] + dx, tile["y"] + dy)] = (index, (dx, dy))
            if tile["smartie"]:
                pic.smarties.add(index)
            if isinstance(tile.get("seat"), int):
                last[tile["seat"]] = index
        for seat, badge in (badges or {}).items():
            if seat in last:
                pic.badges[last[seat]] = badge
        pic.near = {
            (x + dx, y + dy)
            for x, y in pic.cells
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (x + dx, y + dy) not in pic.cells
        }
        return pic

    def region(self) -> tuple[int, int, int, int] | None:
        """The cells in use (layout and ghost), x0, y0, x1, y1."""
        cells = [*self.cells, *self.ghost]
        if not cells:
            return None
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        return min(xs), min(ys), max(xs), max(ys)

    def look(self, x: int, y: int) -> CellLook | None:
        cell = (x, y)
        ghost = self.ghost.get(cell)
        if ghost is not None:
            ink = FITS if self.ghost_fits else MISFITS
            verdict = (FITS_MARK if self.ghost_fits else MISFITS_MARK, ink)
            corner = (x - self.ghost_at[0], y - self.ghost_at[1])
            return piece(
                ghost,
                self.ghost_level,
                corner,
                ground=f"{GROUND[(ghost, self.ghost_level)]} {GHOST_ALPHA}",
                edge=ink,
                smartie=self.ghost_smartie,
                verdict=verdict,
            )
        found = self.cells.get(cell)
        if found is None:
            return FRONTIER if cell in self.near else None
        colour, level = found
        index, corner = self.top.get(cell, (-1, (0, 0)))
        badge = self.badges.get(index)
        return piece(
            colour,
            level,
            corner,
            ground=HIGHLIGHT if cell in self.highlight else "",
            edge=badge.colour if badge is not None else "",
            smartie=index in self.smarties,
            badge=badge,
        )
