"""Hosting from the menu (or `tabletop-tui host GAME`): pick the game, name yourself, open
the room. The room opens on a relay started here unless a relay address is given; the lobby
that follows shows the join code."""

from __future__ import annotations

import getpass
from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, Select, Static, Switch

from engines import ENGINE_IDS, get_engine
from net.host.billboard import MAX_FILL_AFTER
from net.host.hosting import HostPlan, open_room, table_relay
from net.host.standing import at_table
from tui import boards, prefs
from tui.i18n import tr
from tui.screens.base import MAX_NAME, KeySpec, TableScreen
from tui.screens.lobby import BOT_LEVELS
from tui.screens.net_lobby import CSS, HostLobbyScreen, host_table
from tui.widgets.footer import Footer
from tui.widgets.text_input import TextInput


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
        saved = prefs.load()
        if plan is None:
            plan = HostPlan(games[0] if games else None, 0, fill_after=saved.fill_after)
            plan.level = saved.bot_level if saved.bot_level in BOT_LEVELS else plan.level
        self.plan = plan
        self.plan.host_name = self.plan.host_name or saved.name or login_name()
        # The bots' wait as typed (checked when the room opens, so a half-typed number is kept
        # across a language switch).
        self.fill_text = "" if plan.fill_after is None else f"{plan.fill_after:g}"
        # The minimum finished share as typed, in percent (only at a table: see compose_public).
        self.min_text = "" if plan.min_finished is None else f"{plan.min_finished * 100:g}"
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
            yield TextInput(plan.host_name or "", id="name", max_length=MAX_NAME)
            yield Static(tr("host.server"), classes="netlobby-heading")
            if (relay := table_relay()) is not None:
                # A session of an SSH table: its rooms live on the table's relay, and a
                # stranger may neither point the server elsewhere nor open ports on its LAN.
                yield Static(Content(relay), id="server-locked")
            else:
                yield Input(plan.server or "", id="server", placeholder="127.0.0.1:8765")
                yield Switch(plan.lan, id="lan")
                yield Static(tr("host.lan"), classes="netlobby-label")
            if not plan.resume:
                yield from self.compose_public()
            yield Static(Content(self.error), id="netlobby-error")
            yield Button(tr("host.open"), id="open", variant="success")
        yield Footer()

    def compose_public(self) -> ComposeResult:
        """Listed among the relay's open tables or not, and when bots take the free seats."""
        plan = self.plan
        yield Static(tr("host.listing"), classes="netlobby-heading")
        with Horizontal(classes="netlobby-row"):
            yield Switch(plan.public, id="public")
            yield Static(tr("host.public"), classes="netlobby-label")
        with Horizontal(classes="netlobby-row"):
            yield Input(self.fill_text, id="fill-after", type="integer", placeholder="—")
            yield Static(tr("host.fill_after"), classes="netlobby-label")
        if at_table():  # only a table's ladder knows anybody's finished share
            with Horizontal(classes="netlobby-row"):
                yield Input(self.min_text, id="min-finished", type="integer", placeholder="—",
                            max_length=3)
                yield Static(tr("host.min_finished"), classes="netlobby-label")
        yield Static(tr("host.level"), classes="netlobby-heading")
        yield Select([(tr(f"lobby.bot_{level}"), level) for level in BOT_LEVELS],
                     value=plan.level if plan.level in BOT_LEVELS else "strong",
                     allow_blank=False, id="level", classes="clock-select")

    def on_mount(self) -> None:
        if self.auto:
            self.run_worker(self.open(), group="host", exclusive=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self.harvest()
            if not self.plan.resume and not (self.take_fill_after() and self.take_minimum()):
                return
            self.run_worker(self.open(), group="host", exclusive=True)

    def take_fill_after(self) -> bool:
        """The bots' wait into the plan (and kept for next time, Quick play's too), or say
        what is wrong with it and change nothing."""
        text = self.fill_text
        if text and not (text.isdigit() and int(text) <= MAX_FILL_AFTER):
            self.show_error(tr("host.bad_fill", most=f"{MAX_FILL_AFTER:g}"))
            return False
        self.plan.fill_after = float(text) if text else None
        if self.plan.public:
            prefs.update(fill_after=int(text) if text else None)
        return True

    def take_minimum(self) -> bool:
        """The minimum finished share into the plan, or say what is wrong with it."""
        text = self.min_text
        if text and not (text.isdigit() and int(text) <= 100):
            self.show_error(tr("host.bad_min_finished"))
            return False
        self.plan.min_finished = int(text) / 100 if text else None
        return True

    def harvest(self) -> None:
        plan = self.plan
        if not plan.resume:
            plan.game = str(self.query_one("#game", Select).value)
            plan.public = self.query_one("#public", Switch).value
            plan.level = str(self.query_one("#level", Select).value)
            self.fill_text = self.query_one("#fill-after", Input).value.strip()
            if at_table():
                self.min_text = self.query_one("#min-finished", Input).value.strip()
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
            self.app.switch_screen(HostLobbyScreen(room, back=lambda: HostScreen(form),
                                                   listed=plan.public))

    def show_error(self, text: str) -> None:
        self.error = text
        self.query_one("#netlobby-error", Static).update(Content(text))

    def action_back(self) -> None:
        self.dismiss()
