"""Hosting from the menu (or `tabletop-tui host GAME`): pick the game, name yourself, open
the room. The room opens on a relay started here unless a relay address is given; the lobby
that follows shows the join code."""

from __future__ import annotations

import getpass
from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Button, Footer, Input, Select, Static, Switch

from engines import ENGINE_IDS, get_engine
from net.host.hosting import HostPlan, open_room, table_relay
from tui import boards, prefs
from tui.i18n import tr
from tui.screens.base import MAX_NAME, KeySpec, TableScreen
from tui.screens.net_lobby import CSS, HostLobbyScreen, host_table


def playable() -> list[str]:
    """Games with both rules and a board."""
    ready = []
    for engine_id in ENGINE_IDS:
        try:
            get_engine(engine_id)
            boards.board_class(engine_id)
        except (ImportError, KeyError, ValueError):
            continue
        ready.append(engine_id)
    return ready


def login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "host"


class HostScreen(TableScreen[None]):
    DEFAULT_CSS = CSS.replace("NetLobby", "HostScreen")
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("f5", "press('open')", "host.open", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self, plan: HostPlan | None = None, *, auto: bool = False) -> None:
        super().__init__()
        games = playable()
        self.plan = plan or HostPlan(games[0] if games else None, 0)
        self.plan.host_name = self.plan.host_name or prefs.load().name or login_name()
        self.auto = auto
        self.error = ""

    def compose(self) -> ComposeResult:
        plan = self.plan
        with VerticalScroll(id="netlobby-box"):
            yield Static(tr("host.title"), id="netlobby-title")
            if not plan.resume:
                yield Static(tr("host.game"), classes="netlobby-heading")
                yield Select([(get_engine(g).title, g) for g in playable()], value=plan.game,
                             allow_blank=False, id="game")
            yield Static(tr("host.name"), classes="netlobby-heading")
            yield Input(plan.host_name or "", id="name", max_length=MAX_NAME)
            yield Static(tr("host.server"), classes="netlobby-heading")
            if (relay := table_relay()) is not None:
                # A session of an SSH table: its rooms live on the table's relay, and a
                # stranger may neither point the server elsewhere nor open ports on its LAN.
                yield Static(Content(relay), id="server-locked")
            else:
                yield Input(plan.server or "", id="server", placeholder="127.0.0.1:8765")
                yield Switch(plan.lan, id="lan")
                yield Static(tr("host.lan"), classes="netlobby-label")
            yield Static(Content(self.error), id="netlobby-error")
            yield Button(tr("host.open"), id="open", variant="success")
        yield Footer()

    def on_mount(self) -> None:
        if self.auto:
            self.run_worker(self.open(), group="host", exclusive=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self.harvest()
            self.run_worker(self.open(), group="host", exclusive=True)

    def harvest(self) -> None:
        plan = self.plan
        if not plan.resume:
            plan.game = str(self.query_one("#game", Select).value)
        plan.host_name = self.query_one("#name", Input).value.strip() or login_name()
        if (relay := table_relay()) is not None:
            plan.server, plan.lan = relay, False
            return
        plan.server = self.query_one("#server", Input).value.strip() or None
        plan.lan = self.query_one("#lan", Switch).value

    async def open(self) -> None:
        # The form stays as filled in (Esc in the lobby comes back to it, maybe for another
        # game): the seat count is made up for this room only.
        plan = replace(self.plan)
        if not plan.resume and plan.game:
            engine = get_engine(plan.game)
            plan.seats = plan.seats if plan.seats >= engine.min_players else engine.min_players
            plan.clock = plan.clock or prefs.load().clock
        self.show_error(tr("host.opening"))
        try:
            room = await open_room(plan, say=lambda text: self.notify(text, markup=False))
        except (OSError, ValueError) as exc:
            self.show_error(tr("host.failed", message=str(exc)))
            return
        if not plan.resume:
            room.host.set_takeover(prefs.load().takeover)
        if room.host.started:  # resumed: straight back to the table
            self.app.switch_screen(host_table(room))
        else:
            form = self.plan
            self.app.switch_screen(HostLobbyScreen(room, back=lambda: HostScreen(form)))

    def show_error(self, text: str) -> None:
        self.error = text
        self.query_one("#netlobby-error", Static).update(Content(text))

    def action_back(self) -> None:
        self.dismiss()
