"""Finding a game at a public table: the rooms a relay lists as waiting for players
(net.peer.tables), and Quick play. Nothing here joins or hosts by itself: a listed room is
joined through the join form with its code filled in, exactly as a code typed by hand, and
Quick play's own room is opened by the host form, public and with bots after the player's
usual wait. So every failure a player can meet there reads the same as it does there.

Rows come from a relay that may be a stranger's: every row has been checked and its words
cleaned by `open_tables` before it gets here, and they are cleaned again where they are drawn
(net.wire.text), shown as plain text, never markup, in columns measured in terminal cells, so a
wide character does not push the columns after it out of line.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from net.discovery import DEFAULT_PORT, server_url
from net.host.hosting import HostPlan, table_relay
from net.peer.tables import OpenTable, RelayUnreachable, TablesError, best, open_tables
from net.players import identity, ladder, reputation
from net.wire.text import cells as cell_len
from net.wire.text import clean, fit
from tui import prefs
from tui.i18n import register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.screens.host import HostScreen, playable
from tui.screens.join import JoinScreen
from tui.screens.lobby import BOT_LEVELS
from tui.screens.menu import GamePickerScreen
from tui.screens.overlays import ConfirmScreen
from tui.screens.ratings import points
from tui.widgets.footer import Footer

ALL = "all"
REFRESH_EVERY = 5.0  # seconds between two looks at the relay while the screen is shown
LOCAL_SERVER = f"127.0.0.1:{DEFAULT_PORT}"  # the relay hosting starts here when none is named
COLUMNS = ("game", "seats", "host", "rating", "finished", "asks")


def short_identity(fingerprint: str | None) -> str:
    """The first two groups of a fingerprint (`id:ABCD-EFGH`): enough to tell two hosts of
    the same name apart at a glance; the whole one is in the records."""
    return "" if fingerprint is None else fingerprint[:12]


def my_finished(game: str) -> float | None:
    """This player's finished share in the store their games count into (at a table, the
    table's, which its hosts' minimums hold against); None: no identity or no counted games."""
    me = identity.mine()
    if me is None:
        return None
    return reputation.TableWord(ladder.store_location())(me.fingerprint, game)["finished"]


def game_title(engine_id: str) -> str:
    from engines import get_engine

    try:
        return get_engine(engine_id).title
    except (ImportError, KeyError, ValueError):
        return clean(engine_id)


def bots_words(seconds: int | None, passed: float) -> str:
    """When bots come, `passed` seconds after the relay said `seconds`."""
    if seconds is None:
        return ""
    left = max(0, round(seconds - passed))
    return tr("tables.bots_in", n=left) if left else tr("tables.bots_now")


def cells(table: OpenTable) -> list[str]:
    """One room's columns: game, seats free, host (with the short fingerprint), rating,
    finished share, and the finished share the host asks of its players. The host's name is a
    stranger's: shown as printed text on one line."""
    host = clean(table.host) + (f" {short_identity(clean(table.identity))}"
                                if table.identity else "")
    rating = "–" if table.rating is None else points(table.rating)
    finished = "–" if table.finished is None else f"{table.finished:.0%}"
    asks = "" if table.min_finished is None else f"≥{table.min_finished:.0%}"
    return [game_title(table.game), f"{table.free}/{table.seats}", host, rating, finished, asks]


def line(texts: list[str], widths: tuple[int, ...]) -> str:
    """Columns padded to `widths`: the words to the left, the numbers to the right."""
    return "  ".join(fit(text, w, right=i >= 3)
                     for i, (text, w) in enumerate(zip(texts, widths, strict=True)))


