"""A networked game ends with a rematch: the host offers it, the same room and seats go on,
and each guest stays for it or leaves."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from test_net_game import finish, open_table
from test_net_tui import open_host_lobby, screen_of, until
from textual.pilot import Pilot

from net.host.hosting import HostPlan, Room
from net.peer.remote import RemoteLink
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


@contextlib.asynccontextmanager
async def first_game(relay: Relay) -> AsyncIterator[tuple[Pilot[None], Pilot[None], Room]]:
    """Hana hosts Scho K.O. in a TUI, Pia joins in hers, and their first game is played to
    both results screens (on a clock so short that the bot plays everyone's moves)."""
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
            await play_to_results(host, peer)
            yield host, peer, room
        await room.close()


async def test_a_rematch_in_the_same_room_with_the_same_seats(relay: Relay) -> None:
    async with first_game(relay) as (host, peer, room):
        first = room.host.commitment
        guest_results = peer.app.screen
        assert isinstance(guest_results, ResultsScreen)
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
        # the second deal checks out at the guest too
        assert result["verified"], f"NOT verified: {result['verify_note']}"
        await peer.press("m")  # Pia leaves this time
        await until(peer, screen_of(peer, MenuScreen), "the guest's menu")
        await host.press("r")
        final = await until(host, screen_of(host, HostLobbyScreen), "the lobby once more")
        await until(host, lambda: final.seats[1]["kind"] == "empty", "Pia's seat free")


async def test_a_rematch_dealt_before_the_guest_leaves_the_results_is_verified(
        relay: Relay) -> None:
    """The host reopens and deals the second game while the guest still reads the first
    game's results: the guest's check follows the host's frames, not its screens."""
    async with first_game(relay) as (host, peer, room):
        guest_results = peer.app.screen
        assert isinstance(guest_results, ResultsScreen)
        await host.press("r")
        again = await until(host, screen_of(host, HostLobbyScreen), "the lobby again")
        again.host.start()  # before the guest has even seen the offer
        await until(host, screen_of(host, NetGameScreen), "the second game")
        await until(host, lambda: room.host.over, "the second game's end at the host")
        assert peer.app.screen is guest_results  # the guest's screens never moved
        await until(peer, lambda: guest_results.can_rematch, "the offer at the guest")
        await peer.press("r")
        await until(peer, lambda: isinstance(peer.app.screen, ResultsScreen)
                    and peer.app.screen is not guest_results, "the second results")
        result = peer.app.screen.result
        assert result["verified"], f"NOT verified: {result['verify_note']}"


async def test_a_guest_who_lost_the_rematch_lobby_and_the_commit_still_checks_the_new_deal(
        relay: Relay) -> None:
    """Pia's connection dies at the rematch: the lobby and the commit are lost with it, and
    she is back (by resumption) while the host collects the parts. Her welcome names the new
    deal before any lobby does: it begins that deal, the host asks her for her part again, and
    the deal is verified with it, as an honest deal always is."""
    host, me, (pia,) = await open_table(relay, seed=5, names=("Pia",), fixed=False)
    link = pia.link
    assert isinstance(link, RemoteLink)
    try:
        host.start()
        await finish(me, pia)
        assert pia.result is not None and pia.result["verified"], pia.result
        first = host.dealer.commitment
        heard, lost = len(pia.messages), []
        real, coming_back = link._frame, link._joiner.come_back

        async def back(giving_up: Any) -> Any:
            link._frame = real  # the new connection's frames arrive
            return await coming_back(giving_up)

        link._frame = lost.append  # nothing more arrives on this connection
        link._joiner.come_back = back  # type: ignore[method-assign]
        for player in (me, pia):
            player.done.clear()
            player.result = None
        host.reopen()
        host.start()
        await host.uplink.flushed()
        await until_lost(lost, 2)
        assert host.dealer.collecting == {} and host.dealer.asked == [1]
        await link.drop()
        await finish(me, pia)
        assert host.dealer.commitment != first
        assert pia.result is not None
        assert pia.result["verified"], f"NOT verified: {pia.result['verify_note']}"
        assert link.deal.contribution in host.dealer.contributions  # her part made the seed
        assert not [m for m in pia.messages[heard:] if "NOT verified" in str(m.get("text"))]
    finally:
        await asyncio.gather(link.close(), host.close())


async def until_lost(lost: list[Any], count: int) -> None:
    """Until `count` frames were lost (the rematch's lobby and more)."""
    async with asyncio.timeout(10):
        while len(lost) < count:
            await asyncio.sleep(0.01)
