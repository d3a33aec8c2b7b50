"""Two real apps, one hosting and one joining through a relay on 127.0.0.1, driven by Pilot."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from netsupport import Player
from textual.pilot import Pilot
from textual.widgets import Static

from net.host.authority import NetHost
from net.host.hosting import HostPlan
from net.peer.remote import RemoteLink
from net.records import store
from net.relay.server import Relay
from net.wire import codes
from tui import comeback
from tui.app import TabletopApp
from tui.cli import ended, way_back
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.net_lobby import HostLobbyScreen, NetLobby, PeerLobbyScreen
from tui.screens.overlays import ConfirmScreen
from tui.widgets import EventLog

STEPS = 400


async def until(pilot: Pilot[None], check: Any, what: str) -> Any:
    for _ in range(STEPS):
        await pilot.pause(0.01)
        found = check()
        if found:
            return found
    raise AssertionError(f"gave up waiting for {what}; screen is {pilot.app.screen}")


def screen_of(pilot: Pilot[None], kind: type) -> Any:
    return lambda: pilot.app.screen if isinstance(pilot.app.screen, kind) else None


async def test_a_wrong_code_is_explained_on_the_join_screen(relay: Relay) -> None:
    """In English the relay's own sentence (it names the code); in German ours for its code."""
    for lang, said in (("en", "wrong or has expired"), ("de", "Keinen Raum mit diesem Code")):
        app = TabletopApp(
            lang=lang, opening=lambda: JoinScreen("K7QX-9MPA-B3CD", "Pia", relay.url, auto=True)
        )
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await until(pilot, screen_of(pilot, JoinScreen), "the join screen")
            await until(pilot, lambda s=screen, w=said: w in s.error, "the error")
            assert lang == "de" or "K7QX-9MPA" in screen.error


async def test_a_room_closed_under_a_german_guest_says_so_in_german(relay: Relay) -> None:
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False)
    code = await host.open()
    app = TabletopApp(lang="de", opening=lambda: JoinScreen(code, "Pia", relay.url, auto=True))
    async with app.run_test(size=(100, 40)) as pilot:
        lobby = await until(pilot, screen_of(pilot, PeerLobbyScreen), "the lobby")
        await host.close()
        await until(pilot, lambda: lobby.room_lost, "the room closed")
        assert "Der Gastgeber hat den Raum geschlossen" in lobby.error, lobby.error


async def test_a_wrong_secret_part_is_explained_on_the_join_screen(relay: Relay) -> None:
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False)
    await host.open()
    wrong = codes.display(host.room + ("0000" if host.keys.secret != "0000" else "1111"))
    for lang, said in (("en", "check the last four symbols"), ("de", "letzten vier Zeichen")):
        app = TabletopApp(lang=lang, opening=lambda: JoinScreen(wrong, "Pia", relay.url,
                                                                auto=True))
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await until(pilot, screen_of(pilot, JoinScreen), "the join screen")
            await until(pilot, lambda s=screen, w=said: w in s.error, "the error")
    assert host.keys.wrong_tries == 2 and not host.peers
    await host.close()


async def test_two_apps_play_through_the_relay_and_see_each_others_moves(relay: Relay) -> None:
    # Seed 17 lets seat 0 (the host, Hana) start.
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=17, bot_delay=0.2)
    hosting = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with hosting.run_test(size=(120, 60)) as host:
        lobby = await until(host, screen_of(host, HostLobbyScreen), "the host's lobby")
        code = lobby.host.display_code
        joining = TabletopApp(
            lang="en", opening=lambda: JoinScreen(code.lower(), "Pia", relay.url, auto=True)
        )
        async with joining.run_test(size=(120, 60)) as peer:
            peer_lobby = await until(peer, screen_of(peer, PeerLobbyScreen), "the peer's lobby")
            await until(host, lambda: lobby.seats[1]["name"] == "Pia", "Pia in seat 2")
            # Both see every seat of the table, the empty one too.
            for app, room in ((host, lobby), (peer, peer_lobby)):
                await until(app, lambda room=room: len(room.query(".netseat")) == 3, "3 seats")
                # The list is as tall as its rows, so no seat is squeezed out of a small window.
                assert room.query_one("#netlobby-seats").size.height == 3
            await peer.click("#netlobby-say")
            await peer.press(*"hello", "enter")
            await until(host, lambda: "Pia: hello" in lobby.chat_lines, "chat at the host")
            await host.click("#seat-2")
            await until(host, lambda: lobby.seats[2]["kind"] == "bot", "a bot in seat 3")
            await host.click("#start")
            host_game = await until(host, screen_of(host, NetGameScreen), "the host's table")
            peer_game = await until(peer, screen_of(peer, NetGameScreen), "the peer's table")
            await until(host, lambda: host_game.board is not None, "the host's board")
            await until(peer, lambda: peer_game.latest is not None, "the peer's table")
            assert peer_game.latest.state_no == 0 and peer_game.link.seats == [1]
            assert host_game.latest.view["turn"] == 0
            await host.press("space")  # Hana pays a chip
            await until(peer, lambda: peer_game.latest.state_no >= 1, "the move at the peer")
            log = peer_game.query_one("#log", EventLog).texts
            # Logged once, though the network screen adds its own handler to the game screen's.
            assert sum("Hana paid a chip" in line for line in log) == 1, log
            # The peer cannot see the host's chips; it sees its own.
            view = peer_game.latest.view
            assert view["players"][0]["chips"] is None and view["my_chips"] is not None
            await peer_game.link.close()
            await host_game.link.close()  # closes the room


