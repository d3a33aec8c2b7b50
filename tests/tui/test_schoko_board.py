"""Scho K.O. at the table, driven with keys: a whole game with a turned and a level-2 tile, the
ghost's verdicts, the group highlight and the larger drawing in a large terminal."""

from __future__ import annotations

from collections import Counter
from typing import Any

from textual.widgets import Static
from tui_helpers import MAX_STEPS, local_link, settle, wait_for_board

from engines import get_engine
from engines.schoko.engine import REASONS
from engines.schoko.tiles import DECK
from tui.app import local_app
from tui.boards.base import GameBoard
from tui.boards.schoko.text import TEXTS
from tui.screens.results import ResultsScreen
from tui.widgets.grid import GridCanvas

ENG = get_engine("schoko")
# Seat 0 (the person) holds one Smartie tile among plain ones; every other Smartie tile waits
# at the bottom of the pile, so the level-1 tiles under a level-2 spot are plain ones.
HAND = ["w3", "w2", "w2s", "w1"]


def stack() -> list[str]:
    rest = list((Counter(DECK) - Counter(HAND)).elements())
    rest.sort(key=lambda t: t.endswith("s"))
    return HAND + rest


def app_for(size_seed: int = 3) -> Any:
    options = {"stack": stack(), "first": 0}
    return local_app(
        "schoko", 1, 1, "random", seed=size_seed, options=options, lang="en", bot_delay=0
    )


def status(app: Any) -> str:
    return str(app.screen.query_one("#status", Static).render())


async def my_turn(pilot: Any, board: GameBoard) -> bool:
    for _ in range(50):
        if board.table.seat in board.table.view["to_act"] or board.table.view["over"]:
            return not board.table.view["over"]
        await pilot.pause()
    return False


async def test_a_whole_game_with_a_turned_and_a_level_two_tile() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await wait_for_board(pilot)
        session = local_link(app).session
        await pilot.press("w")  # white chocolate
        await settle(pilot)
        await pilot.press("r", "enter")  # the first tile, turned a quarter
        await settle(pilot)
        laid_on_top = False
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
            board = app.screen.query_one(GameBoard)
            if not await my_turn(pilot, board):
                continue
            hand = board.table.view["hand"]
            on_top = [m for m in board.table.legal if m.get("level") == 2]
            if not laid_on_top and on_top:
                await pilot.press(str(hand.index("w2s") + 1), "l", "n")
                assert board.ghost is not None and board.ghost.level == 2
                assert "fits" in status(app)
                await pilot.press("enter")
                laid_on_top = True
            else:
                # A plain tile while the Smartie tile waits for its spot on level 2.
                plain = [i for i, t in enumerate(hand) if laid_on_top or not t.endswith("s")]
                await pilot.press(str((plain or [0])[0] + 1), "n", "enter")
            await settle(pilot)
        else:
            raise AssertionError("the game did not reach the results screen")
        mine = [move for seat, move in session.moves if seat == 0]
        assert mine[0] == {"type": "colour", "colour": "white"}
        assert mine[1]["rot"] == 1 and (mine[1]["x"], mine[1]["y"]) == (0, 0)
        assert any(m.get("level") == 2 and m["tile"] == "w2s" for m in mine)
        result = session.result()
        assert len(ENG.view(session.state, None)["tiles"]) == 32
        for seat, score in enumerate(result["scores"]):
            shown = str(app.screen.query_one(f"#score-{seat}", Static).render())
            assert shown.split()[0] == str(score)


async def test_the_ghost_says_why_a_spot_is_refused_and_lays_nothing_there() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await wait_for_board(pilot)
        session = local_link(app).session
        await pilot.press("w", "enter")  # colour, then the first tile at 0,0
        await settle(pilot)
        board = app.screen.query_one(GameBoard)
        assert await my_turn(pilot, board)
        assert "fits" in status(app)
        ghost = board.ghost
        assert ghost is not None
        cases = [((0, 0), "taken"), ((2, 1), "one_contact"), ((2, 2), "corner"), ((6, 6), "apart")]
        for (x, y), code in cases:
            dx, dy = x - board.ghost.x, y - board.ghost.y
            keys = ["right"] * dx + ["left"] * -dx + ["down"] * dy + ["up"] * -dy
            await pilot.press(*keys)
            assert (board.ghost.x, board.ghost.y) == (x, y)
            # The board's words for the same code the engine raises with.
            assert TEXTS["en"][f"schoko.why.{code}"] in status(app)
            assert code in REASONS
            moves = len(session.moves)
            await pilot.press("enter")
            await settle(pilot)
            assert len(session.moves) == moves
        await pilot.press("n")
        assert "fits" in status(app)
        await pilot.press("enter")
        await settle(pilot)
        assert session.moves[-1][0] == 0 or session.moves[-2][0] == 0


