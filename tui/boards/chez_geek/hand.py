"""Your hand as a row of cards that grows with the terminal: each card in its kind's colour with
its number key, name, cost and slack. The card under the cursor is lifted (the keys act on it);
a card you can play now is marked ▲, and Things packed for a shopping trip are marked under
the card. A click moves the cursor."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget

from tui.boards.chez_geek.faces import hand_face
from tui.i18n import tr
from tui.widgets.cardrow import CardRow, Slot

# The number keys that pick a card: as many as a hand can hold and more.
PICK_KEYS = "123456789"
PLAYABLE = "▲"


class Hand(Widget):
    """The seat's hand with a cursor and the basket of a shopping trip."""

    DEFAULT_CSS = """
    Hand { height: auto; width: 1fr; }
    """

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cursor = 0
        self.cards: list[dict[str, Any]] = []
        self.row = CardRow(lift=True, notes=True, empty=tr("cg.hand.empty"))

    def compose(self) -> ComposeResult:
        yield self.row

    @property
    def selected(self) -> dict[str, Any] | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def draw(self, cards: list[dict[str, Any]], basket: list[int], playable: set[str]) -> None:
        self.cards = cards
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        packed = tr("cg.hand.packed")
        self.row.show([
            Slot(
                hand_face(card),
                corner=PICK_KEYS[index] if index < len(PICK_KEYS) else "",
                lifted=index == self.cursor,
                below=packed if index in basket else (
                    PLAYABLE if card.get("card") in playable else ""),
                strong=index in basket,
            )
            for index, card in enumerate(cards)
        ])

    def on_card_row_clicked(self, event: CardRow.Clicked) -> None:
        event.stop()
        self.post_message(self.Clicked(event.index))
