"""Terminal escapes from the wire never reach the player's terminal: a modified host that does
not clean its chat, names and notices, and a stranger's relay that lists escapes as a game and
a host, over real sockets on 127.0.0.1, with the guest's app driven by Pilot. What the app
draws holds no ESC and no control or format character, and every row is as wide to a
terminal that counts character by character as it is to Textual, so no border moves."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from test_net_tui import screen_of, until
from test_open_tables import answering
from test_wire_text import OSC52, TITLE, terminal_width
from textual.app import App
from textual.widgets import OptionList
from websockets.asyncio.server import serve

from net.host.authority import NetHost
from net.relay.server import Relay
from tui.app import TabletopApp
from tui.netplay import NetGameScreen
from tui.screens.join import JoinScreen
from tui.screens.net_lobby import PeerLobbyScreen
from tui.screens.tables import OpenTablesScreen

SIZE = (100, 36)
FAMILY = "👨\u200d👩\u200d👧"
# A name and a chat line as a modified host sends them: a window title, a clipboard write
# (OSC 52), C1 controls (CSI and OSC as one character each), a bidi override and an isolate,
# a line break, joined and toned emoji, a flag.
EVIL_NAME = f"Eve{TITLE}\u202eevil\x9b2J{FAMILY}"
EVIL_CHAT = (f"hi{OSC52} \x1b[2J\x9d2;owned\x9c \u2066iso\u2069\nnext ❤\ufe0f 👍🏽 "
             f"🇩🇪 中文 {FAMILY} end")


def screen_lines(app: App[Any]) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def assert_drawn_clean(app: App[Any]) -> list[str]:
    """Every row of the screen: no escape, no control or format character, and exactly as
    wide to a terminal as to Textual (so its right-hand border sits in the last column)."""
    lines = screen_lines(app)
    for line in lines:
        assert "\x1b" not in line, line
        assert not [ch for ch in line if unicodedata.category(ch)[0] == "C"], repr(line)
        assert terminal_width(line) == SIZE[0], repr(line)
    text = "\n".join(lines)
    for leaked in ("pwned", "owned", "cm0g", "[2J", "52;c"):
        assert leaked not in text, leaked
    return lines


async def test_a_modified_hosts_escapes_reach_no_guests_terminal(relay: Relay) -> None:
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False,
                   seed=17)
    code = await host.open()
    app = TabletopApp(lang="en", opening=lambda: JoinScreen(code, "Pia", relay.url, auto=True))
    try:
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, screen_of(pilot, PeerLobbyScreen), "the lobby")
            # The host's own cleaning is not there: it sends what it likes.
            await until(pilot, lambda: len(lobby.seats) == 3, "the lobby listening")
            host.seats[0].name = EVIL_NAME
            host.presence(lobby=True)
            host.audience.everyone("chat", name=EVIL_NAME, text=EVIL_CHAT, seat=0, no=90,
                                   at=None)
            host.notice(EVIL_CHAT)
            await until(pilot, lambda: sum(" end" in line for line in lobby.chat_lines) >= 2,
                        "the chat line and the notice")
            await pilot.pause(0.1)
            text = "\n".join(assert_drawn_clean(app))
            assert "Eveevil" in text and "hi  iso next" in text and "👨👩👧" in text
            # The host starts; at the table, its name and its chat are as clean.
            host.start()
            game = await until(pilot, screen_of(pilot, NetGameScreen), "the table")
            await until(pilot, lambda: game.latest is not None, "the first view")
            host.audience.everyone("chat", name=EVIL_NAME, text=EVIL_CHAT + " 2", seat=0,
                                   no=91, at=0)
            await until(pilot, lambda: "end 2" in "\n".join(screen_lines(app)), "the chat")
            text = "\n".join(assert_drawn_clean(app))
            assert "Eveevil" in text
    finally:
        await host.close()


async def test_a_hostile_relays_listing_is_drawn_clean_in_its_columns() -> None:
    rows = [{"code": "K7QX-9MPA-B3CD", "game": f"schoene{OSC52}", "seats": 3, "free": 1,
             "host": EVIL_NAME, "identity": f"id:{TITLE}ABCD-EFGH-IJKL", "rating": 1500,
             "finished": 0.5, "waiting": 5, "bots_in": None, "min_finished": None},
            {"code": "K7QX-9MPA-B3CE", "game": "\x9d0;owned\x9cchez\u202e", "seats": 4,
             "free": 2, "host": "Bo", "identity": None, "rating": None, "finished": None,
             "waiting": 9, "bots_in": None, "min_finished": None}]
    body = json.dumps({"tables": rows}).encode()
    async with serve(lambda ws: ws.close(), "127.0.0.1", 0,
                     process_request=answering(body)) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        app = TabletopApp(lang="en", opening=lambda: OpenTablesScreen(f"127.0.0.1:{port}"))
        async with app.run_test(size=SIZE) as pilot:
            screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
            listing = screen.query_one("#tables-list", OptionList)
            await until(pilot, lambda: listing.option_count == 2, "the rows")
            await pilot.pause(0.1)
            lines = assert_drawn_clean(app)
            first = next(line for line in lines if "Eveevil" in line)
            second = next(line for line in lines if " Bo " in line)
            # The columns after a wide name stay in line: "Free" is in one column of cells.
            assert first.index("1/3") == second.index("2/4") or (
                terminal_width(first[:first.index("1/3")])
                == terminal_width(second[:second.index("2/4")]))
