"""`tabletop-tui puzzles GAME`: the puzzle screen for one game, or, for scripts and a
table's operator, the puzzles listed (`--list`), the next one this player would be served
(`--next`, without its answer), or a table's own puzzles mined from its counted records into
its store (`--mine [DIR]`)."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from engines import ENGINE_IDS

# The smallest budget a check may have: fewer iterations tell the moves apart by chance.
LEAST_ITERATIONS = 10

if TYPE_CHECKING:
    from textual.screen import Screen

    from net.puzzles.book import PuzzleBook
    from net.puzzles.puzzle import Puzzle


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "puzzles", help="solve a game's puzzles (positions with one clearly best move)",
        epilog="Puzzles are rated as Lichess rates them: the puzzle is your opponent, a solve "
        "is your win. Without --list, --next or --mine the puzzle screen opens.")
    parser.add_argument("game", choices=ENGINE_IDS, metavar="GAME",
                        help=f"one of: {', '.join(ENGINE_IDS)}")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="list the puzzles and their ratings")
    what.add_argument("--next", action="store_true",
                      help="print the puzzle you would be served next (not its answer)")
    what.add_argument("--mine", nargs="?", const="", default=None, metavar="DIR",
                      help="add puzzles from the counted records in DIR (default: this data "
                      "directory's) to the table's store")
    parser.add_argument("--iterations", type=int, default=None,
                        help="with --mine: the check's budget (default: the game's expert's "
                        "iterations, times four)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.set_defaults(command_run=run)


def fail(message: str) -> NoReturn:
    print(f"tabletop-tui: {message}", file=sys.stderr)
    raise SystemExit(2)


def _say(text: str) -> None:
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        pass


def run(args: argparse.Namespace) -> Callable[[], Screen[Any]] | None:
    """Do what the command line asks; the screen to open, if it asks for the app."""
    from net.players.store import StoreError
    from net.puzzles import book as puzzle_book
    from net.puzzles.puzzle import PuzzleError

    if args.iterations is not None and args.mine is None:
        fail("--iterations goes with --mine")
    if args.iterations is not None and args.iterations < LEAST_ITERATIONS:
        fail(f"--iterations takes {LEAST_ITERATIONS} or more, not {args.iterations}")
    if not (args.list or args.next or args.mine is not None):
        if args.json:
            fail("--json goes with --list or --next")
        from tui.screens.puzzles import PuzzleScreen

        return lambda: PuzzleScreen(args.game)
    try:
        with puzzle_book.opened() as book:
            if args.mine is not None:
                _mine(book, args)
            elif args.list:
                _list(book, args)
            else:
                _next(book, args)
    except (StoreError, PuzzleError, OSError, sqlite3.Error) as exc:
        fail(f"cannot use the puzzles: {exc}")
    return None


def _mine(book: PuzzleBook, args: argparse.Namespace) -> None:
    from net.puzzles import book as puzzle_book

    folder = Path(args.mine) if args.mine else None
    if folder is not None and not folder.is_dir():
        fail(f"{folder} is no folder of game records")
    found, added = puzzle_book.mine_table(book, args.game, folder, iterations=args.iterations)
    if args.json:
        _say(json.dumps({"found": len(found), "added": added,
                         "puzzles": [p.id for p in found]}))
    else:
        _say(f"{len(found)} puzzles found, {added} new in the table's store")


def _list(book: PuzzleBook, args: argparse.Namespace) -> None:
    from net.puzzles import book as puzzle_book

    pool = puzzle_book.pool(book, args.game)
    ratings = book.ratings(pool)
    ident = puzzle_book.my_ident()
    tried = book.tried(args.game, ident) if ident is not None else {}
    rows = [{"id": p.id, "rating": ratings[p.id].shown, "source": p.source,
             "moves": len(p.legal), "tried": p.id in tried, "solved": tried.get(p.id) is True}
            for p in sorted(pool, key=lambda p: (ratings[p.id].mu, p.id))]
    if args.json:
        _say(json.dumps(rows))
        return
    for row in rows:
        mark = "✓" if row["solved"] else ("✗" if row["tried"] else " ")
        _say(f"{mark} {row['rating']:>5}  {row['id']}  {row['source']}, "
             f"{row['moves']} moves to choose from")
    _say(f"{len(rows)} puzzles")


def _next(book: PuzzleBook, args: argparse.Namespace) -> None:
    from net.puzzles import book as puzzle_book

    ident = puzzle_book.my_ident()
    pool = puzzle_book.pool(book, args.game)
    puzzle = book.next(pool, ident)
    if puzzle is None:
        fail(f"no puzzle of {args.game} is left for you")
    rating = book.puzzle_rating(puzzle).shown
    if args.json:
        _say(json.dumps(_served(puzzle, rating)))
    else:
        _say(f"{puzzle.id} (rating {rating}): find the best move of seat {puzzle.seat + 1} "
             f"among {len(puzzle.legal)}; play it with `tabletop-tui puzzles {args.game}`")


def _served(puzzle: Puzzle, rating: int) -> dict[str, Any]:
    """A puzzle as it is served: the position, not its answer."""
    return {"id": puzzle.id, "game": puzzle.game, "seat": puzzle.seat, "rating": rating,
            "view": puzzle.view, "legal": puzzle.legal}
