"""Settings, applied the moment they are chosen (so you see what you pick) and kept for next
time (`tui.prefs`): theme, language, your name, the bots' level, the turn bell, and the clock
and takeover time you host with."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, RadioButton, RadioSet, Static

from themes import THEME_NAMES
from tui import days_menu, prefs
from tui.i18n import LANGUAGE_NAMES, LANGUAGES, language, tr
from tui.screens.base import MAX_NAME, KeySpec, TableScreen
from tui.screens.lobby import BOT_LEVELS
from tui.widgets import ActionButton
from tui.widgets.footer import Footer
from tui.widgets.text_input import TextInput


class SettingsScreen(TableScreen[None]):
    KEYS: ClassVar[tuple[KeySpec, ...]] = (("escape", "close", "key.back", True),)

    def __init__(self) -> None:
        super().__init__()
        self.error = ""

    def compose(self) -> ComposeResult:
        saved = prefs.load()
        with VerticalScroll(id="settings-box"):
            yield Static(tr("settings.title"), id="settings-title")
            with Horizontal(classes="settings-columns"):
                yield from self._choice("theme", "settings.theme", [
                    (name, tr(f"theme.{name}")) for name in THEME_NAMES
                ], self.app.theme)
                yield from self._choice("language", "settings.language", [
                    (lang, LANGUAGE_NAMES[lang]) for lang in LANGUAGES
                ], language())
            with Horizontal(classes="settings-columns"):
                yield from self._choice("bot_level", "settings.bot_level", [
                    (level, tr(f"lobby.bot_{level}")) for level in BOT_LEVELS
                ], saved.bot_level)
                yield from self._choice("bell", "settings.bell", [
                    (mode, tr(f"settings.bell.{mode}")) for mode in prefs.BELL_MODES
                ], saved.bell)
            with Horizontal(classes="settings-columns"):
                with Vertical(classes="setting"):
                    yield Static(tr("settings.name"), classes="setting-label")
                    yield TextInput(saved.name, id="name", max_length=MAX_NAME,
                                placeholder=tr("name.you"))
                with Vertical(classes="setting setting-narrow"):
                    yield Static(tr("settings.takeover"), classes="setting-label")
                    yield Input("" if saved.takeover is None else str(saved.takeover),
                                id="takeover", type="integer", placeholder="—")
            with Horizontal(classes="settings-columns"):
                yield from self._choice("clock", "settings.clock", [
                    (name, tr(f"clock.preset.{name}")) for name in prefs.CLOCKS
                ], saved.clock)
            if days_menu.at_table():  # play over days: notices, vacation, standing orders
                yield Button(tr("days.key.settings"), id="days-settings")
            yield Static(Content(self.error), id="settings-error")
            yield ActionButton(tr("settings.done"), id="done", variant="primary")
        yield Footer()

    @staticmethod
    def _choice(
        setting: str, label: str, choices: list[tuple[str, str]], current: str
    ) -> ComposeResult:
        with Vertical(classes="setting"):
            yield Static(tr(label), classes="setting-label")
            with RadioSet(id=setting):
                for value, text in choices:
                    yield RadioButton(text, value=value == current, name=value,
                                      id=f"{setting}-{value}")

    def on_mount(self) -> None:
        self.query_one("#theme", RadioSet).focus()

    async def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        choice = event.pressed.name
        if choice is None:
            return
        setting = event.radio_set.id
        if setting == "theme":
            self.app.choose_theme(choice)  # type: ignore[attr-defined]
        elif setting == "language":
            if choice != language():
                await self.app.set_language(choice)  # type: ignore[attr-defined]
        elif setting in ("bot_level", "bell", "clock"):
            prefs.update(**{setting: choice})

    def on_input_changed(self, event: Input.Changed) -> None:
        """Each field is kept as soon as it is valid; a bad time says so and keeps the old."""
        event.stop()
        field, text = event.input.id, event.value.strip()
        if field == "name":
            prefs.update(name=text)
            return
        if text and (not text.isdigit() or int(text) <= 0):
            self._say(tr("netlobby.bad_number"))
            return
        self._say("")
        prefs.update(**{str(field): int(text) if text else None})

    def _say(self, text: str) -> None:
        self.error = text
        self.query_one("#settings-error", Static).update(Content(text))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "days-settings":
            from tui.screens.days import DaysSettingsScreen

            self.app.push_screen(DaysSettingsScreen())
            return
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()
