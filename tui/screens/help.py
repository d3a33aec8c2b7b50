"""The rules of a game, in our own words, in the current language. The text scrolls with
↑/↓, PgUp/PgDn and Home/End: at 80×24 most of it is below the fold."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from tui.help import rules_text
from tui.i18n import language
from tui.screens.base import KeySpec, TableScreen
from tui.widgets.footer import Footer


class HelpScreen(TableScreen[None]):
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("escape,q,f1,question_mark", "close", "key.back", True),
    )

    def __init__(self, engine_id: str) -> None:
        super().__init__()
        self.engine_id = engine_id

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(rules_text(self.engine_id, language()), id="rules")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss()
