"""Players: the ladder of each game (menu → Players), from the store games are counted into
here (this data directory's, or a public table's: net.players.ladder), bots included. Left
and right change the game, Enter opens a player's page, `p` opens your own; your line is
marked and the cursor starts on it, so "your place" is in sight whatever the ladder's length."""

from __future__ import annotations

import sqlite3
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Static, Tab, Tabs

from engines import ENGINE_IDS, get_engine
from net.players import identity, ladder
from net.players.store import Standing, StoreError
from tui.i18n import count_key, is_you, register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.screens.ratings import player_name, rating_of
from tui.widgets.footer import Footer

# The longest ladder shown; a player further down still sees their own line below it.
SHOWN = 100


def my_ident() -> str | None:
    """This terminal's player (None: a keyless SSH player, unrated)."""
    me = identity.mine()
    return me.fingerprint if me is not None else None


class PlayersScreen(TableScreen[None]):
    DEFAULT_CSS = """
    PlayersScreen #players-box { height: 1fr; padding: 0 1; }
    PlayersScreen #players-title { text-style: bold; color: $accent; height: 1; }
    PlayersScreen #players-you { height: auto; margin: 1 0; }
    PlayersScreen #players-table { height: 1fr; }
    PlayersScreen #players-note { height: auto; color: $text-muted; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("enter", "open", "players.key.open", True),  # the table takes Enter; this labels it
        ("p", "mine", "players.key.mine", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self, engine_id: str = ENGINE_IDS[0]) -> None:
        super().__init__()
        self.engine_id = engine_id
        self.me = my_ident()
        self.shown: list[Standing] = []
        self.trouble: str | None = None

    def key_bindings(self) -> list[Binding]:
        # Left and right change the game wherever the focus is (the table has no columns to
        # move between).
        return [*super().key_bindings(),
                Binding("left", "game(-1)", tr("players.key.game"), key_display="←→",
                        priority=True),
                Binding("right", "game(1)", tr("players.key.game"), show=False, priority=True)]

    def compose(self) -> ComposeResult:
        with Vertical(id="players-box"):
            yield Static(tr("menu.players"), id="players-title")
            tabs = Tabs(*(Tab(get_engine(e).title, id=e) for e in ENGINE_IDS),
                        active=self.engine_id, id="players-games")
            tabs.can_focus = False  # left and right reach it from anywhere
            yield tabs
            yield Static(id="players-you")
            yield DataTable(id="players-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="players-note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#players-table", DataTable).focus()

    async def retranslate(self) -> None:
        await super().retranslate()
        self._fill()
        self.on_mount()

    def on_screen_resume(self) -> None:
        """Shown, first or again (back from a player's page: a game may have been counted
        meanwhile): the ladder, read afresh. Filled here alone, once per showing: a table
        filled twice before it is first drawn keeps the first fill's column widths."""
        self._fill()

    def _read(self) -> tuple[list[Standing], tuple[Standing, int] | None]:
        """The ladder of the game on show and this player's line in it, read afresh."""
        self.trouble = None
        try:
            store = ladder.open_store()
            try:
                top = store.ladder(self.engine_id, SHOWN)
                mine = store.standing(self.engine_id, self.me) if self.me else None
            finally:
                store.close()
        except (StoreError, OSError, sqlite3.Error) as exc:
            self.trouble = str(exc)
            return [], None
        return top, mine

    def _fill(self) -> None:
        top, mine = self._read()
        shown = list(top)
        if mine is not None and all(s.ident != mine[0].ident for s in shown):
            shown.append(mine[0])  # far down the ladder: still in sight, below the top
        self.shown = shown
        table = self.query_one("#players-table", DataTable)
        table.clear(columns=True)
        table.add_columns(tr("players.col.place"), tr("players.col.name"),
                          tr("players.col.rating"), tr("players.col.games"),
                          tr("players.col.ident"))
        for standing in shown:
            you = standing.ident == self.me
            style = "bold" if you else ""
            name = player_name(standing.ident, standing.name)
            table.add_row(Text(f"{'▸' if you else ' '}{standing.place}.", style=style),
                          Text(name + (f" ({tr('players.you')})" if you and not is_you(name)
                                       else ""), style=style),
                          Text(rating_of(standing.skill.rating, standing.games, standing.ident),
                               style=style, justify="right"),
                          Text(str(standing.games), justify="right"),
                          Text(standing.ident, style="dim"))
        mine_at = next((i for i, s in enumerate(shown) if s.ident == self.me), None)
        if mine_at is not None:
            table.move_cursor(row=mine_at)
        self.query_one("#players-you", Static).update(Content(self._you(mine)))
        note = (tr("rated.trouble", error=self.trouble) if self.trouble
                else tr("players.about") if shown else tr("players.empty"))
        self.query_one("#players-note", Static).update(Content(note))

    def _you(self, mine: tuple[Standing, int] | None) -> str:
        title = get_engine(self.engine_id).title
        if self.me is None:
            return tr("players.you.unrated")
        if mine is None:
            return tr("players.you.none", game=title)
        standing, total = mine
        return tr("players.you.place", place=standing.place, total=total,
                  rating=rating_of(standing.skill.rating, standing.games, standing.ident),
                  game=title,
                  games=tr(count_key("players.games", standing.games), n=standing.games))

    # -- keys ------------------------------------------------------------------------------
    def action_game(self, step: int) -> None:
        at = ENGINE_IDS.index(self.engine_id)
        self.engine_id = ENGINE_IDS[(at + step) % len(ENGINE_IDS)]
        self.query_one("#players-games", Tabs).active = self.engine_id
        self._fill()

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        """A tab clicked: its game's ladder."""
        event.stop()
        if event.tab.id and event.tab.id != self.engine_id:
            self.engine_id = event.tab.id
            self._fill()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        table = self.query_one("#players-table", DataTable)
        row = table.cursor_row
        if 0 <= row < len(self.shown):
            self._page(self.shown[row].ident)

    def action_mine(self) -> None:
        if self.me is None:
            self.notify(tr("players.you.unrated"), severity="warning")
            return
        self._page(self.me)

    def _page(self, ident: str) -> None:
        from tui.screens.player_page import PlayerPage

        self.app.push_screen(PlayerPage(ident, self.engine_id))

    def action_back(self) -> None:
        self.dismiss()


