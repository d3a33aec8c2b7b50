"""Open tables and Quick play with no relay, by keys: a sentence that says what to do instead
of a socket's error number; the Relay field typed is there next time; Quick play asks before
it opens a room on a relay of its own (one that closes with the room); `p` in the main menu
is Quick play, as the README says."""

from __future__ import annotations

import socket

import pytest
from test_net_tui import screen_of, until
from textual.widgets import Input, Static

from tui import prefs
from tui.app import TabletopApp
from tui.screens import tables
from tui.screens.host import HostScreen
from tui.screens.menu import GamePickerScreen, MenuScreen
from tui.screens.overlays import ConfirmScreen
from tui.screens.tables import OpenTablesScreen


def closed_port() -> str:
    """HOST:PORT of a port of 127.0.0.1 that nothing listens on (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


def status(screen: OpenTablesScreen) -> str:
    return str(screen.query_one("#tables-status", Static).render())


async def test_no_relay_is_said_in_a_sentence_and_the_relay_typed_is_kept() -> None:
    nowhere = closed_port()
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, screen_of(pilot, MenuScreen), "the menu")
        await pilot.press(*["down"] * 3, "enter")  # Open tables
        screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
        await pilot.press("shift+tab")
        while not isinstance(app.focused, Input):
            await pilot.press("shift+tab")
        await pilot.press(*nowhere, "enter")
        await until(pilot, lambda: "No relay answers" in status(screen), "the sentence")
        assert nowhere in status(screen) and "tabletop-tui serve" in status(screen)
        assert "Errno" not in status(screen)
        await pilot.press("escape")
        await until(pilot, screen_of(pilot, MenuScreen), "the menu again")
        assert prefs.load().relay == nowhere
        await pilot.press("enter")  # Open tables again: the field still holds it
        again = await until(pilot, lambda: isinstance(app.screen, OpenTablesScreen)
                            and app.screen is not screen and app.screen, "open tables again")
        assert again.query_one("#tables-server", Input).value == nowhere


async def test_p_in_the_menu_is_quick_play_and_it_asks_before_a_relay_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tables, "LOCAL_SERVER", closed_port())  # "this machine's": nothing
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, screen_of(pilot, MenuScreen), "the menu")
        await pilot.press("p")
        await until(pilot, screen_of(pilot, GamePickerScreen), "Quick play's game picker")
        await pilot.press("enter")
        ask = await until(pilot, screen_of(pilot, ConfirmScreen), "the question")
        text = str(ask.query_one("#confirm-text").render())
        assert "closes when the room closes" in text
        await pilot.press("enter")  # the safe answer: no room, no relay
        screen = await until(pilot, screen_of(pilot, OpenTablesScreen), "open tables")
        assert "No relay answers" in status(screen)
        assert not any(isinstance(s, HostScreen) for s in app.screen_stack)
