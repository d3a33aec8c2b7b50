"""A card's full description over the table (the card key): everything printed on it, its
effects in words, and the deck file's note. Esc, Enter or the same key closes it."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.boards.chez_geek.cards import full_text
from tui.i18n import tr


class CardInfo(ModalScreen[None]):
    DEFAULT_CSS = """
    CardInfo { align: center middle; }
    CardInfo > Vertical {
        width: 64; max-width: 100%; height: auto; border: round $accent; padding: 0 1;
        background: $surface;
    }
    CardInfo #info-title { text-style: bold; }
    """
    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape,enter,i,space", "close", tr("cg.key.close"), key_display="Esc"),
    ]

    def __init__(self, cid: str) -> None:
        super().__init__()
        self.cid = cid

    def compose(self) -> ComposeResult:
        lines = full_text(self.cid)
        with Vertical():
            yield Static(Content(lines[0]), id="info-title")
            yield Static(Content("\n".join(lines[1:])), id="info-body")
            yield Static(Content(tr("cg.info.close")), id="info-keys")

    def action_close(self) -> None:
        self.dismiss(None)
