"""Open tables and Quick play as a player meets them: a real relay on 127.0.0.1, real hosted
rooms, and the app driven by keys alone. The Open tables screen lists the rooms a relay shows,
filters and refreshes them and joins one through the join form; Quick play sits you down in
the best waiting room or opens a public one; the host form lists a room with bots after a
wait, and the lobby counts down to them or says the relay refused the listing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from test_forms_by_keys import tab_to
from test_net_tui import screen_of, until
from test_open_tables import answering, hosting, listed
from textual.pilot import Pilot
from textual.widgets import OptionList, Select, Static
from websockets.asyncio.server import serve

from net.host.authority import NetHost
from net.host.hosting import TABLE_RELAY_ENV, HostPlan
from net.relay.server import Relay
from tui import prefs
from tui.app import TabletopApp
from tui.screens import tables
from tui.screens.host import HostScreen
from tui.screens.menu import MENU_ITEMS, GamePickerScreen, MenuScreen
from tui.screens.net_lobby import HostLobbyScreen, PeerLobbyScreen
from tui.screens.tables import OpenTablesScreen

SIZES = ((80, 24), (160, 50))


def rows(screen: OpenTablesScreen) -> list[str]:
    listing = screen.query_one("#tables-list", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def status(screen: OpenTablesScreen) -> str:
    return screen.status


def shoot(app: TabletopApp, name: str) -> None:
    """A screenshot to look at, when TABLES_SHOTS names a directory for them."""
    if where := os.environ.get("TABLES_SHOTS"):
        app.save_screenshot(str(Path(where) / f"{name}.svg"))


async def close_all(*hosts: NetHost) -> None:
    for host in hosts:
        await host.close()


async def test_open_tables_lists_a_public_room_and_enter_takes_a_seat_in_it(relay: Relay) -> None:
    host = await hosting(relay, name="Hana", fill_after=600)
    prefs.update(name="Pia")
    try:
        await listed(relay)
        app = TabletopApp(lang="en", opening=lambda: OpenTablesScreen(relay.url))
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
            await until(pilot, lambda: rows(screen), "the listed room")
            (row,) = rows(screen)
            assert row.startswith("Schöne")
            assert "2/3" in row and "Hana id:" in row and "–" in row
            assert "bots in" in row
            shoot(app, "tables-one-room")
            await pilot.press("enter")  # the room, joined as if its code had been typed
            lobby = await until(pilot, screen_of(pilot, PeerLobbyScreen), "the host's lobby")
            await until(pilot, lambda: any(s["name"] == "Pia" for s in host.seat_list()),
                        "Pia in a seat at the host")
            assert lobby.me is not None and lobby.seats[lobby.me]["name"] == "Pia"
            # A peer sees that the room is public, and the bots' countdown.
            await until(pilot, lambda: "Bots join in" in str(
                lobby.query_one("#netlobby-public", Static).render()), "the countdown")
            shoot(app, "peer-lobby-public")
            await pilot.press("escape", "y")  # out of the room (asked first), to the list
            await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables again")
    finally:
        await close_all(host)


async def test_the_list_filters_by_game_refreshes_by_key_and_by_itself(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tables, "REFRESH_EVERY", 0.2)
    first = await hosting(relay, "schoene", name="Hana")
    second = await hosting(relay, "schoko", seats=2, name="Sven")
    later: list[NetHost] = []
    try:
        await listed(relay, count=2)
        app = TabletopApp(lang="en", opening=lambda: OpenTablesScreen(relay.url))
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
            await until(pilot, lambda: len(rows(screen)) == 2, "both rooms")
            while screen.game != "schoko":
                await pilot.press("g")  # the next game to show
                await pilot.pause()
            await until(pilot, lambda: len(rows(screen)) == 1, "only the Schoko room")
            assert "Sven" in rows(screen)[0]
            assert screen.query_one("#tables-filter", Select).value == "schoko"
            while screen.game != tables.ALL:  # on past the last game: all again
                await pilot.press("g")
                await pilot.pause()
            await until(pilot, lambda: len(rows(screen)) == 2, "both rooms again")
            # A new room shows up by itself, and by r.
            later.append(await hosting(relay, "schoene", name="Ute"))
            await until(pilot, lambda: len(rows(screen)) == 3, "the new room, unasked")
            await later[0].close()
            await pilot.press("r")
            await until(pilot, lambda: len(rows(screen)) == 2, "the closed room gone")
            await close_all(first, second)
            await pilot.press("r")
            await until(pilot, lambda: "Nobody is waiting" in status(screen), "nobody")
            assert rows(screen) == []
            await pilot.press("enter")  # nothing to join: said, and nothing happens
            await pilot.pause()
            assert isinstance(app.screen, OpenTablesScreen)
            assert "No table chosen" in status(screen)
    finally:
        await close_all(first, second, *later)


async def test_a_relay_that_does_not_answer_is_said_plainly() -> None:
    app = TabletopApp(lang="en", opening=lambda: OpenTablesScreen("127.0.0.1:9"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
        await until(pilot, lambda: screen.failed, "the failure")
        assert "No relay answers at 127.0.0.1:9" in status(screen)
        assert "tabletop-tui serve" in status(screen) and "Errno" not in status(screen)
        shoot(app, "tables-unreachable")
        # A relay field typed wrong is said too, and changes nothing else.
        await tab_to(pilot, "tables-server")
        await pilot.press("ctrl+u", *"no:port:here", "enter")
        await until(pilot, lambda: "a relay is HOST" in status(screen), "the bad address")


async def test_a_strangers_relay_cannot_mark_up_or_break_a_row() -> None:
    """A host name is a stranger's text: markup stays text, a line break stays in its row,
    and a rating and finished share the relay vouches for are shown as numbers, with the
    share the host asks of its players."""
    row = {"code": "K7QX-9MPA-B3CD", "game": "schoene", "seats": 3, "free": 1,
           "host": "[/]\n[b]Eve", "identity": None, "rating": 12.4, "finished": 0.875,
           "waiting": 5, "bots_in": None, "min_finished": 0.8}
    body = json.dumps({"tables": [row]}).encode()
    async with serve(lambda ws: ws.close(), "127.0.0.1", 0,
                     process_request=answering(body)) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        app = TabletopApp(lang="en", opening=lambda: OpenTablesScreen(f"127.0.0.1:{port}"))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
            await until(pilot, lambda: rows(screen), "the row")
            (text,) = rows(screen)
            assert "[/] [b]Eve" in text and "\n" not in text
            assert "2740" in text and "88%" in text and "≥80%" in text  # 1500 + 100 × 12.4
            listing = screen.query_one("#tables-list", OptionList)
            assert listing.get_option_at_index(0).prompt.cell_length <= 76  # one line at 80


async def quick_play_from_the_menu(pilot: Pilot[None], game: str) -> None:
    """Menu → Quick play → `game`, by keys."""
    await until(pilot, screen_of(pilot, MenuScreen), "the menu")
    await pilot.press(*["down"] * MENU_ITEMS.index("quick"), "enter")
    picker = await until(pilot, screen_of(pilot, GamePickerScreen), "the game picker")
    games = picker.query_one("#games", OptionList)
    while games.get_option_at_index(games.highlighted or 0).id != game:
        await pilot.press("down")
    await pilot.press("enter")


async def test_quick_play_sits_you_down_in_the_room_closest_to_starting(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TABLE_RELAY_ENV, relay.url)  # a session at a public table
    wide = await hosting(relay, "schoene", seats=5, name="Hana")
    near = await hosting(relay, "schoene", seats=3, name="Olaf")
    other = await hosting(relay, "schoko", seats=2, name="Sven")
    prefs.update(name="Pia")
    try:
        await listed(relay, count=3)
        app = TabletopApp(lang="en")
        async with app.run_test(size=(100, 30)) as pilot:
            await quick_play_from_the_menu(pilot, "schoene")
            lobby = await until(pilot, screen_of(pilot, PeerLobbyScreen), "a room")
            assert lobby.link.code == near.code  # one seat left: it starts soonest
            await until(pilot, lambda: any(s["name"] == "Pia" for s in near.seat_list()),
                        "Pia seated at Olaf's")
    finally:
        await close_all(wide, near, other)


async def test_quick_play_opens_a_public_room_when_nobody_waits(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TABLE_RELAY_ENV, relay.url)
    other = await hosting(relay, "schoko", seats=2, name="Sven")  # not the game wanted
    prefs.update(name="Pia")
    try:
        await listed(relay)
        app = TabletopApp(lang="en")
        async with app.run_test(size=(100, 30)) as pilot:
            await quick_play_from_the_menu(pilot, "zwergenamulett")
            lobby = await until(pilot, screen_of(pilot, HostLobbyScreen), "a room of my own")
            host = lobby.host
            assert host.engine.id == "zwergenamulett" and host.seats[0].name == "Pia"
            assert host.billboard.public and host.billboard.fill_after == 60
            found = await listed(relay, "zwergenamulett")
            assert found[0].code == host.code and found[0].host == "Pia"
            line = lobby.query_one("#netlobby-public", Static)
            await until(pilot, lambda: "Bots join in" in str(line.render()), "the countdown")
            assert "Public" in str(line.render())
            shoot(app, "host-lobby-public")
            await lobby.room.close()
    finally:
        await close_all(other)


async def test_quick_play_at_a_relay_that_does_not_answer_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TABLE_RELAY_ENV, "ws://127.0.0.1:9")
    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await quick_play_from_the_menu(pilot, "schoene")
        screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
        await until(pilot, lambda: screen.failed, "the failure")
        assert "No relay answers" in status(screen)
        assert isinstance(app.screen, OpenTablesScreen)  # no room opened nowhere


async def test_the_host_form_lists_the_room_with_bots_after_a_wait_by_keys(
    relay: Relay,
) -> None:
    app = TabletopApp(lang="en", opening=lambda: HostScreen())
    async with app.run_test(size=(100, 40)) as pilot:
        form = await until(pilot, screen_of(pilot, HostScreen), "the host form")
        await tab_to(pilot, "server")
        await pilot.press(*relay.url.removeprefix("ws://"))
        await tab_to(pilot, "public")
        await pilot.press("space")
        await tab_to(pilot, "fill-after")
        await pilot.press("ctrl+u", *"9999")
        await pilot.press("f5")
        await until(pilot, lambda: "0 to 3600" in form.error, "the bad wait said")
        assert isinstance(app.screen, HostScreen)  # nothing opened
        await tab_to(pilot, "fill-after")
        await pilot.press("ctrl+u", *"300")
        await tab_to(pilot, "level")
        await pilot.press("enter", "up", "enter")  # from strong to random
        await pilot.pause()
        shoot(app, "host-form-public")
        await pilot.press("f5")
        lobby = await until(pilot, screen_of(pilot, HostLobbyScreen), "the room")
        host = lobby.host
        assert (form.plan.public, form.plan.fill_after, form.plan.level) == (True, 300, "random")
        assert host.billboard.public and host.billboard.fill_after == 300
        assert host.level == "random"
        assert prefs.load().fill_after == 300  # Quick play opens rooms with it from now on
        (table,) = await listed(relay)
        assert table.code == host.code and table.bots_in is not None
        line = lobby.query_one("#netlobby-public", Static)
        await until(pilot, lambda: "Bots join in" in str(line.render()), "the countdown")
        # Esc goes back to the form, as filled in.
        await pilot.press("escape")
        again = await until(pilot, screen_of(pilot, HostScreen), "the form again")
        assert again.query_one("#public").value is True
        assert again.query_one("#fill-after").value == "300"
        await listed(relay, count=0)  # the closed room is no longer listed


async def test_the_lobby_says_when_the_relay_refuses_to_list_the_room(relay: Relay) -> None:
    crowd = [await hosting(relay, name=f"H{i}") for i in range(3)]  # this address's three
    try:
        await listed(relay, count=3)
        form_plan = HostPlan("schoene", 0, server=relay.url, host_name="Pia", public=True,
                             fill_after=60.0)
        app = TabletopApp(lang="en", opening=lambda: HostScreen(form_plan, auto=True))
        async with app.run_test(size=(100, 40)) as pilot:
            lobby = await until(pilot, screen_of(pilot, HostLobbyScreen), "the room")
            line = lobby.query_one("#netlobby-public", Static)
            await until(pilot, lambda: "relay lists no more" in str(line.render()),
                        "the refusal")
            assert "Bots join" not in str(line.render())
            shoot(app, "host-lobby-refused")
            await lobby.room.close()
    finally:
        await close_all(*crowd)


async def press_every_footer_key(pilot: Pilot[None], screen: Any) -> None:
    """Every key the footer offers on `screen`, each from `screen` itself: the app keeps
    running and comes back to it."""
    app = pilot.app
    keys = [key for key, active in screen.active_bindings.items()
            if active.binding.show and key != "ctrl+q"]
    keys.sort(key=lambda k: k == "escape")  # Esc last: it leaves the screen
    assert keys
    for key in keys:
        await pilot.press(key)
        await pilot.pause(0.1)
        assert app.is_running and app.return_code is None, f"{key!r} ended the app"
        while app.screen is not screen and screen in app.screen_stack:
            await pilot.press("escape")
            await pilot.pause(0.1)
        if screen not in app.screen_stack:  # Esc left it: open it again
            return


@pytest.mark.parametrize("size", SIZES)
async def test_the_new_screens_by_keys_alone_at_both_sizes(
    relay: Relay, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int],
) -> None:
    monkeypatch.setenv(TABLE_RELAY_ENV, relay.url)
    host = await hosting(relay, name="Hana", fill_after=900)
    try:
        await listed(relay)
        app = TabletopApp(lang="de")
        async with app.run_test(size=size) as pilot:
            await until(pilot, screen_of(pilot, MenuScreen), "the menu")
            await pilot.press(*["down"] * MENU_ITEMS.index("tables"), "enter")
            screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
            await until(pilot, lambda: rows(screen), "the room")
            assert "2/3" in rows(screen)[0] and "Bots in" in rows(screen)[0]
            listing = screen.query_one("#tables-list", OptionList)
            assert listing.region.height > 0 and listing.region.bottom <= size[1]
            shoot(app, f"tables-{size[0]}x{size[1]}")
            await tab_to(pilot, "tables-filter")  # every control by Tab
            await tab_to(pilot, "tables-list")
            await press_every_footer_key(pilot, screen)
            await pilot.press("f3")  # English, the list and its state kept
            await pilot.pause()
            if isinstance(app.screen, OpenTablesScreen):
                await until(pilot, lambda: "bots in" in "".join(rows(app.screen)),
                            "the list in English")
                assert app.focused is app.screen.query_one("#tables-list")
            # The host form's new fields, reached by Tab and in view when they are.
            while not isinstance(app.screen, MenuScreen):
                await pilot.press("escape")
                await pilot.pause()
            await pilot.press(*["down"] * MENU_ITEMS.index("host"), "enter")
            form = await until(pilot, screen_of(pilot, HostScreen), "the host form")
            for field in ("public", "fill-after", "level"):
                await tab_to(pilot, field)
                await pilot.pause()
                widget = form.query_one(f"#{field}")
                assert 0 <= widget.region.y < size[1] - 1, f"#{field} out of sight"
            shoot(app, f"host-form-{size[0]}x{size[1]}")
    finally:
        await close_all(host)
