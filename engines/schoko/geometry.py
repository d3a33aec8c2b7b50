"""The layout on the table: which grid cells hold which pieces, where a tile may go, and why not.

Cells are packed into one int (`key`): x and y are offset to be non-negative and x is scaled
by STRIDE, so a neighbour is a fixed difference (±1 is up/down, ±STRIDE left/right) and every
map is a plain dict of ints, which is what keeps a random game fast.

Where a tile may go is not found by scanning the table. The layout keeps two frontiers, grown
and trimmed around every placement:

- `spots1`: every top-left cell where a level-1 tile would cover four empty cells and touch
  at least CONTACTS_NEEDED pieces, with a contact mask (bit 2*i + c: piece i of the new tile
  would meet a piece of colour c), so "is there a same-colour contact" for a pattern is one
  AND with its need mask (tiles.need_mask).
- `spots2`: every top-left cell where a Smartie tile could lie on level 2 (the same mask, all
  ones unless LEVEL2_NEEDS_CONTACT).

`problem` answers the same question from first principles and says what is wrong; the engine
and the board both ask it, and the tests check it agrees with the frontiers everywhere.
"""

from __future__ import annotations

from typing import Any

from engines.schoko.rules import (
    CONTACT_BY_TOP_VIEW,
    CONTACTS_NEEDED,
    FIRST_TILE_AT,
    LEVEL2_MIN_TILES_BELOW,
    LEVEL2_NEEDS_CONTACT,
    LEVELS_CONNECT,
    SAME_COLOUR_CONTACTS_NEEDED,
)
from engines.schoko.tiles import PATTERNS, SMARTIE

STRIDE = 1 << 13
OFFSET = 1 << 12  # coordinates stay far inside ±OFFSET: 32 tiles span at most 64 cells


def key(x: int, y: int) -> int:
    return (x + OFFSET) * STRIDE + y + OFFSET


def coords(k: int) -> tuple[int, int]:
    x, y = divmod(k, STRIDE)
    return x - OFFSET, y - OFFSET


# The four cells of a tile from its top-left cell, in piece order.
CELLS: tuple[int, ...] = (0, STRIDE, 1, STRIDE + 1)
# The eight cells edge to edge with a tile from outside: (piece it meets, offset).
NEIGHBOURS: tuple[tuple[int, int], ...] = (
    (0, -STRIDE),
    (0, -1),
    (1, STRIDE - 1),
    (1, 2 * STRIDE),
    (2, 1 - STRIDE),
    (2, 2),
    (3, 2 * STRIDE + 1),
    (3, STRIDE + 2),
)
# The four cells that touch a tile only at a corner.
CORNERS: tuple[int, ...] = (-STRIDE - 1, 2 * STRIDE - 1, 2 - STRIDE, 2 * STRIDE + 2)
SIDES: tuple[int, ...] = (-STRIDE, STRIDE, -1, 1)
# Top-left cells of tiles overlapping a tile (RING1) or touching or overlapping it (RING2).
RING1: tuple[int, ...] = tuple(dx * STRIDE + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1))
RING2: tuple[int, ...] = tuple(dx * STRIDE + dy for dx in range(-2, 3) for dy in range(-2, 3))
ANY_CONTACT = 0xFF  # a mask every pattern matches: the first tile, and level 2

# Why a placement is illegal, by code (the sentences live in the engine, the TUI's in i18n).
FIRST = "first"  # the first tile lies at FIRST_TILE_AT on level 1
TAKEN = "taken"  # a cell is already covered
CORNER = "corner"  # touches the layout only at a corner
APART = "apart"  # does not touch the layout at all
ONE_CONTACT = "one_contact"  # touches fewer pieces than CONTACTS_NEEDED
COLOUR = "colour"  # no same-colour contact
NOT_SMARTIE = "not_smartie"  # only Smartie tiles go on level 2
GAP = "gap"  # a level-2 tile would hang over a gap
SMARTIE_BELOW = "smartie"  # would cover (part of) a Smartie tile
ONE_TILE = "one_tile"  # a level-2 tile exactly on one tile

