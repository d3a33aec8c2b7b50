"""Shared test setup. The interface language is process-wide state (tui.i18n), so every test
starts in English whatever the previous one switched to."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    yield
    try:
        from tui import i18n
    except ImportError:  # a checkout without the TUI
        return
    i18n.set_language("en")
