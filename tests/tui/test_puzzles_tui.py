"""Puzzles in the app and on the command line: reached from the menu by keys, solved (and
missed) by the board's own keys, rated in the store, the next one served; `tabletop-tui
puzzles GAME --list/--next/--mine` for scripts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from puzzle_cases import GAME, mined
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from tui_helpers import settle

from engines import ENGINE_IDS
from engines.search import canonical
from net.puzzles import book as puzzle_book
from net.puzzles.puzzle import Puzzle
from net.puzzles.rating import PuzzleSkill
from tui import cli
from tui.app import TabletopApp
from tui.boards.base import GameBoard
from tui.screens.menu import MENU_ITEMS, MenuScreen
from tui.screens.puzzles import PuzzleScreen

SIZE = (120, 40)


@pytest.fixture
def table_set(monkeypatch: pytest.MonkeyPatch) -> list[Puzzle]:
    """The test's own puzzles, in its own store, and no shipped set beside them."""
    monkeypatch.setattr(puzzle_book, "shipped", lambda game=None: [])
    puzzles = list(mined())
    assert len(puzzles) >= 2
    with puzzle_book.opened() as book:
        book.add(puzzles)
    return puzzles


def screen_of(pilot: Pilot[None]) -> PuzzleScreen:
    screen = pilot.app.screen
    assert isinstance(screen, PuzzleScreen), screen
    return screen


def text_of(screen: PuzzleScreen, widget: str) -> str:
    return str(screen.query_one(widget, Static).render())


async def press_move(pilot: Pilot[None], move: dict[str, Any]) -> None:
    """Make `move` with the Skip-Bo Breakers board's keys: p passes; ↓ walks the legal plays
    of the kind in hand, t turns to the next kind, enter plays the one selected."""
    board = screen_of(pilot).query_one(GameBoard)
    if move["type"] == "pass":
        await pilot.press("p")
        return
    for _kind in range(6):
        for _ in range(60):
            if canonical(board.picker.move()) == canonical(move):  # type: ignore[attr-defined]
                await pilot.press("enter")
                return
            await pilot.press("down")
        await pilot.press("t")
    raise AssertionError(f"no keys found for {move}")


def rating_of(ident: str | None) -> PuzzleSkill:
    assert ident is not None
    with puzzle_book.opened() as book:
        return book.player_rating(GAME, ident)


def puzzle_rating(puzzle: Puzzle) -> PuzzleSkill:
    with puzzle_book.opened() as book:
        return book.puzzle_rating(puzzle)


async def test_a_puzzle_from_the_menu_solved_by_keys_raises_the_player(
        table_set: list[Puzzle]) -> None:
    app = TabletopApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        app.screen.query_one("#menu", OptionList).highlighted = 0
        await pilot.press(*["down"] * MENU_ITEMS.index("puzzles"), "enter")
        await settle(pilot)
        await pilot.press(*["down"] * ENGINE_IDS.index(GAME), "enter")
        await settle(pilot)
        screen = screen_of(pilot)
        puzzle = screen.puzzle
        assert puzzle is not None and puzzle.id in {p.id for p in table_set}
        assert text_of(screen, "#puzzle-top").startswith("Puzzle: find the best move")
        board = screen.query_one(GameBoard)
        # The board is given the puzzle's view and moves, and no hint key.
        assert board.table.view == puzzle.view and board.table.legal == puzzle.legal
        assert not board.table.hints
        await pilot.press("n")  # no next puzzle before an answer
        assert screen.puzzle is puzzle and screen.answer is None
        before = rating_of(screen.ident)
        await press_move(pilot, puzzle.best[0])
        await settle(pilot)
        assert screen.answer is not None
        verdict = text_of(screen, "#puzzle-verdict")
        assert verdict.startswith("Right!")
        assert "The expert's share of the win after each" in verdict
        after = rating_of(screen.ident)
        assert after.mu > before.mu
        assert puzzle_rating(puzzle).mu < puzzle.rating
        assert f"→ {after.shown}" in verdict
        await pilot.press("n")
        await settle(pilot)
        assert screen.answer is None and screen.puzzle is not None
        assert screen.puzzle.id != puzzle.id
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, PuzzleScreen)


