"""Small screens laid over a table: the whole log (at 80×24 there is no room for it beside the
board) and a yes/no question before something that cannot be undone. Both work from the
keyboard alone and leave everything under them as it was."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.i18n import tr
from tui.widgets import EventLog


class LogOverlay(ModalScreen[None]):
    """Everything that happened this game, chat included, scrollable with the arrow keys."""

    DEFAULT_CSS = """
    LogOverlay { align: center middle; }
    LogOverlay > Vertical {
        width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1;
    }
    LogOverlay #overlay-title { height: 1; text-style: bold; color: $accent; }
    LogOverlay #overlay-hint { height: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f6,q", "close", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
        Binding("home", "scroll_to('home')", show=False),
        Binding("end", "scroll_to('end')", show=False),
    ]

    def __init__(self, lines: Sequence[str], title: str) -> None:
        super().__init__()
        self.lines = list(lines)
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.title_text), id="overlay-title")
            yield EventLog(lines=self.lines, id="overlay-log")
            yield Static(tr("overlay.log_hint"), id="overlay-hint")

    def action_scroll(self, rows: int) -> None:
        log = self.query_one(EventLog)
        log.scroll_to(y=log.scroll_y + rows, animate=False)

    def action_scroll_to(self, where: str) -> None:
        log = self.query_one(EventLog)
        log.scroll_to(y=0 if where == "home" else log.max_scroll_y, animate=False)

    def action_close(self) -> None:
        self.dismiss()


class ConfirmScreen(ModalScreen[bool]):
    """A question with two answers; `y`/Enter says yes, `n`/Esc no (dismissed with a bool)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 64; height: auto; border: heavy $warning; background: $surface; padding: 1 2;
    }
    ConfirmScreen #confirm-text { width: 100%; margin-bottom: 1; }
    ConfirmScreen Horizontal { height: auto; align: center middle; }
    ConfirmScreen Button { margin: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
        Binding("left,right", "app.focus_next", show=False),
    ]

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.question), id="confirm-text")
            with Horizontal():
                yield Button(Content(self.yes), id="yes", variant="error")
                yield Button(Content(self.no), id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # the safe answer is the one Enter gives

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
