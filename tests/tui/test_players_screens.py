"""The ladder by keys alone: a local game played to the results shows each seat's rating
change; menu → Players shows each game's ladder with your place, a player's page their
ratings, the history plot and whom they met; at 80×24 and 160×50, in English and German."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import DataTable, OptionList, Static, Tabs
from textual_plotext import PlotextPlot
from tui_helpers import settle

from engines import ENGINE_IDS
from net import records
from net.players import identity, ladder
from net.table.session import HostSession, SeatInfo
from tui.app import TabletopApp, local_app
from tui.screens.menu import MENU_ITEMS, MenuScreen
from tui.screens.player_page import PlayerPage
from tui.screens.players import PlayersScreen
from tui.screens.ratings import change, number
from tui.screens.results import ResultsScreen

SIZES = ((80, 24), (160, 50))


def recorded(seed: int, name: str = "Ada", me: identity.Identity | None = None) -> Path:
    """A finished local Schöne game of `name` against two bots, recorded as the app does."""
    me = me or identity.mine()
    assert me is not None
    seats = [SeatInfo(name), SeatInfo("Bot 2", "strong"), SeatInfo("Bot 3", "random")]
    session = HostSession("schoene", seats, seed)
    session.seats[0] = replace(session.seats[0], **me.prove(session.game_id, 0, name))
    recorder = records.LocalRecorder(session, [0], fixed_seed=False)
    rng = random.Random(seed)
    while not session.over:
        seat = session.engine.to_act(session.state)[0]
        level = session.seats[seat].bot
        session.submit(seat, session.choose_for(seat, level) if level
                       else rng.choice(session.engine.legal_moves(session.state, seat)))
    assert recorder.path is not None
    return recorder.path


def text(widget: Static) -> str:
    return str(widget.render())


async def until(pilot, check, what: str):  # type: ignore[no-untyped-def]
    for _ in range(500):
        await pilot.pause(0.01)
        if found := check():
            return found
    raise AssertionError(f"gave up waiting for {what} on {pilot.app.screen}")


async def open_players(pilot) -> PlayersScreen:  # type: ignore[no-untyped-def]
    app = pilot.app
    assert isinstance(app.screen, MenuScreen)
    app.screen.query_one("#menu", OptionList).highlighted = 0
    await pilot.press(*["down"] * MENU_ITEMS.index("players"), "enter")
    screen = await until(pilot, lambda: isinstance(app.screen, PlayersScreen) and app.screen,
                         "the players screen")
    await settle(pilot)
    return screen


def fits(table: DataTable) -> bool:  # type: ignore[type-arg]
    """Every column in sight, none cut off at the window's edge."""
    return table.virtual_size.width <= table.scrollable_content_region.width


async def test_a_game_played_by_keys_shows_each_seats_rating_change() -> None:
    """The results, the ladder and the player's page say the same rating, on the scale
    players see, provisional ("?") after a first game and never negative; each bot level sits
    on the ladder once, and the ladder says so."""
    from test_play import play_to_results

    app = local_app("schoene", 1, 2, "strong", lang="en", bot_delay=0, names=["Ada"])
    async with app.run_test(size=SIZES[0]) as pilot:
        await play_to_results(pilot, app)
        results = app.screen
        assert isinstance(results, ResultsScreen) and results.record_path is not None
        await until(pilot, lambda: results.rated, "the ratings")
        await settle(pilot)
        assert results.rated is not None and results.rated.refused is None
        changes = {c.seat: c for c in results.rated.changes}
        rows = results.query(".rating").results(Static)
        said = {}
        for row in rows:
            seat = int(str(row.id).removeprefix("rating-"))
            shown = text(row)
            delta, rating = shown.split("\n")[:2]
            assert rating.startswith("rating ")
            said[changes[seat].ident] = rating.removeprefix("rating ")
            assert delta == change(changes[seat].delta)
            assert row.region.width >= len(rating)  # in sight, whole
        me = identity.mine()
        assert me is not None
        mine = said[me.fingerprint]
        assert mine.endswith("?") and int(mine[:-1]) > 0  # a first game: provisional, positive
        assert int(mine[:-1]) == round(1500 + 100 * changes[0].after.rating)
        assert not said["bot:strong"].endswith("?")
        assert results.query_one("#results-rating").region.height == 0  # no "not rated" line
        await pilot.press("f3")  # German: drawn afresh, the ratings still there
        await settle(pilot)
        row = app.screen.query_one("#rating-0", Static)
        assert row.region.width and "Wertung" in text(row)
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("escape")  # the results screen's "menu"
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        players = await open_players(pilot)
        assert f"rating {mine} " in text(players.query_one("#players-you", Static))
        table = players.query_one("#players-table", DataTable)
        assert players.shown[table.cursor_row].ident == me.fingerprint  # the cursor on you
        on_ladder = {s.ident: str(table.get_row_at(i)[2]) for i, s in enumerate(players.shown)}
        assert on_ladder == said  # the ladder says what the results said, bots too
        assert "Each bot level is one entry" in text(players.query_one("#players-note", Static))
        await pilot.press("p")
        page = await until(pilot, lambda: isinstance(app.screen, PlayerPage) and app.screen,
                           "my page")
        await settle(pilot)
        games = page.query_one("#page-games", DataTable)
        assert str(games.get_row_at(0)[1]) == mine  # and so does the player's page


