"""Whole games through the real app: keys in, screens out."""

from __future__ import annotations

import dataclasses
import itertools

from textual.widgets import Static
from tui_helpers import (
    MAX_STEPS,
    choose_key,
    game_screen,
    local_link,
    open_lobby,
    settle,
    wait_for_board,
)

from engines import get_engine
from net.table.session import SeatInfo
from tui.app import TabletopApp, local_app
from tui.boards.base import GameBoard
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.lobby import LocalGame
from tui.screens.results import ResultsScreen
from tui.widgets import ActionBar


def text_of(widget: Static) -> str:
    return str(widget.render())


async def play_to_results(pilot, app: TabletopApp, by_link: bool = False,  # type: ignore[no-untyped-def]
                          steps: int = MAX_STEPS) -> None:
    """Press take/pay on what the board shows until the results screen is up; `by_link`: send
    the first legal move through the link instead (any game, when the play is not what a test
    is about)."""
    for _ in range(steps):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, ResultsScreen):
            return
        if isinstance(screen, HandoffScreen):
            await pilot.press("enter")
            continue
        if by_link:
            table = screen.latest if isinstance(screen, GameScreen) else None
            if table is not None and table.legal and table.seat in table.view["to_act"]:
                await screen.link.send_move(table.seat, table.legal[0], table.state_no)
            continue
        boards = screen.query(GameBoard)
        if boards:
            board = boards.first()
            if board.table.seat in board.table.view["to_act"]:
                await pilot.press(choose_key(board))
    raise AssertionError("the game did not reach the results screen")


async def test_whole_game_against_bots_with_keys() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=11, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        session = local_link(app).session
        await play_to_results(pilot, app)
        result = session.result()
        assert session.over
        assert any(seat == 0 for seat, _ in session.moves), "the human never moved"
        screen = app.screen
        for seat, score in enumerate(result["scores"]):
            shown = text_of(screen.query_one(f"#score-{seat}", Static))
            assert shown.split()[0] == str(score)
        won = text_of(screen.query_one("#results-won", Static))
        names = [s.name for s in session.seats]
        for seat in range(len(names)):
            assert (names[seat] in won) == (seat in result["winners"])


async def test_rematch_keeps_seats_and_options_with_a_new_shuffle() -> None:
    app = local_app(
        "schoene", 1, 2, "random", seed=5, options={"lucky_pig": False}, bot_delay=0
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        first = local_link(app).session
        await play_to_results(pilot, app)
        await pilot.press("r")
        await wait_for_board(pilot)
        second = local_link(app).session
        assert second is not first
        # The same people in the same seats; each proves itself again for the new deal.
        people = [dataclasses.replace(seat, sig=None) for seat in first.seats]
        assert [dataclasses.replace(seat, sig=None) for seat in second.seats] == people
        assert second.seats[0].sig != first.seats[0].sig
        assert second.options == first.options
        assert second.seed != first.seed
        assert isinstance(app.screen, GameScreen)


async def test_lobby_options_reach_the_engine() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await open_lobby(pilot, "schoene")
        await pilot.click("#opt-lucky_pig")  # the expansion, on by default: off
        await pilot.click("#seed")
        await pilot.press(*"42")
        await pilot.click("#start")
        board = await wait_for_board(pilot)
        session = local_link(app).session
        assert session.options == {"lucky_pig": False}
        assert session.seed == 42
        assert board.table.view["lucky_pig"] is False
        assert get_engine("schoene").view(session.state, 0)["lucky_pig"] is False
        # No pig key in the footer, no pig button, and pressing g changes nothing.
        keys = {b.binding.key for b in app.screen.active_bindings.values()}
        assert "g" not in keys and "t" in keys
        assert not board.query_one(ActionBar).query_one("#act-pig").display
        for _ in range(50):
            if board.table.seat in board.table.view["to_act"]:
                break
            await pilot.pause()
        moves = len(session.moves)
        await pilot.press("g")
        await settle(pilot)
        assert len(session.moves) == moves


async def test_lobby_refuses_a_bad_seed_and_stays() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "enter")
        await settle(pilot)
        lobby = app.screen
        await pilot.click("#add")
        await settle(pilot)
        assert len(lobby.rows) == 4  # type: ignore[attr-defined]
        await pilot.click("#seed")
        await pilot.press("-", "3")
        await pilot.click("#start")
        await settle(pilot)
        assert app.screen is lobby
        assert "seed" in text_of(app.screen.query_one("#lobby-error", Static))
        assert not any(isinstance(s, GameScreen) for s in app.screen_stack)


async def test_hot_seat_hides_the_table_between_people() -> None:
    app = local_app("schoene", 2, 1, "strong", seed=3, options={}, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        handed_to: list[str] = []
        seats_shown: list[int] = []
        for _ in range(MAX_STEPS):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, HandoffScreen):
                # Nothing of the table is on the handoff screen.
                assert not screen.query(GameBoard)
                shot = app.export_screenshot()
                assert "score&#160;now" not in shot and "on&#160;the&#160;card" not in shot
                assert screen.player in shot.replace("&#160;", " ")
                handed_to.append(screen.player)
                await pilot.press("enter")
                await settle(pilot)
                board = app.screen.query_one(GameBoard)
                seats_shown.append(board.table.seat)  # type: ignore[arg-type]
                assert board.table.name(board.table.seat) == handed_to[-1]
                if len(set(seats_shown)) == 2:
                    break
                continue
            boards = screen.query(GameBoard)
            if boards and boards.first().table.seat in boards.first().table.view["to_act"]:
                await pilot.press(choose_key(boards.first()))
        assert set(seats_shown) == {0, 1}
        assert handed_to[0] != handed_to[-1]
        # Consecutive handoffs always name a different person.
        assert all(a != b for a, b in itertools.pairwise(handed_to))
        assert game_screen(app).link.seats == [0, 1]


async def test_names_that_look_like_markup_are_shown_as_typed() -> None:
    """Names are plain text everywhere (handoff, table, log, results): a person called "[/]"
    once crashed the app on the first screen that showed the name."""
    seats = [SeatInfo(name="[/]"), SeatInfo(name="Bo", bot="random"),
             SeatInfo(name="[b]x", bot="random")]
    app = TabletopApp(lang="en", start=LocalGame("schoene", seats, {}, 7), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(HandoffScreen("[/]"))  # the handoff names the next person too
        await settle(pilot)
        assert "[/]" in app.export_screenshot().replace("&#160;", " ")
        await pilot.press("enter")
        await play_to_results(pilot, app)
        shot = app.export_screenshot().replace("&#160;", " ")
        for name in ("[/]", "[b]x"):
            assert name in shot
        rows = " ".join(text_of(who) for who in app.screen.query(".who").results(Static))
        assert "[/]" in rows and "[b]x" in rows


async def test_quitting_the_app_from_a_game_stops_its_bots() -> None:
    # A bot moves first and takes its time, so its task is waiting when the app quits.
    app = local_app("schoene", 1, 2, "random", seed=3, options={"first": 1}, bot_delay=30)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        bots = local_link(app)._bots
        assert bots is not None and not bots.done()
        await pilot.press("ctrl+q")
    assert bots.cancelled()
