"""A table that keeps everyone informed: the whole log on a key, the handoff's way out,
spectators without move keys, players with one name, the bell, and names from the command
line."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tui_helpers import game_screen, settle, wait_for_board

import tui.app
from engines import get_engine
from net.table.link import LocalLink
from net.table.session import HostSession, SeatInfo
from tui import i18n, prefs
from tui.app import TabletopApp, local_app
from tui.boards.base import distinct_names
from tui.cli import main
from tui.i18n import localised_name
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.menu import MenuScreen
from tui.screens.overlays import LogOverlay
from tui.screens.results import ResultsScreen
from tui.widgets import ActionBar, EventLog


async def test_the_whole_log_opens_over_a_small_table_and_scrolls() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=11, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        for _ in range(12):  # the bots and a few of our moves fill the log
            await pilot.press("t")
            await pilot.pause()
        screen = game_screen(app)
        assert screen.has_class("-narrow")  # no log beside the board at 80 columns
        await pilot.press("f6")
        await settle(pilot)
        overlay = app.screen
        assert isinstance(overlay, LogOverlay)
        log = overlay.query_one(EventLog)
        assert log.texts == [screen._entry_text(e) for e in screen.entries]
        assert len(log.texts) > 20 and log.max_scroll_y > 0
        await pilot.press("home")
        assert log.scroll_y == 0
        await pilot.press("end")
        assert log.scroll_y == log.max_scroll_y
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen


async def test_escape_twice_on_the_handoff_screen_goes_to_the_menu() -> None:
    app = local_app("schoene", 2, 1, "strong", seed=3, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if isinstance(app.screen, HandoffScreen):
                break
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        link = game_screen(app).link
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is handoff  # one stray Esc does not end the game
        assert "Esc again" in str(handoff.query_one("#handoff-note").render())
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert isinstance(link, LocalLink) and link._bots is None  # the table was closed


async def test_a_spectator_has_no_move_keys_and_no_buttons() -> None:
    session = HostSession(
        "schoene", [SeatInfo("Ann", "strong"), SeatInfo("Ben", "strong"), SeatInfo("Cy", "strong")],
        seed=4,
    )
    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(GameScreen(LocalLink(session, [], bot_delay=60), "schoene"))
        board = await wait_for_board(pilot)
        assert board.table.seat is None
        offered = {b.binding.action for b in app.screen.active_bindings.values()}
        assert not any(action.startswith("move") for action in offered), offered
        assert not board.query_one(ActionBar).display
        await pilot.press("t", "space")
        await settle(pilot)
        assert session.moves == []


def test_players_with_one_name_are_told_apart() -> None:
    names = ["root", "root", "Ada", "root"]
    assert distinct_names(names) == ["root", "root (2)", "Ada", "root (3)"]
    assert distinct_names(["A (2)", "A", "A"]) == ["A (2)", "A", "A (3)"]


async def test_two_players_with_one_name_read_apart_in_the_log() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=11, options={}, lang="en", bot_delay=0,
                    names=["Bot 1"])
    async with app.run_test(size=(120, 40)) as pilot:
        board = await wait_for_board(pilot)
        assert board.table.names[:2] == ["Bot 1", "Bot 1 (2)"]


@pytest.mark.parametrize(("mode", "rings"), [("network", False), ("always", True), ("off", False)])
async def test_the_bell_rings_on_my_turn_as_the_setting_says(
    mode: str, rings: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefs.update(bell=mode)
    app = local_app("schoene", 1, 2, "strong", seed=3, options={"first": 1}, lang="en",
                    bot_delay=0)
    rang: list[bool] = []
    monkeypatch.setattr(app, "bell", lambda: rang.append(True))
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        for _ in range(50):
            await pilot.pause()
            if board.table.view["turn"] == 0:
                break
        await settle(pilot)
        assert bool(rang) is rings
        if rings:
            assert len(rang) == 1  # once per turn, not once per redraw


async def test_the_results_buttons_take_the_focus_in_turn() -> None:
    # Three bots and nobody at the keyboard: the game runs to its end by itself.
    app = local_app("schoene", 0, 3, "random", seed=5, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3000):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
        assert isinstance(app.screen, ResultsScreen)
        await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "rematch"
        await pilot.press("tab")
        assert app.focused.id == "menu"
        await pilot.press("shift+tab")
        assert app.focused.id == "rematch"
        await pilot.press("tab", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)


async def test_play_names_each_person_at_the_keyboard(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[TabletopApp] = []
    monkeypatch.setattr(tui.app.TabletopApp, "run", lambda self: started.append(self))
    main(["--lang", "en", "play", "schoene", "--name", "Ada", "--name", "Bea", "--bots", "1"])
    (app,) = started
    session: Any = app.start
    assert [seat.name for seat in session.seats] == ["Ada", "Bea", "Bot 1"]
    assert session.humans == [0, 1]


async def test_the_footer_keeps_quit_at_80_columns_and_f2_still_works() -> None:
    app = local_app("zwergenamulett", 1, 2, "strong", seed=3, options={}, lang="en",
                    bot_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        await settle(pilot)
        footer = app.export_screenshot().replace("&#160;", " ")
        assert "Quit" in footer and "Log" in footer
        theme = app.theme
        await pilot.press("f2")
        assert app.theme != theme


def test_default_names_follow_the_language_and_real_names_do_not() -> None:
    i18n.set_language("de")
    assert [localised_name(n) for n in ("You", "Player 2", "Bot 3", "Youssef", "Player X")] == [
        "Du", "Spieler 2", "Bot 3", "Youssef", "Player X"
    ]
    i18n.set_language("en")
    assert localised_name("Du") == "You" and localised_name("Spieler 4") == "Player 4"


async def test_a_switch_to_german_renames_you_at_the_table() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=3, options={}, lang="en", bot_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        assert board.table.name(0) == "You"
        await pilot.press("f3")
        await settle(pilot)
        board = game_screen(app).board
        assert board is not None and board.table.name(0) == "Du"
        assert "Du" in app.export_screenshot().replace("&#160;", " ")


@pytest.mark.parametrize(
    ("lang", "winners", "said"),
    [
        ("de", [0], "Du gewinnst das Spiel!"),
        ("en", [0], "You won the game!"),
        ("de", [1], "Bot 1 gewinnt das Spiel!"),
        ("en", [0, 1], "You, Bot 1 share the win!"),
    ],
)
async def test_the_winner_line_reads_right(lang: str, winners: list[int], said: str) -> None:
    app = TabletopApp(lang=lang)
    names = ["Du" if lang == "de" else "You", "Bot 1", "Bot 2"]
    eng, rng = get_engine("schoene"), random.Random(1)
    state = eng.new_game(3, 1)
    while not eng.is_over(state):
        seat = eng.to_act(state)[0]
        state = eng.apply(state, seat, rng.choice(eng.legal_moves(state, seat)))
    result = {**eng.result(state), "winners": winners}
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(ResultsScreen("schoene", result, names, can_rematch=False))
        await settle(pilot)
        assert str(app.screen.query_one("#results-won").render()) == said