async def test_a_practice_game_says_why_it_is_not_rated() -> None:
    from test_play import play_to_results

    app = local_app("schoene", 1, 2, "strong", seed=11, lang="de", bot_delay=0)
    async with app.run_test(size=SIZES[0]) as pilot:
        await play_to_results(pilot, app)
        results = app.screen
        assert isinstance(results, ResultsScreen)
        await until(pilot, lambda: results.rated, "the count")
        await settle(pilot)
        note = results.query_one("#results-rating", Static)
        assert note.region.height >= 1
        assert text(note) == ("Nicht gewertet: die Karten wurden gewählt, nicht gemischt (ein "
                              "Übungsspiel).")
        assert not any(r.region.width for r in results.query(".rating"))


@pytest.mark.parametrize("size", SIZES)
async def test_the_ladder_and_a_players_page_by_keys(size: tuple[int, int]) -> None:
    for seed in range(3):
        recorded(seed)
    store = ladder.open_store()
    try:
        ladder.catch_up(store)
    finally:
        store.close()
    me = identity.mine()
    assert me is not None
    app = TabletopApp(lang="en")
    async with app.run_test(size=size) as pilot:
        players = await open_players(pilot)
        table = players.query_one("#players-table", DataTable)
        assert {s.ident for s in players.shown} == {me.fingerprint, "bot:strong", "bot:random"}
        names = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert "Ada (you)" in names and "Bot (strong)" in names
        assert fits(table)
        shown = app.export_screenshot()  # as drawn: no column cut to its heading's width
        assert "(strong)" in shown and "(you)" in shown and me.fingerprint[-4:] in shown
        # Right and left walk the games; the tab follows.
        tabs = players.query_one("#players-games", Tabs)
        await pilot.press("right")
        await settle(pilot)
        assert players.engine_id == ENGINE_IDS[1] and tabs.active == ENGINE_IDS[1]
        assert table.row_count == 0
        assert "Nobody is rated" in text(players.query_one("#players-note", Static))
        assert "no rated game of Das Zwergenamulett" in text(
            players.query_one("#players-you", Static))
        await pilot.press("left")
        await settle(pilot)
        assert players.engine_id == "schoene" and table.row_count == 3
        # Enter on a line: that player's page.
        table.move_cursor(row=[s.ident for s in players.shown].index("bot:strong"))
        await pilot.press("enter")
        page = await until(pilot, lambda: isinstance(app.screen, PlayerPage) and app.screen,
                           "the bot's page")
        await settle(pilot)
        assert page.ident == "bot:strong"
        assert "Bot (strong)" in text(page.query_one("#page-title", Static))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is players, "the ladder again")
        # p: your own page, with the rating's history plotted and whom you met.
        await pilot.press("p")
        page = await until(pilot, lambda: isinstance(app.screen, PlayerPage) and app.screen,
                           "my page")
        await settle(pilot)
        games = page.query_one("#page-games", DataTable)
        assert games.row_count == 1 and str(games.get_row_at(0)[2]) == "3"
        assert fits(games)
        plot = page.query_one("#page-plot", PlotextPlot)
        assert plot.display and plot.size.height >= 5
        met = text(page.query_one("#page-opponents", Static))
        assert "Bot (strong) (3×" in met and "Bot (random) (3×" in met
        assert page.query_one("#page-opponents").region.bottom <= size[1] - 1  # above the keys
        # German, on the spot.
        await pilot.press("f3")
        await settle(pilot)
        assert text(page.query_one("#page-plot-title", Static)).startswith("Wertung bei Schöne")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is players, "the ladder again")
        await settle(pilot)
        mine = next(s for s in players.shown if s.ident == me.fingerprint)
        assert text(players.query_one("#players-you", Static)).startswith(
            f"Du: Rang {mine.place} von 3 bei Schöne")
        table = players.query_one("#players-table", DataTable)  # drawn afresh in German
        assert str(table.columns[list(table.columns)[2]].label) == "Wertung"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")


