"""Scho K.O. at the table, driven with keys: a whole game with a turned and a level-2 tile, the
ghost's verdicts, the group highlight and the larger drawing in a large terminal; and the table
as a player reads it: solid chocolate in framed tiles, level 2 that looks raised, each player's
last tile marked, hints in the table's words, the final table on the results screen."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from rich.color import Color
from textual.widgets import Static
from tui_helpers import MAX_STEPS, game_screen, local_link, open_lobby, settle, wait_for_board

from engines import get_engine
from engines.schoko.engine import REASONS
from engines.schoko.tiles import DECK
from net.table import clocks
from tui.app import TabletopApp, local_app
from tui.boards.base import GameBoard
from tui.boards.schoko.events import placement_words
from tui.boards.schoko.final import FinalTable
from tui.boards.schoko.text import TEXTS
from tui.screens.results import ResultsScreen
from tui.widgets import EventLog, PlayerArea
from tui.widgets.grid import GridCanvas
from tui.widgets.hint_line import HintLine

ENG = get_engine("schoko")
# Seat 0 (the person) holds one Smartie tile among plain ones; every other Smartie tile waits
# at the bottom of the pile, so the level-1 tiles under a level-2 spot are plain ones.
HAND = ["w3", "w2", "w2s", "w1"]


# A spot said by coordinates, e.g. "0,-2".
COORDINATES = re.compile(r"-?\d+,-?\d+")


def stack() -> list[str]:
    rest = list((Counter(DECK) - Counter(HAND)).elements())
    rest.sort(key=lambda t: t.endswith("s"))
    return HAND + rest


def app_for(size_seed: int = 3, theme: str | None = None, bot_delay: float = 0) -> Any:
    options = {"stack": stack(), "first": 0}
    return local_app(
        "schoko", 1, 1, "random", seed=size_seed, options=options, lang="en", theme=theme,
        bot_delay=bot_delay,
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
        counts: set[str] = set()
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
            board = app.screen.query_one(GameBoard)
            counts |= {str(area.border_subtitle) for area in board.query(PlayerArea)}
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
        # A hand of one reads "1 tile".
        assert any(c.startswith("1 tile ") for c in counts)
        assert not any("1 tiles" in c for c in counts)
        # The results show the table as it ended, every piece of it, in the room there is.
        final = app.screen.query_one(FinalTable)
        ended = ENG.view(session.state, None)["cells"]
        assert final.picture.cells == {(x, y): (c, level) for x, y, c, level in ended}
        assert final.region.height >= 4 and final.region.bottom <= 23


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
        # The board has no axes: the words never name a spot by coordinates ("at -2,-1"),
        # the outline shows it.
        assert "in the outline" in status(app) and not COORDINATES.search(status(app))
        await pilot.press("enter")
        await settle(pilot)
        assert session.moves[-1][0] == 0 or session.moves[-2][0] == 0
        said = app.screen.query_one("#log", EventLog).texts
        assert any("You lay" in line for line in said)
        assert not any(COORDINATES.search(line) for line in said), said


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


async def test_the_colour_is_chosen_with_a_button_too() -> None:
    """Choosing the colour had keys only (w, d): a mouse, or a finger on a phone's browser,
    had no button for it. While choosing, the bar offers White and Dark; then the tiles'."""
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await wait_for_board(pilot)
        session = local_link(app).session
        shown = {b.id for b in board.query("ActionBar ActionButton") if b.display}
        assert shown == {"act-white", "act-dark"}
        await pilot.click("#act-dark")
        await settle(pilot)
        assert (0, {"type": "colour", "colour": "dark"}) in session.moves
        shown = {b.id for b in board.query("ActionBar ActionButton") if b.display}
        assert {"act-lay", "act-rotate"} <= shown and "act-white" not in shown


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


# -- the table as a player reads it ------------------------------------------------------------
def luminance(colour: Color) -> float:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = colour.get_truecolor()
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: Color, b: Color) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def drawn(canvas: GridCanvas, cell: tuple[int, int], dx: int = 0, dy: int = 0) -> Any:
    """(character, rich style) drawn at terminal offset (dx, dy) inside grid cell `cell`."""
    (w, h), (ox, oy) = canvas.cell, canvas.origin
    col, row = (cell[0] - ox) * w + dx % w, (cell[1] - oy) * h + dy % h
    at = 0
    for segment in canvas.render_line(row):
        if at <= col < at + len(segment.text):
            return segment.text[col - at], segment.style
        at += len(segment.text)
    raise AssertionError(f"nothing drawn at {cell}")


