"""What the screens need for networked tables: their words (English and German), the game
screen with chat, presence and connection notes, and the small chat prompt.

The game screen itself is the TUI's `GameScreen`: a networked table is just another
`TableLink`. `NetGameScreen` only adds what a local table never has: a chat key, notices
from the host (somebody is away, a bot took over), the state of the connection, and the warning
that the deal cannot be verified when the peer's own check of the seed already failed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.players import counted, ladder
from net.table.link import TableLink
from net.wire import codes
from net.wire.text import clean_tree
from tui import comeback
from tui.i18n import register, tr
from tui.screens.base import KeySpec, app_crashed
from tui.screens.game import GameScreen, LinkMessage
from tui.screens.net_errors import why
from tui.screens.reclaim import ask_reclaim
from tui.screens.results import ResultsScreen
from tui.screens.verdict import unverified_line
from tui.widgets import EventLog
from tui.widgets.text_input import TextInput

register(
    {
        "en": {
            "net.key.chat": "Chat",
            "net.rematch_offered": "The host offers a rematch: R to stay at the table.",
            "net.quit_host": "You host room {code}: quitting closes it for everyone.",
            "net.chat_prompt": "Say something to the table (Enter sends, Esc cancels)",
            "net.notice": "» {text}",
            "net.host_closed": "The host closed the game before its end: it counts as the "
                               "host's leaving, and your place stands as the game stood.",
            "net.host_closed_unverified": "The host closed the game before its end. {why}",
            "net.rated_host": "This game is rated. From the first move on, leaving it before "
                              "the end (closing the room) counts as last place and a penalty "
                              "for you; everyone else keeps their place as the game stood.",
            "net.connection.reconnecting": "Connection lost; reconnecting…",
            "net.connection.connected": "Reconnected.",
            "net.connection.host_away": "The host is away; waiting for them.",
            "net.connection.host_back": "The host is back.",
            "net.connection.closed": "The table closed: {message}",
            "net.top.closed": "The table has closed: Esc Esc leaves",
            "net.top.host_away": "The host is away: waiting for them",
            "net.top.reconnecting": "Connection lost: reconnecting…",
            "host.title": "Host a networked game",
            "host.game": "Game",
            "host.name": "Your name",
            "host.server": "Relay (empty: start one on this machine)",
            "host.lan": "Advertise on the LAN (mDNS) and listen on all interfaces",
            "host.open": "Open the room",
            "host.opening": "Opening the room…",
            "host.failed": "Could not open the room: {message}",
            "host.listing": "Open tables",
            "host.public": "Public (listed in Open tables)",
            "host.fill_after": "Fill with bots after seconds (empty: never)",
            "host.bad_fill": "Bots fill the room after 0 to {most} whole seconds, or leave it "
                             "empty for never.",
            "host.level": "Bots' level",
            "host.min_finished": "Finished games, at least % (empty: anyone)",
            "host.bad_min_finished": "The minimum finished share is a whole percentage from 0 "
                                     "to 100, or empty for anyone.",
            "netlobby.public": "Public: listed in Open tables at the relay.",
            "netlobby.bots_in": "Bots join in {n} s.",
            "netlobby.finished": "{share} finished",
            "netlobby.min_finished": "Asks for at least {share} finished games.",
            "netlobby.bots_now": "Bots are joining now.",
            "netlobby.refused": "Not listed: the relay lists no more public rooms from this "
                                "address. The room stays private; friends join by its code.",
            "netlobby.title": "{game}: room {code}",
            "netlobby.code_hint": (
                "Friends join with:  {command}   (or Join in the menu)"
            ),
            "netlobby.seats": "Seats",
            "netlobby.empty": "(empty)",
            "netlobby.host": "host",
            "netlobby.person": "player",
            "netlobby.bot": "bot ({level})",
            "netlobby.online": "connected",
            "netlobby.offline": "away",
            "netlobby.spectators": "Spectators: {n}",
            "netlobby.add_bot": "+ Bot",
            "netlobby.kick": "Kick",
            "netlobby.more": "+ Seat",
            "netlobby.fewer": "− Seat",
            "netlobby.takeover": "Bot takes an away seat after seconds (empty: never)",
            "netlobby.hints": "Hints allowed (h asks the expert bot)",
            "netlobby.apply": "Apply",
            "netlobby.start": "Start",
            "netlobby.chat": "Chat",
            "netlobby.say": "Say something (Enter sends)",
            "netlobby.waiting": "Waiting for the host to start…",
            "netlobby.gone": "You are no longer in this room: Esc goes back to the menu.",
            "netlobby.kick_question": "Send {name} out of the room? Seat {n} is free again.",
            "netlobby.kick_yes": "Send out",
            "netlobby.kick_no": "Keep",
            "netlobby.bad_number": "Enter a whole number of seconds, or leave it empty.",
            "netlobby.you": "you",
            "netlobby.leave_host": "Close room {code}? Everyone in it is sent out.",
            "netlobby.leave_guest": "Leave room {code}? Your seat goes to someone else.",
            "netlobby.leave_yes": "Leave",
            "netlobby.leave_no": "Stay",
            "net.leave_host_game": "You host this game: leaving closes it for everyone. "
                                   "Leave?",
            "join.title": "Join a game",
            "join.code": "Join code (e.g. K7QX-9MPA-B3CD)",
            "join.name": "Your name",
            "join.server": "Relay HOST:PORT (empty: find the room by its code)",
            "join.watch": "Watch as a spectator",
            "join.join": "Join",
            "join.joining": "Joining…",
            "join.asking": "Asking the host to give you your seat back… (they answer on "
                           "their screen)",
            "join.failed": "Could not join: {message}",
        },
        "de": {
            "net.key.chat": "Chat",
            "net.rematch_offered": "Der Gastgeber bietet eine Revanche an: R, um zu bleiben.",
            "net.quit_host": "Du bist Gastgeber von Raum {code}: Beenden schließt ihn für alle.",
            "net.chat_prompt": "Etwas an den Tisch sagen (Enter sendet, Esc bricht ab)",
            "net.notice": "» {text}",
            "net.host_closed": "Der Gastgeber hat das Spiel vor dem Ende geschlossen: das zählt "
                               "als sein Verlassen, und dein Platz gilt, wie das Spiel stand.",
            "net.host_closed_unverified": "Der Gastgeber hat das Spiel vor dem Ende "
                                          "geschlossen. {why}",
            "net.rated_host": "Dieses Spiel wird gewertet. Ab dem ersten Zug zählt es für dich "
                              "als letzter Platz und ein Abzug, es vor dem Ende zu verlassen "
                              "(den Raum zu schließen); alle anderen behalten ihren Platz, wie "
                              "das Spiel stand.",
            "net.connection.reconnecting": "Verbindung verloren; verbinde neu…",
            "net.connection.connected": "Wieder verbunden.",
            "net.connection.host_away": "Der Gastgeber ist weg; wir warten.",
            "net.connection.host_back": "Der Gastgeber ist zurück.",
            "net.connection.closed": "Der Tisch wurde geschlossen: {message}",
            "net.top.closed": "Der Tisch ist geschlossen: Esc Esc verlässt ihn",
            "net.top.host_away": "Der Gastgeber ist weg: wir warten",
            "net.top.reconnecting": "Verbindung verloren: verbinde neu…",
            "host.title": "Ein Netzwerkspiel eröffnen",
            "host.game": "Spiel",
            "host.name": "Dein Name",
            "host.server": "Relay (leer: auf diesem Rechner starten)",
            "host.lan": "Im LAN ankündigen (mDNS) und auf allen Schnittstellen lauschen",
            "host.open": "Raum öffnen",
            "host.opening": "Raum wird geöffnet…",
            "host.failed": "Raum konnte nicht geöffnet werden: {message}",
            "host.listing": "Offene Tische",
            "host.public": "Öffentlich (unter Offene Tische gelistet)",
            "host.fill_after": "Nach Sekunden mit Bots auffüllen (leer: nie)",
            "host.bad_fill": "Bots füllen den Raum nach 0 bis {most} ganzen Sekunden auf; "
                             "leer: nie.",
            "host.level": "Stärke der Bots",
            "host.min_finished": "Beendete Spiele, mindestens % (leer: alle)",
            "host.bad_min_finished": "Der Mindestanteil beendeter Spiele ist eine ganze Zahl "
                                     "von 0 bis 100 Prozent; leer: alle.",
            "netlobby.public": "Öffentlich: unter Offene Tische beim Relay gelistet.",
            "netlobby.bots_in": "Bots kommen in {n} s.",
            "netlobby.finished": "{share} beendet",
            "netlobby.min_finished": "Verlangt mindestens {share} beendete Spiele.",
            "netlobby.bots_now": "Bots kommen jetzt.",
            "netlobby.refused": "Nicht gelistet: das Relay listet keine weiteren öffentlichen "
                                "Räume von dieser Adresse. Der Raum bleibt privat; Freunde "
                                "treten mit dem Code bei.",
            "netlobby.title": "{game}: Raum {code}",
            "netlobby.code_hint": (
                "Mitspielen mit:  {command}   (oder Beitreten im Menü)"
            ),
            "netlobby.seats": "Plätze",
            "netlobby.empty": "(frei)",
            "netlobby.host": "Gastgeber",
            "netlobby.person": "Person",
            "netlobby.bot": "Bot ({level})",
            "netlobby.online": "verbunden",
            "netlobby.offline": "weg",
            "netlobby.spectators": "Zuschauer: {n}",
            "netlobby.add_bot": "+ Bot",
            "netlobby.kick": "Entfernen",
            "netlobby.more": "+ Platz",
            "netlobby.fewer": "− Platz",
            "netlobby.takeover": "Bot übernimmt einen leeren Platz nach Sekunden (leer: nie)",
            "netlobby.hints": "Tipps erlaubt (h fragt den Experten-Bot)",
            "netlobby.apply": "Übernehmen",
            "netlobby.start": "Los",
            "netlobby.chat": "Chat",
            "netlobby.say": "Etwas sagen (Enter sendet)",
            "netlobby.waiting": "Warte, bis der Gastgeber startet…",
            "netlobby.gone": "Du bist nicht mehr in diesem Raum: Esc führt zurück ins Menü.",
            "netlobby.kick_question": "{name} aus dem Raum schicken? Platz {n} wird wieder frei.",
            "netlobby.kick_yes": "Hinausschicken",
            "netlobby.kick_no": "Behalten",
            "netlobby.bad_number": "Eine ganze Zahl Sekunden eingeben oder leer lassen.",
            "netlobby.you": "du",
            "netlobby.leave_host": "Raum {code} schließen? Alle darin werden hinausgeschickt.",
            "netlobby.leave_guest": "Raum {code} verlassen? Dein Platz geht an jemand anderen.",
            "netlobby.leave_yes": "Verlassen",
            "netlobby.leave_no": "Bleiben",
            "net.leave_host_game": "Du bist Gastgeber dieses Spiels: Verlassen schließt es "
                                   "für alle. Verlassen?",
            "join.title": "Einem Spiel beitreten",
            "join.code": "Beitrittscode (z. B. K7QX-9MPA-B3CD)",
            "join.name": "Dein Name",
            "join.server": "Relay HOST:PORT (leer: Raum über den Code finden)",
            "join.watch": "Als Zuschauer beitreten",
            "join.join": "Beitreten",
            "join.joining": "Trete bei…",
            "join.asking": "Frage den Gastgeber, ob du deinen Platz zurückbekommst… (er "
                           "antwortet auf seinem Bildschirm)",
            "join.failed": "Beitritt fehlgeschlagen: {message}",
        },
    }
)


def leaving(app: App[Any]) -> None:
    """The player leaves their table, unless the app crashed: then the way back stays (the
    crash's last line tells a host to resume; see tui.comeback)."""
    if not app_crashed(app):
        comeback.left()


def others_in(host: NetHost) -> bool:
    """Whether anybody but the host is in the room: a person holding a seat (here or away,
    to come back) or a spectator."""
    return any(seat.token and not seat.local for seat in host.seats) or host.spectators() > 0


def hosting_warning(code: str) -> str:
    """Why quitting needs a yes from a host: everyone else's game ends too."""
    return tr("net.quit_host", code=codes.display(code))


class ChatPrompt(ModalScreen[str | None]):
    """One line of chat, under what was said so far; dismissed with the text, or None."""

    DEFAULT_CSS = """
    ChatPrompt { align: center bottom; }
    ChatPrompt > Vertical {
        width: 80%; height: auto; border: round $accent; background: $surface; padding: 0 1;
        margin-bottom: 2;
    }
    ChatPrompt EventLog { height: auto; max-height: 12; }
    """
    BINDINGS: ClassVar = [("escape", "cancel", "")]

    def __init__(self, history: list[str]) -> None:
        super().__init__()
        self.history = history

    def compose(self) -> ComposeResult:
        with Vertical():
            yield EventLog(lines=self.history, id="chat-history")
            yield Static(tr("net.chat_prompt"))
            yield TextInput(id="chat-line", max_length=500)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class NetGameScreen(GameScreen):
    """The game screen for a networked table: chat, notices and connection state on top."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        *GameScreen.KEYS,
        ("f4", "chat", "net.key.chat", True),
    )

    def __init__(
        self, link: TableLink, engine_id: str, *, lobby: Callable[[], Screen[Any]] | None = None
    ) -> None:
        """`lobby` makes this room's lobby screen again, for a rematch: the host offers one
        at the end of the game; a guest is offered one when the host reopens the room."""
        hosting = isinstance(link, HostLink) and lobby is not None
        super().__init__(link, engine_id, rematch=self._back_to_lobby if hosting else None)
        self.lobby = lobby
        self._warned = False  # the unverified deal was said in a toast already
        self._connection = "connected"  # as the link last said (net.connection.<state>)

    def _start_log(self, events: list[dict[str, Any]]) -> None:
        """The log afresh and, if the peer's check already failed (at the commit or the
        start, before this screen listened), a note that this deal cannot be verified, below
        the newest line; the first time also in a warning toast. A host's rated game says so
        before its first move: the host's leaving ends it as the host's loss
        (net.host.closing)."""
        if isinstance(self.link, HostLink) and (record := self.link.host.record_path):
            self.link.rated = counted.is_rated_file(record)
        super()._start_log(events)
        doubt = self.link.deal.doubt if isinstance(self.link, RemoteLink) else None
        if doubt is None:
            return
        line = unverified_line(doubt.code, doubt.args, doubt.reason)
        self._log([("note", line)], note=True)
        if not self._warned:
            self._warned = True
            self.notify(line, severity="warning", markup=False, timeout=15)

    def on_mount(self) -> None:
        """(GameScreen's own on_mount runs too: Textual calls each class's handler.)"""
        self._remember_hosting()

    def _remember_hosting(self) -> None:
        """A hosted game's record, once dealt (the host's screen opens before the guests'
        parts of the seed are in), is where `tabletop-tui back` takes this player if the app
        is hung up on (tui.comeback)."""
        if isinstance(self.link, HostLink) and (record := self.link.host.record_path):
            comeback.hosting(record)

    async def close_link(self) -> None:
        if not self._link_closed:
            leaving(self.app)
        await super().close_link()
        if isinstance(self.link, HostLink) and self.link.host.dealer.closed is not None:
            self._count_closed()  # the host closed its game mid-way: its loss counts now

    def _count_closed(self) -> None:
        """A game its host closed before the end (net.host.closing) has no results screen to
        count it: its record joins this terminal's ladder at once, beside any other not yet
        looked at (in a worker of the app's: the screen may be gone by then)."""
        self.app.run_worker(asyncio.to_thread(ladder.catch_up_here), group="ladder")

    def _back_to_lobby(self) -> None:
        """Same room, same seats: the host reopens its lobby, a guest goes back into it. The
        link goes on with the lobby screen, so it is handed over, not closed."""
        if self.lobby is None:
            return
        if isinstance(self.link, HostLink):
            self.link.host.reopen()
        self.hand_over_link()
        self.app.switch_screen(self.lobby())

    @staticmethod
    def _notice_text(data: dict[str, Any]) -> str:
        """A notice in the player's language where it is one of ours (the host closed the game,
        net.peer.remote), else as the link said it."""
        closed = data.get("closed")
        if closed is True:
            return tr("net.host_closed")
        if closed is False and isinstance(data.get("verdict"), dict):
            verdict = data["verdict"]
            return tr("net.host_closed_unverified",
                      why=unverified_line(verdict.get("code"), verdict.get("args")))
        return str(data.get("text", ""))

    def on_link_message(self, message: LinkMessage) -> None:
        """Notices and connection changes; Textual then runs GameScreen's handler (for the
        table, chat and presence) itself, so calling it here would log every event twice."""
        data = message.data
        kind = data.get("type")
        if kind == "start":
            self._remember_hosting()
        elif kind == "notice":
            self._log([("note", tr("net.notice", text=self._notice_text(data)))], note=True)
            if data.get("closed") is True:
                self._count_closed()
        elif kind == "connection":
            state = data.get("state", "")
            text = tr(f"net.connection.{state}",
                      message=why(data.get("code"), str(data.get("message", ""))))
            self._log([("note", text)], note=True)
            self._connection = str(state)
            self._update_topbar()
            if state in ("reconnecting", "closed", "host_away"):
                self.notify(text, severity="warning", markup=False)
        elif kind == "rematch" and self.lobby is not None:
            self.rematch = self._back_to_lobby
            self._log([("note", tr("net.rematch_offered"))], note=True)
            if isinstance(self.app.screen, ResultsScreen):
                self.app.screen.offer_rematch()
        elif kind == "reclaim" and isinstance(self.link, HostLink):
            ask_reclaim(self, self.link.host, data)

    def table_state(self) -> str | None:
        """Closed, host away or reconnecting, on the top line instead of "Your turn"."""
        if self._connection in ("closed", "host_away", "reconnecting"):
            return tr(f"net.top.{self._connection}")
        return None

    def chat_history(self) -> list[dict[str, Any]]:
        if isinstance(self.link, HostLink):
            return list(self.link.host.chat_log)
        if isinstance(self.link, RemoteLink):
            return list(clean_tree(self.link.chat))  # as the host sent it: cleaned here
        return []

    def action_chat(self) -> None:
        def said(text: str | None) -> None:
            if text:
                self.run_worker(self.link.send_chat(text), group="link")

        self.app.push_screen(ChatPrompt(self.chat_lines), said)

    def quit_warning(self) -> str | None:
        if isinstance(self.link, HostLink) and not self.link.host.finished.is_set():
            return hosting_warning(self.link.host.code)
        return None

    RATED_NOTE = "net.rated_host"

    def leave_question(self) -> str | None:
        """A host leaving a game others are in closes it for them: that takes a yes."""
        link = self.link
        if (isinstance(link, HostLink) and not link.host.finished.is_set()
                and others_in(link.host)):
            return tr("net.leave_host_game")
        return None
