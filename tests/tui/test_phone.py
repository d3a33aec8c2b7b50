"""A portrait phone (a browser through xterm.js) gives the app about 45×30 cells. Every screen a
player meets is usable there; a table that needs more says to turn the phone, keeps the game
beneath it and takes no key meant for it, and comes back by itself when the phone is turned."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, OptionList, Tabs
from tui_helpers import MAX_STEPS, settle, wait_for_board

from engines import ENGINE_IDS
from tui import i18n
from tui.app import TabletopApp, local_app
from tui.boards import board_class
from tui.screens.game import CHROME_HEIGHT, GameScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MENU_ITEMS, MenuScreen
from tui.screens.replay import ReplayScreen
from tui.screens.results import ResultsScreen
from tui.widgets import PlayerArea
from tui.widgets.cardrow import CardRow
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


async def until_sent(pilot: Pilot[None], sent: list[dict[str, Any]], count: int) -> None:
    """Until `count` moves went out: the screen sends each from a worker of its own."""
    for _ in range(MAX_STEPS):
        if len(sent) >= count:
            return
        await pilot.pause()


def fully_inside(widget: Widget, width: int) -> bool:
    region = widget.region
    return region.area > 0 and region.x >= 0 and region.right <= width


def fits_a_phone(game: str) -> bool:
    width, height = board_class(game).least_size()
    return width <= PHONE[0] and height + CHROME_HEIGHT <= PHONE[1]


def test_the_games_a_phone_plays_upright() -> None:
    """Schöne Sch#!?e is a card, some chips and two choices, and Skip-Bo Breakers' rows of
    tiles shrink to any width: they fit. The others need their width (a 2-D board beside a
    panel of tiles, rooms of cards full of words, a hand of named cards): an upright phone is
    asked to turn."""
    assert [g for g in ENGINE_IDS if fits_a_phone(g)] == ["schoene", "skipbo_breakers"]


@pytest.mark.parametrize("game", [g for g in ENGINE_IDS if not fits_a_phone(g)])
async def test_a_table_too_wide_for_a_phone_says_turn_it_and_comes_back_when_turned(
    game: str,
) -> None:
    app = local_app(game, 1, SEATS.get(game, 2), "random", seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        board = await wait_for_board(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        need = board_class(game).least_size()[0]
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
    app = local_app("schoko", 1, 1, "random", seed=7, lang="de", bot_delay=0)
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


async def test_schoene_is_played_on_an_upright_phone_by_tap_and_by_key() -> None:
    app = local_app("schoene", 1, 6, "random", seed=7, lang="de", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(MAX_STEPS):  # a bot may begin
            board = await wait_for_board(pilot)
            if board.table.seat in board.table.view["to_act"]:
                break
        assert not screen.query_one(RoomNotice).display and board.has_class("-slim")
        # Every part of the table is on the screen: six opponents, the card, your own seat
        # and the buttons, none cut at the right edge.
        parts = [*board.query(PlayerArea), board.query_one("#centre"),
                 *board.query("ActionButton")]
        assert len(board.query(PlayerArea)) == 7
        for part in parts:
            assert fully_inside(part, PHONE[0]) and part.region.bottom <= PHONE[1] - 1, part
        # The buttons are targets a thumb can hit, each with a label whole.
        for button in board.query("ActionButton"):
            label = str(button.label)
            assert button.region.width >= max(6, len(label)), (label, button.region)
        sent, paid_at = record_moves_sent(screen), board.table.state_no
        await pilot.click("#act-pay")
        await until_sent(pilot, sent, 1)
        assert sent == [{"type": "pay"}]
        for _ in range(MAX_STEPS):  # round the table to this seat again
            await pilot.pause()
            table = board.table
            if table.state_no > paid_at and table.seat in table.view["to_act"] and table.legal:
                break
        await pilot.press("t")
        await until_sent(pilot, sent, 2)
        assert sent == [{"type": "pay"}, {"type": "take"}]


def nothing_cut(screen: Screen[object], width: int) -> list[str]:
    """Every widget on show that reaches past the right edge or scrolls sideways. A row made
    to scroll sideways may: the footer (its first keys are the screen's own, and every key it
    lists also has a button or works from the keyboard) and a row of tabs (the chosen one
    scrolls into sight, its neighbour with it, and ←→ walk them)."""
    cut = []
    for widget in screen.query("*"):
        if not widget.display or not widget.region.area:
            continue
        if any(isinstance(node, Footer | Tabs) for node in [widget, *widget.ancestors]):
            continue
        if widget.region.right > width or widget.allow_horizontal_scroll:
            cut.append(f"{widget!r} {widget.region}")
    return cut


FORMS = ("menu_play", "menu_host", "menu_join", "menu_settings", "menu_past",
         "menu_players", "menu_rules", "menu_tables")


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_every_form_fits_an_upright_phone(lang: str) -> None:
    app = TabletopApp(lang=lang, bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        await settle(pilot)
        assert nothing_cut(app.screen, PHONE[0]) == [], "menu"
        for opener in FORMS:
            getattr(app, opener)()
            await settle(pilot, 6)
            assert nothing_cut(app.screen, PHONE[0]) == [], opener
            app.pop_screen()
            await settle(pilot)
        for game in ENGINE_IDS:
            app.push_screen(LobbyScreen(game))
            await settle(pilot)
            assert nothing_cut(app.screen, PHONE[0]) == [], game
            app.pop_screen()
            await settle(pilot)


async def test_the_results_fit_an_upright_phone() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        await settle(pilot)
        scores, names = [90, 64, 122], ["You", "Bot 1", "Bot 2"]
        runs = [[[6, 7], [9], [11], [14, 15], [21], [27]], [[13], [18, 19], [23, 24, 25, 26],
                [30, 31, 32]], [[4], [10], [12], [28], [33], [35]]]
        players = [{"runs": r, "card_points": 0, "chips": 3, "pigs": 0} for r in runs]
        result = {"scores": scores, "winners": [1], "players": players}
        app.push_screen(ResultsScreen("schoene", result, names, can_rematch=True))
        await settle(pilot)
        assert nothing_cut(app.screen, PHONE[0]) == []
        # Each row keeps its name, its cards and its score in sight, one under the other.
        row = app.screen.query(".result-row").first()
        who, score = row.query_one(".who"), row.query_one(".score")
        assert who.region.width >= 20 and score.region.y > who.region.y
        assert "64" in str(score.render())


async def test_a_game_is_set_up_and_started_on_an_upright_phone_with_the_keys() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        await settle(pilot)
        await pilot.press("enter", "enter")  # Play a local game: Schöne Sch#!?e
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        for _ in range(40):  # Tab down the form to its Start button
            if app.focused is not None and app.focused.id == "start":
                break
            await pilot.press("tab")
        start = app.screen.query_one("#start")
        assert app.focused is start and fully_inside(start, PHONE[0])
        await pilot.press("enter")
        board = await wait_for_board(pilot)
        assert not app.screen.query_one(RoomNotice).display and board.region.area


async def test_skipbo_breakers_is_played_on_an_upright_phone_by_tap_and_by_key() -> None:
    app = local_app("skipbo_breakers", 1, 3, "random", seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=PHONE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(MAX_STEPS):
            board = await wait_for_board(pilot)
            if board.table.seat in board.table.view["to_act"] and board.table.legal:
                break
        assert not screen.query_one(RoomNotice).display
        hand = board.query_one("#hand", CardRow)
        parts = [*board.query(PlayerArea), hand, board.query_one("#trick"),
                 *board.query("ActionButton")]
        assert len(board.query(PlayerArea)) == 4
        for part in parts:
            assert fully_inside(part, PHONE[0]) and part.region.bottom <= PHONE[1] - 1, part
        # Every kind of tile in the hand is a target two cells wide or more: a tap on the
        # first takes one of it into the set being built.
        columns = [x for x in range(hand.size.width) if hand.index_at(x) == 0]
        assert len(columns) >= 2 and all(hand.index_at(x) is not None for x in columns)
        assert board.picker.tiles() == []  # type: ignore[attr-defined]
        await pilot.click(hand, offset=(columns[0], hand.size.height // 2))
        await settle(pilot)
        assert board.picker.tiles() == [board.picker.groups[0][0]]  # type: ignore[attr-defined]
        # And by the keys: the first play the board offers goes out (or a pass, if none fits).
        sent = record_moves_sent(screen)
        await pilot.press("c", "down")
        move = board.picker.move()  # type: ignore[attr-defined]
        await pilot.press("enter" if move is not None else "p")
        await until_sent(pilot, sent, 1)
        assert sent == [move or {"type": "pass"}]
