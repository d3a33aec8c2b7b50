"""How large a table is drawn. A board picks one step for the room it has (80×24 is step 0, the
size every widget had before steps existed) and hands it to every card widget inside it with
`rescale`; each widget then draws its cards from the same row of `SIZES`, so a trick, a hand and
a centre card grow together and never out of proportion.

The board chooses (not the widget) because only the board knows how many rows its other parts
need: a step is right when the whole table still fits, which `largest_fitting` finds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.widget import Widget


@dataclass(frozen=True)
class CardSize:
    """Cell sizes of every kind of card at one step. Terminal cells are about twice as tall as
    wide, so a card of `width` × `rows` cells looks like a card when rows ≈ width / 2 … 2/3."""

    width: int  # widest a `CardRow` card is drawn (narrower when the row lacks room)
    rows: int  # face rows of a `CardRow` card
    card: tuple[int, int]  # a bordered `Card`, width × height
    big: tuple[int, int]  # a big bordered `Card` (the one everybody looks at)
    pixel: tuple[int, int] | None  # cells per dot of a big card's numerals (None: Digits)
    tile_rows: int  # rows of a `CardStrip` card (1: a flat label)


SIZES: tuple[CardSize, ...] = (
    CardSize(width=10, rows=4, card=(8, 5), big=(16, 7), pixel=None, tile_rows=1),
    CardSize(width=13, rows=6, card=(10, 7), big=(22, 11), pixel=(2, 1), tile_rows=3),
    CardSize(width=16, rows=8, card=(12, 9), big=(28, 15), pixel=(3, 2), tile_rows=3),
    CardSize(width=20, rows=10, card=(14, 11), big=(36, 19), pixel=(4, 3), tile_rows=3),
)
LARGEST = len(SIZES) - 1


def largest_fitting(fits: Callable[[CardSize], bool]) -> int:
    """The largest step whose sizes `fits` accepts; step 0 if none does (a small window keeps
    the smallest cards and scrolls, as before)."""
    return max((step for step, size in enumerate(SIZES) if fits(size)), default=0)


class Scalable:
    """A widget that draws larger at a higher step. Mixed into widgets; it also sets the CSS
    class `-scale-N` for every step N from 1 up to its own (so `.-scale-1` means "step 1 or
    larger"), and a board's stylesheet can follow the step too."""

    scale: int = 0

    def set_scale(self, scale: int) -> None:
        scale = max(0, min(LARGEST, scale))
        if scale == self.scale:
            return
        self.scale = scale
        assert isinstance(self, Widget)
        for step in range(1, LARGEST + 1):
            self.set_class(step <= scale, f"-scale-{step}")
        self.rescaled()

    @property
    def sizes(self) -> CardSize:
        return SIZES[self.scale]

    def rescaled(self) -> None:
        """Redraw at the new step (a widget whose size changes asks for a new layout)."""
        assert isinstance(self, Widget)
        self.refresh(layout=True)


def rescale(root: Widget, scale: int) -> None:
    """Give `root` and every scalable widget inside it the step `scale`."""
    for widget in [root, *root.query("*")]:
        if isinstance(widget, Scalable):
            widget.set_scale(scale)
