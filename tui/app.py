"""The Textual application: themes, language, the screen stack, and starting local tables.

`run_menu` opens the main menu; `local_app` builds an app that goes straight to a table
(`tabletop-tui play`).
A local game is a `HostSession` in this process behind a `LocalLink`, the same session a
networked game runs, so the game screen has one code path for both.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingsMap

from net.link import LocalLink
from net.session import HostSession, SeatInfo
from themes import DEFAULT_THEME, STYLESHEET, TABLE_DEFAULTS, THEME_NAMES, THEMES
from tui import i18n
from tui.i18n import tr
from tui.screens.base import TableScreen
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen, LocalGame, default_name
from tui.screens.menu import GamePickerScreen, MenuScreen

# Seconds a bot waits before moving in local play, so people can follow what it did.
BOT_DELAY = 0.6

def default_language() -> str:
    """German if the environment asks for it, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def check_theme(theme: str | None) -> str:
    """The theme to use; one clear line and exit code 2 for an unknown one."""
    if theme is None:
        return DEFAULT_THEME
    if theme not in THEMES:
        from tui.cli import fail

        fail(f"unknown theme {theme!r}; choose one of: {', '.join(THEME_NAMES)}")
    return theme


class TabletopApp(App[None]):
    CSS_PATH = STYLESHEET
    TITLE = "tabletop-tui"
    ENABLE_COMMAND_PALETTE = False
    APP_KEYS: ClassVar[tuple[tuple[str, str, str, str | None], ...]] = (
        ("f1,question_mark", "rules", "key.rules", "F1"),
        ("f2", "next_theme", "key.theme", "F2"),
        ("f3", "next_language", "key.language", "F3"),
        ("ctrl+q", "quit", "key.quit", "^q"),
    )

    def __init__(
        self,
        *,
        lang: str | None = None,
        theme: str | None = None,
        start: LocalGame | None = None,
        bot_delay: float = BOT_DELAY,
    ) -> None:
        i18n.set_language(lang or default_language())
        super().__init__()
        for definition in THEMES.values():
            self.register_theme(definition)
        self.theme = check_theme(theme)
        self.start = start
        self.bot_delay = bot_delay
        self._bindings = BindingsMap(self.key_bindings())

    def key_bindings(self) -> list[Binding]:
        return [
            Binding(keys, action, tr(label), key_display=display, priority=action == "quit")
            for keys, action, label, display in self.APP_KEYS
        ]

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(TABLE_DEFAULTS)

    def on_mount(self) -> None:
        self.push_screen(MenuScreen())
        if self.start is not None:
            self.start_local(self.start)

    # -- local tables ------------------------------------------------------------------------
    def start_local(self, game: LocalGame, *, replace_current: bool = False) -> None:
        """Open a table for `game`; its rematch is the same seats and options, new shuffle."""
        session = HostSession(game.engine_id, game.seats, game.seed, game.options)
        link = LocalLink(session, game.humans, bot_delay=self.bot_delay)
        rematch = replace(game, seed=None)
        screen = GameScreen(
            link,
            game.engine_id,
            rematch=lambda: self.start_local(rematch, replace_current=True),
        )
        if replace_current:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    # -- menu items --------------------------------------------------------------------------
    def menu_play(self) -> None:
        def picked(engine_id: str | None) -> None:
            if engine_id is not None:
                self.push_screen(LobbyScreen(engine_id), lobby_done)

        def lobby_done(game: LocalGame | None) -> None:
            if game is not None:
                self.start_local(game)

        self.push_screen(GamePickerScreen(), picked)

    def menu_host(self) -> None:
        from tui.screens.host import HostScreen  # network code loads only when it is wanted

        self.push_screen(HostScreen())

    def menu_join(self) -> None:
        from tui.screens.join import JoinScreen

        self.push_screen(JoinScreen())

    def menu_rules(self) -> None:
        def picked(engine_id: str | None) -> None:
            if engine_id is not None:
                self._push_rules(engine_id)

        self.push_screen(GamePickerScreen("menu.rules", need_board=False), picked)

    def menu_settings(self) -> None:
        from tui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen())

    def menu_quit(self) -> None:
        self.exit()

    # -- app-wide keys -----------------------------------------------------------------------
    def _push_rules(self, engine_id: str) -> None:
        from tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(engine_id))

    def action_rules(self) -> None:
        """Rules of the game being played; from elsewhere, the game picker for rules."""
        from tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        for screen in reversed(self.screen_stack):
            engine_id = getattr(screen, "engine_id", None)
            if engine_id is not None:
                self._push_rules(engine_id)
                return
        self.menu_rules()

    def action_next_theme(self) -> None:
        names = list(THEME_NAMES)
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]

    async def action_next_language(self) -> None:
        langs = list(i18n.LANGUAGES)
        await self.set_language(langs[(langs.index(i18n.language()) + 1) % len(langs)])

    async def set_language(self, lang: str) -> None:
        """Switch every word on every open screen, keeping all state."""
        i18n.set_language(lang)
        self._bindings = BindingsMap(self.key_bindings())
        for screen in list(self.screen_stack):
            if isinstance(screen, TableScreen):
                await screen.retranslate()
        self.refresh_bindings()


def local_game(
    game: str,
    humans: int,
    bots: int,
    level: str,
    seed: int | None,
    options: dict[str, Any] | None,
) -> LocalGame:
    """The table `tabletop-tui play` asks for: people first, then bots."""
    seats = [
        SeatInfo(name=default_name("you" if i == 0 else "person", i + 1, humans))
        for i in range(humans)
    ]
    seats += [SeatInfo(name=default_name(level, i + 1, humans), bot=level) for i in range(bots)]
    return LocalGame(game, seats, dict(options or {}), seed)


def local_app(
    game: str,
    humans: int,
    bots: int,
    level: str = "strong",
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    lang: str | None = None,
    theme: str | None = None,
    *,
    bot_delay: float = BOT_DELAY,
) -> TabletopApp:
    lang = lang or default_language()
    i18n.set_language(lang)  # before naming the seats ("You" / "Du")
    start = local_game(game, humans, bots, level, seed, options)
    return TabletopApp(lang=lang, theme=theme, start=start, bot_delay=bot_delay)


def run_menu(lang: str | None, theme: str | None) -> None:
    TabletopApp(lang=lang, theme=theme).run()


def run_host_app(args: Any, options: dict[str, Any]) -> None:
    """`tabletop-tui host` with a screen (network play lives in tui.netplay)."""
    from tui.netplay import host_app

    host_app(args, options).run()


def run_join_app(args: Any) -> None:
    """`tabletop-tui join CODE` with a screen."""
    from tui.netplay import join_app

    join_app(args).run()


__all__ = [
    "TabletopApp",
    "local_app",
    "local_game",
    "run_host_app",
    "run_join_app",
    "run_menu",
]