register(
    {
        "en": {
            "players.col.place": "#",
            "players.col.name": "Player",
            "players.col.rating": "Rating",
            "players.col.games": "Games",
            "players.col.ident": "Identity",
            "players.you": "you",
            "players.you.place": "You: place {place} of {total} at {game}, rating {rating} "
                                 "({games}).",
            "players.games.zero": "no rated game",
            "players.games.one": "1 rated game",
            "players.games.many": "{n} rated games",
            "players.you.none": "You have no rated game of {game} yet: play one to the end "
                                "against bots or people.",
            "players.you.unrated": "You play without an identity here (no SSH key): your games "
                                   "are not rated.",
            "players.empty": "Nobody is rated at this game yet. A game counts once it is over, "
                             "its shuffle verified and every person in it proven.",
            "players.about": "A rating is 1500 + 100 × (μ − 3σ) of OpenSkill, a new player's "
                             "1500; \"?\" marks one still provisional (fewer than 10 rated "
                             "games). Each bot level is one entry: every game of that level, at "
                             "any table and in any seat, counts for the one bot.",
            "players.key.open": "Player",
            "players.key.mine": "My page",
            "players.key.game": "Game",
        },
        "de": {
            "players.col.place": "#",
            "players.col.name": "Spieler",
            "players.col.rating": "Wertung",
            "players.col.games": "Spiele",
            "players.col.ident": "Identität",
            "players.you": "du",
            "players.you.place": "Du: Rang {place} von {total} bei {game}, Wertung {rating} "
                                 "({games}).",
            "players.games.zero": "kein gewertetes Spiel",
            "players.games.one": "1 gewertetes Spiel",
            "players.games.many": "{n} gewertete Spiele",
            "players.you.none": "Du hast bei {game} noch kein gewertetes Spiel: spiel eines zu "
                                "Ende, gegen Bots oder Menschen.",
            "players.you.unrated": "Du spielst hier ohne Identität (kein SSH-Schlüssel): deine "
                                   "Spiele werden nicht gewertet.",
            "players.empty": "Bei diesem Spiel ist noch niemand gewertet. Ein Spiel zählt, "
                             "sobald es zu Ende ist, das Mischen bestätigt und jede Person darin "
                             "nachgewiesen.",
            "players.about": "Eine Wertung ist 1500 + 100 × (μ − 3σ) nach OpenSkill, für neue "
                             "Spieler 1500; „?“ steht bei einer noch vorläufigen (weniger als "
                             "10 gewertete Spiele). Jede Bot-Stufe ist ein Eintrag: jedes Spiel "
                             "dieser Stufe, an jedem Tisch und auf jedem Platz, zählt für den "
                             "einen Bot.",
            "players.key.open": "Spieler",
            "players.key.mine": "Meine Seite",
            "players.key.game": "Spiel",
        },
    }
)
