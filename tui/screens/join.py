"""Joining by code from the menu (or `tabletop-tui join CODE`). A code that cannot be one, a
room nobody has opened, a full table: each gets one clear line, and the form stays as typed."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, Static, Switch

from net.host.hosting import table_relay
from net.peer.remote import JoinError, RemoteLink
from net.wire import codes
from tui import prefs
from tui.i18n import tr
from tui.screens.base import MAX_NAME, KeySpec, TableScreen
from tui.screens.host import login_name
from tui.screens.net_errors import why
from tui.screens.net_lobby import CSS, PeerLobbyScreen
from tui.widgets.footer import Footer
from tui.widgets.text_input import TextInput


class JoinScreen(TableScreen[None]):
    DEFAULT_CSS = CSS.replace("NetLobby", "JoinScreen")
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("f5", "press('join')", "join.join", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self, code: str = "", name: str = "", server: str | None = None,
                 watch: bool = False, *, auto: bool = False) -> None:
        super().__init__()
        self.code, self.player, self.watch = code, name, watch
        self.server = server or table_relay() or ""
        self.auto = auto
        self.error = ""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="netlobby-box"):
            yield Static(tr("join.title"), id="netlobby-title")
            yield Static(Content(self.error), id="netlobby-error")
            yield Static(tr("join.code"), classes="netlobby-heading")
            yield Input(self.code, id="code", placeholder="K7QX-9MPA-B3CD", max_length=20)
            yield Static(tr("join.name"), classes="netlobby-heading")
            yield TextInput(self.player, id="name", placeholder=self.default_name(),
                        max_length=MAX_NAME)
            yield Static(tr("join.server"), classes="netlobby-heading")
            if table_relay() is not None:  # an SSH table's session joins on the table's relay
                yield Static(Content(self.server), id="server-locked")
            else:
                yield Input(self.server, id="server", placeholder="127.0.0.1:8765")
            with Horizontal(classes="netlobby-row"):
                yield Button(tr("join.join"), id="join", variant="success")
                yield Switch(self.watch, id="watch")
                yield Static(tr("join.watch"), classes="netlobby-label")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#code", Input).focus()
        if self.auto:
            self.run_worker(self.join(), group="join", exclusive=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "join":
            self.start_join()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.start_join()

    def harvest(self) -> None:
        self.code = self.query_one("#code", Input).value.strip()
        self.player = self.query_one("#name", Input).value.strip()
        self.server = table_relay() or self.query_one("#server", Input).value.strip()
        self.watch = self.query_one("#watch", Switch).value

    def start_join(self) -> None:
        self.harvest()
        self.run_worker(self.join(), group="join", exclusive=True)

    async def join(self) -> None:
        try:
            link = RemoteLink(self.code, self.player or self.default_name(),
                              server=self.server or None,
                              watch=self.watch)
        except codes.BadCode as exc:
            self.show_error(tr("join.failed", message=str(exc)))
            return
        self.show_error(tr("join.joining"))
        link.on_asking = lambda: self.show_error(tr("join.asking"))
        try:
            await link.connect()
        except JoinError as exc:
            self.show_error(tr("join.failed", message=why(exc.code, exc.message)))
            return
        self.app.switch_screen(PeerLobbyScreen(link, link.engine))

    @staticmethod
    def default_name() -> str:
        return prefs.load().name or login_name()

    def show_error(self, text: str) -> None:
        self.error = text
        line = self.query_one("#netlobby-error", Static)
        line.update(Content(text))
        line.scroll_visible()

    def action_back(self) -> None:
        self.dismiss()
