"""How chocolate looks in a terminal. White and dark are told apart by the glyph as well as the
colour (░ and █, and ▒ ▓ for a piece lying on level 2), so a monochrome terminal or the
high-contrast theme still shows every group; a Smartie tile carries a ● where its four pieces
meet (in the bottom-right corner of its top-left piece). The ghost of the tile being placed
marks each of its pieces ✓ or ✗ besides its green or red ground."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tui.widgets.grid import CellLook

GLYPHS: dict[tuple[str, int], str] = {
    ("white", 1): "░",
    ("dark", 1): "█",
    ("white", 2): "▒",
    ("dark", 2): "▓",
}
INK: dict[str, str] = {"white": "$choc-white", "dark": "$choc-dark"}
SMARTIE_MARK = "●"
SMARTIE_STYLE = "bold $smartie"
FRONTIER = CellLook(" ", mark="·", mark_style="$felt-edge")
# The ghost where it fits / where it does not: a background, and a mark in every piece so
# the verdict shows without colour too. A highlighted group gets a background as well.
FITS = "$success"
MISFITS = "$error"
FITS_MARK = "✓"
MISFITS_MARK = "✗"
HIGHLIGHT = "$accent"
# The newest tile is drawn bold, so what just happened catches the eye.
NEWEST = "bold"

Cell = tuple[int, int]


def piece(colour: str, level: int, background: str = "", extra: str = "") -> CellLook:
    style = " ".join(s for s in (extra, INK[colour], f"on {background}" if background else "") if s)
    return CellLook(GLYPHS[(colour, level)], style)


@dataclass
class Picture:
    """Everything the grid shows, in grid cells: the table from a view, and on top of it the
    ghost of the tile being placed and a highlighted group."""

    cells: dict[Cell, tuple[str, int]] = field(default_factory=dict)  # colour, level
    smarties: set[Cell] = field(default_factory=set)  # top-left cells of Smartie tiles
    newest: set[Cell] = field(default_factory=set)
    near: set[Cell] = field(default_factory=set)  # empty cells beside the layout
    ghost: dict[Cell, str] = field(default_factory=dict)  # colour of each ghost piece
    ghost_level: int = 1
    ghost_smartie: Cell | None = None
    ghost_fits: bool = False
    highlight: set[Cell] = field(default_factory=set)

    @classmethod
    def of(cls, view: dict[str, Any]) -> Picture:
        pic = cls()
        pic.cells = {(x, y): (colour, level) for x, y, colour, level in view["cells"]}
        pic.smarties = {(t["x"], t["y"]) for t in view["tiles"] if t["smartie"]}
        if view["tiles"]:
            last = view["tiles"][-1]
            pic.newest = {(last["x"] + dx, last["y"] + dy) for dx in (0, 1) for dy in (0, 1)}
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
            ground = FITS if self.ghost_fits else MISFITS
            look = piece(ghost, self.ghost_level, ground, "bold")
            if cell == self.ghost_smartie:
                return CellLook(look.fill, look.style, SMARTIE_MARK, f"{SMARTIE_STYLE} on {ground}")
            verdict = FITS_MARK if self.ghost_fits else MISFITS_MARK
            return CellLook(look.fill, look.style, verdict, f"bold $foreground on {ground}")
        found = self.cells.get(cell)
        if found is None:
            return FRONTIER if cell in self.near else None
        colour, level = found
        lit = HIGHLIGHT if cell in self.highlight else ""
        look = piece(colour, level, lit, NEWEST if cell in self.newest else "")
        if cell in self.smarties:
            mark_style = f"{SMARTIE_STYLE} on {lit}" if lit else SMARTIE_STYLE
            return CellLook(look.fill, look.style, SMARTIE_MARK, mark_style)
        return look
