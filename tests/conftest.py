"""Shared test setup. The interface language is process-wide state (tui.i18n), so every test
starts in English whatever the previous one switched to; and every test gets its own empty
settings directory, so no test reads the developer's settings or another test's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _own_settings(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_TUI_CONFIG", str(tmp_path_factory.mktemp("config")))
    # Every local game leaves a record (Past games): never in the developer's data directory.
    monkeypatch.setenv("TABLETOP_TUI_HOME", str(tmp_path_factory.mktemp("home")))
    # pytest-xdist's workers have COLUMNS and LINES set (80x24), and an app started on a
    # terminal of the test's own size would draw at that size instead.
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    yield
    try:
        from tui import i18n
    except ImportError:  # a checkout without the TUI
        return
    i18n.set_language("en")
