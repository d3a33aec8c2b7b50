"""One line of parts ("Game · room · your turn · what just happened") that must fit its width:
a top bar has one row, and a cut-off line hides just the words that mattered. First the
separators narrow, then the parts that can go go; only then is the last part shortened."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

WIDE = "  ·  "
NARROW = " · "


def fit_parts(parts: Sequence[str], width: int, droppable: Sequence[int] = ()) -> str:
    """`parts` joined to fit `width` cells: with wide separators, else narrow ones, else
    without the parts at the indexes in `droppable` (left out in that order), else the last
    part shortened."""
    line = WIDE.join(parts)
    if cell_len(line) <= width:
        return line
    kept = list(range(len(parts)))
    for index in (None, *droppable):
        if index in kept and len(kept) > 1:
            kept.remove(index)
        line = NARROW.join(parts[i] for i in kept)
        if cell_len(line) <= width:
            return line
    return _shortened(line, width)


def _shortened(line: str, width: int) -> str:
    if width <= 0:
        return ""
    while line and cell_len(line) > width - 1:
        line = line[:-1]
    return line.rstrip() + "…"
