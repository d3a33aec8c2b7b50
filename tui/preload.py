"""The app as the SSH table's fork server (net.ssh.forkserver) runs it: `warm()` once in the
fork server, then `main(argv)` (the command line's) in each session's forked child.

Whatever `warm()` imports or builds is done once and shared by every session copy-on-write:
every module of the app and the games, the command line's parser, and the main menu painted
once without a terminal in every theme, which fills Textual's and Rich's caches and (through
`share_css_parses`) the parsed stylesheets, the largest part of an app's start. It leaves no
thread running and no file open (a forked child would have neither).
"""

from __future__ import annotations

import asyncio
import importlib
import os
import pkgutil
import tempfile
from typing import Any

import textual.constants
from rich.console import RenderableType
from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen
from textual.worker import WorkerFailed

import engines
import themes
import tui
from net.ssh import inside
from net.ssh.forkserver import out_of_memory, started
from net.web import inside as web_inside
from themes import THEME_NAMES
from tui import cli
from tui.app import TabletopApp

__all__ = ["SAYS_STARTED", "end_out_of_memory", "main", "say_started", "share_css_parses", "warm"]

# A session tells the fork server when its first screen is on the terminal (see say_started).
SAYS_STARTED = True

# Modules an app imports only once it runs on a terminal, which warming does not have.
TERMINAL_MODULES = ("textual.drivers.linux_driver",)
WARM_SIZE = (100, 30)


def main(argv: list[str]) -> None:
    """A session's app. In a browser tab (net.web) its stderr is first put out of its packets'
    way, and Textual reads its settings again: it read them from the fork server's environment
    at import, and a tab's app needs the web driver its own environment names."""
    if web_inside.in_browser():
        web_inside.quiet_stderr()
        importlib.reload(textual.constants)
    cli.main(argv)


def warm() -> None:
    """Import every module of the app, the games and the themes; build the command line's
    parser; paint the menu once."""
    for package in (tui, engines, themes):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    for name in TERMINAL_MODULES:
        importlib.import_module(name)
    for engine_id in engines.ENGINE_IDS:
        engines.get_engine(engine_id)
    cli.build_parser()
    share_css_parses()
    end_out_of_memory()
    say_started()
    _paint_menu()


# Textual's own parser of a stylesheet's source, and every parse it made in this process, by
# source and theme variables (see share_css_parses).
_parse = Stylesheet._parse_rules
_parsed: dict[tuple[Any, ...], list[RuleSet]] = {}


def share_css_parses() -> None:
    """Textual parses an app's stylesheets afresh for each app (a quarter of a session's start):
    keep every parse for the whole process, so that the parses made while warming serve every
    child. A parse is never changed once made (Textual itself hands the same one to each of its
    parses of a source)."""
    Stylesheet._parse_rules = _shared_parse  # type: ignore[method-assign]


def _shared_parse(sheet: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                  tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
    key = (css, read_from, is_default_rules, tie_breaker, scope,
           tuple(sorted(sheet._variables.items())))
    rules = _parsed.get(key)
    if rules is None:
        rules = _parsed[key] = _parse(sheet, css, read_from, is_default_rules, tie_breaker, scope)
    return rules


def say_started() -> None:
    """An app has started once it has drawn its first screen on its terminal: then the fork
    server forks the next session waiting (net.ssh.forkserver starts sessions in turn)."""
    App._display = _display  # type: ignore[method-assign]


_textual_display = App._display


def _display(app: App[Any], screen: Screen[Any], renderable: RenderableType | None) -> None:
    _textual_display(app, screen, renderable)
    if renderable is not None and not app.is_headless:
        started()


def end_out_of_memory() -> None:
    """A session whose app runs out of memory (its cap, see net.ssh.forkserver) ends at once
    with the fork server's line. Textual would catch the MemoryError of a handler or a worker
    to draw its traceback, which cannot be drawn then, and leave the terminal as it was."""
    App._handle_exception = _handle_exception  # type: ignore[method-assign]


_textual_handle_exception = App._handle_exception


def _handle_exception(app: App[Any], error: Exception) -> None:
    if caused_by_memory(error):
        out_of_memory()
    _textual_handle_exception(app, error)


def caused_by_memory(error: BaseException | None) -> bool:
    """Whether `error` is a MemoryError or was raised by one (a worker's, say)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, MemoryError):
            return True
        seen.add(id(error))
        error = (error.error if isinstance(error, WorkerFailed)
                 else error.__cause__ or error.__context__)
    return False


def _paint_menu() -> None:
    """The main menu as a session shows it, without a terminal, in every theme; in a scratch
    data directory. As a keyless player's: with its note (a toast), and with what every screen
    of a session has (tooltips and notifications, which a test run leaves out), so that their
    code and stylesheets are warm too."""

    async def paint() -> None:
        app = TabletopApp(lang="en")
        async with app.run_test(size=WARM_SIZE, tooltips=True, notifications=True) as pilot:
            for theme in THEME_NAMES:
                app.theme = theme
                await pilot.pause()

    saved = {name: os.environ.get(name)
             for name in ("TABLETOP_TUI_HOME", "TABLETOP_TUI_CONFIG", inside.KEYLESS_ENV)}
    with tempfile.TemporaryDirectory(prefix="tabletop-warm-") as scratch:
        os.environ["TABLETOP_TUI_HOME"] = os.path.join(scratch, "data")
        os.environ["TABLETOP_TUI_CONFIG"] = os.path.join(scratch, "config")
        os.environ[inside.KEYLESS_ENV] = "1"
        try:
            asyncio.run(paint())
            asyncio.set_event_loop_policy(None)  # as a fresh process has it: none set yet
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
