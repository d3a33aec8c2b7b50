"""The room before the game: the join code, seats filling up, who is connected, chat.

The host's lobby can change the table (bots, kicks, seat count, options, clocks, bot
takeover) and start it; a peer's lobby shows the same room read-only (the clock in words, and
about how long a game takes) and follows the host into the game. Both replace themselves
with the game screen once the first table arrives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Button, Input, Select, Static, Switch

from engines import get_engine
from net.host.hosting import Room, table_page, table_ssh
from net.host.link import HostLink
from net.host.standing import percent
from net.peer.remote import RemoteLink
from net.table import clocks
from net.table.link import Message
from net.wire import codes
from net.wire.text import clean, clean_tree
from tui import boards, comeback
from tui.i18n import register, tr
from tui.netplay import NetGameScreen, hosting_warning, leaving, others_in
from tui.screens.base import KeySpec, TableScreen, app_crashed
from tui.screens.game import LinkMessage
from tui.screens.lobby import BOT_LEVELS, clock_rows
from tui.screens.net_errors import why
from tui.screens.overlays import ConfirmScreen
from tui.screens.ratings import points
from tui.screens.reclaim import ask_reclaim
from tui.widgets import EventLog
from tui.widgets.clocks import setting_words
from tui.widgets.footer import Footer
from tui.widgets.text_input import TextInput

CSS = """
NetLobby #netlobby-box { padding: 1 2; height: 1fr; }
NetLobby #netlobby-say { margin: 0 2; }
NetLobby #netlobby-title { text-style: bold; color: $accent; height: 1; }
NetLobby #netlobby-code {
    text-style: bold; color: $accent; border: double $felt-edge; background: $felt;
    width: auto; padding: 0 3; margin: 1 0 0 0; height: 3; content-align: center middle;
}
NetLobby #netlobby-hint { color: $text-muted; height: auto; margin-bottom: 1; }
NetLobby #netlobby-public { color: $success; height: auto; }
NetLobby #netlobby-public.-refused { color: $warning; text-style: bold; }
NetLobby .netlobby-heading { text-style: bold; color: $primary; height: 1; margin-top: 1; }
NetLobby #netlobby-seats { height: auto; }
NetLobby .netseat { height: 1; }
NetLobby .netseat Static { width: auto; margin-right: 2; }
NetLobby .netseat Button { min-width: 8; height: 1; border: none; margin-right: 1; }
NetLobby .netlobby-row { height: auto; }
NetLobby .netlobby-row ActionButton { margin-right: 2; }
NetLobby .netlobby-row Switch { margin-left: 2; }
NetLobby .netlobby-row Input { width: 14; }
NetLobby .netlobby-label { height: 3; content-align: left middle; padding-left: 1; }
NetLobby #netlobby-chat {
    height: 30%; min-height: 5; border: round $felt-edge; margin: 0 2;
    border-title-color: $primary; border-title-style: bold;
}
NetLobby #netlobby-error { color: $error; text-style: bold; height: auto; }
NetLobby #netlobby-clock { height: auto; color: $text-muted; }
NetLobby .clock-select { width: 60; max-width: 100%; }
NetLobby .clock-note { height: auto; color: $text-muted; }
NetLobby.-short #netlobby-box { padding: 0 2; }
NetLobby.-short #netlobby-code { display: none; }
NetLobby.-short #netlobby-hint { margin-bottom: 0; }
NetLobby.-short .netlobby-heading { margin-top: 0; }
NetLobby.-short #netlobby-chat { height: 5; }
NetLobby.-slim #netlobby-box { padding: 0 1; }
NetLobby.-slim .netlobby-heading { height: auto; }
NetLobby.-slim .netlobby-label { width: 1fr; height: auto; min-height: 3; }
NetLobby.-slim .netlobby-row Switch { margin-left: 0; }
"""


def standing_words(seat: dict[str, Any]) -> list[str]:
    """What the table says of a seat's proven person, for beside their name: their finished
    share and their rating at this game ("92% finished", "1873"), each only when known. The
    host's word is a stranger's: anything but a number in range is left out."""
    finished, rating = seat.get("finished"), seat.get("rating")
    words = []
    if isinstance(finished, int | float) and not isinstance(finished, bool) and 0 <= finished <= 1:
        words.append(tr("netlobby.finished", share=percent(finished)))
    if isinstance(rating, int | float) and not isinstance(rating, bool) and abs(rating) < 1e6:
        words.append(points(rating))
    return words


def join_command(code: str) -> str:
    """What a friend runs to join: at an SSH table, the ssh command that reaches it (a player
    there has no `tabletop-tui` of their own to run)."""
    ssh = table_ssh()
    return f"{ssh} join {code}" if ssh else f"tabletop-tui join {code}"


def join_hint(code: str) -> str:
    """How friends join, for the lobby: from a browser tab of a web table, its page as well
    (a friend with only a browser cannot run `tabletop-tui join`)."""
    page = table_page()
    if page:
        return tr("netlobby.code_hint_page", page=clean(page), command=join_command(code))
    return tr("netlobby.code_hint", command=join_command(code))


register({
    "en": {"netlobby.code_hint_page": "Friends open {page} in a browser and choose Join by "
                                      "code, or type:  {command}"},
    "de": {"netlobby.code_hint_page": "Mitspielen: {page} im Browser öffnen und „Mit Code "
                                      "beitreten“ wählen, oder:  {command}"},
})


class NetLobby(TableScreen[None]):
    """What both lobbies share: code, seats, spectators, chat. The line to chat on stays
    below the room, whatever the window's height, and F4 (the chat key at the table too)
    puts the keyboard there."""

    DEFAULT_CSS = CSS
    # A window shorter than this (80×24) is `-short`: the big code box (the title has the
    # code) and the spacing go, so every seat of the largest table is in sight beside the
    # chat. A guest seated below the fold was seen by nobody.
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (34, "-tall")]
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("f4", "chat", "net.key.chat", True),
        ("escape", "leave", "key.back", True),
    )

    def __init__(self, engine_id: str, code: str) -> None:
        super().__init__()
        self.engine_id = engine_id
        self.engine = get_engine(engine_id)
        boards.board_module(engine_id)  # registers the game's option labels
        self.code = codes.display(code)
        self.seats: list[dict[str, Any]] = []
        self.spectators = 0
        self.chat_lines: list[str] = []
        self.say_text = ""  # the chat line being typed
        self.error = ""
        self.me: int | None = None
        self.clock: dict[str, Any] | None = None  # the room's clocks, as the host last said
        self.room_lost = False  # out of the room for good (sent out, or the room closed)
        # Listed among the relay's open tables, and seconds until bots come, as last said
        # (net.host.billboard), with when it was said: the countdown goes on from there.
        self.listing: dict[str, Any] = {}
        self.listing_at = time.monotonic()
        # Handed to the game screen, or closed: either way no longer this screen's to close.
        self._gone = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="netlobby-box"):
            yield Static(tr("netlobby.title", game=self.engine.title, code=self.code),
                         id="netlobby-title")
            yield Static(self.code, id="netlobby-code")
            yield Static(Content(join_hint(self.code)), id="netlobby-hint")
            yield Static(id="netlobby-public")
            yield Static(tr("netlobby.seats"), classes="netlobby-heading")
            yield Vertical(id="netlobby-seats")
            yield Static(id="netlobby-spectators")
            yield from self.compose_controls()
            yield Static(Content(self.error), id="netlobby-error")
        chat = EventLog(id="netlobby-chat", lines=self.chat_lines)
        chat.border_title = tr("netlobby.chat")
        yield chat
        yield TextInput(self.say_text, placeholder=tr("netlobby.say"), id="netlobby-say",
                    max_length=500, disabled=self.room_lost, select_on_focus=False)
        yield Footer()

    def compose_controls(self) -> ComposeResult:
        yield from ()

    async def on_mount(self) -> None:
        await self.prepare()
        await self.show_seats()
        self.set_interval(1.0, self.show_listing)

    async def prepare(self) -> None:
        """Start listening to the room, before the seats are first drawn. (A hook rather than
        an `on_mount` of each lobby: Textual runs every class's `on_mount` by itself.)"""

    async def on_unmount(self) -> None:
        """However the screen goes (Esc, ctrl+q, the app ending), a room or link it still owns
        is closed, so peers see the table close rather than a dropped connection."""
        self.stop_listening()
        if not self._gone:
            self._gone = True
            await self.close_link()

    def stop_listening(self) -> None:
        """Stop messages to this screen (it is going)."""

    async def close_link(self) -> None:
        raise NotImplementedError

    async def action_leave(self) -> None:
        """Esc in a text field (the chat line) only leaves the field; leaving a room others
        are in takes a yes (one stray Esc must not end anybody's evening)."""
        if isinstance(self.focused, Input):
            self.set_focus(None)
            return
        question = None if self.room_lost else self.leave_question()
        if question is None:
            await self.leave_now()
            return

        async def answered(yes: bool | None) -> None:
            if yes and not self._gone:
                await self.leave_now()

        self.app.push_screen(ConfirmScreen(question, tr("netlobby.leave_yes"),
                                           tr("netlobby.leave_no")), answered)

    def leave_question(self) -> str | None:
        """What leaving does to the others in the room, to ask first; None: nobody else."""
        return None

    async def leave_now(self) -> None:
        self._gone = True
        await self.close_link()
        self.dismiss()

    def action_chat(self) -> None:
        self.query_one("#netlobby-say", Input).focus()

    def on_key(self, event: Key) -> None:
        """A letter typed with the keyboard elsewhere (a seat's button, the room) is chat:
        it goes to the chat line, which takes the keyboard, rather than being lost."""
        say = self.query_one("#netlobby-say", Input)
        if (event.character and event.is_printable and not event.character.isspace()
                and not isinstance(self.focused, Input | Select) and not say.disabled):
            event.stop()
            event.prevent_default()
            say.focus()
            say.insert_text_at_cursor(event.character)

    def harvest(self) -> None:
        self.say_text = self.query_one("#netlobby-say", Input).value

    async def retranslate(self) -> None:
        await super().retranslate()
        await self.show_seats()

    # -- seats -------------------------------------------------------------------------------
    def seat_text(self, index: int, seat: dict[str, Any]) -> list[str]:
        kind = seat["kind"]
        if kind == "empty":
            what = tr("netlobby.empty")
        elif kind == "bot" and seat["bot"] in BOT_LEVELS:
            what = tr(f"lobby.bot_{seat['bot']}")
        elif kind == "bot":  # a level this version does not know
            what = tr("netlobby.bot", level=seat["bot"])
        else:
            what = tr(f"netlobby.{kind}")
        name = seat["name"] + (f" ({tr('netlobby.you')})" if index == self.me else "")
        name += "".join(f" · {word}" for word in standing_words(seat))
        parts = [tr("lobby.seat", n=index + 1), what]
        if kind != "empty":
            parts.append(name)
            parts.append(tr("netlobby.online" if seat["connected"] else "netlobby.offline"))
        return parts

    def seat_action(self, index: int, seat: dict[str, Any]) -> str | None:
        """The label of the button beside a seat (the host's "+ Bot", "Kick"), or None."""
        return None

    async def show_seats(self) -> None:
        """Seat rows are updated in place, never redrawn: a seat's button pressed from the
        keyboard keeps the focus while the seat changes under it (no mouse over SSH)."""
        box = self.query_one("#netlobby-seats", Vertical)
        rows = list(box.children)
        for row in rows[len(self.seats):]:
            await row.remove()
        new = [
            Horizontal(Static(classes="seat-text"), Button("", id=f"seat-{index}", compact=True),
                       classes="netseat")
            for index in range(len(rows), len(self.seats))
        ]
        if new:
            await box.mount(*new)
        for index, (row, seat) in enumerate(zip(box.children, self.seats, strict=False)):
            row.query_one(".seat-text", Static).update(
                Content("  ".join(self.seat_text(index, seat)))
            )
            button = row.query_one(Button)
            label = self.seat_action(index, seat)
            button.display = label is not None
            button.label = label or ""
        spectators = self.query_one("#netlobby-spectators", Static)
        spectators.update(tr("netlobby.spectators", n=self.spectators))
        spectators.display = bool(self.seats)
        self.show_clock()
        self.show_listing()
        self.show_options()

    def show_options(self) -> None:
        """The options as the seat count offers them (a host's lobby has them)."""

    def listing_state(self) -> dict[str, Any]:
        """Public or not, and the seconds until bots come (None: never), as of now."""
        bots_in = self.listing.get("bots_in")
        if isinstance(bots_in, int | float) and not isinstance(bots_in, bool):
            bots_in = bots_in - (time.monotonic() - self.listing_at)
        else:
            bots_in = None
        minimum = self.listing.get("min_finished")
        if not (isinstance(minimum, int | float) and not isinstance(minimum, bool)
                and 0 <= minimum <= 1):
            minimum = None
        return {"public": self.listing.get("public") is True, "bots_in": bots_in,
                "min_finished": minimum}

    def refused(self) -> bool:
        """Whether the relay would not list a room meant to be public (only a host knows)."""
        return False

    def listing_text(self) -> str:
        if self.refused():
            return tr("netlobby.refused")
        state = self.listing_state()
        if self.room_lost:
            return ""
        words = []
        if state["public"]:
            words.append(tr("netlobby.public"))
            if state["bots_in"] is not None:
                left = max(0, round(state["bots_in"]))
                words.append(tr("netlobby.bots_in", n=left) if left else tr("netlobby.bots_now"))
        if state.get("min_finished") is not None:
            words.append(tr("netlobby.min_finished", share=percent(state["min_finished"])))
        return " ".join(words)

    def show_listing(self) -> None:
        if not (found := self.query("#netlobby-public")):
            return
        line = found.first(Static)
        text = self.listing_text()
        line.update(Content(text))
        line.display = bool(text)
        line.set_class(self.refused(), "-refused")

    def chosen_clock(self) -> str:
        """The clock preset the room has (a host's lobby: the one picked in its form)."""
        return str((self.clock or {}).get("preset") or "none")

    def clock_text(self) -> str:
        """About how long a game takes with this room's seats and clock."""
        bots = sum(1 for seat in self.seats if seat.get("kind") in ("bot", "empty"))
        people = len(self.seats) - bots
        if not self.seats:
            return ""
        return tr("clock.about", n=clocks.estimate_minutes(self.engine_id, people, bots,
                                                           self.chosen_clock()))

    def show_clock(self) -> None:
        if found := self.query("#netlobby-clock"):
            found.first(Static).update(Content(self.clock_text()))

    def add_chat(self, message: Message) -> None:
        line = tr("game.chat", name=message.get("name"), text=message.get("text"))
        self.chat_lines.append(line)
        self.query_one("#netlobby-chat", EventLog).add(line)

    def set_error(self, text: str) -> None:
        self.error = text
        self.query_one("#netlobby-error", Static).update(Content(text))

    # -- messages ----------------------------------------------------------------------------
    async def on_link_message(self, message: LinkMessage) -> None:
        data = message.data
        kind = data.get("type")
        if kind == "lobby":
            self.seats = list(data["seats"])
            self.clock = data.get("clock") if isinstance(data.get("clock"), dict) else None
            self.listing, self.listing_at = data, time.monotonic()
            await self.show_seats()
        elif kind == "presence":
            self.seats = list(data["players"])
            self.spectators = int(data.get("spectators", 0))
            await self.show_seats()
        elif kind == "chat":
            self.add_chat(data)
        elif kind == "notice":  # e.g. the relay would not list the room, or the bots came
            line = tr("net.notice", text=str(data.get("text", "")))
            self.chat_lines.append(line)
            self.query_one("#netlobby-chat", EventLog).add(line)
            self.show_listing()
        elif kind in ("sync", "update"):
            self.enter_game()
        elif kind == "connection" and data.get("state") == "closed":
            await self.closed(tr("net.connection.closed",
                                 message=why(data.get("code"), str(data.get("message", "")))))
        elif kind == "reclaim" and isinstance(self, HostLobbyScreen):
            ask_reclaim(self, self.host, data)

    async def closed(self, why: str) -> None:
        """The connection to the room is gone for good: say why; nothing more can be said."""
        self.room_lost = True
        self.query_one("#netlobby-say", Input).disabled = True
        self.set_error(why)

    def enter_game(self) -> None:
        raise NotImplementedError

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "netlobby-say":
            event.stop()
            text = event.value.strip()
            event.input.value = ""
            if text:
                await self.say(text)

    async def say(self, text: str) -> None:
        raise NotImplementedError


class HostLobbyScreen(NetLobby):
    """The host's room: it decides who sits where and when the game starts."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("f5", "press('start')", "netlobby.start", True),
        *NetLobby.KEYS,
    )

    def __init__(self, room: Room, *, back: Callable[[], Screen[Any]] | None = None,
                 listed: bool | None = None) -> None:
        """`back` makes the screen Esc returns to (the hosting form the room was opened
        from, its game still chosen); None: Esc returns to whatever is below. `listed`: the
        room was opened to be public (None: as it is now), so a relay's refusal, which may
        come before this screen is drawn, is still told."""
        super().__init__(room.host.engine.id, room.host.code)
        self.room = room
        self.back = back
        self.host = room.host
        self.listed = room.host.billboard.public if listed is None else listed
        self.me = next((i for i, s in enumerate(self.host.seats) if s.local), None)
        self.chat_lines = [tr("game.chat", name=c["name"], text=c["text"])
                           for c in self.host.chat_log]
        # What was typed into the settings (by widget id) but not applied yet.
        self.draft: dict[str, str | bool] = {}
        self._listener = lambda data: self.post_message(LinkMessage(data))

    def compose_controls(self) -> ComposeResult:
        with Horizontal(classes="netlobby-row"):
            yield Button(tr("netlobby.more"), id="more")
            yield Button(tr("netlobby.fewer"), id="fewer")
        yield Static(tr("lobby.options"), classes="netlobby-heading")
        for name, default in self.engine.options.items():
            value = self.host.options.get(name, default)
            with Horizontal(classes="netlobby-row", id=f"optrow-{name}"):
                if isinstance(default, bool):
                    yield Switch(bool(self.draft.get(f"opt-{name}", value)), id=f"opt-{name}")
                else:
                    text = str(self.draft.get(f"opt-{name}", value))
                    yield Input(text, type="integer", id=f"opt-{name}")
                yield Static(tr(f"option.{self.engine_id}.{name}"), classes="netlobby-label")
        chosen = self.host.clock
        yield from clock_rows(
            self.engine, len(self.host.seats),
            str(self.draft.get("clock", chosen.preset if chosen else "none")),
            str(self.draft.get("out-of-time", chosen.out_of_time if chosen else "bot")),
            ("clock", "out-of-time"))
        yield Static(Content(self.clock_text()), id="netlobby-clock")
        value = self.host.takeover
        text = str(self.draft.get("takeover", "" if value is None else f"{value:g}"))
        with Horizontal(classes="netlobby-row"):
            yield Input(text, type="integer", id="takeover")
            yield Static(tr("netlobby.takeover"), classes="netlobby-label")
        with Horizontal(classes="netlobby-row"):
            yield Switch(bool(self.draft.get("hints", self.host.hints)), id="hints")
            yield Static(tr("netlobby.hints"), classes="netlobby-label")
        with Horizontal(classes="netlobby-row"):
            yield Button(tr("netlobby.apply"), id="apply")
            yield Button(tr("netlobby.start"), id="start", variant="success")

    def offered(self) -> dict[str, Any]:
        """The game's options this table's seat count offers, with their defaults."""
        seats = len(self.host.seats)
        return {n: v for n, v in self.engine.options.items() if self.engine.offers(n, seats)}

    def show_options(self) -> None:
        """An option the seat count makes meaningless is not offered (Chez Geek's deal for
        two at a table of four); it comes back with the seats."""
        offered = self.offered()
        for name in self.engine.options:
            if found := self.query(f"#optrow-{name}"):
                found.first().display = name in offered

    def quit_warning(self) -> str | None:
        return None if self._gone else hosting_warning(self.host.code)

    def leave_question(self) -> str | None:
        return tr("netlobby.leave_host", code=self.code) if others_in(self.host) else None

    async def leave_now(self) -> None:
        if self.back is None:
            await super().leave_now()
            return
        self._gone = True
        await self.close_link()
        self.app.switch_screen(self.back())

    async def prepare(self) -> None:
        """Listen, then read the room: whoever joined since this screen was made is missed
        by the listener but is in the seat list."""
        self.host.attended = True  # a person here answers reclaims by name
        self.host.add_listener(self._listener)
        self.seats = self.host.seat_list()
        self.spectators = self.host.spectators()

    def stop_listening(self) -> None:
        self.host.remove_listener(self._listener)

    async def close_link(self) -> None:
        leaving(self.app)
        await self.room.close(app_crashed(self.app))

    def harvest(self) -> None:
        super().harvest()
        fields = [f"opt-{name}" for name in self.engine.options] + ["takeover", "hints"]
        for field in fields:
            self.draft[field] = self.query_one(f"#{field}", Input | Switch).value
        for field in ("clock", "out-of-time"):
            if found := self.query(f"#{field}"):
                self.draft[field] = str(found.first(Select).value)

    def listing_state(self) -> dict[str, Any]:
        return self.host.billboard.state()

    def refused(self) -> bool:
        return self.listed and not self.host.billboard.public and not self.host.started

    def chosen_clock(self) -> str:
        if found := self.query("#clock"):
            return str(found.first(Select).value)
        return self.host.clock.preset if self.host.clock else "none"

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.show_clock()
    def seat_action(self, index: int, seat: dict[str, Any]) -> str | None:
        if seat["kind"] == "empty":
            return tr("netlobby.add_bot")
        if seat["kind"] in ("person", "bot"):
            return tr("netlobby.kick")
        return None

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = event.button.id or ""
        self.set_error("")
        try:
            if button.startswith("seat-"):
                index = int(button.removeprefix("seat-"))
                seat = self.host.seats[index]
                if seat.empty:
                    self.host.add_bot(index)
                elif seat.bot:
                    self.host.kick(index)
                else:
                    self.ask_kick(index)
            elif button == "more":
                self.host.set_seats(len(self.host.seats) + 1)
            elif button == "fewer":
                self.host.set_seats(len(self.host.seats) - 1)
            elif button == "apply":
                self.apply_settings()
            elif button == "start":
                self.apply_settings()
                self.host.start()
                self.enter_game()
        except ValueError as exc:
            self.set_error(str(exc))

    def ask_kick(self, index: int) -> None:
        """Removing a person takes a yes: they are sent out of the room. The answer counts
        only if the same connection still holds the seat."""
        seat = self.host.seats[index]
        asked = seat.cid

        def answered(yes: bool | None) -> None:
            if yes and self.host.seats[index].cid == asked and not self.host.seats[index].empty:
                try:
                    self.host.kick(index)
                except ValueError as exc:
                    self.set_error(str(exc))
            if (button := self.query(f"#seat-{index}")):
                button.first().focus()

        question = tr("netlobby.kick_question", name=seat.name, n=index + 1)
        self.app.push_screen(
            ConfirmScreen(question, tr("netlobby.kick_yes"), tr("netlobby.kick_no")), answered
        )

    def apply_settings(self) -> None:
        """Options, clock and takeover as chosen; ValueError (nothing changed) if one is bad."""
        options: dict[str, Any] = {}
        for name, default in self.offered().items():
            if isinstance(default, bool):
                options[name] = self.query_one(f"#opt-{name}", Switch).value
            else:
                options[name] = int(self.query_one(f"#opt-{name}", Input).value or default)
        text = self.query_one("#takeover", Input).value.strip()
        try:
            takeover = None if not text else int(text)
        except ValueError:
            raise ValueError(tr("netlobby.bad_number")) from None
        out_of_time = (str(self.query_one("#out-of-time", Select).value)
                       if clocks.can_skip(self.engine) else "bot")
        clock = clocks.preset(self.engine_id, self.chosen_clock(), len(self.host.seats),
                              out_of_time)
        if not self.host.started:
            for name, value in options.items():
                self.host.set_option(name, value)
            self.host.set_clock(clock)
        self.host.set_takeover(takeover)
        self.host.set_hints(self.query_one("#hints", Switch).value)

    async def say(self, text: str) -> None:
        self.host.send_chat(text)

    def enter_game(self) -> None:
        if self._gone:
            return
        self._gone = True
        self.stop_listening()
        self.app.switch_screen(host_table(self.room))


def host_table(room: Room) -> NetGameScreen:
    """The host's table for `room`; its rematch reopens the room's lobby."""
    return NetGameScreen(RoomLink(room), room.host.engine.id, lobby=lambda: HostLobbyScreen(room))


class RoomLink(HostLink):
    """The host's own table; leaving it closes the room (and the relay started for it)."""

    def __init__(self, room: Room) -> None:
        super().__init__(room.host)
        self.room = room
        self.code = room.host.code
        room.host.attended = True  # a person at this table answers reclaims by name

    async def close(self, crashed: bool = False) -> None:
        await super().close()
        await self.room.close(crashed)


class PeerLobbyScreen(NetLobby):
    """A joined player's (or spectator's) view of the room until the host starts."""

    def __init__(self, link: RemoteLink, engine_id: str) -> None:
        super().__init__(engine_id, link.code)
        self.link = link
        self.me = link.seat

    def catch_up(self) -> None:
        """Take seats and chat from what the link has heard so far: frames that arrived before
        this screen listened (right after the welcome) are kept there, not lost. The link keeps
        them as the host sent them: cleaned here, as its messages are (net.wire.text)."""
        lobby = clean_tree(self.link.lobby or {})
        self.seats = list(clean_tree(self.link.players) or lobby.get("seats", []))
        self.clock = lobby.get("clock") if isinstance(lobby.get("clock"), dict) else None
        self.listing, self.listing_at = lobby, time.monotonic()
        self.chat_lines = [
            tr("game.chat", name=c["name"], text=c["text"]) for c in clean_tree(self.link.chat)
        ]

    def clock_text(self) -> str:
        """The host's clock in words and what it does for a seat out of time, then about how
        long a game takes."""
        about = super().clock_text()
        if not about:
            return ""
        words = f"{tr('clock.label')}: {setting_words(self.clock)}."
        out = (self.clock or {}).get("out_of_time")
        if out in clocks.OUT_OF_TIME:
            words += f" {tr(f'clock.out.{out}')}."
        return f"{words} {about}"

    def compose_controls(self) -> ComposeResult:
        yield Static(Content(self.clock_text()), id="netlobby-clock")
        waiting = "netlobby.gone" if self.room_lost else "netlobby.waiting"
        yield Static(tr(waiting), classes="netlobby-heading", id="netlobby-waiting")

    async def closed(self, why: str) -> None:
        """Sent out (kicked, the room closed): no seat is ours any more, and the room's seats
        are no longer known; only the reason and the way out stay."""
        self.me, self.seats, self.spectators = None, [], 0
        await self.show_seats()
        self.query_one("#netlobby-waiting", Static).update(tr("netlobby.gone"))
        await super().closed(why)

    async def prepare(self) -> None:
        self.link.set_listener(lambda data: self.post_message(LinkMessage(data)))
        link = self.link
        if link.remember and link.seat is not None:  # a seat to come back to (tui.comeback)
            comeback.seated(link.code, link.name, link.server)
        self.catch_up()
        self.query_one("#netlobby-chat", EventLog).add(*self.chat_lines)
        if self.link.closed.is_set():  # sent out before this screen listened
            await self.closed(tr("net.connection.closed",
                                 message=why(self.link.close_code,
                                             clean(self.link.close_reason))))
        elif self.link.table is not None:
            self.enter_game()

    async def close_link(self) -> None:
        leaving(self.app)
        await self.link.close()

    def leave_question(self) -> str | None:
        return tr("netlobby.leave_guest", code=self.code) if self.me is not None else None

    async def say(self, text: str) -> None:
        await self.link.send_chat(text)

    def enter_game(self) -> None:
        if self._gone:
            return
        self._gone = True
        link, engine_id = self.link, self.engine_id
        self.app.switch_screen(
            NetGameScreen(link, engine_id, lobby=lambda: PeerLobbyScreen(link, engine_id))
        )