async def open_host_lobby(pilot: Pilot[None]) -> HostLobbyScreen:
    lobby: HostLobbyScreen = await until(pilot, screen_of(pilot, HostLobbyScreen), "the lobby")
    return lobby


async def test_a_peer_named_like_markup_shows_in_the_host_lobby_as_typed(relay: Relay) -> None:
    """Names and chat are plain text: a peer called "[/]" once crashed the host's lobby."""
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with app.run_test(size=(120, 60)) as pilot:
        lobby = await open_host_lobby(pilot)
        peer = RemoteLink(lobby.host.display_code, "[/]", server=relay.url)
        await peer.connect()
        try:
            await until(pilot, lambda: lobby.seats[1]["name"] == "[/]", "the peer in seat 2")
            await peer.send_chat("[b]hi")
            await until(pilot, lambda: "[/]: [b]hi" in lobby.chat_lines, "the chat line")
            await pilot.click("#seat-2")
            await until(pilot, lambda: lobby.seats[2]["kind"] == "bot", "a bot in seat 3")
            await pilot.pause()
            rows = [
                " ".join(str(cell.render()) for cell in row.query(Static))
                for row in lobby.query(".netseat")
            ]
            assert "[/]" in rows[1]
            # The bot's strength in words, as the local lobby says it.
            assert "Bot (strong)" in rows[2] and "(strong)" not in rows[2].replace("Bot (", "")
            assert "[/]: [b]hi" in lobby.query_one("#netlobby-chat", EventLog).texts
        finally:
            await peer.close()
        await lobby.room.close()


