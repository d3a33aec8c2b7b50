"""A networked table keeps everyone informed: the join code stays in sight, the chat keeps its
history, the bell rings on your turn; and the command line refuses a bad join in one line,
before any full-screen app opens."""

from __future__ import annotations

import pytest
from test_net_cli import outcome, spawn
from test_net_tui import open_host_lobby, screen_of, until

from net.host.hosting import HostPlan
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from tui.app import TabletopApp
from tui.netplay import ChatPrompt, NetGameScreen
from tui.screens.host import HostScreen
from tui.widgets import EventLog


async def test_code_chat_history_and_bell_at_a_hosted_table(
    relay: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 17 lets seat 1 start, so the host's first turn comes after the peer's move.
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=17, bot_delay=0.05)
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    rang: list[bool] = []
    monkeypatch.setattr(app, "bell", lambda: rang.append(True))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_host_lobby(pilot)
        code = lobby.host.display_code
        peer = RemoteLink(code, "Pia", server=relay.url)
        await peer.connect()
        try:
            await until(pilot, lambda: lobby.host.seat_list()[1]["name"] == "Pia", "Pia")
            await peer.send_chat("hello from the lobby")
            await until(pilot, lambda: lobby.chat_lines, "the lobby chat")
            lobby.host.add_bot(2)
            await pilot.press("f5")
            game: NetGameScreen = await until(pilot, screen_of(pilot, NetGameScreen), "table")
            await until(pilot, lambda: game.latest is not None, "the first table")
            # The code is in the top bar at 80×24, where nothing else has room for it.
            assert code in str(game.query_one("#topbar").render())
            await peer.send_chat("good luck")
            await until(pilot, lambda: any("good luck" in line for line in game.chat_lines),
                        "chat at the table")
            await pilot.press("f4")
            prompt: ChatPrompt = await until(pilot, screen_of(pilot, ChatPrompt), "the prompt")
            history = prompt.query_one("#chat-history", EventLog).texts
            assert history and history[-1] == "Pia: good luck"
            await pilot.press("escape")
            # The default setting rings in networked games, once when the turn becomes mine.
            await until(pilot, lambda: game.latest.view["turn"] == 0 or rang, "my turn")
            await until(pilot, lambda: rang, "the bell")
            assert len(rang) == 1
        finally:
            await peer.close()
        await lobby.room.close()


async def test_join_with_a_bad_code_is_one_line_and_exit_2(relay: Relay) -> None:
    server = relay.url.removeprefix("ws://")
    for args, said in (
        (("K7QX-9MP",), "12 characters"),  # cannot be a code at all
        (("K7QX-9MPA",), "now have 12 symbols"),  # a code of a protocol-2 host
        (("K7QX-9MPA-B3CD", "--server", server), "cannot join K7QX-9MPA-B3CD"),  # no such room
    ):
        rc, out, err = await outcome(await spawn("join", *args))
        assert rc == 2, err
        assert said in err and len(err.strip().splitlines()) == 1, err
        assert out == []  # no full-screen app was drawn


async def test_options_need_a_value_and_help_lists_them() -> None:
    rc, _, err = await outcome(await spawn("play", "schoene", "-o", "lucky_pig"))
    assert rc == 2 and "needs a value" in err and "lucky_pig=" in err
    rc, out, _ = await outcome(await spawn("play", "--help"))
    text = "\n".join(out)
    assert rc == 0 and "schoene: lucky_pig=on" in text and "zwergenamulett: memory_aid=" in text


async def test_headless_errors_exit_2() -> None:
    rc, _, err = await outcome(await spawn("host", "schoene", "--headless", "--server",
                                           "127.0.0.1:1", "--bots", "1"))
    assert rc == 2 and "cannot host" in err
