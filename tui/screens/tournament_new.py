"""A new tournament from the menu (Tournaments → `n`), for whoever may organise here (at home
anybody; at a public table the identities its operator names, net.entrant.may_organise).
The same checks as `tabletop-tui tournament new` (net.players.tournaments.plan_event): a
mistake is said in one line and nothing is made. Dismissed with the new tournament's id."""

from __future__ import annotations

import sqlite3
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, Select, Static, Switch

from engines import ENGINE_IDS, get_engine
from net.players import ladder
from net.players.store import StoreError
from net.players.tournaments import Tournaments, plan_event, start_time
from net.tournament.plan import FORMATS
from tui.i18n import register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.screens.net_lobby import CSS
from tui.widgets.footer import Footer


class NewTournamentScreen(TableScreen[str | None]):
    DEFAULT_CSS = CSS.replace("NetLobby", "NewTournamentScreen")
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("f5", "press('create')", "tn.new.create", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self, organiser: str) -> None:
        super().__init__()
        self.organiser = organiser
        self.game = ENGINE_IDS[0]
        self.kind = FORMATS[0]
        self.length, self.seats, self.start, self.tid = "5", "", "20:00", ""
        self.duplicate = False
        self.error = ""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="netlobby-box"):
            yield Static(tr("tn.new.title"), id="netlobby-title")
            yield Static(tr("host.game"), classes="netlobby-heading")
            yield Select([(get_engine(g).title, g) for g in ENGINE_IDS], value=self.game,
                         allow_blank=False, id="game")
            yield Static(tr("tn.new.format"), classes="netlobby-heading")
            yield Select([(tr(f"tn.new.kind.{k}"), k) for k in FORMATS], value=self.kind,
                         allow_blank=False, id="kind")
            yield Static(tr("tn.new.length"), classes="netlobby-heading")
            yield Input(self.length, id="length", type="integer", max_length=4)
            yield Static(tr("tn.new.seats"), classes="netlobby-heading")
            yield Input(self.seats, id="seats", type="integer", max_length=1, placeholder="—")
            yield Static(tr("tn.new.start"), classes="netlobby-heading")
            yield Input(self.start, id="start", max_length=20, placeholder="20:00")
            yield Static(tr("tn.new.name"), classes="netlobby-heading")
            yield Input(self.tid, id="tid", max_length=40, placeholder="friday-swiss")
            with Horizontal(classes="netlobby-row"):
                yield Switch(self.duplicate, id="duplicate")
                yield Static(tr("tn.new.duplicate"), classes="netlobby-label")
            yield Static(Content(self.error), id="netlobby-error")
            yield Button(tr("tn.new.create"), id="create", variant="success")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#game", Select).focus()

    def harvest(self) -> None:
        self.game = str(self.query_one("#game", Select).value)
        self.kind = str(self.query_one("#kind", Select).value)
        self.length = self.query_one("#length", Input).value.strip()
        self.seats = self.query_one("#seats", Input).value.strip()
        self.start = self.query_one("#start", Input).value.strip()
        self.tid = self.query_one("#tid", Input).value.strip()
        self.duplicate = self.query_one("#duplicate", Switch).value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "create":
            self.create()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.create()

    def create(self) -> None:
        """Make it, or say in one line why not (nothing made)."""
        self.harvest()
        number = int(self.length) if self.length.isdigit() else 0
        try:
            event = plan_event(self.game, self.kind, starts=start_time(self.start),
                               rounds=number, minutes=number,
                               seats=int(self.seats) if self.seats.isdigit() else None,
                               duplicate=self.duplicate, tid=self.tid or None,
                               organiser=self.organiser)
            store = ladder.open_store()
            try:
                Tournaments(store).create(event)
            finally:
                store.close()
        except (ValueError, StoreError, OSError, sqlite3.Error) as exc:
            self.say(str(exc))
            return
        self.dismiss(event.id)

    def say(self, text: str) -> None:
        self.error = text
        self.query_one("#netlobby-error", Static).update(Content(text))

    def action_back(self) -> None:
        self.dismiss(None)


register(
    {
        "en": {
            "tn.new.title": "New tournament",
            "tn.new.format": "Format",
            "tn.new.kind.swiss": "Swiss",
            "tn.new.kind.roundrobin": "Round-robin",
            "tn.new.kind.arena": "Arena",
            "tn.new.length": "Rounds (Swiss) or minutes (arena)",
            "tn.new.seats": "Seats at a table (empty: the game's fewest)",
            "tn.new.start": "Starts (now, HH:MM or 2026-12-24T20:00)",
            "tn.new.name": "Its name (empty: game and start)",
            "tn.new.duplicate": "Duplicate: every table of a round plays the same deal",
            "tn.new.create": "Create",
        },
        "de": {
            "tn.new.title": "Neues Turnier",
            "tn.new.format": "Format",
            "tn.new.kind.swiss": "Schweizer System",
            "tn.new.kind.roundrobin": "Rundenturnier",
            "tn.new.kind.arena": "Arena",
            "tn.new.length": "Runden (Schweizer System) oder Minuten (Arena)",
            "tn.new.seats": "Plätze an einem Tisch (leer: so wenige, wie das Spiel erlaubt)",
            "tn.new.start": "Beginn (now, HH:MM oder 2026-12-24T20:00)",
            "tn.new.name": "Sein Name (leer: Spiel und Beginn)",
            "tn.new.duplicate": "Duplicate: jeder Tisch einer Runde spielt dasselbe Blatt",
            "tn.new.create": "Anlegen",
        },
    }
)
