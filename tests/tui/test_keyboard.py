"""Every form works from the keyboard alone: Tab and Shift+Tab reach every field, and keys
change each one (players over SSH have no mouse). Also the rules screen's scroll keys."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input, RadioSet, Select, Switch
from tui_helpers import game_screen, open_lobby, settle

from tui import prefs
from tui.app import TabletopApp
from tui.screens.handoff import HandoffScreen
from tui.screens.help import HelpScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.settings import SettingsScreen


async def tab_to(pilot: Pilot[None], widget_id: str, *, back: bool = False) -> None:
    """Press Tab (or Shift+Tab) until the widget has the focus; fail if it never does."""
    for _ in range(40):
        focused = pilot.app.focused
        if focused is not None and focused.id == widget_id:
            return
        await pilot.press("shift+tab" if back else "tab")
    raise AssertionError(f"Tab never reached #{widget_id}; focus is on {pilot.app.focused}")


async def test_the_local_lobby_is_filled_in_with_keys_alone() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, "schoene")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await tab_to(pilot, "name-0")
        await pilot.press(*"Ada")
        await tab_to(pilot, "add")
        await pilot.press("enter")  # a fourth seat
        await settle(pilot)
        assert len(lobby.rows) == 4 and app.focused is not None and app.focused.id == "add"
        await tab_to(pilot, "remove")
        await pilot.press("enter")  # and back to three
        await settle(pilot)
        assert len(lobby.rows) == 3
        # Seat 2 becomes a person at this keyboard, named Bea: hot-seat from the menu.
        await tab_to(pilot, "kind-1", back=True)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("home", "enter")  # the first choice: a person
        await settle(pilot)
        assert lobby.query_one("#kind-1", Select).value == "person"
        await tab_to(pilot, "name-1")
        await pilot.press(*"Bea")
        await tab_to(pilot, "opt-lucky_pig")
        await pilot.press("space")
        assert lobby.query_one("#opt-lucky_pig", Switch).value is False
        await tab_to(pilot, "seed")
        await pilot.press(*"42")
        await tab_to(pilot, "start")
        await pilot.press("enter")
        await settle(pilot, 5)
        assert isinstance(app.screen, HandoffScreen)  # two people share this keyboard
        link = game_screen(app).link
        names = [seat.name for seat in link.session.seats]  # type: ignore[attr-defined]
        assert names[:2] == ["Ada", "Bea"] and link.seats == [0, 1]
        assert link.session.options["lucky_pig"] is False  # type: ignore[attr-defined]
        assert link.session.seed == 42  # type: ignore[attr-defined]


async def test_settings_are_changed_with_keys_and_kept_for_next_time() -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(SettingsScreen())
        await settle(pilot)
        await tab_to(pilot, "theme")
        await pilot.press("down", "enter")
        await tab_to(pilot, "language")
        await pilot.press("down", "enter")
        await settle(pilot)
        await tab_to(pilot, "bot_level")
        await pilot.press("enter")  # the cursor starts on the first choice: random
        await tab_to(pilot, "bell")
        await pilot.press("down", "down", "enter")
        await tab_to(pilot, "name")
        await pilot.press(*"Kim")
        await tab_to(pilot, "takeover")
        await pilot.press(*["backspace"] * 3, "0")  # no time at all: refused, said so
        assert str(app.screen.query_one("#settings-error").render())  # (in German by now)
        assert prefs.load().takeover is None  # emptied (never), and the 0 was not kept
        await pilot.press("backspace", *"30")
        await tab_to(pilot, "clock")
        await pilot.press("down", "down", "enter")  # from no clock to the normal one
        await tab_to(pilot, "theme", back=True)
        assert app.screen.query_one("#theme", RadioSet).pressed_button is not None
    saved = prefs.load()
    assert (saved.theme, saved.language, saved.bot_level, saved.bell) == (
        "high-contrast", "de", "random", "off"
    )
    assert (saved.name, saved.clock, saved.takeover) == ("Kim", "normal", 30)
    # The next start uses them: German, high contrast, and Kim at the table.
    again = TabletopApp()
    async with again.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, "schoene")
        assert again.theme == "high-contrast"
        assert again.screen.query_one("#name-0", Input).value == "Kim"
        assert again.screen.query_one("#kind-1", Select).value == "random"


async def test_the_rules_scroll_with_the_keys_at_80x24() -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(HelpScreen("zwergenamulett"))
        await settle(pilot)
        scroll = app.screen.query_one("#rules-scroll")
        assert scroll.max_scroll_y > 20  # most of the text is below the fold
        await pilot.press("down", "down")
        assert scroll.scroll_y == 2
        await pilot.press("pagedown")
        assert scroll.scroll_y > 10
        await pilot.press("end")
        assert scroll.scroll_y == scroll.max_scroll_y
        await pilot.press("home")
        assert scroll.scroll_y == 0