class OpenTablesScreen(TableScreen[None]):
    """The open tables at the relay this app hosts and joins on, refreshed every few seconds.
    `quick`: Quick play from the menu (the game picker first; backing out of it goes back to
    the menu)."""

    DEFAULT_CSS = """
    OpenTablesScreen #tables-box { height: 1fr; padding: 0 1; }
    OpenTablesScreen #tables-title { text-style: bold; color: $accent; height: 1; }
    OpenTablesScreen .tables-row { height: auto; }
    OpenTablesScreen #tables-filter { width: 32; }
    OpenTablesScreen #tables-server { width: 30; }
    OpenTablesScreen .tables-label { width: auto; height: 3; content-align: left middle;
                                     padding: 0 1; }
    OpenTablesScreen #tables-status { height: auto; margin: 0 0 0 1; }
    OpenTablesScreen #tables-status.-error { color: $error; text-style: bold; }
    OpenTablesScreen #tables-head { height: 1; color: $primary; text-style: bold;
                                    margin: 1 0 0 1; }
    OpenTablesScreen #tables-list { height: 1fr; padding: 0; }
    OpenTablesScreen.-slim .tables-row {
        layout: grid; grid-size: 2; grid-columns: auto 1fr; grid-rows: 3;
    }
    OpenTablesScreen.-slim #tables-filter { column-span: 2; width: 1fr; }
    OpenTablesScreen.-slim #tables-server { width: 1fr; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("enter", "join", "tables.key.join", True),  # the list takes Enter first; this labels it
        ("r", "refresh", "tables.key.refresh", True),
        ("g", "next_game", "tables.key.game", True),
        ("p", "quick", "tables.key.quick", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self, server: str = "", *, quick: bool = False) -> None:
        super().__init__()
        # As typed (empty: this machine's relay), else as typed last time; a table's relay wins.
        self.server = server or prefs.load().relay
        self.game = ALL
        self.quick_start = quick
        self.tables: list[OpenTable] = []
        self.fetched_at = time.monotonic()
        self.status = ""
        self.failed = False
        self.looked = ""  # what the last look at the relay said

    # -- the relay ---------------------------------------------------------------------------
    def server_text(self) -> str:
        return table_relay() or self.server or LOCAL_SERVER

    def url(self) -> str:
        """The relay's websocket address; ValueError (its message says what is accepted)."""
        return server_url(self.server_text())

    # -- drawing -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        choices = [(tr("tables.all_games"), ALL)] + [(game_title(g), g) for g in playable()]
        with Vertical(id="tables-box"):
            yield Static(tr("menu.tables"), id="tables-title")
            with Horizontal(classes="tables-row"):
                yield Select(choices, value=self.game, allow_blank=False, id="tables-filter")
                yield Static(tr("tables.relay"), classes="tables-label")
                if table_relay() is not None:  # an SSH table's session: its relay only
                    yield Static(Content(self.server_text()), classes="tables-label")
                else:
                    yield Input(self.server, id="tables-server", placeholder=LOCAL_SERVER)
            yield Static(Content(self.status), id="tables-status",
                         classes="-error" if self.failed else "")
            yield Static(id="tables-head")
            yield OptionList(id="tables-list")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables-list", OptionList).focus()
        self.show_rows()
        if self.quick_start:
            self.quick_start = False
            self.action_quick(leave_if_cancelled=True)
        else:
            self.action_refresh()
        self.set_interval(1.0, self.show_rows)
        self.set_interval(REFRESH_EVERY, self.refresh_quietly)

    def on_screen_resume(self) -> None:
        """Back from a join or a room: the list has surely changed."""
        self.action_refresh()

    def harvest(self) -> None:
        """The relay as typed, remembered for next time (settings)."""
        if found := self.query("#tables-server"):
            typed = found.first(Input).value.strip()
            if typed != self.server:
                prefs.update(relay=typed)
            self.server = typed

    def unreachable(self, exc: TablesError) -> str:
        """Why the relay could not say, in a sentence: no relay at all is no riddle."""
        if isinstance(exc, RelayUnreachable):
            return tr("tables.no_relay", server=self.server_text())
        return tr("tables.unreachable", server=self.server_text(), message=str(exc))

    async def retranslate(self) -> None:
        await super().retranslate()
        self.query_one("#tables-list", OptionList).focus()
        self.show_rows()

    def say(self, text: str, *, error: bool = False) -> None:
        self.status, self.failed = text, error
        if found := self.query("#tables-status"):  # else the next compose shows it
            found.first(Static).update(Content(text))
            found.first(Static).set_class(error, "-error")

    def widths(self) -> tuple[int, ...]:
        """Each column as wide as its widest cell or its heading."""
        rows = [cells(t) for t in self.tables]
        return tuple(max(cell_len(tr(f"tables.col.{name}")), *(cell_len(row[i]) for row in rows))
                     for i, name in enumerate(COLUMNS))

    def show_rows(self) -> None:
        """Draw the rows (the bots' countdown goes on between two looks at the relay), the
        highlighted room staying highlighted."""
        found, heads = self.query("#tables-list"), self.query("#tables-head")
        if not (found and heads):  # between two composes (a language switch)
            return
        listing, head = found.first(OptionList), heads.first(Static)
        head.display = listing.display = bool(self.tables)
        if not self.tables:
            if listing.option_count:
                listing.clear_options()
            return
        if self.focused is None:  # the list was hidden, with nothing in it to pick
            listing.focus()
        widths = self.widths()
        head.update(Content(line([tr(f"tables.col.{name}") for name in COLUMNS], widths)))
        passed = time.monotonic() - self.fetched_at
        rows = [(t.code, Content(f"{line(cells(t), widths)}  {bots_words(t.bots_in, passed)}"
                                 .rstrip())) for t in self.tables]
        ids = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
        if ids == [code for code, _ in rows]:
            for code, text in rows:
                listing.replace_option_prompt(code, text)
            return
        kept = self.picked()
        listing.clear_options()
        listing.add_options([Option(text, id=code) for code, text in rows])
        codes = [code for code, _ in rows]
        listing.highlighted = codes.index(kept.code) if kept and kept.code in codes else 0

    def picked(self) -> OpenTable | None:
        if not (found := self.query("#tables-list")):
            return None
        listing = found.first(OptionList)
        index = listing.highlighted
        if index is None or index >= listing.option_count:
            return None
        code = listing.get_option_at_index(index).id
        return next((t for t in self.tables if t.code == code), None)

    # -- looking -----------------------------------------------------------------------------
    def action_refresh(self) -> None:
        self.harvest()
        # The function, not a coroutine: a look cut short by the next is never left unawaited.
        self.run_worker(partial(self.look, quiet=False), group="look", exclusive=True)

    def refresh_quietly(self) -> None:
        if self.app.screen is self:
            self.run_worker(partial(self.look, quiet=True), group="look", exclusive=True)

    async def look(self, *, quiet: bool) -> None:
        """Ask the relay; `quiet`: the periodic look, which says only what changed (so the
        line neither flickers every few seconds nor wipes what a key just said)."""
        try:
            url = self.url()
        except ValueError as exc:
            self.say(str(exc), error=True)
            return
        if not quiet:
            self.looked = ""
            self.say(tr("tables.asking", server=self.server_text()))
        game = None if self.game == ALL else self.game
        try:
            found = await open_tables(url, game)
        except TablesError as exc:
            self.tables = []
            self.show_rows()
            self.tell(self.unreachable(exc), error=True)
            return
        self.tables, self.fetched_at = found, time.monotonic()
        self.show_rows()
        if found:
            self.tell(tr("tables.found", n=len(found), server=self.server_text()))
        elif game is None:
            self.tell(tr("tables.none"))
        else:
            self.tell(tr("tables.none_of", game=game_title(game)))

    def tell(self, text: str, *, error: bool = False) -> None:
        """What a look found, said unless the last look found the same."""
        if text != self.looked:
            self.looked = text
            self.say(text, error=error)

    # -- keys ----------------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if str(event.value) != self.game:
            self.game = str(event.value)
            self.tables = []
            self.action_refresh()

    def action_next_game(self) -> None:
        games = [ALL, *playable()]
        following = games[(games.index(self.game) + 1) % len(games)] if self.game in games \
            else ALL
        self.query_one("#tables-filter", Select).value = following  # Changed does the rest

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_refresh()
        self.query_one("#tables-list", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_join()

    def action_join(self) -> None:
        table = self.picked()
        if table is None:
            self.say(tr("tables.nothing_picked"), error=True)
            return
        self.join(table)

    def join(self, table: OpenTable) -> None:
        """The join form, filled in and going: the same join, the same messages as by hand."""
        self.harvest()
        self.app.push_screen(JoinScreen(table.code, "", self.server_text(), auto=True))

    def action_quick(self, leave_if_cancelled: bool = False) -> None:
        """Pick a game, then the best waiting room of it, or a new public room."""
        self.harvest()

        def picked(game: str | None) -> None:
            if game is not None:
                self.run_worker(partial(self.quick, game), group="quick", exclusive=True)
            elif leave_if_cancelled:
                self.dismiss()

        selected = None if self.game == ALL else self.game
        self.app.push_screen(GamePickerScreen("tables.quick_title", selected=selected), picked)

    async def quick(self, game: str) -> None:
        try:
            url = self.url()
        except ValueError as exc:
            self.say(str(exc), error=True)
            return
        self.say(tr("tables.asking", server=self.server_text()))
        try:
            found = await open_tables(url, game)
        except TablesError as exc:
            self.say(self.unreachable(exc), error=True)
            if table_relay() or self.server or not isinstance(exc, RelayUnreachable):
                return  # a named relay that does not answer
            self.ask_own_relay(game)  # no relay on this machine: one for the room, if wanted
            return
        # Not a room whose minimum would turn this player away (read off the loop: a disk).
        choice = best(found, game, await asyncio.to_thread(my_finished, game))
        if choice is not None:
            self.join(choice)
            return
        self.open_room(game)

    def ask_own_relay(self, game: str) -> None:
        """No relay runs here: the room may have one of its own, which closes with it (said
        before, not found out when friends are thrown out)."""
        def answered(yes: bool | None) -> None:
            if yes:
                self.open_room(game)

        self.app.push_screen(ConfirmScreen(tr("tables.own_relay", server=LOCAL_SERVER),
                                           tr("tables.own_relay_yes"), tr("tables.own_relay_no")),
                             answered)

    def open_room(self, game: str) -> None:
        """A new public room of `game` with the player's usual options."""
        saved = prefs.load()
        level = saved.bot_level if saved.bot_level in BOT_LEVELS else "strong"
        plan = HostPlan(game, 0, server=table_relay() or self.server or None, level=level,
                        public=True, fill_after=saved.fill_after)
        self.say(tr("tables.opening", game=game_title(game)))
        self.app.push_screen(HostScreen(plan, auto=True))

    def action_back(self) -> None:
        self.dismiss()


register(
    {
        "en": {
            "tables.key.join": "Join",
            "tables.key.refresh": "Refresh",
            "tables.key.game": "Game",
            "tables.key.quick": "Quick play",
            "tables.all_games": "All games",
            "tables.relay": "Relay",
            "tables.col.game": "Game",
            "tables.col.seats": "Free",
            "tables.col.host": "Host",
            "tables.col.rating": "Rating",
            "tables.col.finished": "Done",
            "tables.col.asks": "Asks",
            "tables.bots_in": "bots in {n} s",
            "tables.bots_now": "bots are coming",
            "tables.asking": "Asking {server} for open tables…",
            "tables.found": "Waiting for players at {server}: {n}. Enter joins, p plays at "
                            "once.",
            "tables.none": "Nobody is waiting; Quick play (p) opens a table.",
            "tables.none_of": "Nobody is waiting for {game}; Quick play (p) opens a table.",
            "tables.unreachable": "Cannot ask {server} for open tables: {message}",
            "tables.no_relay": "No relay answers at {server}. Start one with `tabletop-tui "
                               "serve`, or type another relay's HOST:PORT in the Relay field.",
            "tables.own_relay": "No relay runs at {server}. Open the room on a relay of its "
                                "own here? It closes when the room closes (`tabletop-tui "
                                "serve` runs one that stays).",
            "tables.own_relay_yes": "Open it",
            "tables.own_relay_no": "Not now",
            "tables.nothing_picked": "No table chosen: nobody is waiting here.",
            "tables.quick_title": "Quick play: which game?",
            "tables.opening": "Nobody is waiting for {game}: opening a public table…",
        },
        "de": {
            "tables.key.join": "Beitreten",
            "tables.key.refresh": "Neu laden",
            "tables.key.game": "Spiel",
            "tables.key.quick": "Schnell spielen",
            "tables.all_games": "Alle Spiele",
            "tables.relay": "Relay",
            "tables.col.game": "Spiel",
            "tables.col.seats": "Frei",
            "tables.col.host": "Gastgeber",
            "tables.col.rating": "Wertung",
            "tables.col.finished": "Fertig",
            "tables.col.asks": "Verlangt",
            "tables.bots_in": "Bots in {n} s",
            "tables.bots_now": "Bots kommen",
            "tables.asking": "Frage {server} nach offenen Tischen…",
            "tables.found": "Warten auf Mitspieler bei {server}: {n}. Enter tritt bei, p spielt "
                            "sofort.",
            "tables.none": "Niemand wartet; Schnell spielen (p) eröffnet einen Tisch.",
            "tables.none_of": "Niemand wartet auf {game}; Schnell spielen (p) eröffnet einen "
                              "Tisch.",
            "tables.unreachable": "{server} nennt keine offenen Tische: {message}",
            "tables.no_relay": "Unter {server} antwortet kein Relay. Starte eins mit "
                               "`tabletop-tui serve` oder trage im Feld Relay ein anderes "
                               "HOST:PORT ein.",
            "tables.own_relay": "Unter {server} läuft kein Relay. Den Raum auf einem eigenen "
                                "Relay hier eröffnen? Es schließt mit dem Raum "
                                "(`tabletop-tui serve` startet eins, das bleibt).",
            "tables.own_relay_yes": "Eröffnen",
            "tables.own_relay_no": "Jetzt nicht",
            "tables.nothing_picked": "Kein Tisch gewählt: hier wartet niemand.",
            "tables.quick_title": "Schnell spielen: welches Spiel?",
            "tables.opening": "Niemand wartet auf {game}: ein öffentlicher Tisch wird eröffnet…",
        },
    }
)
