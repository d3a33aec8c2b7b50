"""The Textual application: themes, language, the screen stack, and starting local tables.

The CLI builds the app; `local_app` is the one that goes straight to a local table
(`tabletop-tui play`). Screens reach the app through Textual (`self.app`), never by importing
this module, so the imports run one way: cli -> app -> screens -> widgets.
A local game is a `HostSession` in this process behind a `LocalLink`, the same session a
networked game runs, so the game screen has one code path for both.

A crash is noted as `crash_report`, the traceback without the local variables Textual prints:
at one's own terminal Textual's report is shown as ever, but in a session of an SSH table
(net.ssh.inside) it would show a stranger the server's paths and whatever the variables held,
so there Textual prints nothing and the CLI hands the report to the table's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import sqlite3
import threading
import traceback
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console, RenderableType
from textual import events
from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from engines import IllegalMove
from net import records, words
from net.players import counted, identity, ladder
from net.players.store import StoreError
from net.ssh import inside
from net.table.clocks import ClockSetting
from net.table.link import LocalLink
from net.table.session import HostSession, SeatInfo
from themes import DEFAULT_THEME, STYLESHEET, TABLE_DEFAULTS, THEME_NAMES, THEMES
from tui import boards, i18n, prefs, unsaved
from tui.bindings import bindings_over
from tui.i18n import register, tr
from tui.input_gate import InputGate
from tui.screens.base import MAX_NAME, SLIM_BELOW, TableScreen
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen, LocalGame, default_name
from tui.screens.menu import GamePickerScreen, MenuScreen
from tui.screens.overlays import ConfirmScreen

# Seconds a bot waits before moving in local play, so people can follow what it did.
BOT_DELAY = 0.6
# Seconds the note to a player without an SSH key stays up.
KEYLESS_NOTE = 20.0


def default_language() -> str:
    """The saved choice, else German if the environment asks for it, else English."""
    saved = prefs.load().language
    if saved in i18n.LANGUAGES:
        return saved
    return words.language(os.environ)


def check_theme(theme: str | None) -> str:
    """The theme to use; ValueError names the themes there are."""
    if theme is None:
        saved = prefs.load().theme
        return saved if saved in THEMES else DEFAULT_THEME
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; choose one of: {', '.join(THEME_NAMES)}")
    return theme


class TabletopApp(App[None]):
    CSS_PATH = STYLESHEET
    # Every screen narrower than the 80 columns it was laid out for (a phone held upright in a
    # browser has about 45) has the class `-slim`, and the stylesheets stack there what stands
    # side by side at 80 (Textual sets the class on every resize).
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-slim"), (SLIM_BELOW, "-full")
    ]
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
        opening: Callable[[], Screen[Any]] | None = None,
        bot_delay: float = BOT_DELAY,
    ) -> None:
        """`start` opens a local table over the menu, `opening` any other first screen (host
        or join from the command line): leaving either lands in the menu."""
        i18n.set_language(lang or default_language())
        super().__init__()
        for definition in THEMES.values():
            self.register_theme(definition)
        self.theme = check_theme(theme)
        self.start = start
        self.opening = opening
        self.bot_delay = bot_delay
        self._bindings = bindings_over(self, self.key_bindings())
        self.crash_report = ""  # the first crash's traceback (see the module's docstring)
        if inside.crash_report() is not None:
            self.error_console = Console(quiet=True)
        self.input_gate = InputGate(lambda: self._exit or self._closing or self._closed)

    # -- input ---------------------------------------------------------------------------------
    def _post_message(self, message: Message) -> Coroutine[Any, Any, bool]:
        """Textual's drivers post what they read in their input thread as this coroutine
        (`Driver.send_message`, made in that thread and run in the app's loop): an event
        waits here, in the thread, for room (tui.input_gate; its own hook, not a public one:
        tests/tui/test_input_gate.py sees that it still is)."""
        if isinstance(message, events.Event) and threading.get_ident() != self._thread_id:
            self.input_gate.enter(message)
            return self._gated_post(message)
        return super()._post_message(message)

    async def _gated_post(self, event: events.Event) -> bool:
        posted = self.post_message(event)
        if not posted:
            self.input_gate.leave(event)
        return posted

    async def on_event(self, event: events.Event) -> None:
        try:
            await super().on_event(event)
        finally:
            self.input_gate.leave(event)

    def key_bindings(self) -> list[Binding]:
        return [
            Binding(keys, action, tr(label), key_display=display, priority=action == "quit")
            for keys, action, label, display in self.APP_KEYS
        ]

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(TABLE_DEFAULTS)

    def get_default_screen(self) -> Screen[Any]:
        return MenuScreen()

    def on_mount(self) -> None:
        # Finished games not counted yet (a crash, a headless guest) join the ladder.
        if ladder.has_records():
            self.run_worker(asyncio.to_thread(ladder.catch_up_here), group="ladder")
        if self.start is not None:
            self.start_local(self.start)
        if self.opening is not None:
            self.push_screen(self.opening())
        if unsaved.moved:  # a home it cannot write: said on the screen too, not only on stderr
            self.call_after_refresh(self.notify, tr("unsaved.note", paths=", ".join(
                str(path) for path in unsaved.moved)), severity="warning", timeout=KEYLESS_NOTE)
        if inside.keyless():  # once the first screen is out (it ends an SSH session's start)
            self.call_after_refresh(self.notify, tr("ssh.keyless"), severity="warning",
                                    timeout=KEYLESS_NOTE)

    # -- crashes -----------------------------------------------------------------------------
    def _handle_exception(self, error: Exception) -> None:
        """Where Textual takes every exception nothing else caught, and ends the app (its own
        hook, not a public one: tests/net/test_net_tui.py sees that it still is)."""
        if not self.crash_report:
            self.crash_report = "".join(traceback.format_exception(error))
        super()._handle_exception(error)

    def panic(self, *renderables: RenderableType) -> None:
        """Textual's driver panics when its input thread dies (on a byte that is no UTF-8,
        say). That is a crash like any other: the app exits non-zero and a room it hosts stays
        for resuming, where Textual alone would exit 0 and close the room for everyone."""
        if not self.crash_report:
            text = io.StringIO()
            Console(file=text, width=100, color_system=None).print(*renderables)
            self.crash_report = text.getvalue()
        self.exit(return_code=1)
        super().panic(*renderables)

    # -- local tables ------------------------------------------------------------------------
    def start_local(self, game: LocalGame, *, replace_current: bool = False) -> None:
        """Open a table for `game`; its rematch is the same seats and options, new shuffle.
        The game leaves a record as it goes (Past games), as a networked one does."""
        session = HostSession(game.engine_id, game.seats, game.seed, game.options,
                              clock=game.clock)
        if len(game.humans) == 1 and (me := identity.mine()) is not None:
            # One person at the keys: this installation's player, proven in the record (at a
            # shared keyboard nobody can tell whose game it is, so it stays unrated).
            seat = game.humans[0]
            session.seats[seat] = replace(session.seats[seat], **me.prove(
                session.game_id, seat, session.seats[seat].name))
        recorder = records.LocalRecorder(session, game.humans, fixed_seed=game.seed is not None)
        self._open_local(session, game, replace_current, recorder=recorder)

    def resume_local(self, path: Path) -> None:
        """Take up an unfinished local game from its record (Past games); RecordError if the
        record cannot be replayed."""
        record = records.load(path)
        try:
            session = HostSession.from_record({**record.header, "moves": record.moves})
        except (IllegalMove, KeyError, TypeError, ValueError) as exc:
            raise records.RecordError(f"the record does not replay (it is damaged): {exc}") \
                from None
        recorder = records.LocalRecorder(session, record.own_seats(), path)
        game = LocalGame(record.engine_id, session.seats, dict(session.options), None,
                         session.clocks.setting)
        self._open_local(session, game, False, humans=record.own_seats(), recorder=recorder)

    def resume_hosted(self, path: Path) -> None:
        """Take up an unfinished game this player hosted (Past games), as `host --resume`
        does: the room opens again under its code and its guests come back to their seats."""
        from net.host.hosting import HostPlan
        from tui.screens.host import HostScreen

        self.push_screen(HostScreen(HostPlan(None, 0, resume=True, record=path), auto=True))

    def _open_local(self, session: HostSession, game: LocalGame, replace_current: bool,
                    humans: list[int] | None = None,
                    recorder: records.LocalRecorder | None = None) -> None:
        humans = game.humans if humans is None else humans
        pace = boards.board_class(game.engine_id).BOT_PACE
        link = LocalLink(session, humans, bot_delay=self.bot_delay * pace)
        if recorder is not None:
            _rate_local(link, recorder)
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
    def menu_play(self, selected: str | None = None) -> None:
        """The game picker, then the game's lobby; Esc in the lobby goes back to the picker
        with that game still highlighted."""

        def picked(engine_id: str | None) -> None:
            if engine_id is not None:
                self.push_screen(LobbyScreen(engine_id),
                                 lambda game: lobby_done(engine_id, game))

        def lobby_done(engine_id: str, game: LocalGame | None) -> None:
            if game is not None:
                self.start_local(game)
            else:
                self.menu_play(selected=engine_id)

        self.push_screen(GamePickerScreen(selected=selected), picked)

    def menu_host(self) -> None:
        from tui.screens.host import HostScreen  # network code loads only when it is wanted

        self.push_screen(HostScreen())

    def menu_join(self) -> None:
        from tui.screens.join import JoinScreen

        self.push_screen(JoinScreen())

    def menu_tables(self) -> None:
        from tui.screens.tables import OpenTablesScreen

        self.push_screen(OpenTablesScreen())

    def menu_quick(self) -> None:
        from tui.screens.tables import OpenTablesScreen

        self.push_screen(OpenTablesScreen(quick=True))

    def menu_rules(self) -> None:
        def picked(engine_id: str | None) -> None:
            if engine_id is not None:
                self._push_rules(engine_id)

        self.push_screen(GamePickerScreen("menu.rules", need_board=False), picked)

    def menu_puzzles(self) -> None:
        from tui.screens.puzzles import PuzzleScreen

        def picked(engine_id: str | None) -> None:
            if engine_id is not None:
                self.push_screen(PuzzleScreen(engine_id))

        self.push_screen(GamePickerScreen("puzzles.pick"), picked)

    def menu_past(self) -> None:
        from tui.screens.past_games import PastGamesScreen

        self.push_screen(PastGamesScreen())

    def menu_players(self) -> None:
        from tui.screens.players import PlayersScreen

        self.push_screen(PlayersScreen())

    def menu_tournaments(self) -> None:
        from tui.screens.tournaments import TournamentsScreen

        self.push_screen(TournamentsScreen())

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

    async def action_quit(self) -> None:
        """Quit, but ask first when that would close a room other people are in."""
        warnings = [
            text
            for screen in self.screen_stack
            if isinstance(screen, TableScreen) and (text := screen.quit_warning())
        ]
        if not warnings:
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        question = f"{warnings[-1]}\n{tr('quit.question')}"
        self.push_screen(ConfirmScreen(question, tr("quit.yes"), tr("quit.no")), answered)

    def action_next_theme(self) -> None:
        names = list(THEME_NAMES)
        current = names.index(self.theme) if self.theme in names else -1
        self.choose_theme(names[(current + 1) % len(names)])

    def choose_theme(self, name: str) -> None:
        """Switch the theme and keep the choice for next time."""
        self.theme = name
        prefs.update(theme=name)

    async def action_next_language(self) -> None:
        langs = list(i18n.LANGUAGES)
        await self.set_language(langs[(langs.index(i18n.language()) + 1) % len(langs)])

    async def set_language(self, lang: str) -> None:
        """Switch every word on every open screen, keeping all state; kept for next time."""
        i18n.set_language(lang)
        prefs.update(language=lang)
        self._bindings = bindings_over(self, self.key_bindings())
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
    names: Sequence[str] = (),
    clock: ClockSetting | None = None,
) -> LocalGame:
    """The table `tabletop-tui play` asks for: people first (named by `names`, then by the
    saved name for the first, then "You" / "Player 2"), then bots; `clock`: every seat's
    clock (None: none)."""
    given = list(names) or [prefs.load().name]
    seats = [
        SeatInfo(
            name=(given[i] if i < len(given) else "").strip()[:MAX_NAME]
            or default_name("you" if i == 0 else "person", i + 1, humans)
        )
        for i in range(humans)
    ]
    seats += [SeatInfo(name=default_name(level, i + 1, humans), bot=level) for i in range(bots)]
    return LocalGame(game, seats, dict(options or {}), seed, clock)


def _rate_local(link: LocalLink, recorder: records.LocalRecorder) -> None:
    """Give a local table its record, and a rated one its way out: leaving it (a key, a
    closed terminal) after the first move ends the record as left and counts it at once
    (docs/records.md, "What counts for a rating")."""
    path = link.record_path = recorder.path
    link.rated = path is not None and counted.is_rated_file(path)
    if not link.rated or path is None:
        return

    async def leave() -> None:
        if recorder.abandon(link.session):
            with contextlib.suppress(StoreError, OSError, sqlite3.Error):
                await asyncio.to_thread(ladder.count_file, path)

    link.on_leave = leave


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
    names: Sequence[str] = (),
    bot_delay: float = BOT_DELAY,
    clock: ClockSetting | None = None,
) -> TabletopApp:
    lang = lang or default_language()
    i18n.set_language(lang)  # before naming the seats ("You" / "Du")
    start = local_game(game, humans, bots, level, seed, options, names, clock)
    return TabletopApp(lang=lang, theme=theme, start=start, bot_delay=bot_delay)


register(
    {
        "en": {
            "ssh.keyless": "No SSH key: anyone who types your name can be you (your seats, "
                           "settings and unfinished games). Connect with a key to keep them "
                           "yours.",
            "unsaved.note": "Nothing is saved this time: tabletop-tui cannot write {paths}.",
        },
        "de": {
            "ssh.keyless": "Kein SSH-Schlüssel: Wer deinen Namen eintippt, kann du sein (deine "
                           "Plätze, Einstellungen und offenen Spiele). Verbinde dich mit einem "
                           "Schlüssel, damit sie deine bleiben.",
            "unsaved.note": "Diesmal wird nichts gespeichert: tabletop-tui kann nicht in "
                            "{paths} schreiben.",
        },
    }
)

__all__ = ["TabletopApp", "check_theme", "local_app", "local_game"]

