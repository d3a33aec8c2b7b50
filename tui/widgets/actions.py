"""Buttons for the mouse that mirror the board's keys, so the keyboard and the mouse always
offer exactly the same moves."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.widgets import Button


@dataclass(frozen=True)
class Action:
    """One thing a player can do: `name` is what the board acts on, `label` what people read,
    `key` the key that does the same (the footer lists it; the button shows it on hover)."""

    name: str
    label: str
    key: str = ""


class ActionButton(Button, can_focus=False):
    """A button that never takes focus: the board keeps the keys, and space never presses
    whatever button happens to be focused (space is a move in some games)."""


class ActionBar(Horizontal):
    """A row of one-line buttons; `Chosen(name)` when one is clicked. On a slim screen (below
    80 columns, `tui.app`) the buttons lose their padding and keep a cell between them, so
    three fit a phone held upright; never narrower than a thumb's target."""

    SCOPED_CSS = False  # the slim rule starts at the screen, above the bar
    DEFAULT_CSS = """
    ActionBar { height: 1; width: 1fr; align: center middle; margin-top: 1; }
    ActionBar > ActionButton { margin: 0 1; min-width: 12; padding: 0 2; }
    .-slim ActionBar > ActionButton { margin: 0 0 0 1; min-width: 8; padding: 0; }
    """

    class Chosen(Message):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, actions: list[Action], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.actions = actions

    def compose(self) -> ComposeResult:
        for action in self.actions:
            yield ActionButton(
                Content(action.label),
                id=f"act-{action.name}",
                variant="primary",
                compact=True,
                tooltip=action.key or None,
            )

    def set_state(self, name: str, *, enabled: bool, visible: bool = True) -> None:
        button = self.query_one(f"#act-{name}", ActionButton)
        button.disabled = not enabled
        button.display = visible

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        assert event.button.id is not None
        self.post_message(self.Chosen(event.button.id.removeprefix("act-")))
