"""Clocks at a networked table, two real apps through a relay on 127.0.0.1: the host picks
the clock in its lobby with keys (80×24), the guest's lobby says which and how long a game
takes, every table shows every clock, and a guest's extension is told to everyone."""

from __future__ import annotations

from test_forms_by_keys import tab_to
from test_net_tui import screen_of, until
from textual.widgets import Select, Static

from net.host.hosting import HostPlan
from net.relay.server import Relay
from net.table import clocks
from tui.app import TabletopApp
from tui.i18n import tr
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.net_lobby import HostLobbyScreen, PeerLobbyScreen
from tui.widgets.clocks import SeatClocks, clock_time, setting_words

SIZE = (80, 24)


def clock_line(screen: NetGameScreen) -> str:
    return str(screen.query_one(SeatClocks).render())


async def test_the_host_picks_a_clock_every_table_shows_it_and_an_extension_is_told(
    relay: Relay,
) -> None:
    # Seed 17 lets seat 0 (the host, Hana) start; Pia is next.
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=17, bot_delay=0)
    hosting = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with hosting.run_test(size=SIZE) as host:
        lobby = await until(host, screen_of(host, HostLobbyScreen), "the host's lobby")
        assert lobby.host.clock is None  # the saved choice: no clock
        lobby.query_one("#clock", Select).focus()
        await host.press("enter", "down", "down", "enter")  # the normal clock
        await until(host, lambda: lobby.query_one("#clock", Select).value == "normal",
                    "the normal clock picked")
        normal = clocks.preset("schoene", "normal", 3)
        assert normal is not None
        estimate = str(lobby.query_one("#netlobby-clock", Static).render())
        assert estimate == tr("clock.about", n=clocks.estimate_minutes("schoene", 1, 2, "normal"))
        code = lobby.host.display_code
        joining = TabletopApp(lang="en", opening=lambda: JoinScreen(code, "Pia", relay.url,
                                                                    auto=True))
        async with joining.run_test(size=SIZE) as peer:
            guest = await until(peer, screen_of(peer, PeerLobbyScreen), "the guest's lobby")
            await until(host, lambda: lobby.seats[1]["name"] == "Pia", "Pia seated")
            await tab_to(host, "apply")
            await host.press("enter")  # the clock goes to the room
            words = setting_words(normal.public())
            said = lambda: str(guest.query_one("#netlobby-clock", Static).render())  # noqa: E731
            await until(peer, lambda: words in said(), "the clock in the guest's lobby")
            assert tr("clock.about", n=clocks.estimate_minutes("schoene", 2, 1, "normal")) \
                in said()
            await host.press("f5")
            hana = await until(host, screen_of(host, NetGameScreen), "Hana's table")
            pia = await until(peer, screen_of(peer, NetGameScreen), "Pia's table")
            bank = clock_time(normal.bank)
            for pilot, screen in ((host, hana), (peer, pia)):
                await until(pilot, lambda s=screen: "▶" in clock_line(s), "the running clock")
                line = clock_line(screen)  # the people's clocks; a bot has none
                assert bank in line and "Hana" in line and "Pia" in line and "Bot" not in line
            await host.press("space")  # Hana pays a chip: Pia's clock runs
            await until(peer, lambda: "f7" in pia.active_bindings, "F7 offered to Pia")
            await peer.press("f7")
            extra = clocks.preset("schoene", "normal", 3).extension  # type: ignore[union-attr]
            told = tr("clock.extended", name="Pia", extra=f"{extra:g} s")
            await until(host, lambda: ("note", told) in hana.entries, "Hana told of it")
            await until(host, lambda: "+" in clock_line(hana), "the extension on the clock")
            assert ("note", tr("clock.extended.you", extra=f"{extra:g} s")) in pia.entries
            assert lobby.host.session is not None
            assert lobby.host.session.clocks.clocks.extended == [False, True, False]
