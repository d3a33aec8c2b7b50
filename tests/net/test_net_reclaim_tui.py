"""The host's yes on the host's screen (a reclaim by name), and the menu's Join by code
rejoining with the saved seat token, both driven by Pilot over a relay on 127.0.0.1."""

from __future__ import annotations

import asyncio

from test_net_tui import open_host_lobby, screen_of, until

from net.host.hosting import HostPlan
from net.peer import tokens
from net.peer.remote import JoinError, RemoteLink
from net.relay.server import Relay
from tui.app import TabletopApp
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.net_lobby import PeerLobbyScreen
from tui.screens.reclaim import ReclaimPrompt


async def test_the_host_is_asked_before_a_seat_goes_back_by_name(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=4, bot_delay=0.05)
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with app.run_test(size=(100, 40)) as pilot:
        lobby = await open_host_lobby(pilot)
        host = lobby.host
        pia = RemoteLink(host.code, "Pia", server=relay.url, remember=False)
        await pia.connect()
        await until(pilot, lambda: host.seat_list()[1]["name"] == "Pia", "Pia in the lobby")
        host.add_bot(2)
        await pilot.press("f5")
        await until(pilot, screen_of(pilot, NetGameScreen), "the host's table")
        await pia.close()
        await until(pilot, lambda: host.seats[1].cid is None, "Pia away")
        for answer, seated in (("n", False), ("y", True)):
            claim = asyncio.ensure_future(
                RemoteLink(host.code, "PIA", server=relay.url, remember=False).connect())
            prompt = await until(pilot, screen_of(pilot, ReclaimPrompt), "the question")
            assert "PIA" in str(prompt.query_one("#confirm-text").render())
            await pilot.press(answer)
            await until(pilot, claim.done, "the answer")
            if seated:
                assert claim.exception() is None and host.seats[1].cid is not None
            else:
                assert isinstance(claim.exception(), JoinError)
                assert claim.exception().code == "refused"
        await host.close()


async def test_join_by_code_in_the_menu_uses_the_saved_token(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=4, bot_delay=0.05)
    hosting = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with hosting.run_test(size=(100, 40)) as pilot:
        lobby = await open_host_lobby(pilot)
        host = lobby.host
        pia = RemoteLink(host.code, "Pia", server=relay.url)
        await pia.connect()
        host.add_bot(2)
        await pilot.press("f5")
        await until(pilot, screen_of(pilot, NetGameScreen), "the host's table")
        await pia.close()
        host.attended = False  # a name alone would be refused: only the token gets in
        await until(pilot, lambda: host.seats[1].cid is None, "Pia away")
        assert tokens.load_token(host.code, "Pia") is not None
        joining = TabletopApp(lang="en",
                              opening=lambda: JoinScreen(host.display_code, "Pia", relay.url))
        async with joining.run_test(size=(100, 40)) as peer:
            await until(peer, screen_of(peer, JoinScreen), "the join screen")
            await peer.press("f5")
            tables = (NetGameScreen, PeerLobbyScreen)
            screen = await until(peer, lambda: isinstance(peer.app.screen, tables)
                                 and peer.app.screen, "the table")
            assert host.seats[1].cid is not None
            await screen.link.close()
        await host.close()


async def test_join_by_code_in_the_menu_says_the_host_is_being_asked(relay: Relay) -> None:
    """A seat asked back by name waits for the host's person: the join screen says so, rather
    than "Joining…" for as long as they take."""
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=4, bot_delay=0.05)
    hosting = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with hosting.run_test(size=(100, 40)) as pilot:
        lobby = await open_host_lobby(pilot)
        host = lobby.host
        pia = RemoteLink(host.code, "Pia", server=relay.url, remember=False)
        await pia.connect()
        host.add_bot(2)
        await pilot.press("f5")
        await until(pilot, screen_of(pilot, NetGameScreen), "the host's table")
        await pia.close()
        await until(pilot, lambda: host.seats[1].cid is None, "Pia away")
        joining = TabletopApp(lang="de",
                              opening=lambda: JoinScreen(host.display_code, "Pia", relay.url))
        async with joining.run_test(size=(100, 40)) as peer:
            screen = await until(peer, screen_of(peer, JoinScreen), "the join screen")
            await peer.press("f5")
            await until(pilot, screen_of(pilot, ReclaimPrompt), "the host's question")
            await until(peer, lambda: screen.error.startswith("Frage den Gastgeber"),
                        "the wait explained, in the player's language")
            await pilot.press("y")
            table = await until(peer, screen_of(peer, NetGameScreen), "Pia's table")
            await table.link.close()
        await host.close()