async def test_a_wrong_answer_lowers_the_player_and_raises_the_puzzle(
        table_set: list[Puzzle]) -> None:
    app = TabletopApp(bot_delay=0, opening=lambda: PuzzleScreen(GAME))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(pilot)
        puzzle = screen.puzzle
        assert puzzle is not None
        wrong = [m for m in puzzle.legal if not puzzle.solves(m)]
        wrong.sort(key=lambda m: m["type"] != "pass")  # a pass is one key
        await press_move(pilot, wrong[0])
        await settle(pilot)
        assert screen.answer is not None and not screen.answer[1].solved
        assert text_of(screen, "#puzzle-verdict").startswith("Not this one")
        assert rating_of(screen.ident).mu < PuzzleSkill().mu
        assert puzzle_rating(puzzle).mu > puzzle.rating
        # The board takes no second answer.
        assert screen.query_one(GameBoard).table.legal == []


async def test_with_every_puzzle_tried_the_missed_ones_come_again_unrated(
        table_set: list[Puzzle]) -> None:
    ident = puzzle_book.my_ident()
    assert ident is not None
    with puzzle_book.opened() as book:
        for puzzle in table_set:
            book.attempt(puzzle, ident, solved=puzzle is not table_set[0])
    app = TabletopApp(bot_delay=0, opening=lambda: PuzzleScreen(GAME))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(pilot)
        assert screen.puzzle == table_set[0]
        before = rating_of(ident)
        await press_move(pilot, table_set[0].best[0])
        await settle(pilot)
        assert "Not rated: you tried this puzzle before" in text_of(screen, "#puzzle-verdict")
        assert rating_of(ident) == before
        await pilot.press("n")
        await settle(pilot)
        assert screen.puzzle == table_set[0]  # the only one missed


