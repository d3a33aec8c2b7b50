"""What the app does as it starts, which every SSH session pays for (see bench/ssh.py): the
menu is its first screen, with nothing beneath it, and a player without game records starts
no thread to count them into the ladder."""

from __future__ import annotations

import pytest

from net.players import ladder
from net.records import store as record_files
from tui.app import TabletopApp
from tui.screens.menu import MenuScreen


async def catch_ups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The app started and left idle: each time it caught up with the records here."""
    caught: list[str] = []
    monkeypatch.setattr(ladder, "catch_up_here", lambda: caught.append("caught up"))
    app = TabletopApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert app.screen_stack == [app.screen]
        assert isinstance(app.screen, MenuScreen)
    return caught


async def test_the_menu_is_the_first_screen_and_a_new_player_starts_no_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert await catch_ups(monkeypatch) == []


async def test_a_player_with_records_has_them_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    (record_files.records_dir() / "20260101-000000-schoene.jsonl").write_text("")
    assert await catch_ups(monkeypatch) == ["caught up"]
