"""The clocks at the table: chosen in the local lobby with keys alone (80×24), every seat's
clock in the top bar, the extension key, and the log saying whose time ran out."""

from __future__ import annotations

import json

from textual.pilot import Pilot
from textual.widgets import Select, Static
from tui_helpers import game_screen, local_link, open_lobby, settle, wait_for_board

from net.table import clocks
from tui import prefs
from tui.app import TabletopApp, local_app
from tui.i18n import tr
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.widgets.clocks import SeatClocks, short_name

STEPS = 600


async def tab_to(pilot: Pilot[None], widget_id: str) -> None:
    for _ in range(40):
        focused = pilot.app.focused
        if focused is not None and focused.id == widget_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"Tab never reached #{widget_id}; focus is on {pilot.app.focused}")


async def until(pilot: Pilot[None], check: object, what: str) -> None:
    for _ in range(STEPS):
        await pilot.pause(0.02)
        if check():  # type: ignore[operator]
            return
    raise AssertionError(f"never: {what}; top bar {topline(game_screen(pilot.app))!r}")


def topline(screen: GameScreen) -> str:
    return str(screen.query_one("#clocks", SeatClocks).render())


async def test_the_lobby_offers_the_clocks_and_the_games_length_by_keys_at_80x24() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, "skipbo_breakers")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        estimate = lobby.query_one("#clock-estimate", Static)
        untimed = str(estimate.render())
        assert untimed == tr("clock.about", n=clocks.estimate_minutes("skipbo_breakers", 1, 1))
        await tab_to(pilot, "clock")
        await pilot.press("enter", "down", "enter")  # from no clock to the fast one
        await settle(pilot)
        assert lobby.query_one("#clock", Select).value == "fast"
        fast = clocks.estimate_minutes("skipbo_breakers", 1, 1, "fast")
        assert str(estimate.render()) == tr("clock.about", n=fast) != untimed
        await tab_to(pilot, "out-of-time")
        await pilot.press("enter", "down", "enter")  # out of time: skipped
        await settle(pilot)
        await pilot.press("f5")
        await wait_for_board(pilot)
        session = local_link(app).session
        assert session.clocks.setting == clocks.preset("skipbo_breakers", "fast", 2, "skip")
        screen = game_screen(app)
        await until(pilot, lambda: "You " in topline(screen), "the person's clock")
        assert "Bot" not in topline(screen)  # a bot has no clock (it never runs out)
        said = [line for kind, line in screen.entries if kind == "note"]
        assert tr("clock.bots") in said


async def test_a_game_that_cannot_skip_says_the_bot_moves_for_a_seat_out_of_time() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, "zwergenamulett")
        lobby = app.screen
        assert not lobby.query("#out-of-time")
        note = str(lobby.query_one(".clock-note", Static).render())
        assert note == tr("clock.no_skip", game="Das Zwergenamulett")


async def test_every_seats_clock_shows_on_the_table_and_f7_takes_the_extension() -> None:
    clock = clocks.preset("zwergenamulett", "normal", 4)
    app = local_app("zwergenamulett", 1, 3, "strong", seed=3, options={"first": 0},
                    lang="en", bot_delay=0, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        screen = game_screen(app)
        names = ["You", "Bot 1", "Bot 2", "Bot 3"]
        await until(pilot, lambda: "▶" in topline(screen), "the running clock marked")
        line = topline(screen)
        assert line.startswith("▶You ")  # seat 0 leads: its clock runs
        for name in names[1:]:  # the bots show no clock
            assert short_name(name, 1) not in line
        assert "f7" in screen.active_bindings  # offered while the clock runs
        await pilot.press("f7")
        await until(pilot, lambda: "+" in topline(screen), "the extension on the clock")
        said = [line for kind, line in screen.entries if kind == "note"]
        assert tr("clock.extended.you", extra="50 s") in said
        session = local_link(app).session
        assert session.clocks.clocks is not None and session.clocks.clocks.extended[0]
        await pilot.press("f7")  # once a game: the key is gone, nothing changes
        await settle(pilot)
        assert "f7" not in screen.active_bindings


async def test_the_log_says_whose_time_ran_out_and_what_the_table_did() -> None:
    app = local_app("schoene", 1, 2, "random", seed=5, options={"first": 0}, lang="en",
                    bot_delay=0, clock=clocks.per_move(0.2))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for_board(pilot)
        screen = game_screen(app)
        line = tr("clock.ran_out.bot.you")
        await until(pilot, lambda: ("note", line) in screen.entries, "the time-out in the log")
        session = local_link(app).session
        assert session.clocks.marks() == [[0, 0]]
        assert session.moves[0][0] == 0  # the strong bot's move, in the person's seat


def test_a_saved_turn_timer_of_old_becomes_a_clock_for_every_turn() -> None:
    prefs.config_path().write_text(json.dumps({"timer": 45, "takeover": 60}), encoding="utf-8")
    assert (prefs.load().clock, prefs.load().takeover) == ("move", 60)
    prefs.config_path().write_text(json.dumps({"clock": "nap"}), encoding="utf-8")
    assert prefs.load().clock == "none"  # a clock this version does not know: none


async def test_the_top_line_says_the_bot_plays_your_turn_once_your_time_ran_out() -> None:
    """A Chez Geek turn is several moves: once a seat's time ran out the bot played all of
    it while the top line said "Your turn". It says the bot plays it, and how to take it
    back (F7, while the extension is still to be had)."""
    app = local_app("chez_geek", 1, 1, "random", seed=4, options={"first": 0}, lang="en",
                    bot_delay=0, clock=clocks.per_move(0.3))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for_board(pilot)
        screen = game_screen(app)
        bar = screen.query_one("#topbar", Static)
        words = tr("clock.bot_plays.extend")
        # The top line says the bot plays, and the footer offers the key it names (F7 takes
        # the extension while the seat's clock runs: tested above).
        await until(pilot, lambda: words in str(bar.render()) and "f7" in screen.active_bindings,
                    "the bot playing for you, F7 offered")
    assert "für dich" in tr("clock.bot_plays", lang="de")


async def test_f3_while_the_bots_play_fast_changes_the_language_and_crashes_nothing() -> None:
    """The language key recomposes the table while moves keep coming: a move drawn in that
    moment looked for the new board's parts before they were there, and the app crashed."""
    app = local_app("chez_geek", 1, 1, "random", seed=4, options={"first": 0}, lang="en",
                    bot_delay=0, clock=clocks.per_move(0.05))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for_board(pilot)
        session = local_link(app).session
        for _ in range(6):
            moved = session.state_no
            await pilot.press("f3")
            await until(pilot, lambda m=moved: session.state_no > m + 2, "moves meanwhile")
        assert isinstance(app.screen, GameScreen) and app.return_code is None


def test_every_games_help_says_how_clocks_and_hints_go_in_english_and_german() -> None:
    from engines import ENGINE_IDS
    from tui.help import rules_text

    for game in ENGINE_IDS:
        english, german = rules_text(game, "en"), rules_text(game, "de")
        assert "## At every table" in english and "bots have\n  none" in english
        assert "## An jedem Tisch" in german and "Bots haben keine" in german
        assert "`F7`" in english and "`F7`" in german