async def test_the_level_key_and_a_smartie_cover() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await wait_for_board(pilot)
        await pilot.press("w", "enter")
        await settle(pilot)
        board = app.screen.query_one(GameBoard)
        assert await my_turn(pilot, board)
        hand = board.table.view["hand"]
        await pilot.press(str(hand.index("w2s") + 1), "l")
        assert board.ghost is not None and board.ghost.level == 2
        dx, dy = -board.ghost.x, -board.ghost.y
        await pilot.press(*(["right"] * dx + ["left"] * -dx + ["down"] * dy + ["up"] * -dy))
        assert TEXTS["en"]["schoko.why.one_tile"] in status(app)


async def test_largest_groups_light_up_on_demand() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        await pilot.press("w", "enter")
        await settle(pilot)
        board = app.screen.query_one(GameBoard)
        assert await my_turn(pilot, board)
        assert not board.picture.highlight
        await pilot.press("g")
        view = board.table.view
        assert len(board.picture.highlight) == view["scores"][0] > 0
        assert all(cell in board.picture.cells for cell in board.picture.highlight)
        await pilot.press("g")
        assert len(board.picture.highlight) == view["scores"][1]
        await pilot.press("g")
        assert not board.picture.highlight


async def test_a_large_terminal_draws_larger_and_a_small_one_still_fits() -> None:
    cells = []
    for size in ((80, 24), (160, 50)):
        app = app_for()
        async with app.run_test(size=size) as pilot:
            await wait_for_board(pilot)
            await pilot.press("w", "enter")
            for _ in range(6):  # a dozen tiles down
                board = app.screen.query_one(GameBoard)
                assert await my_turn(pilot, board)
                await pilot.press("n", "enter")
            await settle(pilot, 5)
            canvas = app.screen.query_one(GridCanvas)
            cells.append(canvas.cell)
            # The layout and the ghost are in view.
            board = app.screen.query_one(GameBoard)
            cols, rows = canvas.span
            ox, oy = canvas.origin
            for x, y in [*board.picture.cells, *board.picture.ghost]:
                assert ox <= x < ox + cols and oy <= y < oy + rows
    assert cells[1][0] > cells[0][0] and cells[1][1] > cells[0][1]


async def test_the_view_on_the_table_holds_only_this_seat_s_hand() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await wait_for_board(pilot)
        session = local_link(app).session
        view = board.table.view
        assert sorted(view["hand"]) == sorted(HAND)
        assert not {"hands", "pile"} & set(view)
        other = ENG.view(session.state, 1)["hand"]
        shot = app.export_screenshot()
        assert view["hand_sizes"] == [4, 4] and other != view["hand"]
        assert "Your tiles" in shot.replace("&#160;", " ")


async def test_the_mouse_moves_the_ghost_and_a_click_on_it_lays_the_tile() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        session = local_link(app).session
        await pilot.press("w", "enter")
        await settle(pilot)
        board = app.screen.query_one(GameBoard)
        assert await my_turn(pilot, board)
        ghost = board.ghost
        assert ghost is not None
        target = next(
            m
            for m in board.table.legal
            if m["tile"] == ghost.tile
            and m["rot"] == ghost.rot
            and m["level"] == 1
            and (m["x"], m["y"]) != (ghost.x, ghost.y)
        )
        canvas = app.screen.query_one(GridCanvas)
        (w, h), (ox, oy) = canvas.cell, canvas.origin
        offset = ((target["x"] - ox) * w, (target["y"] - oy) * h)
        await pilot.hover("#grid", offset=offset)
        await settle(pilot)
        assert (board.ghost.x, board.ghost.y) == (target["x"], target["y"])
        assert "fits" in status(app)
        await pilot.click("#grid", offset=offset)
        await settle(pilot)
        assert (0, target) in session.moves
