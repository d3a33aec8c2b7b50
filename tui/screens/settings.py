"""Theme and language, applied the moment they are chosen (so you see what you pick)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, RadioButton, RadioSet, Static

from themes import THEME_NAMES
from tui.i18n import LANGUAGE_NAMES, LANGUAGES, language, tr
from tui.screens.base import KeySpec, TableScreen
from tui.widgets import ActionButton


class SettingsScreen(TableScreen[None]):
    KEYS: ClassVar[tuple[KeySpec, ...]] = (("escape", "close", "key.back", True),)

    def compose(self) -> ComposeResult:
        with Vertical(id="settings-box"):
            yield Static(tr("settings.title"), id="settings-title")
            with Horizontal(id="settings-columns"):
                with Vertical(classes="setting"):
                    yield Static(tr("settings.theme"), classes="setting-label")
                    with RadioSet(id="theme"):
                        for name in THEME_NAMES:
                            yield RadioButton(
                                tr(f"theme.{name}"),
                                value=name == self.app.theme,
                                name=name,
                                id=f"theme-{name}",
                            )
                with Vertical(classes="setting"):
                    yield Static(tr("settings.language"), classes="setting-label")
                    with RadioSet(id="language"):
                        for lang in LANGUAGES:
                            yield RadioButton(
                                LANGUAGE_NAMES[lang],
                                value=lang == language(),
                                name=lang,
                                id=f"lang-{lang}",
                            )
            yield ActionButton(tr("settings.done"), id="done", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#theme", RadioSet).focus()

    async def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        choice = event.pressed.name
        if choice is None:
            return
        if event.radio_set.id == "theme":
            self.app.choose_theme(choice)  # type: ignore[attr-defined]
        elif choice != language():
            await self.app.set_language(choice)  # type: ignore[attr-defined]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()
