"""A networked game ends with a rematch: the host offers it, the same room and seats go on,
and each guest stays for it or leaves."""

from __future__ import annotations

from test_net_tui import open_host_lobby, screen_of, until
from textual.pilot import Pilot

from net.host.hosting import HostPlan
from net.relay.server import Relay
from net.table.clocks import per_move
from tui.app import TabletopApp
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.menu import MenuScreen
from tui.screens.net_lobby import HostLobbyScreen, PeerLobbyScreen
from tui.screens.results import ResultsScreen
from tui.widgets import EventLog

# Everyone's clock runs out at once, so the bot plays the people's moves: a quick game.
QUICK = per_move(0.05)


async def play_to_results(host: Pilot[None], peer: Pilot[None]) -> None:
    """Wait (up to a minute) until both are on the results screen."""
    for _ in range(600):
        await host.pause(0.1)
        if all(isinstance(p.app.screen, ResultsScreen) for p in (host, peer)):
            return
    raise AssertionError(f"no results: {host.app.screen}, {peer.app.screen}")


async def test_a_rematch_in_the_same_room_with_the_same_seats(relay: Relay) -> None:
    plan = HostPlan("schoko", 2, server=relay.url, host_name="Hana")
    hosting = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with hosting.run_test(size=(120, 40)) as host:
        lobby = await open_host_lobby(host)
        room, code = lobby.room, lobby.host.display_code
        joining = TabletopApp(lang="en", opening=lambda: JoinScreen(code, "Pia", relay.url,
                                                                    auto=True))
        async with joining.run_test(size=(120, 40)) as peer:
            await until(peer, screen_of(peer, PeerLobbyScreen), "the guest's lobby")
            await until(host, lambda: lobby.host.seat_list()[1]["name"] == "Pia", "Pia")
            # A clock shorter than the lobby's presets, so start without the form.
            lobby.host.set_clock(QUICK)
            lobby.host.start()
            first = await until(host, lambda: room.host.commitment, "the first deal")
            await play_to_results(host, peer)
            guest_results = peer.app.screen
            assert not guest_results.can_rematch  # nothing offered yet
            room.host.send_chat("gg")  # said after the first game: the second one opens with it
            await host.press("r")  # the host offers the rematch: back to the room's lobby
            again = await until(host, screen_of(host, HostLobbyScreen), "the lobby again")
            assert again.room is room and [s["name"] for s in again.seats] == ["Hana", "Pia"]
            await until(peer, lambda: guest_results.can_rematch, "the offer at the guest")
            await peer.press("r")  # Pia stays
            await until(peer, screen_of(peer, PeerLobbyScreen), "the guest's lobby again")
            again.host.start()
            game = await until(host, screen_of(host, NetGameScreen), "the second game")
            await until(peer, screen_of(peer, NetGameScreen), "the guest's second game")
            await until(host, lambda: game.latest is not None, "the second table")
            assert room.host.commitment != first  # a new shuffle, committed afresh
            assert game.latest.view["over"] is False
            guest_game = peer.app.screen
            for table, pilot in ((game, host), (guest_game, peer)):
                log = table.query_one("#log", EventLog)
                await until(pilot, lambda log=log: "A new game starts." in log.texts, "the log")
                assert log.texts.index("Hana: gg") < log.texts.index("A new game starts.")
            await play_to_results(host, peer)
            result = peer.app.screen.result
            assert result["verified"], result  # the second deal checks out at the guest too
            await peer.press("m")  # Pia leaves this time
            await until(peer, screen_of(peer, MenuScreen), "the guest's menu")
            await host.press("r")
            final = await until(host, screen_of(host, HostLobbyScreen), "the lobby once more")
            await until(host, lambda: final.seats[1]["kind"] == "empty", "Pia's seat free")
        await room.close()