def tile_cell(board: GameBoard, index: int, dx: int = 0, dy: int = 0) -> tuple[int, int]:
    tile = board.table.view["tiles"][index]
    return tile["x"] + dx, tile["y"] + dy


async def two_tiles_down(pilot: Any, app: Any) -> GameBoard:
    """Colour chosen, my first tile and the bot's first tile laid: my turn again."""
    await wait_for_board(pilot)
    await pilot.press("w", "enter")
    await settle(pilot)
    board = app.screen.query_one(GameBoard)
    assert await my_turn(pilot, board)
    return board


@pytest.mark.parametrize("theme", ["default", "high-contrast"])
async def test_chocolate_is_solid_and_far_apart_in_both_themes(theme: str) -> None:
    app = app_for(theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await two_tiles_down(pilot, app)
        canvas = app.screen.query_one(GridCanvas)
        colours = app.get_css_variables()
        grounds = {}
        for (x, y), (colour, level) in board.picture.cells.items():
            if level == 1 and (x, y) not in board.picture.ghost:
                char, style = drawn(canvas, (x, y), 1, 0)
                assert char not in "░▒▓█"  # no stipple: a solid piece
                grounds[colour] = style.bgcolor
        white, dark = grounds["white"], grounds["dark"]
        assert white == Color.parse(colours["choc-white"])
        assert dark == Color.parse(colours["choc-dark"])
        felt = Color.parse(colours["felt"])
        assert contrast(white, dark) >= 4.5 and contrast(white, felt) >= 4.5
        assert dark != felt


async def test_every_tile_is_framed_and_each_players_last_tile_carries_their_initial() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await two_tiles_down(pilot, app)
        canvas = app.screen.query_one(GridCanvas)
        tiles = board.table.view["tiles"]
        assert [t["seat"] for t in tiles] == [0, 1]
        # My last tile and the bot's: each one's initial in its top-left corner, on a frame
        # of double lines in that player's colour.
        for index, letter in ((0, "Y"), (1, "B")):
            char, _ = drawn(canvas, tile_cell(board, index))
            assert char == letter
            assert drawn(canvas, tile_cell(board, index, 1, 1), -1, -1)[0] == "╝"
        await pilot.press("n", "enter")
        await settle(pilot)
        assert await my_turn(pilot, board)
        # The first tile is no one's last any more: a plain frame, corner to corner.
        assert drawn(canvas, tile_cell(board, 0))[0] == "┌"
        assert drawn(canvas, tile_cell(board, 0, 1, 1), -1, -1)[0] == "┘"
        assert [drawn(canvas, tile_cell(board, i))[0] for i in (2, 3)] == ["Y", "B"]


async def test_a_tile_on_level_two_looks_raised() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await two_tiles_down(pilot, app)
        canvas = app.screen.query_one(GridCanvas)
        colours = app.get_css_variables()
        for _ in range(20):
            top = [m for m in board.table.legal if m.get("level") == 2]
            if top:
                break
            await pilot.press(str(board.table.view["hand"].index("w1") + 1), "n", "enter")
            await settle(pilot)
            assert await my_turn(pilot, board)
        await pilot.press(str(board.table.view["hand"].index("w2s") + 1), "l", "n", "enter")
        await settle(pilot)
        assert await my_turn(pilot, board)
        await pilot.press("1", "n", "enter")  # one more tile: the raised one is not my last
        await settle(pilot)
        assert await my_turn(pilot, board)
        index = next(i for i, t in enumerate(board.table.view["tiles"]) if t["level"] == 2)
        assert drawn(canvas, tile_cell(board, index, 1, 0), -1, 0)[0] == "┓"
        assert drawn(canvas, tile_cell(board, index, 0, 1), 0, -1)[0] == "┗"
        colour, _ = board.picture.cells[tile_cell(board, index, 1, 1)]
        _, style = drawn(canvas, tile_cell(board, index, 1, 1), -2, -1)
        assert style.bgcolor == Color.parse(colours[f"choc-{colour}-top"])
        assert style.bgcolor != Color.parse(colours[f"choc-{colour}"])


async def test_the_board_fills_a_large_terminal() -> None:
    app = app_for()
    async with app.run_test(size=(160, 50)) as pilot:
        await two_tiles_down(pilot, app)
        canvas = app.screen.query_one(GridCanvas)
        assert canvas.cell[0] >= 8  # two tiles: each piece drawn large
        for _ in range(5):
            board = app.screen.query_one(GameBoard)
            assert await my_turn(pilot, board)
            await pilot.press("n", "enter")
        await settle(pilot, 5)
        xs = [x for x, _ in board.picture.cells]
        ys = [y for _, y in board.picture.cells]
        width = (max(xs) - min(xs) + 1) * canvas.cell[0]
        height = (max(ys) - min(ys) + 1) * canvas.cell[1]
        # A dozen tiles fill most of the room in one direction or the other.
        assert width >= 0.6 * canvas.size.width or height >= 0.6 * canvas.size.height


async def test_the_colour_samples_and_the_legend_draw_chocolate_as_it_lies() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await two_tiles_down(pilot, app)
        colours = app.get_css_variables()
        legend = board.query_one("#legend", Static)
        assert not set("░▒▓█") & set(str(legend.render()))
        for seat, colour in ((0, "white"), (1, "dark")):
            info = board.query_one(f"#info-{seat}", Static)
            grounds = {seg.style.bgcolor for seg in info.render_line(0) if seg.text == "  "}
            assert Color.parse(colours[f"choc-{colour}"]) in grounds


async def test_a_bot_waits_longer_here_so_its_tile_can_be_seen_landing() -> None:
    for game, pace in (("schoko", 2.0), ("skipbo_breakers", 1.0)):
        app = local_app(game, 1, 1, "random", seed=3, lang="en", bot_delay=0.5)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_board(pilot)
            assert local_link(app).bot_delay == 0.5 * pace


async def test_a_hint_names_the_placement_as_the_table_does_and_moves_the_ghost_there() -> None:
    """The hint said "at -2,-1" on a board with no axes: it says where by the tile's outline,
    which it moves there."""
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await two_tiles_down(pilot, app)
        line = game_screen(app).query_one(HintLine)
        await pilot.press("h")
        for _ in range(300):
            await pilot.pause(0.05)
            final = [n for n in line.said if "of the search's playouts" in n]
            if final:
                break
        else:
            raise AssertionError("no hint arrived")
        assert not any(tile in final[0].split() for tile in set(DECK))  # no tile ids
        assert not re.search(r"-?\d+,-?\d+", final[0])  # no coordinates the board lacks
        assert "where its outline now is" in final[0]
        ghost = board.ghost
        assert ghost is not None and ghost.move() in board.table.legal
        assert final[0].startswith(f"Hint: {placement_words(ghost.move())}: ")
        assert TEXTS["en"]["schoko.fits"] in status(app)


async def test_a_game_of_exactly_two_offers_no_seats_to_add_or_remove() -> None:
    for game, buttons in (("schoko", 0), ("skipbo_breakers", 2)):
        app = TabletopApp(lang="en", bot_delay=0)
        async with app.run_test(size=(100, 40)) as pilot:
            await open_lobby(pilot, game)
            assert len(app.screen.query("#add, #remove")) == buttons


async def test_the_final_table_is_drawn_in_tiles_beside_the_results_at_120x36() -> None:
    """Under the results and their statistics the final table had 8 rows at 120×36 and was
    a blob of half-blocks: a wide window sets it beside them, drawn in framed tiles."""
    app = local_app("schoko", 1, 1, "random", seed=3, lang="en", bot_delay=0,
                    clock=clocks.per_move(0.05))  # the bot plays for the person, quickly
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(MAX_STEPS):
            await pilot.pause(0.02)
            if isinstance(app.screen, ResultsScreen):
                break
        else:
            raise AssertionError("the game did not reach the results screen")
        await settle(pilot)
        final = app.screen.query_one(FinalTable)
        assert final.piece_cell() is not None  # tiles, not half-blocks
        rows = app.screen.query_one("#results-rows")
        assert final.region.x >= rows.region.right  # beside the rows
        assert final.region.bottom <= 36 - 1
