"""Menu → Tournaments by keys alone: the list, entering, the standings with their tie-breaks
named, a round's pairings, and sitting down at your reserved table when the director starts
the round (a real director hosting on a relay on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from test_forms_by_keys import tab_to
from test_net_tui import screen_of, until
from textual.widgets import DataTable, Static

from net.director import Director
from net.entrant import ORGANISERS_ENV, player_key
from net.host.hosting import TABLE_RELAY_ENV
from net.players import ladder
from net.players.tournaments import Event, Tournaments
from net.relay.server import Relay
from tui.app import TabletopApp
from tui.screens.game import GameScreen
from tui.screens.menu import MENU_ITEMS, MenuScreen
from tui.screens.tournament_new import NewTournamentScreen
from tui.screens.tournaments import TournamentsScreen


def shown(screen: TournamentsScreen, part: str) -> str:
    return str(screen.query_one(f"#tn-{part}", Static).render())


async def open_tournaments(pilot: Any) -> TournamentsScreen:
    """From the menu to Tournaments by keys."""
    await until(pilot, screen_of(pilot, MenuScreen), "the menu")
    await pilot.press(*["down"] * MENU_ITEMS.index("tournaments"), "enter")
    screen: TournamentsScreen = await until(pilot, screen_of(pilot, TournamentsScreen),
                                            "tournaments")
    return screen


async def test_tournaments_by_keys_enter_read_the_standings_and_sit_down(
        tmp_path: Path, relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    table = tmp_path / "table.sqlite"
    monkeypatch.setenv(ladder.TABLE_ENV, str(table))
    monkeypatch.setenv(TABLE_RELAY_ENV, relay.url)
    store = ladder.open_store(table)
    events = Tournaments(store)
    events.create(Event("old", "schoko", "swiss", rounds=2, size=2, starts=time.time() - 99))
    events.enter("old", "ann", "Ann")
    events.enter("old", "b1", "Bot [/]One", bot="random")  # markup in a name stays text
    for number, places in ((1, [2, 1]), (2, [1, 1])):
        events.open_round("old", number, [("ann", "b1")])
        events.table_done("old", number, 0, places, [], None)
        events.close_round("old", number)
    events.create(Event("cup", "schoko", "swiss", rounds=1, size=2, starts=time.time()))
    events.enter("cup", "b1", "Bot [/]One", bot="random")
    director: asyncio.Task[None] | None = None
    app = TabletopApp(lang="en")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await open_tournaments(pilot)
            listing = screen.query_one("#tn-list", DataTable)
            assert listing.row_count == 2 and screen.chosen == "old"
            assert "Buchholz" in shown(screen, "head") and "Sonneborn-Berger" in shown(
                screen, "head")
            assert "press j" in shown(screen, "you")
            assert "after round 2 of 2" in shown(screen, "head")
            assert "Ann – Bot [/]One  ½–½" in shown(screen, "pairings")
            standings = screen.query_one("#tn-standings", DataTable)

            def column(n: int) -> list[str]:
                return [str(standings.get_row_at(i)[n]) for i in range(standings.row_count)]

            assert column(1) == ["Bot [/]One", "Ann"] and column(2) == ["1.5", "0.5"]
            await pilot.press("left")  # the round before
            await until(pilot, lambda: "after round 1 of 2" in shown(screen, "head"), "round 1")
            assert "Ann – Bot [/]One  0–1" in shown(screen, "pairings")
            assert column(2) == ["1", "0"]
            await pilot.press("left", "right", "right")  # no round before the first, nor after
            await until(pilot, lambda: "after round 2 of 2" in shown(screen, "head"), "round 2")
            await pilot.press("down")  # the cup
            await until(pilot, lambda: screen.chosen == "cup", "the cup chosen")
            await pilot.press("j")
            me = player_key(screen.player_name)
            assert [e.player for e in events.entrants("cup")] == ["b1", me]
            await until(pilot, lambda: "You are entered" in shown(screen, "you"), "entered")
            await pilot.press("j")  # again: nothing changes
            assert len(events.entrants("cup")) == 2
            await pilot.press("left", "right", "x", "ctrl+d")  # no key in any state may crash
            director = asyncio.get_running_loop().create_task(
                Director(events, "cup", relay.url, show_up=60.0).run())
            await until(pilot, lambda: "press s" in shown(screen, "you"), "my table ready")
            pairings = shown(screen, "pairings")
            assert "Round 1:" in pairings and "Bot [/]One" in pairings
            assert screen.player_name in pairings
            await pilot.press("s")
            game = await until(pilot, screen_of(pilot, GameScreen), "my table's game")
            (row,) = events.tables("cup", 1)
            assert game.link.seat == row.seats.index(me)  # the seat reserved for me
    finally:
        if director is not None:
            director.cancel()
            await asyncio.gather(director, return_exceptions=True)
        store.close()


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_on_an_upright_phone_the_standings_fit_without_scrolling(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    table = tmp_path / "table.sqlite"
    monkeypatch.setenv(ladder.TABLE_ENV, str(table))
    store = ladder.open_store(table)
    try:
        events = Tournaments(store)
        events.create(Event("long-name-of-an-event", "schoene", "swiss", rounds=9, size=3,
                            starts=time.time(), duplicate=True))
        for who in ("Annemarie Longname", "Bartholomew", "Cy"):
            events.enter("long-name-of-an-event", who, who)
        events.open_round("long-name-of-an-event", 1,
                          [("Annemarie Longname", "Bartholomew", "Cy")])
        events.table_done("long-name-of-an-event", 1, 0, [1, 2, 3], [], None)
        events.close_round("long-name-of-an-event", 1)
    finally:
        store.close()
    app = TabletopApp(lang=lang, opening=TournamentsScreen)
    async with app.run_test(size=(45, 30)) as pilot:
        screen = await until(pilot, screen_of(pilot, TournamentsScreen), "tournaments")
        await until(pilot, lambda: screen.query_one("#tn-standings", DataTable).row_count,
                    "the standings")
        for part in ("list", "standings"):
            widget = screen.query_one(f"#tn-{part}", DataTable)
            assert widget.virtual_size.width <= widget.size.width, part
        assert "BH" in shown(screen, "head") and "1–½–0" in shown(screen, "pairings")


async def test_a_new_tournament_from_the_menu_by_keys_and_a_mistake_makes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ladder.TABLE_ENV, raising=False)  # at home: the store is one's own
    app = TabletopApp(lang="en", opening=TournamentsScreen)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await until(pilot, screen_of(pilot, TournamentsScreen), "tournaments")
        await pilot.press("n")
        form = await until(pilot, screen_of(pilot, NewTournamentScreen), "the form")
        await tab_to(pilot, "length")
        await pilot.press("end", "backspace", "0")
        await tab_to(pilot, "create")
        await pilot.press("enter")
        await until(pilot, lambda: "1 to 20 rounds" in form.error, "the refusal")
        await tab_to(pilot, "length", back=True)
        await pilot.press("end", "backspace", "3")
        await tab_to(pilot, "start")
        await pilot.press("end", *["backspace"] * 5, *"now")
        await tab_to(pilot, "tid")
        await pilot.press(*"club-night")
        await tab_to(pilot, "duplicate")
        await pilot.press("space")
        await tab_to(pilot, "create")
        await pilot.press("enter")
        await until(pilot, screen_of(pilot, TournamentsScreen), "back on the list")
        assert screen.chosen == "club-night"
    store = ladder.open_store()
    try:
        (event,) = Tournaments(store).events()
    finally:
        store.close()
    assert (event.id, event.kind, event.rounds, event.duplicate) == ("club-night", "swiss", 3,
                                                                     True)


async def test_at_a_public_table_only_its_organisers_make_tournaments(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ladder.TABLE_ENV, str(tmp_path / "table.sqlite"))
    monkeypatch.setenv(ORGANISERS_ENV, "id:someone-else")
    app = TabletopApp(lang="en", opening=TournamentsScreen)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await until(pilot, screen_of(pilot, TournamentsScreen), "tournaments")
        await pilot.press("n")
        await pilot.pause(0.2)
        assert app.screen is screen  # no form for a stranger
        monkeypatch.setenv(ORGANISERS_ENV, f"id:someone-else,{screen.me}")
        await pilot.press("n")
        await until(pilot, screen_of(pilot, NewTournamentScreen), "the form for an organiser")
