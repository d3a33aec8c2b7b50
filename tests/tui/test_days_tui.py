"""Play over days in the app: the menu entry only at a table, a game opened by keys alone on
the form (the mode's note says the table sees the hands), played on the usual game screen
through a `DaysLink` to its end, counted and kept in Past games; "your turn in N games" in
the menu and `w` to the game waiting longest."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static
from tui_helpers import MAX_STEPS, choose_key

from net.days import table
from net.days.link import DaysLink, with_store
from net.players import identity, ladder
from net.records import store as record_files
from tui.app import TabletopApp
from tui.boards.base import GameBoard
from tui.screens.days import DaysScreen, DaysSettingsScreen, NewDaysScreen
from tui.screens.game import GameScreen
from tui.screens.results import ResultsScreen


@pytest.fixture
def at_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    store = tmp_path / "table.sqlite"
    monkeypatch.setenv(ladder.TABLE_ENV, str(store))
    return store


def _menu_items(app: TabletopApp) -> list[str]:
    menu = app.screen.query_one("#menu", OptionList)
    return [str(o.prompt) for o in menu.options]


async def test_the_menu_offers_play_over_days_only_at_a_table(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv(ladder.TABLE_ENV, raising=False)
    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not any("over days" in item for item in _menu_items(app))
        await pilot.press("w")  # the key does nothing away from a table
        await pilot.pause()
        assert not isinstance(app.screen, GameScreen | DaysScreen)


async def _wait(pilot, app: TabletopApp, kind: type, rounds: int = 200) -> None:  # type: ignore[no-untyped-def]
    for _ in range(rounds):
        await pilot.pause(0.02)
        if isinstance(app.screen, kind):
            return
    raise AssertionError(f"no {kind.__name__} (at {type(app.screen).__name__})")


async def test_a_game_over_days_opened_by_keys_is_played_to_its_end(at_table: Path) -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        items = _menu_items(app)
        assert "Play over days" in items
        menu = app.screen.query_one("#menu", OptionList)
        menu.highlighted = items.index("Play over days")
        await pilot.press("enter")
        await _wait(pilot, app, DaysScreen)
        note = str(app.screen.query_one("#days-note", Static).render())
        assert "sees every hand" in note
        await pilot.press("n")
        await _wait(pilot, app, NewDaysScreen)
        assert "sees every hand" in str(app.screen.query_one("#new-note", Static).render())
        # The form by keys alone: Schöne (the first game), 1 day a move, 3 players, 2 bots.
        await pilot.press("tab", "enter", "up", "up", "enter")  # 3 days -> 1 day
        await pilot.press("tab", "enter", "down", "enter")  # 3 players
        await pilot.press("tab", "enter", "down", "down", "enter")  # 2 bots
        await pilot.press("tab", "tab", "tab", "enter")  # invite empty, listed, Open
        await _wait(pilot, app, DaysScreen)
        for _ in range(100):
            await pilot.pause(0.02)
            if app.screen.rows:  # type: ignore[attr-defined]
                break
        rows = app.screen.rows  # type: ignore[attr-defined]
        assert rows and rows[0][2] == "days.mine_turn" and "Schöne" in rows[0][1]
        assert "1 d/move" in rows[0][1]
        await pilot.press("enter")
        await _wait(pilot, app, GameScreen)
        link = app.screen.link  # type: ignore[attr-defined]
        assert isinstance(link, DaysLink) and link.seats == [0]
        for _ in range(MAX_STEPS):
            await pilot.pause(0.01)
            if isinstance(app.screen, ResultsScreen):
                break
            boards = app.screen.query(GameBoard)
            if boards and boards.first().table.seat in boards.first().table.view["to_act"]:
                await pilot.press(choose_key(boards.first()))
        assert isinstance(app.screen, ResultsScreen)
        app.menu_days()  # the finished game is listed, to see its results again
        await _wait(pilot, app, DaysScreen)
        for _ in range(100):
            await pilot.pause(0.02)
            if app.screen.rows:  # type: ignore[attr-defined]
                break
        assert [r[2] for r in app.screen.rows] == ["days.finished"]  # type: ignore[attr-defined]
    me = identity.mine()
    assert me is not None
    games = with_store(str(at_table), lambda store: store.games_of(me.fingerprint, True))
    assert [g.status for g in games] == ["over"]
    # Counted for the table's ladder, kept in this player's Past games.
    store = ladder.open_store(str(at_table))
    try:
        assert store.standing("schoene", me.fingerprint) is not None
    finally:
        store.close()
    assert (record_files.records_dir() / f"days-{games[0].id}.jsonl").is_file()


async def test_the_menu_says_your_turn_and_w_opens_the_game_waiting_longest(
        at_table: Path) -> None:
    me = identity.mine()
    assert me is not None
    now = time.time()

    def open_two(store):  # type: ignore[no-untyped-def]
        plans = [table.SeatPlan("me"), table.SeatPlan("bot", "random")]
        old = table.open_game(store, "schoko", plans, me, "Ann", now - 5000, days=2)
        table.open_game(store, "zwergenamulett", plans, me, "Ann", now - 100, days=2)
        return old

    old = with_store(str(at_table), open_two)
    waiting = with_store(str(at_table), lambda store: store.games_of(me.fingerprint))
    count = sum(g.my_turn for g in waiting)
    assert count >= 1
    app = TabletopApp(lang="en")
    async with app.run_test(size=(110, 40)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if any("your turn in" in item for item in _menu_items(app)):
                break
        assert any(f"your turn in {count} game" in item for item in _menu_items(app))
        await pilot.press("w")
        await _wait(pilot, app, GameScreen)
        link = app.screen.link  # type: ignore[attr-defined]
        assert isinstance(link, DaysLink)
        if old.id in [g.id for g in waiting if g.my_turn]:
            assert link.game_id == old.id


async def test_notices_are_set_in_settings_by_keys_and_a_bad_webhook_changes_nothing(
        at_table: Path) -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        app.menu_settings()
        await pilot.pause()
        app.screen.query_one("#days-settings").focus()
        await pilot.press("enter")
        await _wait(pilot, app, DaysSettingsScreen)
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "set-webhook"
        await pilot.press(*"http://127.0.0.1:9/hook", "tab", *"ann@example.org", "tab", "enter")
        for _ in range(100):
            await pilot.pause(0.02)
            if "network" in str(app.screen.query_one("#set-status", Static).render()):
                break
        assert "not on the table's own network" in str(
            app.screen.query_one("#set-status", Static).render())
        me = identity.mine()
        assert me is not None
        assert with_store(str(at_table), lambda store: store.player(me.fingerprint)) is None
        webhook = app.screen.query_one("#set-webhook", Input)
        webhook.value = ""
        webhook.focus()
        await pilot.press("tab", "tab", "enter")  # e-mail alone, saved
        for _ in range(100):
            await pilot.pause(0.02)
            if "Saved" in str(app.screen.query_one("#set-status", Static).render()):
                break
        player = with_store(str(at_table), lambda store: store.player(me.fingerprint))
        assert player is not None and player.email == "ann@example.org" and not player.webhook
        assert player.lang == "en"  # the app's language, for the keeper's notices
        await app.set_language("de")
        await pilot.pause()
        app.screen.query_one("#set-save").focus()
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause(0.02)
            player = with_store(str(at_table), lambda store: store.player(me.fingerprint))
            if player is not None and player.lang == "de":
                break
        assert player is not None and player.lang == "de"
