"""A portrait phone (a browser through xterm.js) gives the app about 45×30 cells. Every screen a
player meets is usable there; a table that needs more says to turn the phone, keeps the game
beneath it and takes no key meant for it, and comes back by itself when the phone is turned."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import OptionList
from tui_helpers import MAX_STEPS, settle, wait_for_board

from engines import ENGINE_IDS
from tui import i18n
from tui.app import local_app
from tui.boards import board_class
from tui.screens.game import GameScreen
from tui.screens.menu import MENU_ITEMS, MenuScreen
from tui.screens.replay import ReplayScreen
from tui.screens.results import ResultsScreen
from tui.widgets.room import RoomNotice

PHONE = (45, 30)
TURNED = (100, 30)  # the same phone held sideways (or a desktop window)
# Keys a player might press on a hidden table: moves, choices, confirmations.
TABLE_KEYS = ("space", "enter", "t", "p", "d", "e", "1", "2", "3", "left", "right", "up",
              "down", "tab", "shift+tab", "a", "s", "x", "c", "h", "m", "y", "n")
SEATS = {"schoko": 1, "zwergenamulett": 3}


def notice_text(screen: GameScreen | ReplayScreen) -> str:
    notice = screen.query_one(RoomNotice)
    assert notice.display and notice.region.area, "no notice on show"
    return str(notice.render())


def record_moves_sent(screen: GameScreen) -> list[dict[str, Any]]:
    """Every move the board sends from now on (the bots' moves never pass this way)."""
    sent: list[dict[str, Any]] = []
    send = screen.link.send_move

    async def recorded(seat: int, move: dict[str, Any], state_no: int) -> None:
        sent.append(move)
        await send(seat, move, state_no)

    screen.link.send_move = recorded  # type: ignore[method-assign]
    return sent


def fully_inside(widget: Widget, width: int) -> bool:
    region = widget.region
    return region.area > 0 and region.x >= 0 and region.right <= width


@pytest.mark.parametrize("game", ENGINE_IDS)
async def test_a_table_too_wide_for_a_phone_says_turn_it_and_comes_back_when_turned(
    game: str,
) -> None:
    app = local_app(game, 1, SEATS.get(game, 2), "random", seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        board = await wait_for_board(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        need = board_class(game).MIN_SIZE[0]
        assert need > PHONE[0]  # else this board would be played on the phone
        text = notice_text(screen)
        assert "Turn your phone sideways" in text and f"{need} columns" in text
        assert not screen.query_one("#table").display
        # Keys and taps meant for the hidden table do nothing, and nothing crashes. (The bots
        # play on, and a window nobody can answer closes by itself: only what the person at
        # the phone sends counts.)
        sent = record_moves_sent(screen)
        for key in TABLE_KEYS:
            await pilot.press(key)
        await pilot.click(offset=(PHONE[0] // 2, PHONE[1] // 2))
        await settle(pilot)
        assert app.is_running and app.screen is screen and sent == []
        # Turned: the same table (nothing lost), with the keys.
        await pilot.resize_terminal(*TURNED)
        await settle(pilot)
        assert not screen.query_one(RoomNotice).display and screen.query_one("#table").display
        assert screen.board is board and board.region.area
        assert app.focused is board or board in app.focused.ancestors  # type: ignore[union-attr]
        # And upright again: the notice once more.
        await pilot.resize_terminal(*PHONE)
        await settle(pilot)
        assert "Turn your phone sideways" in notice_text(screen)


async def test_the_notice_speaks_german_and_a_low_desktop_window_is_asked_to_grow() -> None:
    app = local_app("schoene", 1, 2, "random", seed=7, lang="de", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        await wait_for_board(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert "Handy quer halten" in notice_text(screen)
        # A wide but low window is no phone held upright: it is asked to grow.
        await pilot.resize_terminal(100, 12)
        await settle(pilot)
        text = notice_text(screen)
        assert "Fenster vergrößern" in text and "Handy" not in text
        i18n.set_language("en")


async def finished_game_replay(pilot: Pilot[None]) -> ReplayScreen:
    """Two bots play Scho K.O. to the end; then Past games opens its replay."""
    app = pilot.app
    for _ in range(MAX_STEPS):
        await pilot.pause()
        if isinstance(app.screen, ResultsScreen):
            break
    else:
        raise AssertionError("the game did not end")
    await pilot.press("escape")
    await settle(pilot)
    assert isinstance(app.screen, MenuScreen)
    app.screen.query_one("#menu", OptionList).highlighted = 0
    await pilot.press(*["down"] * MENU_ITEMS.index("past"), "enter")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


async def test_a_replay_on_an_upright_phone_turns_no_page_until_the_phone_is_turned() -> None:
    app = local_app("schoko", 0, 2, "random", seed=1, lang="en", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        screen = await finished_game_replay(pilot)
        assert "Turn your phone sideways" in notice_text(screen)
        for key in ("right", "end", "n", "N", "p", "space", "v", "o"):
            await pilot.press(key)
            await settle(pilot)
        assert screen.step_no == 0 and not screen.all_open and screen._timer is None
        offered = {b.binding.action for b in app.screen.active_bindings.values()}
        assert not {"step(1)", "play", "viewer"} & offered, offered
        await pilot.resize_terminal(*TURNED)
        await settle(pilot)
        assert not screen.query_one(RoomNotice).display
        await pilot.press("right")
        await settle(pilot)
        assert screen.step_no == 1
