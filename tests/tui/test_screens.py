"""Looks and words: the snapshot, themes, languages, the small-window notice, rules, CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, Markdown, OptionList, Static, Switch
from tui_helpers import game_screen, open_lobby, settle, wait_for_board

import tui.app
from engines import get_engine
from tui import boards, i18n
from tui.app import TabletopApp, local_app
from tui.boards.base import GameBoard
from tui.cli import main
from tui.screens.base import MAX_NAME
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen
from tui.screens.menu import MENU_ITEMS, GamePickerScreen, MenuScreen
from tui.widgets import EventLog

ROOT = Path(__file__).resolve().parents[2]


def snapshot_app() -> TabletopApp:
    return local_app("schoene", 1, 3, "strong", seed=2024, options={}, lang="en", bot_delay=0)


async def until_my_turn(pilot: Pilot[None]) -> GameBoard:
    for _ in range(200):
        board = await wait_for_board(pilot)
        if board.table.seat in board.table.view["to_act"]:
            return board
    raise AssertionError("never my turn")


def test_game_screen_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def play_a_little(pilot: Pilot[None]) -> None:
        for key in ("space", "t", "space"):
            await until_my_turn(pilot)
            await pilot.press(key)
        await until_my_turn(pilot)
        await settle(pilot)

    assert snap_compare(snapshot_app(), terminal_size=(100, 30), run_before=play_a_little)


async def test_theme_key_and_setting_restyle_the_screen() -> None:
    app = snapshot_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until_my_turn(pilot)
        before = app.export_screenshot()
        assert app.theme == "default"
        await pilot.press("f2")
        await settle(pilot)
        assert app.theme == "high-contrast"
        after = app.export_screenshot()
        assert before != after
        assert "#000000" in after and "#000000" not in before  # the black cloth
        await pilot.press("f2")
        await settle(pilot)
        assert app.theme == "default"


async def test_settings_screen_switches_theme_and_language() -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        menu = app.screen.query_one("#menu", OptionList)
        menu.highlighted = MENU_ITEMS.index("settings")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.click("#theme-high-contrast")
        await settle(pilot)
        assert app.theme == "high-contrast"
        await pilot.click("#language-de")
        await settle(pilot)
        assert i18n.language() == "de"
        assert "Einstellungen" in str(app.screen.query_one("#settings-title", Static).render())
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        first = app.screen.query_one("#menu", OptionList).get_option_at_index(0)
        assert str(first.prompt) == "Lokal spielen"


async def test_language_key_translates_the_table_and_its_log() -> None:
    app = snapshot_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until_my_turn(pilot)
        await pilot.press("space")
        await until_my_turn(pilot)
        log = app.screen.query_one(EventLog)
        assert any("paid a chip" in line for line in log.texts)
        keys = {b.binding.description for b in app.screen.active_bindings.values()}
        assert "Pay a chip" in keys
        await pilot.press("f3")
        await settle(pilot)
        assert i18n.language() == "de"
        log = app.screen.query_one(EventLog)
        assert any("Chip auf" in line and "gezahlt" in line for line in log.texts)
        assert not any("paid a chip" in line for line in log.texts)
        keys = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"Chip zahlen", "Nehmen"} <= keys
        # The game goes on in German, and the board still has the keys.
        board = await until_my_turn(pilot)
        moves = len(game_screen(app).link.session.moves)  # type: ignore[attr-defined]
        await pilot.press("t")
        await settle(pilot)
        assert len(game_screen(app).link.session.moves) > moves  # type: ignore[attr-defined]
        assert board.app is app


async def test_small_window_asks_to_be_enlarged() -> None:
    app = snapshot_app()
    async with app.run_test(size=(50, 16)) as pilot:
        await wait_for_board(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        notice = screen.query_one("#too-small", Static)
        assert notice.display and "make the window larger" in str(notice.render())
        assert not screen.query_one("#table").display
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert not notice.display and screen.query_one("#table").display


async def test_a_narrow_window_keeps_the_last_event_in_sight() -> None:
    app = snapshot_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        screen = game_screen(app)
        assert screen.has_class("-narrow")  # no room for the log beside the board
        await pilot.press("space")  # pay a chip
        await settle(pilot)
        last = screen.query_one("#log", EventLog).texts[-1]
        assert last in str(screen.query_one("#topbar", Static).render())
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        assert not screen.has_class("-narrow")
        assert last not in str(screen.query_one("#topbar", Static).render())


async def test_rules_open_with_f1_and_close_with_escape() -> None:
    app = snapshot_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert "lucky pig" in app.screen.query_one(Markdown).source.lower()
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)


def test_every_text_exists_in_both_languages() -> None:
    boards.board_module("schoene")  # its texts register on import
    assert i18n.keys("en") == i18n.keys("de")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_event_kind_reads_as_a_sentence(lang: str) -> None:
    names = ["Ada", "Bot 2", "Cleo"]
    events = [
        {"kind": "reveal", "card": 17},
        {"kind": "take", "seat": 0, "card": 17, "chips": 0, "pigs": 0},
        {"kind": "take", "seat": 0, "card": 17, "chips": 1, "pigs": 0},
        {"kind": "take", "seat": 2, "card": 30, "chips": 4, "pigs": 2},
        {"kind": "pay", "seat": 1, "card": 27},
        {"kind": "pig", "seat": 2, "card": 27},
        {"kind": "pigs_out", "seat": 2, "card": 27},
    ]
    for event in events:
        text = boards.describe("schoene", event, names, lang)
        assert str(event["card"]) in text and "schoene." not in text
        if "seat" in event:
            assert names[event["seat"]] in text
    assert boards.describe("schoene", events[4], names, "en") == "Bot 2 paid a chip on 27."


async def test_play_command_starts_a_table_with_three_bots(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    started: list[TabletopApp] = []
    monkeypatch.setattr(tui.app.TabletopApp, "run", lambda self: started.append(self))
    main(["--lang", "en", "play", "schoene", "--bots", "3", "--seed", "8"])
    (app,) = started
    app.bot_delay = 0
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        players = board.table.players
        assert len(players) == 4
        assert [p["bot"] for p in players] == [None, "strong", "strong", "strong"]
        assert board.table.view["num_players"] == 4
        assert get_engine("schoene").min_players <= len(players)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_help_lists_the_commands() -> None:
    done = run_cli("--help")
    assert done.returncode == 0
    for command in ("play", "host", "join", "serve", "rules"):
        assert command in done.stdout


def test_cli_unknown_game_is_one_clear_line_and_exit_2() -> None:
    done = run_cli("play", "nosuchgame")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "nosuchgame" in lines[0] and "schoene" in lines[0]


def test_cli_unknown_theme_is_one_clear_line_and_exit_2() -> None:
    done = run_cli("--theme", "neon", "play", "schoene")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "neon" in lines[0] and "high-contrast" in lines[0]


async def test_leaving_a_game_takes_escape_twice() -> None:
    app = snapshot_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert "Esc again" in app.screen.query_one(EventLog).texts[-1]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)


async def test_the_menu_opens_hosting_and_joining_from_the_keyboard() -> None:
    from tui.screens.host import HostScreen
    from tui.screens.join import JoinScreen

    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for steps, screen_type in ((1, HostScreen), (2, JoinScreen)):
            await pilot.press(*["down"] * steps, "enter")
            await settle(pilot)
            assert isinstance(app.screen, screen_type)
            assert "f5" in app.export_screenshot().lower()  # its button has a key
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, MenuScreen)
            app.screen.query_one("#menu", OptionList).highlighted = 0


async def test_the_board_has_the_keys_again_after_the_window_was_too_small() -> None:
    app = snapshot_app()
    async with app.run_test(size=(100, 30)) as pilot:
        board = await until_my_turn(pilot)
        await pilot.resize_terminal(30, 10)
        await settle(pilot)
        # While the table is hidden, its keys do nothing and the footer offers none.
        moves = len(game_screen(app).link.session.moves)  # type: ignore[attr-defined]
        await pilot.press("t", "space")
        await settle(pilot)
        assert len(game_screen(app).link.session.moves) == moves  # type: ignore[attr-defined]
        offered = {b.binding.action for b in app.screen.active_bindings.values()}
        assert not any(action.startswith("move") for action in offered), offered
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert app.focused is board
        moves = len(game_screen(app).link.session.moves)  # type: ignore[attr-defined]
        await pilot.press("t")
        await settle(pilot)
        assert len(game_screen(app).link.session.moves) > moves  # type: ignore[attr-defined]


async def type_into(pilot: Pilot[None], selector: str, text: str) -> None:
    await pilot.click(selector)
    await pilot.press(*text)


async def test_a_language_switch_keeps_what_was_typed_in_the_lobby() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await open_lobby(pilot, "schoene")
        await type_into(pilot, "#name-0", "Alice")
        await type_into(pilot, "#name-1", "R" * 40)  # longer than any name may be
        await type_into(pilot, "#seed", "42")
        await pilot.click("#opt-lucky_pig")
        await pilot.press("f3")
        await settle(pilot)
        assert i18n.language() == "de"
        lobby = app.screen
        assert lobby.query_one("#name-0", Input).value == "Alice"
        assert lobby.query_one("#name-1", Input).value == "R" * MAX_NAME
        assert lobby.query_one("#seed", Input).value == "42"
        assert lobby.query_one("#opt-lucky_pig", Switch).value is False


async def test_a_language_switch_keeps_what_was_typed_to_join() -> None:
    from tui.screens.join import JoinScreen

    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.push_screen(JoinScreen())
        await settle(pilot)
        await type_into(pilot, "#code", "K7QX-9MPA")
        await type_into(pilot, "#name", "Pia")
        await type_into(pilot, "#server", "127.0.0.1:8765")
        await pilot.click("#watch")
        await pilot.press("f3")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        assert screen.query_one("#join", Button).label.plain == "Beitreten"
        typed = [screen.query_one(f"#{field}", Input).value for field in ("code", "name", "server")]
        assert typed == ["K7QX-9MPA", "Pia", "127.0.0.1:8765"]
        assert screen.query_one("#watch", Switch).value is True


async def test_the_game_picker_gives_each_game_its_number_of_players() -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(GamePickerScreen())
        await settle(pilot)
        games = app.screen.query_one("#games", OptionList)
        lines = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
        assert "Scho K.O.  ·  2 players" in lines, lines  # not "2–2 players"
        assert "Schöne Sch#!?e  ·  3–7 players" in lines, lines
