"""`tabletop-tui learn GAME`: a game's lesson (tui.learn), straight from the command line;
leaving it lands in the menu, as after `play`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.learn.lesson import LESSONS

if TYPE_CHECKING:
    from textual.screen import Screen


def _lesson_game(text: str) -> str:
    if text not in LESSONS:
        raise argparse.ArgumentTypeError(
            f"no lesson for {text!r}; lessons: {', '.join(LESSONS)}")
    return text


def add_parser(sub: Any) -> None:
    """The `learn` command on the command line's subparsers."""
    learn = sub.add_parser("learn", help="learn a game: a first game that teaches its rules")
    learn.add_argument("game", type=_lesson_game, help=f"one of: {', '.join(LESSONS)}")
    learn.set_defaults(command_run=run)


def run(args: argparse.Namespace) -> Callable[[], Screen[Any]]:
    """The first screen: `args.game`'s lesson, over the menu (its bots keep the app's pace)."""
    from tui.learn.lesson import lesson_of
    from tui.learn.screen import LessonScreen

    lesson = lesson_of(args.game)
    return lambda: LessonScreen(lesson)
