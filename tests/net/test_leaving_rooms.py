"""Leaving a room by keys at 80×24: Esc in the chat line only leaves the line; a host whose
room others are in is asked before the room closes (in the lobby and in the game), and so is
a seated guest; Enter (the safe answer) stays."""

from __future__ import annotations

from test_lobby_net import SMALL, hana_and_pia, hosting
from test_net_tui import open_host_lobby, screen_of, until
from textual.widgets import Input, Static

from net.host.hosting import HostPlan
from net.relay.server import Relay
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.menu import MenuScreen
from tui.screens.net_lobby import HostLobbyScreen, PeerLobbyScreen
from tui.screens.overlays import ConfirmScreen


def question(pilot: object) -> str:
    screen = pilot.app.screen  # type: ignore[attr-defined]
    return str(screen.query_one("#confirm-text").render())


async def test_one_esc_in_the_host_lobby_never_closes_a_room_a_guest_is_in(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    async with hana_and_pia(relay, plan) as (host, peer, lobby, guest):
        # The natural way out of the chat line: Esc. It leaves the line, not the room.
        await host.press("f4", *"hi", "escape")
        assert isinstance(host.app.screen, HostLobbyScreen)
        assert not isinstance(host.app.focused, Input)
        assert not lobby.room.host.uplink.closing
        # Esc again asks; Enter gives the safe answer and the room stays.
        await host.press("escape")
        await until(host, screen_of(host, ConfirmScreen), "the question")
        assert "Close room" in question(host) and "sent out" in question(host)
        await host.press("enter")
        await until(host, screen_of(host, HostLobbyScreen), "the lobby again")
        assert not lobby.room.host.uplink.closing and not guest.room_lost
        # The guest's Esc asks too (her seat would go); n keeps her in.
        await peer.press("escape")
        await until(peer, screen_of(peer, ConfirmScreen), "the guest's question")
        assert "Leave room" in question(peer)
        await peer.press("n")
        await until(peer, screen_of(peer, PeerLobbyScreen), "the guest's lobby again")
        # A yes closes the room: the host is back at the form, the guest is told.
        await host.press("escape", "y")
        await until(host, screen_of(host, HostScreen), "the hosting form")
        assert lobby.room.host.uplink.closing
        await until(peer, lambda: guest.room_lost, "the guest told")
        await peer.press("escape")  # a lost room is left without a question
        await until(peer, screen_of(peer, MenuScreen), "the guest's menu")


async def test_a_host_alone_leaves_the_lobby_by_one_esc(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    async with hosting(plan).run_test(size=SMALL) as host:
        lobby = await open_host_lobby(host)
        await host.press("escape")
        await until(host, screen_of(host, HostScreen), "the hosting form")
        assert lobby.room.host.uplink.closing


async def test_esc_esc_in_a_hosted_game_asks_before_it_closes(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=17)
    async with hana_and_pia(relay, plan) as (host, peer, lobby, _guest):
        lobby.host.add_bot(2)
        await host.press("f5")
        game = await until(host, screen_of(host, NetGameScreen), "the host's table")
        await until(peer, screen_of(peer, NetGameScreen), "the guest's table")
        await host.press("escape", "escape")
        await until(host, screen_of(host, ConfirmScreen), "the question")
        assert "closes it for everyone" in question(host)
        await host.press("enter")  # the safe answer
        await until(host, lambda: host.app.screen is game, "the table again")
        assert not lobby.room.host.uplink.closing
        await host.press("escape", "escape", "y")
        await until(host, lambda: not isinstance(host.app.screen, NetGameScreen), "left")
        assert lobby.room.host.uplink.closing


async def test_a_full_public_room_waits_for_its_host_and_chat_typed_anywhere_is_kept(
    relay: Relay,
) -> None:
    """Bots are due, but people hold every seat: the room does not start by itself; the
    host starts it with F5. Letters typed before F4 land in the chat line."""
    plan = HostPlan("schoko", 2, server=relay.url, host_name="Hana", public=True)
    async with hana_and_pia(relay, plan) as (host, peer, lobby, guest):
        lobby.host.billboard.set(True, 0.0)  # the bots' moment comes now, every seat taken
        await until(host, lambda: any("Every seat has a player" in line
                                      for line in lobby.chat_lines), "the bots' moment")
        assert isinstance(host.app.screen, HostLobbyScreen) and not lobby.host.started
        assert "Bots" not in str(lobby.query_one("#netlobby-public").render())
        await peer.press(*"hi")  # no F4 first: the letters are chat all the same
        await peer.press("enter")
        await until(host, lambda: "Pia: hi" in lobby.chat_lines, "Pia's line")
        await host.press("f5")
        await until(host, screen_of(host, NetGameScreen), "the host's table")
        await until(peer, screen_of(peer, NetGameScreen), "the guest's table")
        assert guest.room_lost is False


async def test_the_guests_top_line_says_the_table_closed_when_the_host_left(
    relay: Relay,
) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=17)
    async with hana_and_pia(relay, plan) as (host, peer, lobby, _guest):
        lobby.host.add_bot(2)
        await host.press("f5")
        await until(host, screen_of(host, NetGameScreen), "the host's table")
        game = await until(peer, screen_of(peer, NetGameScreen), "the guest's table")
        await until(peer, lambda: "turn" in top_line(game), "whose turn, on the top line")
        await host.press("escape", "escape", "y")  # Hana leaves, and says so
        await until(peer, lambda: "The table has closed" in top_line(game), "the top line")
        assert "turn" not in top_line(game).lower()


def top_line(game: NetGameScreen) -> str:
    return str(game.query_one("#topbar", Static).render())