async def test_a_players_page_on_an_upright_phone_says_everything_without_scrolling() -> None:
    """At 45 columns the table keeps game, rating, games and wins; the cursor's game says its
    mean place and finished share beneath; turned to 100 the table has them all again."""
    for seed in range(2):
        recorded(seed)
    app = TabletopApp(lang="en")
    async with app.run_test(size=(45, 30)) as pilot:
        players = await open_players(pilot)
        await pilot.press("p")
        page = await until(pilot, lambda: isinstance(app.screen, PlayerPage) and app.screen,
                           "my page")
        await settle(pilot)
        games = page.query_one("#page-games", DataTable)
        assert [str(c.label) for c in games.columns.values()] == ["Game", "Rating", "Games",
                                                                  "Wins"]
        assert fits(games) and str(games.get_row_at(0)[2]) == "2"
        summary = page.games[0]
        more = page.query_one("#page-more", Static)
        assert more.region.height >= 1
        assert text(more) == (f"Mean place {number(summary.mean_place)} · finished "
                              f"{round(100 * summary.finished / summary.games)} %")
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: len(games.columns) == 6, "the whole table")
        assert not page.query_one("#page-more").display
        assert fits(games)
        await pilot.resize_terminal(45, 30)
        await until(pilot, lambda: len(games.columns) == 4, "the slim table again")
        await pilot.press("f3")
        await settle(pilot)
        assert text(page.query_one("#page-more", Static)).startswith("Mittlerer Rang ")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is players, "the ladder again")


async def test_a_name_that_looks_like_markup_is_shown_as_typed() -> None:
    recorded(1, name="[/]", me=identity.Identity(identity.Ed25519PrivateKey.generate()))
    app = TabletopApp(lang="en")
    async with app.run_test(size=SIZES[0]) as pilot:
        players = await open_players(pilot)
        table = players.query_one("#players-table", DataTable)
        names = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert "[/]" in names
        table.move_cursor(row=names.index("[/]"))
        await pilot.press("enter")
        page = await until(pilot, lambda: isinstance(app.screen, PlayerPage) and app.screen,
                           "the page")
        await settle(pilot)
        assert text(page.query_one("#page-title", Static)).startswith("[/]  ·  id:")


async def test_without_an_identity_you_are_told_you_play_unrated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(identity.UNRATED_ENV, "1")
    app = TabletopApp(lang="en")
    async with app.run_test(size=SIZES[0]) as pilot:
        players = await open_players(pilot)
        assert "without an identity" in text(players.query_one("#players-you", Static))
        await pilot.press("p")  # no page of your own: a note, no crash
        await settle(pilot)
        assert app.screen is players


async def test_a_table_session_counts_into_the_tables_ladder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = tmp_path / "table" / ladder.STORE_FILE
    table.parent.mkdir()
    monkeypatch.setenv(ladder.TABLE_ENV, str(table))
    recorded(2)  # a game this player finished at the table
    app = TabletopApp(lang="en")
    async with app.run_test(size=SIZES[0]) as pilot:
        players = await open_players(pilot)  # the app counted it when it started
        await until(pilot, lambda: players._fill() or players.shown, "the counted game")
    assert table.exists()
    monkeypatch.delenv(ladder.TABLE_ENV)
    assert not ladder.store_path().exists()  # nothing in the player's own data directory


KEYS = ("left", "right", "up", "down", "enter", "tab", "shift+tab", "space", "1", "pageup",
        "pagedown", "home", "end", "h", "m", "f2", "f3", "f6")


@pytest.mark.parametrize("games", [0, 2])
async def test_no_key_breaks_the_ladder_or_a_page(games: int) -> None:
    for seed in range(games):
        recorded(seed)
    app = TabletopApp(lang="en")
    async with app.run_test(size=SIZES[0]) as pilot:
        players = await open_players(pilot)
        for key in (*KEYS, "p", *KEYS, "escape", "p", "escape", *KEYS):
            await pilot.press(key)
            await pilot.pause()
            assert app.is_running and app.return_code is None, key
            assert isinstance(app.screen, PlayersScreen | PlayerPage), (key, app.screen)
        assert app.screen is players or isinstance(app.screen, PlayerPage)


async def test_chez_geeks_results_show_each_seats_rating_change_in_sight() -> None:
    """Chez Geek's job-and-goal column once took the whole row: the rating changes were drawn
    past the right edge, at every size. (Ada's moves go through the link, the first legal
    each time: the screen, not the play, is under test.)"""
    from test_play import play_to_results

    app = local_app("chez_geek", 1, 2, "strong", lang="en", bot_delay=0, names=["Ada"])
    async with app.run_test(size=SIZES[1]) as pilot:
        await play_to_results(pilot, app, by_link=True, steps=20_000)
        results = app.screen
        assert isinstance(results, ResultsScreen)
        await until(pilot, lambda: results.rated, "the ratings")
        for size in (SIZES[1], SIZES[0]):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            rows = list(results.query(".rating").results(Static))
            assert len(rows) == 3
            for row in rows:
                shown = text(row)
                assert "rating" in shown and 0 < row.region.right <= size[0], (size, row.region)
