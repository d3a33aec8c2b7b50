"""The local lobby: every option is named beside its field, at 80×24 too, and Esc goes back to
the game picker with the game one came from still chosen."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, Static, Switch
from tui_helpers import open_lobby, settle, wait_for_board

from engines import ENGINE_IDS, get_engine
from tui.app import TabletopApp
from tui.i18n import tr
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import GamePickerScreen

WITH_OPTIONS = [g for g in ENGINE_IDS if get_engine(g).options]


@pytest.mark.parametrize("engine_id", WITH_OPTIONS)
async def test_every_option_is_labelled_as_the_host_lobby_labels_it(engine_id: str) -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, engine_id)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.engine_id == engine_id
        for name in get_engine(engine_id).options:
            field = lobby.query_one(f"#opt-{name}", Input | Switch)
            field.focus()  # Tab would get there too; this brings the row into view
            await settle(pilot)
            label = field.parent.query_one(".option-label", Static)  # type: ignore[union-attr]
            words = tr(f"option.{engine_id}.{name}")
            assert str(label.render()).strip() == words
            # On screen, beside its field, wide enough for its words.
            assert label.region.x > field.region.right - 1
            assert label.region.right <= 80
            assert label.content_region.width >= min(len(words), 80 - label.content_region.x)
            assert field.region.width <= 14


async def test_escape_in_a_lobby_goes_back_to_the_picker_on_that_game() -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        for engine_id in ("skipbo_breakers", "chez_geek"):
            await open_lobby(pilot, engine_id)
            assert isinstance(app.screen, LobbyScreen)
            await pilot.press("escape")
            await settle(pilot)
            picker = app.screen
            assert isinstance(picker, GamePickerScreen)
            games = picker.query_one("#games", OptionList)
            assert app.focused is games
            assert games.highlighted == ENGINE_IDS.index(engine_id)
            # Enter takes the same game again; Esc twice more is the menu.
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen) and app.screen.engine_id == engine_id
            await pilot.press("escape", "escape")
            await settle(pilot)
            assert not isinstance(app.screen, GamePickerScreen | LobbyScreen)
        # The picker keeps its choice through a language switch.
        await pilot.press("enter", "down", "down", "f3")
        await settle(pilot)
        games = app.screen.query_one("#games", OptionList)
        assert games.highlighted == 2 and app.focused is games


async def test_chez_geeks_deal_for_two_is_offered_only_at_a_table_of_two() -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, "chez_geek")
        lobby = app.screen
        assert lobby.query("#opt-two_player_jobs_dealt")  # two seats: the choice is there
        for _ in range(60):
            if app.focused is not None and app.focused.id == "add":
                break
            await pilot.press("tab")
        await pilot.press("enter", "enter")  # four seats
        await settle(pilot)
        assert len(lobby.rows) == 4
        assert not lobby.query("#opt-two_player_jobs_dealt")
        assert lobby.query("#opt-window_seconds")  # the other options stay
        await pilot.press("f5")  # and the table starts, the option left as it was
        await wait_for_board(pilot)
