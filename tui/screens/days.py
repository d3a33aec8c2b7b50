"""Play over days at a table: the player's games (their turn first, the one waiting longest at
the top), their invitations and the games open to anyone; a form to open a game; and the
player's own settings for it (where the table tells them it is their turn, vacation,
standing orders). A game is played on the very game screen every other game uses, through a
`DaysLink` (net.days.link).

Names and everything else in these lists come from the table's store, written by other
players: each is cleaned (net.wire.text) and drawn as plain text, never markup.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from engines import ENGINE_IDS, get_engine
from net.days import clock, people, table
from net.days.link import DaysLink, with_store
from net.days.notices import NoticeError
from net.days.orders import ANSWERS
from net.days.store import OVER, DaysStore, Listing
from net.players import identity
from net.players.store import StoreError
from net.wire.text import clean
from tui.commands.days import player_name
from tui.days_menu import register_words
from tui.i18n import language, tr
from tui.screens.base import KeySpec, TableScreen
from tui.screens.game import GameScreen
from tui.widgets.footer import Footer

WORDS = {
    "days.title": {"en": "Play over days", "de": "Spiel über Tage"},
    "days.host_note": {
        "en": "This table hosts these games itself, so it sees every hand, as a host does; "
              "each of you is sent only your own view. Nobody needs to be here at once: "
              "move when you like within the days per move.",
        "de": "Dieser Tisch richtet diese Spiele selbst aus und sieht daher alle Karten, wie "
              "ein Gastgeber; jedem von euch wird nur die eigene Sicht geschickt. Niemand muss "
              "gleichzeitig da sein: zieh, wann du magst, innerhalb der Tage pro Zug."},
    "days.mine_turn": {"en": "Your turn", "de": "Du bist dran"},
    "days.mine_wait": {"en": "Waiting for the others", "de": "Die anderen sind dran"},
    "days.invited": {"en": "Invitations", "de": "Einladungen"},
    "days.open": {"en": "Open games (take a seat)", "de": "Offene Spiele (Platz nehmen)"},
    "days.finished": {"en": "Finished (results, Past games)",
                      "de": "Beendet (Ergebnisse, Vergangene Spiele)"},
    "days.none": {"en": "No games over days yet: n opens one.",
                  "de": "Noch keine Spiele über Tage: n eröffnet eines."},
    "days.no_identity": {"en": "Play over days needs an identity (log in with an SSH key).",
                         "de": "Spiel über Tage braucht eine Identität (melde dich mit einem "
                               "SSH-Schlüssel an)."},
    "days.row": {"en": "{game} · {days} d/move · {seats}", "de": "{game} · {days} T/Zug · "
                                                                 "{seats}"},
    "days.waiting_for": {"en": "waiting {days} d", "de": "wartet {days} T"},
    "days.key.open": {"en": "Play / sit", "de": "Spielen / setzen"},
    "days.key.new": {"en": "New game", "de": "Neues Spiel"},
    "days.key.refresh": {"en": "Refresh", "de": "Auffrischen"},
    "days.new.title": {"en": "A new game over days", "de": "Ein neues Spiel über Tage"},
    "days.new.game": {"en": "Game", "de": "Spiel"},
    "days.new.days": {"en": "Days per move", "de": "Tage pro Zug"},
    "days.new.players": {"en": "Players", "de": "Spieler"},
    "days.new.bots": {"en": "Bots (strong)", "de": "Bots (stark)"},
    "days.new.invite": {"en": "Invite (names or fingerprints, commas; other seats stay open)",
                        "de": "Einladen (Namen oder Fingerabdrücke, Kommas; andere Plätze "
                              "bleiben offen)"},
    "days.new.listed": {"en": "List it for anyone at this table",
                        "de": "Für alle an diesem Tisch auflisten"},
    "days.new.open": {"en": "Open the game", "de": "Spiel eröffnen"},
    "days.set.title": {"en": "Play over days: notices and vacation",
                       "de": "Spiel über Tage: Hinweise und Urlaub"},
    "days.set.webhook": {"en": "Webhook (one POST per turn: ntfy, Discord, Slack)",
                         "de": "Webhook (ein POST pro Zug: ntfy, Discord, Slack)"},
    "days.set.email": {"en": "E-mail (a daily digest and a last warning)",
                       "de": "E-Mail (eine tägliche Übersicht und eine letzte Warnung)"},
    "days.set.save": {"en": "Save notices", "de": "Hinweise speichern"},
    "days.set.saved": {"en": "Saved.", "de": "Gespeichert."},
    "days.set.vacation": {"en": "Vacation days ({left} left this year): every game of yours "
                                "stands still, the others are told",
                          "de": "Urlaubstage ({left} übrig dieses Jahr): all deine Spiele "
                                "ruhen, die anderen erfahren es"},
    "days.set.away": {"en": "Go on vacation", "de": "In Urlaub gehen"},
    "days.set.back": {"en": "Come back", "de": "Zurückkommen"},
    "days.set.away_until": {"en": "On vacation until {until}; the others are told.",
                            "de": "Im Urlaub bis {until}; die anderen erfahren es."},
    "days.set.orders": {"en": "Standing orders in answer windows (Chez Geek), all your games",
                        "de": "Daueraufträge in Antwortfenstern (Chez Geek), alle deine Spiele"},
    "days.order.never": {"en": "Never answer", "de": "Nie antworten"},
    "days.order.nookie": {"en": "Cancel any Nookie against me",
                          "de": "Jedes Schäferstündchen gegen mich aufheben"},
    "days.order.bot": {"en": "Answer as the strong bot would",
                       "de": "Antworten wie der starke Bot"},
    "days.set.orders_save": {"en": "Set orders", "de": "Aufträge setzen"},
}
register_words(WORDS)

FINISHED_SHOWN = 10  # the newest finished games the list shows


def _me() -> identity.Identity | None:
    return identity.mine()


def _seats_text(game: Listing) -> str:
    names = [clean(name, 32) if name else ("·" if bot is None else bot)
             for name, _ident, bot in game.seats]
    return ", ".join(names)


def _row(game: Listing, now: float) -> str:
    try:
        title = get_engine(game.engine).title
    except (KeyError, ImportError):
        title = clean(game.engine, 32)
    text = tr("days.row", game=title, days=game.days, seats=_seats_text(game))
    if game.my_turn:
        waited = max(0.0, (now - game.turn_since) / clock.DAY)
        text += "  " + tr("days.waiting_for", days=f"{waited:.1f}")
    return text


class DaysScreen(TableScreen[None]):
    """The player's games over days and the open ones (see the module docstring)."""

    DEFAULT_CSS = """
    DaysScreen #days-box { height: 1fr; padding: 0 1; }
    DaysScreen #days-title { text-style: bold; color: $accent; height: 1; }
    DaysScreen #days-note { height: auto; color: $text-muted; margin: 0 0 1 0; }
    DaysScreen #days-status { height: auto; }
    DaysScreen #days-status.-error { color: $error; text-style: bold; }
    DaysScreen #days-list { height: 1fr; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("enter", "choose", "days.key.open", True),
        ("n", "new", "days.key.new", True),
        ("s", "settings", "days.key.settings", True),
        ("r", "refresh", "days.key.refresh", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, str, str]] = []  # (option id, text, section)
        self.status = ""
        self.failed = False

    def compose(self) -> ComposeResult:
        with Vertical(id="days-box"):
            yield Static(tr("days.title"), id="days-title")
            yield Static(tr("days.host_note"), id="days-note")
            yield Static(Content(self.status), id="days-status",
                         classes="-error" if self.failed else "")
            yield OptionList(*self._options(), id="days-list")
        yield Footer()

    def _options(self) -> list[Option]:
        options: list[Option] = []
        section = ""
        for option_id, text, heading in self.rows:
            if heading != section:
                section = heading
                options.append(Option(Content(tr(heading)), disabled=True))
            options.append(Option(Content(text), id=option_id))
        if not self.rows:
            options.append(Option(Content(tr("days.none")), disabled=True))
        return options

    def on_mount(self) -> None:
        self.query_one("#days-list", OptionList).focus()
        self.action_refresh()

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="days", exclusive=True)

    async def _load(self) -> None:
        me = _me()
        if me is None:
            self._say(tr("days.no_identity"), failed=True)
            return
        name = player_name()
        try:
            mine, invited, listed = await asyncio.to_thread(
                with_store, None, lambda store: (store.games_of(me.fingerprint, True),
                                                 store.invited(me.fingerprint, name),
                                                 store.listed()))
        except (StoreError, OSError) as exc:
            self._say(str(exc), failed=True)
            return
        now = time.time()
        rows = [(f"play:{g.id}", _row(g, now), "days.mine_turn") for g in mine if g.my_turn]
        rows += [(f"play:{g.id}", _row(g, now), "days.mine_wait") for g in mine
                 if not g.my_turn and g.status != OVER]
        rows += [(f"join:{g.id}", _row(g, now), "days.invited") for g in invited]
        rows += [(f"join:{g.id}", _row(g, now), "days.open") for g in listed
                 if g.id not in {i.id for i in invited} and not g.mine]
        finished = [g for g in mine if g.status == OVER][-FINISHED_SHOWN:]
        rows += [(f"play:{g.id}", _row(g, now), "days.finished") for g in reversed(finished)]
        self.rows = rows
        listing = self.query_one("#days-list", OptionList)
        listing.clear_options()
        listing.add_options(self._options())
        listing.highlighted = next((i for i, o in enumerate(listing.options)
                                    if not o.disabled), None)

    def _say(self, text: str, failed: bool = False) -> None:
        self.status, self.failed = text, failed
        status = self.query_one("#days-status", Static)
        status.update(Content(text))
        status.set_class(failed, "-error")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self._choose(event.option.id)

    def action_choose(self) -> None:
        listing = self.query_one("#days-list", OptionList)
        if listing.highlighted is not None:
            option = listing.get_option_at_index(listing.highlighted)
            if option.id:
                self._choose(option.id)

    def _choose(self, option_id: str) -> None:
        kind, _, game_id = option_id.partition(":")
        self.run_worker(self._open(game_id, join=kind == "join"), group="days")

    async def _open(self, game_id: str, join: bool) -> None:
        me = _me()
        if me is None:
            return
        try:
            if join:
                await asyncio.to_thread(with_store, None, lambda store: table.take_seat(
                    store, game_id, None, me, player_name(), time.time()))
            game = await asyncio.to_thread(
                with_store, None, lambda store: store.load(game_id, with_moves=False))
        except (table.DaysError, StoreError, OSError) as exc:
            self._say(str(exc), failed=True)
            return
        if game is None:
            return
        if game.status == "open":
            self._say("", failed=False)
            self.action_refresh()
            return
        open_days_game(self.app, game_id, game.engine, me.fingerprint)

    def action_new(self) -> None:
        self.app.push_screen(NewDaysScreen(), lambda _done: self.action_refresh())

    def action_settings(self) -> None:
        self.app.push_screen(DaysSettingsScreen())

    def action_back(self) -> None:
        self.dismiss(None)


def open_days_game(app: Any, game_id: str, engine_id: str, ident: str) -> None:
    """Open the game screen on a game over days."""
    app.push_screen(GameScreen(DaysLink(game_id, ident), engine_id))


def _waiting_game(store: DaysStore, ident: str) -> tuple[str, str] | None:
    games = sorted((g for g in store.games_of(ident) if g.my_turn), key=lambda g: g.turn_since)
    return (games[0].id, games[0].engine) if games else None


async def open_longest_waiting(app: Any) -> bool:
    """The game waiting longest for this player's move, on the game screen; whether there
    was one."""
    me = _me()
    if me is None:
        return False
    try:
        found = await asyncio.to_thread(with_store, None,
                                        lambda store: _waiting_game(store, me.fingerprint))
    except (StoreError, OSError):
        return False
    if found is None:
        return False
    open_days_game(app, found[0], found[1], me.fingerprint)
    return True


class NewDaysScreen(TableScreen[bool]):
    """Open a game over days: the game, days per move, seats (invitations, bots, open)."""

    DEFAULT_CSS = """
    NewDaysScreen #new-box { height: 1fr; padding: 0 1; }
    NewDaysScreen .new-label { height: 1; margin: 1 0 0 0; }
    NewDaysScreen #new-title { text-style: bold; color: $accent; height: 1; }
    NewDaysScreen #new-note { height: auto; color: $text-muted; }
    NewDaysScreen #new-error { height: auto; color: $error; text-style: bold; }
    NewDaysScreen Horizontal { height: auto; }
    NewDaysScreen Select { width: 30; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("f5", "press('new-open')", "days.new.open", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self) -> None:
        super().__init__()
        self.error = ""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="new-box"):
            yield Static(tr("days.new.title"), id="new-title")
            yield Static(tr("days.host_note"), id="new-note")
            yield Static(tr("days.new.game"), classes="new-label")
            yield Select([(get_engine(e).title, e) for e in ENGINE_IDS], value=ENGINE_IDS[0],
                         allow_blank=False, id="new-game")
            with Horizontal():
                with Vertical():
                    yield Static(tr("days.new.days"), classes="new-label")
                    yield Select([(str(d), d) for d in clock.DAYS_CHOICES], value=3,
                                 allow_blank=False, id="new-days")
                with Vertical():
                    yield Static(tr("days.new.players"), classes="new-label")
                    yield Select([(str(n), n) for n in range(2, 8)], value=2,
                                 allow_blank=False, id="new-players")
                with Vertical():
                    yield Static(tr("days.new.bots"), classes="new-label")
                    yield Select([(str(n), n) for n in range(0, 7)], value=0,
                                 allow_blank=False, id="new-bots")
            yield Static(tr("days.new.invite"), classes="new-label")
            yield Input(id="new-invite", max_length=400)
            yield Checkbox(tr("days.new.listed"), value=True, id="new-listed")
            yield Static(Content(self.error), id="new-error")
            yield Button(tr("days.new.open"), id="new-open", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#new-game", Select).focus()

    def plans(self) -> list[table.SeatPlan]:
        players = int(self.query_one("#new-players", Select).value)  # type: ignore[arg-type]
        bots = int(self.query_one("#new-bots", Select).value)  # type: ignore[arg-type]
        invites = [n.strip() for n in self.query_one("#new-invite", Input).value.split(",")
                   if n.strip()]
        plans = [table.SeatPlan("me")]
        plans += [table.SeatPlan("invite", name) for name in invites]
        plans += [table.SeatPlan("bot", "strong") for _ in range(bots)]
        plans += [table.SeatPlan("open") for _ in range(players - len(plans))]
        return plans

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "new-open":
            self.run_worker(self._open(), group="days-new", exclusive=True)

    async def _open(self) -> None:
        me = _me()
        if me is None:
            self._error(tr("days.no_identity"))
            return
        engine_id = str(self.query_one("#new-game", Select).value)
        days = int(self.query_one("#new-days", Select).value)  # type: ignore[arg-type]
        listed = self.query_one("#new-listed", Checkbox).value
        plans = self.plans()
        try:
            await asyncio.to_thread(with_store, None, lambda store: table.open_game(
                store, engine_id, plans, me, player_name(), time.time(), days=days,
                listed=listed))
        except (table.DaysError, StoreError, OSError) as exc:
            self._error(str(exc))
            return
        self.dismiss(True)

    def _error(self, text: str) -> None:
        self.error = text
        self.query_one("#new-error", Static).update(Content(text))

    def action_back(self) -> None:
        self.dismiss(False)


class DaysSettingsScreen(TableScreen[None]):
    """Where the table tells this player it is their turn, their vacation, their orders."""

    DEFAULT_CSS = """
    DaysSettingsScreen #set-box { height: 1fr; padding: 0 1; }
    DaysSettingsScreen #set-title { text-style: bold; color: $accent; height: 1; }
    DaysSettingsScreen .set-label { height: auto; margin: 1 0 0 0; }
    DaysSettingsScreen #set-status { height: auto; }
    DaysSettingsScreen Horizontal { height: auto; }
    DaysSettingsScreen #set-orders { width: 40; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (("escape", "back", "key.back", True),)

    def __init__(self) -> None:
        super().__init__()
        self.webhook = ""
        self.email = ""
        self.left = clock.VACATION_DAYS

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="set-box"):
            yield Static(tr("days.set.title"), id="set-title")
            yield Static(tr("days.set.webhook"), classes="set-label")
            yield Input(self.webhook, id="set-webhook", max_length=500,
                        placeholder="https://ntfy.sh/…")
            yield Static(tr("days.set.email"), classes="set-label")
            yield Input(self.email, id="set-email", max_length=254)
            yield Button(tr("days.set.save"), id="set-save")
            yield Static(tr("days.set.vacation", left=int(self.left)), classes="set-label",
                         id="set-vacation-label")
            with Horizontal():
                yield Input("7", id="set-vacation", type="integer", max_length=3)
                yield Button(tr("days.set.away"), id="set-away")
                yield Button(tr("days.set.back"), id="set-back")
            yield Static(tr("days.set.orders"), classes="set-label")
            with Horizontal():
                yield Select([(tr(f"days.order.{a}"), a) for a in ANSWERS], value="never",
                             allow_blank=False, id="set-orders")
                yield Button(tr("days.set.orders_save"), id="set-orders-save")
            yield Static("", id="set-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#set-webhook", Input).focus()
        self.run_worker(self._load(), group="days-set")

    async def _load(self) -> None:
        me = _me()
        if me is None:
            return
        try:
            player = await asyncio.to_thread(with_store, None,
                                             lambda store: store.player(me.fingerprint))
        except (StoreError, OSError):
            return
        if player is None:
            return
        self.query_one("#set-webhook", Input).value = player.webhook or ""
        self.query_one("#set-email", Input).value = player.email or ""
        self.left = clock.vacation_left(player.vacation_year, player.vacation_used, time.time())
        self.query_one("#set-vacation-label", Static).update(
            tr("days.set.vacation", left=int(self.left)))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.run_worker(self._act(event.button.id or ""), group="days-set", exclusive=True)

    async def _act(self, button: str) -> None:
        me = _me()
        if me is None:
            self._say(tr("days.no_identity"))
            return
        ident, name, now, lang = me.fingerprint, player_name(), time.time(), language()
        webhook = self.query_one("#set-webhook", Input).value
        email = self.query_one("#set-email", Input).value
        vacation = self.query_one("#set-vacation", Input).value
        answer = str(self.query_one("#set-orders", Select).value)

        def work(store: DaysStore) -> str:
            if button == "set-save":
                people.set_notices(store, ident, name, webhook, email, lang=lang)
                return tr("days.set.saved")
            if button == "set-away":
                days = int(vacation) if vacation.isdigit() else 0
                player = people.go_away(store, ident, name, days, now)
                until = time.strftime("%Y-%m-%d", time.gmtime(player.away.end or now))
                return tr("days.set.away_until", until=until)
            if button == "set-back":
                people.come_back(store, ident, name, now)
                return tr("days.set.saved")
            if button == "set-orders-save":
                for game in store.games_of(ident):
                    table.set_orders(store, game.id, ident, {"answer": answer})
                return tr("days.set.saved")
            return ""

        try:
            said = await asyncio.to_thread(with_store, None, work)
        except (table.DaysError, NoticeError, StoreError, OSError) as exc:
            said = str(exc)
        self._say(said)
        await self._load()

    def _say(self, text: str) -> None:
        self.query_one("#set-status", Static).update(Content(text))

    def action_back(self) -> None:
        self.dismiss(None)
