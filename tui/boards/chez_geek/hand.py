"""Your hand, one card a line: name, type, cost and slack, and what it does in a few words (a
large window gives each card a second line for that). A cursor picks the card the keys act on;
Things picked for a shopping trip are marked. A click moves the cursor."""

from __future__ import annotations

from typing import Any

from textual.containers import Vertical
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from tui.boards.chez_geek.cards import card_name, effects_line
from tui.boards.chez_geek.rooms import clip
from tui.i18n import tr

# The most cards a hand can hold at once (7 for the Arbeitsdrohne, one more while a card that
# would overflow it is being dealt with).
POOL = 10


def card_line(card: dict[str, Any], width: int) -> str:
    """Name, type, cost and slack in columns."""
    slack = card.get("slack") or "—"
    kind = tr(f"cg.cat.{card.get('type')}")
    name = card_name(card.get("card"))
    name_w = max(10, min(22, width - 50))
    name = name if len(name) <= name_w else name[: name_w - 1] + "…"
    values = tr("cg.hand.values", cost=card.get("cost"), slack=slack)
    return f"{name:<{name_w}} {kind:<8} {values:<15}"


class HandLine(Static):
    DEFAULT_CSS = """
    HandLine { height: auto; width: 1fr; }
    HandLine.-cursor { background: $accent 30%; text-style: bold; }
    HandLine.-playable { color: $success; }
    """

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(id=f"card-{index}")
        self.index = index

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.index))


class Hand(Vertical):
    """The seat's hand with a cursor and the basket of a shopping trip."""

    DEFAULT_CSS = """
    Hand { height: auto; width: 1fr; }
    Hand #hand-empty { color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cursor = 0
        self.cards: list[dict[str, Any]] = []

    def compose(self) -> Any:
        yield Static(tr("cg.hand.empty"), id="hand-empty")
        for index in range(POOL):
            yield HandLine(index)

    @property
    def selected(self) -> dict[str, Any] | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def draw(
        self, cards: list[dict[str, Any]], basket: list[int], playable: set[str], width: int,
        roomy: bool,
    ) -> None:
        self.cards = cards
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        self.query_one("#hand-empty", Static).display = not cards
        for index, line in enumerate(self.query(HandLine)):
            line.display = index < len(cards)
            if index >= len(cards):
                continue
            card = cards[index]
            mark = "☑" if index in basket else ("›" if index == self.cursor else " ")
            text = f"{mark}{index + 1} {card_line(card, width)}"
            effects = effects_line(card.get("effects") or [])
            if roomy and effects:
                text += f"\n     {effects}"
            elif effects:
                text += f" {effects}"
            line.update(Content(text if roomy else clip(text, width)))
            line.set_class(index == self.cursor, "-cursor")
            line.set_class(card.get("card") in playable, "-playable")
