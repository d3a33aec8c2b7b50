"""The key bar (tui.widgets.footer) is made afresh only when the keys it shows change: a Tab
between fields with the same keys keeps it, a key that changes is shown at once."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from tui.widgets.footer import Footer


class Form(App[None]):
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [("f1", "help", "Help"), ("f2", "send", "Send")]

    def __init__(self) -> None:
        super().__init__()
        self.can_send = True

    def compose(self) -> ComposeResult:
        yield Input(id="first")
        yield Input(id="second")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "send" and not self.can_send else True

    def action_help(self) -> None:
        """Nothing to show: the key is there to be shown."""

    def action_send(self) -> None:
        self.can_send = False
        self.refresh_bindings()


def keys(app: App[None]) -> list[FooterKey]:
    return list(app.query(FooterKey))


async def test_a_tab_between_fields_with_the_same_keys_keeps_the_bar() -> None:
    app = Form()
    async with app.run_test() as pilot:
        await pilot.pause()
        before = keys(app)
        assert [k.description for k in before] == ["Help", "Send"]
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "second"
        assert keys(app) == before  # the very same widgets: nothing was made again


async def test_a_key_that_changes_is_shown_at_once() -> None:
    app = Form()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert not any(k.has_class("-disabled") for k in keys(app))
        await pilot.press("f2")
        await pilot.pause()
        await pilot.pause()
        send = [k for k in keys(app) if k.description == "Send"]
        assert [k.has_class("-disabled") for k in send] == [True]
