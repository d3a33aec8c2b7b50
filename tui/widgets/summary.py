"""A summary over the table between rounds or hands: without it the scores flash by in the log
while the next deal is already on the table. It opens by itself once per round (`offer_once`)
and closes with enter, escape, space, `s` or a click; the table shows through, dimmed."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, ClassVar
from weakref import WeakKeyDictionary

from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

# The last round whose summary each game screen has shown: a board made afresh for another
# seat in hot-seat play must not pop the same summary up again.
_SHOWN: WeakKeyDictionary[Screen[Any], int] = WeakKeyDictionary()


class SummaryScreen(ModalScreen[None]):
    """A title, a body and a hint line in a box over the table."""

    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen > #summary-box {
        width: auto; max-width: 90%; height: auto; max-height: 90%;
        border: heavy $accent; background: $felt; padding: 1 2;
    }
    SummaryScreen #summary-title { text-style: bold; color: $accent; width: auto; }
    SummaryScreen #summary-body { width: auto; max-width: 100%; margin: 1 0; }
    SummaryScreen #summary-hint { color: $text-muted; width: auto; max-width: 100%; }
    """

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,escape,space,s", "close", show=False),
    ]

    def __init__(self, title: str, body: Content, hint: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-box"):
            yield Static(self.title_text, id="summary-title")
            yield Static(self.body, id="summary-body")
            yield Static(self.hint, id="summary-hint")

    def on_mount(self) -> None:
        # The app stylesheet gives every screen an opaque background, which beats this
        # class's CSS; an inline style lets the table show through, dimmed.
        backdrop = Color.parse(self.app.theme_variables.get("background", "black"))
        self.styles.background = backdrop.with_alpha(0.6)

    def on_click(self) -> None:
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


def never_offer(screen: Screen[Any]) -> None:
    """No summary opens over `screen`: a replay, whose log says the same and whose keys are
    the timeline's (a summary there would stop playback and ask for a key)."""
    _SHOWN[screen] = sys.maxsize


def offer_once(
    board: Widget, number: int | None, over: bool, make: Callable[[], SummaryScreen]
) -> None:
    """Open the summary of round `number` (None: no round ended yet) over `board`'s screen
    unless that screen showed it already; once the game is `over`, close an open summary
    instead, since the results screen comes next."""
    if not board.is_mounted:
        return
    if over:
        if isinstance(board.app.screen, SummaryScreen):
            board.app.screen.dismiss()
        return
    if number is None or _SHOWN.get(board.screen, 0) >= number:
        return
    _SHOWN[board.screen] = number
    board.app.push_screen(make())