# -- the command line ----------------------------------------------------------------------------
def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        cli.main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_lists_and_serves_puzzles_without_their_answers(
        table_set: list[Puzzle], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["puzzles", GAME, "--list", "--json"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert {row["id"] for row in rows} == {p.id for p in table_set}
    assert all(not row["tried"] for row in rows)
    code, out, _ = run_cli(["puzzles", GAME, "--next", "--json"], capsys)
    assert code == 0
    served = json.loads(out)
    assert served["id"] in {p.id for p in table_set}
    assert set(served) == {"id", "game", "seat", "rating", "view", "legal"}  # no answer
    code, out, _ = run_cli(["puzzles", GAME, "--list"], capsys)
    assert code == 0 and out.strip().endswith(f"{len(table_set)} puzzles")


def test_the_command_line_refuses_bad_input_with_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    code, _, err = run_cli(["puzzles", "chess", "--list"], capsys)
    assert code == 2 and "invalid choice: 'chess'" in err
    code, _, err = run_cli(["puzzles", GAME, "--mine", str(tmp_path / "nothing")], capsys)
    assert code == 2 and "no folder of game records" in err
    code, _, err = run_cli(["puzzles", GAME, "--list", "--iterations", "500"], capsys)
    assert code == 2 and "--iterations goes with --mine" in err
    code, _, err = run_cli(["puzzles", GAME, "--mine", "--iterations", "3"], capsys)
    assert code == 2 and "--iterations takes 10 or more, not 3" in err
    code, out, _ = run_cli(["puzzles", GAME, "--mine", str(tmp_path), "--json"], capsys)
    assert code == 0 and json.loads(out) == {"found": 0, "added": 0, "puzzles": []}


async def test_no_key_crashes_the_puzzle_screen_before_or_after_an_answer(
        table_set: list[Puzzle]) -> None:
    keys = ("1", "9", "up", "down", "left", "right", "tab", "t", "j", "c", "x", "s", "m",
            "f2", "f3", "f3", "question_mark", "escape", "n")
    app = TabletopApp(bot_delay=0, opening=lambda: PuzzleScreen(GAME))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = screen_of(pilot)
        for key in keys[:-2]:
            await pilot.press(key)
            await settle(pilot, 1)
            while app.screen is not screen:  # the rules overlay: back to the puzzle
                await pilot.press("escape")
                await settle(pilot, 1)
        assert screen.answer is None and screen.puzzle is not None
        await press_move(pilot, screen.puzzle.best[0])
        await settle(pilot)
        assert screen.answer is not None
        for key in ("enter", "space", "p", "down", "f3", "f3"):
            await pilot.press(key)
            await settle(pilot, 1)
        assert screen.answer is not None and app.is_running
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)


async def test_the_puzzle_screen_speaks_german(table_set: list[Puzzle]) -> None:
    app = TabletopApp(bot_delay=0, lang="de", opening=lambda: PuzzleScreen(GAME))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(pilot)
        assert text_of(screen, "#puzzle-top").startswith("Rätsel: finde den besten Zug")
        assert screen.puzzle is not None
        await press_move(pilot, screen.puzzle.best[0])
        await settle(pilot)
        assert text_of(screen, "#puzzle-verdict").startswith("Richtig!")


async def test_the_command_opens_the_puzzle_screen_and_says_when_there_are_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(puzzle_book, "shipped", lambda game=None: [])
    args = cli.build_parser().parse_args(["puzzles", GAME])
    opening = args.command_run(args)
    assert opening is not None
    app = TabletopApp(bot_delay=0, opening=opening)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(pilot)
        assert screen.puzzle is None
        assert "no puzzles of Skip-Bo Breakers here yet" in text_of(screen, "#puzzle-top")
        for key in ("n", "enter", "down", "p"):
            await pilot.press(key)
        await settle(pilot)
        assert app.screen is screen


async def test_a_window_too_small_for_the_board_says_so_and_the_hidden_board_takes_no_key(
        table_set: list[Puzzle]) -> None:
    app = TabletopApp(bot_delay=0, opening=lambda: PuzzleScreen(GAME))
    async with app.run_test(size=(40, 30)) as pilot:  # a phone held upright
        await settle(pilot)
        screen = screen_of(pilot)
        assert screen.has_class("-too-small")
        assert "Turn your phone sideways" in str(screen.query_one("#too-small",
                                                                   Static).render())
        for key in ("p", "down", "enter", "space"):
            await pilot.press(key)
        await settle(pilot)
        assert screen.answer is None
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        assert not screen.has_class("-too-small")
        assert screen.puzzle is not None
        await press_move(pilot, screen.puzzle.best[0])
        await settle(pilot)
        assert screen.answer is not None and screen.answer[1].solved


@pytest.mark.parametrize("game", ENGINE_IDS)
async def test_every_games_shipped_puzzle_takes_keys_and_an_answer_without_a_crash(
        game: str) -> None:
    keys = ("1", "9", "up", "down", "left", "right", "tab", "m", "space", "enter", "a", "z",
            "p", "t", "x", "n")
    app = TabletopApp(bot_delay=0, opening=lambda: PuzzleScreen(game))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(pilot)
        assert screen.puzzle is not None and screen.puzzle.game == game
        for key in keys:
            await pilot.press(key)
            await settle(pilot, 1)
            while app.screen is not screen:  # a board's list or card text: closed again
                await pilot.press("escape")
                await settle(pilot, 1)
        if screen.answer is None:  # no key above made a move: the best move, as a board would
            screen.query_one(GameBoard).post_message(GameBoard.MoveChosen(screen.puzzle.best[0]))
            await settle(pilot)
        assert screen.answer is not None and app.is_running
        assert "The expert's share of the win after each" in text_of(screen, "#puzzle-verdict")
