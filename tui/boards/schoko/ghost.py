"""The ghost: the tile you are about to lay, where it would go. It moves freely (arrow keys,
the mouse) so you can try any spot and read why it does not fit; `jump` and `nearest` take it
to the spots the legal moves list, keeping its turn and level when they can."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

Move = dict[str, Any]


@dataclass(frozen=True)
class Ghost:
    tile: str
    x: int = 0
    y: int = 0
    rot: int = 0
    level: int = 1

    def move(self) -> Move:
        return {
            "type": "place",
            "tile": self.tile,
            "x": self.x,
            "y": self.y,
            "rot": self.rot,
            "level": self.level,
        }

    def cells(self) -> list[tuple[int, int]]:
        """Its four cells in piece order: top-left, top-right, bottom-left, bottom-right."""
        return [
            (self.x, self.y),
            (self.x + 1, self.y),
            (self.x, self.y + 1),
            (self.x + 1, self.y + 1),
        ]

    def moved(self, dx: int, dy: int) -> Ghost:
        return replace(self, x=self.x + dx, y=self.y + dy)

    def turned(self) -> Ghost:
        return replace(self, rot=(self.rot + 1) % 4)

    def other_level(self) -> Ghost:
        return replace(self, level=3 - self.level)

    def at(self, move: Move) -> Ghost:
        return replace(self, x=move["x"], y=move["y"], rot=move["rot"], level=move["level"])


def _order(move: Move) -> tuple[int, int, int, int]:
    return move["level"], move["y"], move["x"], move["rot"]


def spots(legal: list[Move], ghost: Ghost) -> list[Move]:
    """The legal placements of the ghost's tile in its turn and level, in reading order; all
    of the tile's placements if none keeps them."""
    mine = [m for m in legal if m.get("type") == "place" and m["tile"] == ghost.tile]
    same = [m for m in mine if m["rot"] == ghost.rot and m["level"] == ghost.level]
    return sorted(same or mine, key=_order)


def jump(legal: list[Move], ghost: Ghost, step: int) -> Ghost:
    """The ghost at the next (step 1) or previous (-1) legal spot in reading order after where
    it is now, wrapping round; unchanged if its tile fits nowhere."""
    found = spots(legal, ghost)
    if not found:
        return ghost
    here = _order(ghost.move())
    if step > 0:
        later = [m for m in found if _order(m) > here]
        return ghost.at(later[0] if later else found[0])
    earlier = [m for m in found if _order(m) < here]
    return ghost.at(earlier[-1] if earlier else found[-1])


def nearest(legal: list[Move], ghost: Ghost) -> Ghost:
    """The ghost at the legal spot nearest to where it is (same turn and level if possible);
    unchanged if its tile fits nowhere."""
    found = spots(legal, ghost)
    if not found:
        return ghost
    best = min(found, key=lambda m: (abs(m["x"] - ghost.x) + abs(m["y"] - ghost.y), _order(m)))
    return ghost.at(best)
