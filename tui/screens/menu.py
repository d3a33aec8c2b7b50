"""The main menu and the game picker. Nothing here loads a game engine until a game is picked,
so the first screen paints fast."""

from __future__ import annotations

import contextlib
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

import tui.learn  # noqa: F401  (its menu item's words)
from tui import days_menu
from tui.i18n import register, tr
from tui.screens import tournament_words  # noqa: F401  (the menu's word for it)
from tui.screens.base import KeySpec, TableScreen
from tui.widgets.footer import Footer

# "days" shows only at a table (tui.days_menu), so it stands last but one: every item above it
# is where it is with it or without it.
MENU_ITEMS = ("play", "host", "join", "tables", "quick", "learn", "puzzles", "rules", "settings",
              "past", "players", "tournaments", "days", "quit")

BANNER = "♠ ♥  tabletop-tui  ♦ ♣"


class MenuScreen(TableScreen[None]):
    """The first screen. Each item calls `app.menu_<item>()`, so another module (e.g. network
    play) changes what an item does without touching this screen. `p` is Quick play."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("p", "item('quick')", "menu.quick", True),
        ("w", "item('days_waiting')", "menu.days_key", False),  # at a table (tui.days_menu)
    )

    def action_item(self, item: str) -> None:
        getattr(self.app, f"menu_{item}")()

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(BANNER, id="menu-title")
            yield Static(tr("menu.subtitle"), id="menu-subtitle")
            yield OptionList(
                *(Option(tr(f"menu.{item}"), id=item) for item in MENU_ITEMS
                  if item != "days" or days_menu.at_table()), id="menu"
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()

    async def retranslate(self) -> None:
        await super().retranslate()
        self.on_mount()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        getattr(self.app, f"menu_{event.option.id}")()

    def on_screen_resume(self) -> None:
        if days_menu.at_table():  # after the frame: the count reads the table's store
            self.call_after_refresh(self.run_worker, self._count_days, thread=True,
                                    group="days", exclusive=True)

    def _count_days(self) -> None:
        count = len(days_menu.waiting())
        self.app.call_from_thread(self._show_days, count)

    def _show_days(self, count: int) -> None:
        """Say on the days item in how many games it is this player's turn."""
        menu = self.query("#menu")
        if menu:
            with contextlib.suppress(OptionDoesNotExist):
                menu.first(OptionList).replace_option_prompt("days", days_menu.menu_label(count))


class GamePickerScreen(TableScreen[str | None]):
    """Pick one of the registered games; dismissed with its engine id. Games whose engine or
    board is not there yet are listed, but cannot be picked. `selected` is highlighted first
    (the game whose lobby the player just left)."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = (("escape", "back", "key.back", True),)

    def __init__(self, title_key: str = "pick.title", *, need_board: bool = True,
                 selected: str | None = None) -> None:
        super().__init__()
        self.title_key = title_key
        self.need_board = need_board
        self.selected = selected

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(tr(self.title_key), id="menu-title")
            yield OptionList(*self._options(), id="games")
        yield Footer()

    def _options(self) -> list[Option]:
        from engines import ENGINE_IDS, get_engine
        from tui.boards import has_board

        options = []
        for engine_id in ENGINE_IDS:
            try:
                eng = get_engine(engine_id)
            except ImportError:
                options.append(Option(f"{engine_id} ({tr('pick.unavailable')})", disabled=True))
                continue
            players = (tr("pick.players", lo=eng.min_players, hi=eng.max_players)
                       if eng.min_players < eng.max_players
                       else tr("pick.players_exactly", n=eng.min_players))
            ready = has_board(engine_id) or not self.need_board
            suffix = "" if ready else f" ({tr('pick.unavailable')})"
            options.append(
                Option(f"{eng.title}  ·  {players}{suffix}", id=engine_id, disabled=not ready)
            )
        return options

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.focus()
        if self.selected is not None:
            games.highlighted = games.get_option_index(self.selected)

    def harvest(self) -> None:
        games = self.query_one("#games", OptionList)
        if games.highlighted is not None:
            self.selected = games.get_option_at_index(games.highlighted).id

    async def retranslate(self) -> None:
        await super().retranslate()
        self.on_mount()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def action_back(self) -> None:
        self.dismiss(None)



register({"en": {"menu.puzzles": "Learn: puzzles"}, "de": {"menu.puzzles": "Lernen: Rätsel"}})
