"""What the SSH table's fork server changes in the app (tui.preload): the stylesheets parsed once
for every session look exactly as parsed afresh, in every theme; and a MemoryError that
Textual catches ends the session with the fork server's line instead of a traceback."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.css.stylesheet import Stylesheet
from textual.widgets import Static
from textual.widgets._toast import Toast

from net.ssh import inside
from themes import THEME_NAMES
from tui import cli, preload
from tui.app import TabletopApp


@pytest.fixture
def patches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a test installs on Textual's classes is taken off again after it."""
    monkeypatch.setattr(Stylesheet, "_parse_rules", Stylesheet._parse_rules)
    monkeypatch.setattr(App, "_handle_exception", App._handle_exception)
    monkeypatch.setattr(App, "_display", App._display)


async def rules_in(theme: str) -> list[str]:
    app = TabletopApp(theme=theme)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        return [repr(([selectors.css for selectors in rule.selector_set],
                      sorted(rule.styles.get_rules().items())))
                for rule in app.stylesheet.rules]


@pytest.mark.usefixtures("patches")
async def test_shared_css_parses_are_the_same_as_fresh_ones_in_every_theme(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fresh = {theme: await rules_in(theme) for theme in THEME_NAMES}
    assert len({tuple(rules) for rules in fresh.values()}) == len(THEME_NAMES)
    preload.share_css_parses()
    assert {theme: await rules_in(theme) for theme in THEME_NAMES} == fresh
    # Once parsed, a stylesheet is never parsed again, in any app of the process.
    parses: list[object] = []
    monkeypatch.setattr(preload, "_parse", lambda *args: parses.append(args))
    assert {theme: await rules_in(theme) for theme in THEME_NAMES} == fresh
    assert parses == []


class Hungry(App[None]):
    """An app whose key `m` runs out of memory in a handler, and `w` in a worker thread."""

    BINDINGS = [("m", "starve"), ("w", "starve_worker")]  # noqa: RUF012 - Textual's own style

    def compose(self) -> ComposeResult:
        yield Static("hungry")

    def action_starve(self) -> None:
        raise MemoryError

    def action_starve_worker(self) -> None:
        def starve() -> None:
            raise MemoryError

        self.run_worker(starve, thread=True)


@pytest.mark.usefixtures("patches")
@pytest.mark.parametrize("key", ["m", "w"])
async def test_a_memory_error_textual_catches_ends_the_session(
    key: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    ended: list[str] = []
    monkeypatch.setattr(preload, "out_of_memory", lambda: ended.append("out of memory"))
    preload.end_out_of_memory()
    app = Hungry()
    with pytest.raises(Exception) as raised:  # Textual re-raises what it caught
        async with app.run_test() as pilot:
            await pilot.press(key)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
    assert preload.caused_by_memory(raised.value)
    assert ended == ["out of memory"]


def test_only_memory_errors_and_what_they_caused_count() -> None:
    try:
        try:
            raise MemoryError
        except MemoryError as exc:
            raise RuntimeError("while drawing") from exc
    except RuntimeError as caused:
        assert preload.caused_by_memory(caused)
    assert not preload.caused_by_memory(ValueError("no"))
    assert not preload.caused_by_memory(None)


@pytest.mark.usefixtures("patches")
def test_after_warming_a_keyless_session_parses_no_stylesheet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the fork server paints while warming is what a session shows first: a keyless
    player's menu with its note, with tooltips and notifications, parsed once for all."""
    preload.share_css_parses()
    preload._paint_menu()
    parsed: list[object] = []
    parse = preload._parse

    def parsing(*args: Any) -> Any:
        parsed.append(args[2])  # where the stylesheet was read from
        return parse(*args)

    monkeypatch.setattr(preload, "_parse", parsing)
    monkeypatch.setenv(inside.KEYLESS_ENV, "1")

    async def session() -> None:
        app = TabletopApp(lang="en")
        async with app.run_test(size=preload.WARM_SIZE, tooltips=True,
                                notifications=True) as pilot:
            for _ in range(50):  # until the keyless player's note shows
                await pilot.pause()
                if app.query(Toast):
                    break
            assert app.query(Toast)

    asyncio.run(session())
    assert parsed == []


def test_the_command_line_parser_is_built_once_and_parsing_leaves_it_as_it_was() -> None:
    """The fork server builds it for every session (a session's app parses its own line)."""
    parser = cli.build_parser()
    assert cli.build_parser() is parser
    first = parser.parse_args(["play", "schoene", "--bots", "2"])
    assert parser.parse_args(["--lang", "de"]).command is None
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "no_such_game"])
    assert parser.parse_args(["play", "schoene", "--bots", "2"]) == first
