"""Reputation as players meet it at a public table, driven by keys alone over a real relay on
127.0.0.1: the host form's minimum finished share reaches the room (and a bad one is
explained), the lobby shows a proven guest's finished share and rating beside their name, and
Quick play does not send a player to a room whose minimum would turn them away."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from netsupport import played
from test_forms_by_keys import tab_to
from test_net_tui import screen_of, until
from test_open_tables import listed
from test_open_tables_tui import quick_play_from_the_menu
from test_reputation_net import guest, hosting
from textual.widgets import Static

from net.host.hosting import TABLE_RELAY_ENV
from net.players import identity, ladder
from net.players.identity import Identity
from net.players.sqlite import SqliteLadders
from net.relay.server import Relay
from tui import prefs
from tui.app import TabletopApp
from tui.screens.host import HostScreen
from tui.screens.net_lobby import HostLobbyScreen, PeerLobbyScreen
from tui.screens.ratings import points


def seat_line(lobby: HostLobbyScreen, index: int) -> str:
    return str(lobby.query(".seat-text")[index].render())


def shoot(app: TabletopApp, name: str) -> None:
    """A screenshot to look at, when TABLES_SHOTS names a directory for them."""
    if where := os.environ.get("TABLES_SHOTS"):
        app.save_screenshot(str(Path(where) / f"{name}.svg"))


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_host_forms_minimum_reaches_the_room_and_the_lobby_shows_the_word(
    relay: Relay, table: dict[str, Identity], lang: str,
) -> None:
    app = TabletopApp(lang=lang, opening=lambda: HostScreen())
    links = []
    async with app.run_test(size=(100, 40)) as pilot:
        form = await until(pilot, screen_of(pilot, HostScreen), "the host form")
        await tab_to(pilot, "server")
        await pilot.press(*relay.url.removeprefix("ws://"))
        await tab_to(pilot, "min-finished")
        await pilot.press(*"150")
        await pilot.press("f5")
        await until(pilot, lambda: "0" in form.error and "100" in form.error, "the bad share")
        assert isinstance(app.screen, HostScreen)  # nothing opened
        await tab_to(pilot, "min-finished")
        await pilot.press("ctrl+u", *"80")
        await pilot.press("f5")
        lobby = await until(pilot, screen_of(pilot, HostLobbyScreen), "the room")
        host = lobby.host
        assert form.plan.min_finished == 0.8 and host.min_finished == 0.8
        try:
            links.append(await guest(host, relay, "Bea", table["Bea"]))
            links.append(await guest(host, relay, "Neu", table["Neu"]))
            finished = "92% finished" if lang == "en" else "92% beendet"
            await until(pilot, lambda: finished in seat_line(lobby, 1), "Bea's word")
            rating = host.seat_list()[1]["rating"]
            assert f"Bea · {finished} · {points(rating)}" in seat_line(lobby, 1)
            assert "Neu" in seat_line(lobby, 2) and "·" not in seat_line(lobby, 2)
            minimum = "at least 80% finished" if lang == "en" else "mindestens 80% beendete"
            line = lobby.query_one("#netlobby-public", Static)
            assert minimum in str(line.render())
            shoot(app, f"lobby-word-{lang}")
        finally:
            for link in links:
                await link.close()
            await lobby.room.close()


async def test_the_host_form_has_no_minimum_away_from_a_table() -> None:
    app = TabletopApp(lang="en", opening=lambda: HostScreen())
    async with app.run_test(size=(100, 40)) as pilot:
        form = await until(pilot, screen_of(pilot, HostScreen), "the host form")
        assert not form.query("#min-finished")


async def test_quick_play_passes_by_a_room_whose_minimum_would_refuse_the_player(
    relay: Relay, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    me = identity.mine()
    assert me is not None
    store = SqliteLadders(tmp_path / "table.sqlite")
    try:
        played(store, me, 16, 9)  # 64%
    finally:
        store.close()
    monkeypatch.setenv(ladder.TABLE_ENV, str(tmp_path / "table.sqlite"))
    monkeypatch.setenv(TABLE_RELAY_ENV, relay.url)
    strict = await hosting(relay, minimum=0.8)
    strict.set_seats(3)  # fewer seats left: the room closest to starting
    strict.billboard.set(True)
    easy = await hosting(relay)
    easy.billboard.set(True)
    prefs.update(name="Pia")
    try:
        await listed(relay, count=2)
        app = TabletopApp(lang="en")
        async with app.run_test(size=(100, 30)) as pilot:
            await quick_play_from_the_menu(pilot, "schoene")
            lobby = await until(pilot, screen_of(pilot, PeerLobbyScreen), "a room")
            assert lobby.link.code == easy.code
    finally:
        await strict.close()
        await easy.close()