async def test_the_host_lobby_draws_its_seats_once_on_opening(
    relay: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    show_seats = NetLobby.show_seats

    async def counting(self: NetLobby) -> None:
        drawn.append(type(self).__name__)
        await show_seats(self)

    monkeypatch.setattr(NetLobby, "show_seats", counting)
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with app.run_test(size=(120, 60)) as pilot:
        lobby = await open_host_lobby(pilot)
        await until(pilot, lambda: len(lobby.query(".netseat")) == 3, "3 seats")
        for _ in range(10):
            await pilot.pause(0.01)
        assert drawn == ["HostLobbyScreen"]
        await lobby.room.close()


async def test_a_host_quitting_the_app_closes_the_room_for_peers(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    peer: RemoteLink | None = None
    try:
        async with app.run_test(size=(120, 60)) as pilot:
            lobby = await open_host_lobby(pilot)
            peer = RemoteLink(lobby.host.display_code, "Pia", server=relay.url)
            await peer.connect()
            await until(pilot, lambda: lobby.host.seat_list()[1]["name"] == "Pia", "Pia seated")
            await pilot.press("ctrl+q")
            # Quitting closes the room for everyone, so the host is asked first.
            confirm = await until(pilot, screen_of(pilot, ConfirmScreen), "the question")
            assert lobby.host.display_code in str(confirm.query_one("#confirm-text").render())
            assert not peer.closed.is_set()
            await pilot.press("y")
        # The room said goodbye: the peer hears why, not a dropped connection.
        await asyncio.wait_for(peer.closed.wait(), 5)
        assert "closed the room" in peer.close_reason
    finally:
        if peer is not None:
            await peer.close()


async def test_a_hosting_app_that_crashes_leaves_a_room_that_resumes(
    relay: Relay, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Should the host's app still crash mid-game, its guests read that the host can resume
    (not that the room closed), the room waits on the relay, the record resumes the game with
    the guest back in its seat, and the terminal gets a line and a non-zero exit status."""

    def broken(self: NetGameScreen) -> None:
        raise RuntimeError("a bug in the table")

    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=17, bot_delay=0.2)
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    pia = Player(RemoteLink("K7QX-9MPA-B3CD", "Pia", server=relay.url), play=False)
    resumed: NetHost | None = None
    try:
        with pytest.raises(RuntimeError, match="a bug in the table"):
            async with app.run_test(size=(120, 60)) as pilot:
                lobby = await open_host_lobby(pilot)
                room = lobby.host.room
                pia.link = RemoteLink(lobby.host.display_code, "Pia", server=relay.url)
                pia.link.set_listener(pia.hear)
                await pia.link.connect()
                await until(pilot, lambda: lobby.host.seat_list()[1]["name"] == "Pia", "Pia")
                await pilot.press("f5")
                game = await until(pilot, screen_of(pilot, NetGameScreen), "the table")
                await until(pilot, lambda: game.latest is not None, "the first sync")
                monkeypatch.setattr(NetGameScreen, "action_log", broken)
                await pilot.press("f6")
        assert app.return_code == 1 and "RuntimeError: a bug in the table" in app.crash_report
        notice = await pia.wait_for(lambda m: m["type"] == "notice" and "crashed" in m["text"])
        assert "resume" in notice["text"]
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "host_away")
        assert not pia.link.closed.is_set() and relay.rooms.get(room) is not None
        with pytest.raises(SystemExit) as exit_status:
            ended(app)
        assert exit_status.value.code == 1 and "host --resume" in capsys.readouterr().err
        path = store.last_record()
        assert path is not None
        resumed = NetHost.resume(path, relay.url, bot_delay=0)
        await resumed.open()
        await resumed.begin_resumed()
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "host_back")
        await until_true(lambda: resumed.seat_list()[1]["connected"], "Pia back in her seat")
    finally:
        await pia.link.close()
        if resumed is not None:
            await resumed.close()


async def test_a_hosting_app_whose_input_thread_dies_keeps_its_room(relay: Relay) -> None:
    """Textual's driver panics when its input thread dies (it did on a byte that is no UTF-8,
    net.ssh.session): the app then exited 0 as if quit, and its room closed for everyone."""
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", bot_delay=0.2)
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    pia = Player(RemoteLink("K7QX-9MPA-B3CD", "Pia", server=relay.url), play=False)
    try:
        async with app.run_test(size=(120, 60)) as pilot:
            lobby = await open_host_lobby(pilot)
            room = lobby.host.room
            pia.link = RemoteLink(lobby.host.display_code, "Pia", server=relay.url)
            pia.link.set_listener(pia.hear)
            await pia.link.connect()
            await until(pilot, lambda: lobby.host.seat_list()[1]["name"] == "Pia", "Pia")
            app.call_later(app.panic, "the input thread died")
            await until(pilot, lambda: not app.is_running, "the app's end")
        assert app.return_code == 1 and "the input thread died" in app.crash_report
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "host_away")
        assert not pia.link.closed.is_set() and relay.rooms.get(room) is not None
    finally:
        await pia.link.close()


async def until_true(check: Any, what: str) -> None:
    for _ in range(STEPS):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


async def test_a_seat_is_remembered_until_its_player_leaves_it_by_a_key(relay: Relay) -> None:
    """`tabletop-tui back` (a reloaded browser tab, an SSH `resume`) goes back to a seat whose
    app was hung up on; a player who left the table by a key is not taken back to it."""
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False)
    code = await host.open()
    app = TabletopApp(lang="en", opening=lambda: JoinScreen(code, "Pia", relay.url, auto=True))
    async with app.run_test(size=(100, 40)) as pilot:
        lobby = await until(pilot, screen_of(pilot, PeerLobbyScreen), "the lobby")
        await until(pilot, comeback.seat, "the seat remembered")
        assert comeback.seat() == comeback.Seat(code=code, name="Pia", server=relay.url)
        opening = way_back()
        assert opening is not None
        again = opening()
        assert isinstance(again, JoinScreen) and (again.code, again.player) == (code, "Pia")
        assert way_back() is None  # taken once: only a seat taken again writes it again
        comeback.seated(code, "Pia", relay.url)
        await pilot.press("escape", "y")  # leaving a seat asks first
        await until(pilot, lambda: lobby.link.closed.is_set() or lobby._gone, "the leaving")
    assert comeback.seat() is None and way_back() is None
    await host.close()
