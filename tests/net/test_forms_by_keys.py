"""The network forms from the keyboard alone (players over SSH have no mouse): the host form,
the join form and the host's room, every field changed with keys."""

from __future__ import annotations

import pytest
from test_net_tui import screen_of, until
from textual.pilot import Pilot
from textual.widgets import Select

from engines import get_engine
from net.host.hosting import TABLE_RELAY_ENV
from net.relay.server import Relay
from net.table import clocks
from tui.app import TabletopApp
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.net_lobby import HostLobbyScreen, PeerLobbyScreen


async def tab_to(pilot: Pilot[None], widget_id: str, *, back: bool = False) -> None:
    for _ in range(40):
        focused = pilot.app.focused
        if focused is not None and focused.id == widget_id:
            return
        await pilot.press("shift+tab" if back else "tab")
        await pilot.pause()
    raise AssertionError(f"Tab never reached #{widget_id}; focus is on {pilot.app.focused}")


async def test_host_form_join_form_and_the_room_with_keys_alone(relay: Relay) -> None:
    server = relay.url.removeprefix("ws://")
    hosting = TabletopApp(lang="en", opening=lambda: HostScreen())
    async with hosting.run_test(size=(100, 40)) as host:
        form = await until(host, screen_of(host, HostScreen), "the host form")
        await tab_to(host, "game")
        await host.press("enter")
        await host.pause()
        await host.press("down", "enter")  # the second game: Das Zwergenamulett
        await host.pause()
        assert form.query_one("#game", Select).value == "zwergenamulett"
        await tab_to(host, "name")
        await host.press("ctrl+u", *"Hana")
        await tab_to(host, "server")
        await host.press(*server)
        await tab_to(host, "lan")
        await host.press("space", "space")  # on and off again: no LAN in a test
        await host.press("f5")
        lobby: HostLobbyScreen = await until(host, screen_of(host, HostLobbyScreen), "the room")
        assert lobby.engine_id == "zwergenamulett" and lobby.seats[0]["name"] == "Hana"
        # The host's room: a bot in, out again, a seat more and less, an option, the clock.
        await tab_to(host, "seat-1")
        await host.press("enter")
        await until(host, lambda: lobby.seats[1]["kind"] == "bot", "a bot in seat 2")
        await host.pause(0.3)  # the seat is redrawn under the button: the focus stays
        assert host.app.focused is not None and host.app.focused.id == "seat-1"
        await host.press("enter")
        await until(host, lambda: lobby.seats[1]["kind"] == "empty", "seat 2 free again")
        await tab_to(host, "more")
        await host.press("enter")
        await until(host, lambda: len(lobby.seats) == 3, "a third seat")
        await tab_to(host, "fewer")
        await host.press("enter")
        await until(host, lambda: len(lobby.seats) == 2, "two seats again")
        await tab_to(host, "opt-memory_aid")
        await host.press("space")
        await tab_to(host, "clock")
        await host.press("enter", "down", "down", "enter")  # from no clock to the normal one
        await tab_to(host, "takeover")
        await host.press("ctrl+u", *"60")
        await tab_to(host, "apply")
        await host.press("enter")
        normal = clocks.preset("zwergenamulett", "normal", 2)
        await until(host, lambda: lobby.host.clock == normal and lobby.host.takeover == 60,
                    "the clock and the takeover time")
        default = get_engine("zwergenamulett").options["memory_aid"]
        assert lobby.host.options["memory_aid"] is not default
        await tab_to(host, "netlobby-say")
        await host.press(*"hello", "enter")
        await until(host, lambda: any("hello" in line for line in lobby.chat_lines), "chat")

        # A friend fills in the join form with keys: code, name, relay, watching.
        joining = TabletopApp(lang="en", opening=lambda: JoinScreen())
        async with joining.run_test(size=(100, 40)) as peer:
            join = await until(peer, screen_of(peer, JoinScreen), "the join form")
            await tab_to(peer, "code")
            await peer.press(*lobby.host.display_code.lower())
            await tab_to(peer, "name")
            await peer.press(*"Pia")
            await tab_to(peer, "server")
            await peer.press(*server)
            await tab_to(peer, "watch")
            await peer.press("space")
            await tab_to(peer, "join", back=True)
            assert join.query_one("#watch").value is True
            await peer.press("enter")
            watching = await until(peer, screen_of(peer, PeerLobbyScreen), "the room")
            assert watching.me is None  # a spectator: no seat taken
            await until(host, lambda: lobby.spectators == 1, "one spectator")
            await watching.link.close()
        await lobby.room.close()


async def test_an_ssh_table_session_cannot_point_its_forms_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stranger at an SSH table hosts and joins on the table's relay only: no relay field to
    point the server at another address, no LAN switch to open its ports."""
    monkeypatch.setenv(TABLE_RELAY_ENV, "ws://127.0.0.1:9999")
    app = TabletopApp(lang="en", opening=lambda: HostScreen())
    async with app.run_test(size=(100, 40)) as pilot:
        form = await until(pilot, screen_of(pilot, HostScreen), "the host form")
        assert not form.query("#server") and not form.query("#lan")
        form.harvest()
        assert (form.plan.server, form.plan.lan) == ("ws://127.0.0.1:9999", False)
        app.push_screen(JoinScreen())
        join = await until(pilot, screen_of(pilot, JoinScreen), "the join form")
        assert not join.query("#server")
        join.harvest()
        assert join.server == "ws://127.0.0.1:9999"
