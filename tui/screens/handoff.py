"""Hot-seat: the table is covered until the next person at this terminal says they are ready,
so the previous player's chips and the next one's stay private."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from tui.i18n import tr
from tui.screens.base import TableScreen
from tui.widgets import ActionButton
from tui.widgets.footer import Footer


class HandoffScreen(TableScreen[bool]):
    """Dismissed with False when the next player is ready, True to leave the game (Esc,
    twice: one stray key must not end a game for everyone at the keyboard)."""

    def __init__(self, name: str) -> None:
        self.player = name
        self._leaving = False
        super().__init__()

    def key_bindings(self) -> list[Binding]:
        return [
            Binding("enter", "ready", tr("handoff.ready", name=self.player)),
            Binding("escape", "leave", tr("key.menu")),
        ]

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box"):
            yield Static(Content(tr("handoff.title", name=self.player)), id="handoff-title")
            yield Static(Content(tr("handoff.body", name=self.player)), id="handoff-body")
            with Center():
                ready = Content(tr("handoff.ready", name=self.player))
                yield ActionButton(ready, variant="success")
            yield Static(id="handoff-note")
        yield Footer()

    async def hand_to(self, name: str) -> None:
        """The keyboard goes to someone else before this person said they were ready (the
        table moved on meanwhile): one handoff screen, never a pile of stale ones."""
        self.player = name
        self._leaving = False
        await self.retranslate()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_ready()

    def action_ready(self) -> None:
        self.dismiss(False)

    def action_leave(self) -> None:
        if self._leaving:
            self.dismiss(True)
            return
        self._leaving = True
        self.query_one("#handoff-note", Static).update(tr("game.leave_again"))
