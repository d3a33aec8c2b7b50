"""Counted tokens: chips, pigs, coins, victory points. A pile shows how many there are, or "?"
when the count is somebody else's secret (hidden information stays hidden on screen too).
On a large table (step 1 and up, `tui.widgets.scale`) a small pile is drawn token by token."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from tui.widgets.scale import Scalable

HIDDEN = "?"
# Piles up to this many tokens are drawn one symbol per token on a large table.
SPREAD_MAX = 12


class TokenPile(Widget, Scalable):
    """`symbol count label`, e.g. "● 7 chips". `tone` names the theme variable that colours
    the symbol ("chip", "pig", ...), so each kind of token keeps its colour in every theme."""

    DEFAULT_CSS = """
    TokenPile { width: auto; height: 1; }
    TokenPile.-big { text-style: bold; }
    """

    def __init__(
        self,
        count: int | None,
        *,
        symbol: str = "●",
        tone: str = "chip",
        label: str = "",
        scale: int = 0,
        id: str | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.symbol = symbol
        self.tone = tone
        self.label = label
        self.count = count
        self.set_scale(scale)

    def show(self, count: int | None, label: str | None = None) -> None:
        """New count (None: hidden) and optionally a new label; redraws only on change."""
        label = self.label if label is None else label
        if (count, label) != (self.count, self.label):
            self.count, self.label = count, label
            self.refresh(layout=True)

    def render(self) -> Content:
        shown = HIDDEN if self.count is None else str(self.count)
        count = self.count or 0
        symbols = count if self.scale and 1 < count <= SPREAD_MAX else 1
        parts: list[str | tuple[str, str]] = [
            (self.symbol * symbols, f"bold ${self.tone}"),
            " ",
            (shown, "bold"),
        ]
        if self.label:
            parts += [" ", (self.label, "$text-muted")]
        return Content.assemble(*parts)


class ChipPile(TokenPile):
    """The usual poker-chip pile: gold dots."""

    def __init__(
        self,
        count: int | None,
        *,
        label: str = "",
        scale: int = 0,
        id: str | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(
            count, symbol="●", tone="chip", label=label, scale=scale, id=id, classes=classes
        )