Placement = tuple[str, int, int, int, int]  # (tile, x, y, rot, level)


class Layout:
    """The tiles on the table. Mutable while it is built (`place`); a game state clones it
    before every change, so a state's layout never changes under it."""

    __slots__ = ("base", "l1", "placed", "spots1", "spots2", "sweets", "top", "up")

    placed: list[Placement]  # in the order they were laid
    l1: dict[int, int]  # cell -> index (in `placed`) of the level-1 tile on it
    up: dict[int, int]  # cell -> index of the level-2 tile on it
    base: dict[int, int]  # cell -> colour of the level-1 piece
    top: dict[int, int]  # cell -> colour seen from above
    sweets: set[int]  # cells of Smartie tiles (on either level): never to be covered
    spots1: dict[int, int]  # level-1 frontier: top-left cell -> contact mask
    spots2: dict[int, int]  # level-2 frontier: top-left cell -> contact mask

    def __init__(self) -> None:
        self.placed = []
        self.l1 = {}
        self.up = {}
        self.base = {}
        self.top = {}
        self.sweets = set()
        self.spots1 = {key(*FIRST_TILE_AT): ANY_CONTACT}
        self.spots2 = {}

    @classmethod
    def replay(cls, placements: list[Placement]) -> Layout:
        """The layout these (legal) placements make, laid in order."""
        layout = cls()
        for p in placements:
            layout.place(*p)
        return layout

    def clone(self) -> Layout:
        c = Layout.__new__(Layout)
        c.placed = self.placed.copy()
        c.l1 = self.l1.copy()
        c.up = self.up.copy()
        c.base = self.base.copy()
        c.top = self.top.copy()
        c.sweets = self.sweets.copy()
        c.spots1 = self.spots1.copy()
        c.spots2 = self.spots2.copy()
        return c

    # -- judging -------------------------------------------------------------------------------
    def problem(self, tile: str, x: int, y: int, rot: int, level: int) -> str | None:
        """Why `tile` may not lie there (a code above), or None if it may. Worked out from the
        cells themselves, never from the frontiers, so the tests can hold one against the
        other."""
        k = key(x, y)
        cells = [k + d for d in CELLS]
        if not self.placed:
            return None if (x, y) == FIRST_TILE_AT and level == 1 else FIRST
        if level == 1:
            if any(c in self.l1 for c in cells):
                return TAKEN
            return self._contact_problem(k, PATTERNS[tile][rot])
        if tile not in SMARTIE:
            return NOT_SMARTIE
        if any(c not in self.l1 for c in cells):
            return GAP
        if any(c in self.sweets for c in cells):
            return SMARTIE_BELOW
        if len({self.l1[c] for c in cells}) < LEVEL2_MIN_TILES_BELOW:
            return ONE_TILE
        if LEVEL2_NEEDS_CONTACT:
            return self._contact_problem(k, PATTERNS[tile][rot])
        return None

    def _contact_problem(self, k: int, pattern: tuple[int, ...]) -> str | None:
        seen = self.top if CONTACT_BY_TOP_VIEW else self.base
        contacts = [(i, seen[k + d]) for i, d in NEIGHBOURS if k + d in seen]
        if not contacts:
            return CORNER if any(k + d in seen for d in CORNERS) else APART
        if len(contacts) < CONTACTS_NEEDED:
            return ONE_CONTACT
        if sum(pattern[i] == c for i, c in contacts) < SAME_COLOUR_CONTACTS_NEEDED:
            return COLOUR
        return None

    # -- laying --------------------------------------------------------------------------------
    def place(self, tile: str, x: int, y: int, rot: int, level: int) -> None:
        """Lay a tile (already judged legal) and bring the frontiers up to date around it."""
        k = key(x, y)
        index = len(self.placed)
        self.placed.append((tile, x, y, rot, level))
        pattern = PATTERNS[tile][rot]
        smartie = tile in SMARTIE
        top = self.top
        for c, colour in zip(CELLS, pattern, strict=True):
            cell = k + c
            top[cell] = colour
            if level == 1:
                self.l1[cell] = index
                self.base[cell] = colour
            else:
                self.up[cell] = index
            if smartie:
                self.sweets.add(cell)
        if level == 1 or CONTACT_BY_TOP_VIEW:
            spots1 = self.spots1
            for d in RING2:
                mask = self._spot1(k + d)
                if mask is None:
                    spots1.pop(k + d, None)
                else:
                    spots1[k + d] = mask
        spots2 = self.spots2
        for d in RING2 if LEVEL2_NEEDS_CONTACT else RING1:
            mask = self._spot2(k + d)
            if mask is None:
                spots2.pop(k + d, None)
            else:
                spots2[k + d] = mask

    def _spot1(self, k: int) -> int | None:
        l1 = self.l1
        if k in l1 or k + STRIDE in l1 or k + 1 in l1 or k + STRIDE + 1 in l1:
            return None
        return self._contact_mask(k)

    def _contact_mask(self, k: int) -> int | None:
        seen = self.top if CONTACT_BY_TOP_VIEW else self.base
        contacts = mask = 0
        for piece, d in NEIGHBOURS:
            colour = seen.get(k + d)
            if colour is not None:
                contacts += 1
                mask |= 1 << (2 * piece + colour)
        return mask if contacts >= CONTACTS_NEEDED else None

    def _spot2(self, k: int) -> int | None:
        l1 = self.l1
        below = set()
        for d in CELLS:
            tile = l1.get(k + d)
            if tile is None or k + d in self.sweets:
                return None
            below.add(tile)
        if len(below) < LEVEL2_MIN_TILES_BELOW:
            return None
        return self._contact_mask(k) if LEVEL2_NEEDS_CONTACT else ANY_CONTACT

    # -- scoring -------------------------------------------------------------------------------
    def groups(self) -> tuple[list[list[int]], list[list[int]]]:
        """Every connected group of each colour in the top view, as lists of cells, largest
        first (ties in the order found)."""
        top, up = self.top, self.up
        seen: set[int] = set()
        found: tuple[list[list[int]], list[list[int]]] = ([], [])
        for start, colour in top.items():
            if start in seen:
                continue
            level = start in up
            seen.add(start)
            group = [start]
            stack = [start]
            while stack:
                cell = stack.pop()
                for d in SIDES:
                    n = cell + d
                    if n not in seen and top.get(n) == colour:
                        if not LEVELS_CONNECT and (n in up) != level:
                            continue
                        seen.add(n)
                        group.append(n)
                        stack.append(n)
            found[colour].append(group)
        for lists in found:
            lists.sort(key=len, reverse=True)
        return found

    def group_sizes(self) -> tuple[list[int], list[int]]:
        """The sizes of `groups()`, largest first, per colour."""
        white, dark = self.groups()
        return [len(g) for g in white], [len(g) for g in dark]

    def sizes_after(self, tile: str, x: int, y: int, rot: int, level: int) -> tuple[
            list[int], list[int]]:
        """`group_sizes()` once this (legal) tile lay there, without laying it: only the top
        view changes, so the frontiers a `place` keeps are left out (bots rate placements
        by it)."""
        probe = Layout.__new__(Layout)
        probe.top = top = self.top.copy()
        probe.up = up = self.up.copy() if level == 2 else self.up
        k = key(x, y)
        for c, colour in zip(CELLS, PATTERNS[tile][rot], strict=True):
            top[k + c] = colour
            if level == 2:
                up[k + c] = -1
        return probe.group_sizes()

    def cells(self) -> list[list[Any]]:
        """[x, y, colour, level] of every cell seen from above, row by row."""
        out = []
        for k in sorted(self.top, key=lambda c: (c % STRIDE, c)):
            x, y = coords(k)
            out.append([x, y, self.top[k], 2 if k in self.up else 1])
        return out
