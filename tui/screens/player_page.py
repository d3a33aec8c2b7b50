"""A player's page: their rating at each game they have rated games of, with what those games
add up to (games, wins, mean place, how many they finished), and for the game the cursor is on
the rating's history as a plot (textual-plotext) and the players they met most. On a slim
screen (an upright phone) the table keeps the columns that fit and the cursor's game says the
rest on a line beneath it, rather than the table scrolling sideways."""

from __future__ import annotations

import sqlite3
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Vertical
from textual.content import Content
from textual.events import Resize
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

from engines import get_engine
from net.players import ladder
from net.players.ratings import shown
from net.players.store import Opponent, Played, StoreError, Summary
from tui.i18n import register, tr
from tui.screens.base import SLIM_BELOW, KeySpec, TableScreen
from tui.screens.ratings import number, player_name, rating_of
from tui.widgets.footer import Footer

# The table's columns, and those a slim screen keeps (the rest on the line beneath: page.more).
COLUMNS = ("game", "rating", "games", "wins", "place", "finished")
SLIM_COLUMNS = COLUMNS[:4]


class PlayerPage(TableScreen[None]):
    DEFAULT_CSS = """
    PlayerPage #page-box { height: 1fr; padding: 0 1; }
    PlayerPage #page-title { text-style: bold; color: $accent; height: auto; }
    PlayerPage #page-games { height: auto; max-height: 8; margin-top: 1; }
    PlayerPage #page-more { height: auto; color: $text-muted; }
    PlayerPage #page-plot-title { height: 1; margin-top: 1; text-style: bold; }
    PlayerPage #page-plot { height: 1fr; min-height: 6; }
    PlayerPage #page-opponents { height: auto; }
    PlayerPage #page-note { height: auto; color: $text-muted; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (("escape", "back", "key.back", True),)

    def __init__(self, ident: str, engine_id: str | None = None) -> None:
        """The page of `ident`, the cursor on `engine_id` if they have rated games of it."""
        super().__init__()
        self.ident = ident
        self.engine_id = engine_id
        self.player = ""
        self.games: list[Summary] = []
        self.trouble: str | None = None
        self.slim: bool | None = None  # as the table was last filled

    def compose(self) -> ComposeResult:
        with Vertical(id="page-box"):
            yield Static(id="page-title")
            yield DataTable(id="page-games", cursor_type="row")
            yield Static(id="page-more")
            yield Static(id="page-plot-title")
            yield PlotextPlot(id="page-plot")
            yield Static(id="page-opponents")
            yield Static(id="page-note")
        yield Footer()

    def on_mount(self) -> None:
        self._fill()
        self.query_one("#page-games", DataTable).focus()

    def on_resize(self, event: Resize) -> None:
        # (Before Screen's own handler sets the `-slim` class: hence the width.)
        if self.is_mounted and (event.size.width < SLIM_BELOW) != self.slim:
            self._fill(event.size.width)

    async def retranslate(self) -> None:
        await super().retranslate()
        self.on_mount()

    def _read(self, engine_id: str | None = None) -> tuple[list[Played], list[Opponent]]:
        """Read the player's name and games; with `engine_id`, that game's history and
        opponents too."""
        self.trouble = None
        try:
            store = ladder.open_store()
            try:
                self.player = store.name(self.ident) or ""
                self.games = store.summary(self.ident)
                if engine_id is None:
                    return [], []
                return store.history(self.ident, engine_id), store.opponents(self.ident,
                                                                             engine_id)
            finally:
                store.close()
        except (StoreError, OSError, sqlite3.Error) as exc:
            self.trouble = str(exc)
            return [], []

    def _fill(self, width: int | None = None) -> None:
        """Fill the page for a screen `width` wide (the app's)."""
        self._read()
        title = f"{player_name(self.ident, self.player) or '?'}  ·  {self.ident}"
        self.query_one("#page-title", Static).update(Content(title))
        table = self.query_one("#page-games", DataTable)
        table.clear(columns=True)
        self.slim = (width or self.app.size.width) < SLIM_BELOW
        columns = SLIM_COLUMNS if self.slim else COLUMNS
        table.add_columns(*(tr(f"page.col.{c}") for c in columns))
        for summary in self.games:
            cells = dict(zip(COLUMNS, self._cells(summary), strict=True))
            table.add_row(*(cells[c] for c in columns))
        self.query_one("#page-more").display = self.slim and bool(self.games)
        engines = [s.engine for s in self.games]
        if self.engine_id in engines:
            table.move_cursor(row=engines.index(self.engine_id))
        elif engines:
            self.engine_id = engines[0]
        note = (tr("rated.trouble", error=self.trouble) if self.trouble
                else "" if self.games else tr("page.none"))
        self.query_one("#page-note", Static).update(Content(note))
        self._show_game()

    def _cells(self, summary: Summary) -> list[Text]:
        """A game's row, in the order of COLUMNS."""
        return [Text(get_engine(summary.engine).title),
                Text(rating_of(summary.skill.rating, summary.games, self.ident),
                     justify="right"),
                Text(str(summary.games), justify="right"),
                Text(str(summary.wins), justify="right"),
                Text(number(summary.mean_place), justify="right"),
                Text(f"{round(100 * summary.finished / summary.games)} %", justify="right")]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.games):
            engine_id = self.games[event.cursor_row].engine
            if engine_id != self.engine_id:
                self.engine_id = engine_id
                self._show_game()

    def _show_game(self) -> None:
        """The game under the cursor: its rating's history as a plot, its opponents."""
        has_games = bool(self.games)
        for part in ("#page-plot-title", "#page-plot", "#page-opponents"):
            self.query_one(part).display = has_games
        if not has_games or self.engine_id is None:
            return
        summary = next(s for s in self.games if s.engine == self.engine_id)
        more = self._cells(summary)
        self.query_one("#page-more", Static).update(
            Content(tr("page.more", place=more[4].plain, finished=more[5].plain)))
        history, opponents = self._read(self.engine_id)
        title = get_engine(self.engine_id).title
        self.query_one("#page-plot-title", Static).update(
            Content(tr("page.plot", game=title)))
        plot = self.query_one("#page-plot", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        numbers = list(range(len(history) + 1))
        # Everyone starts at 0 (shown as 1500).
        ratings = [shown(0.0)] + [played.after.shown for played in history]
        accent = Color.parse(self.app.theme_variables.get("accent", "yellow")).rgb
        plt.plot(numbers, ratings, marker="braille", color=accent)
        plt.xticks(numbers if len(numbers) <= 10 else None)
        plt.xlim(0, numbers[-1] + 0.5)  # the last game clear of the frame
        plt.xlabel(tr("page.plot.x"))
        plot.refresh()
        met = "  ·  ".join(tr("page.met", name=player_name(o.ident, o.name), games=o.games,
                              ahead=o.ahead) for o in opponents)
        self.query_one("#page-opponents", Static).update(
            Content(tr("page.opponents", who=met or tr("page.nobody"))))

    def action_back(self) -> None:
        self.dismiss()


register(
    {
        "en": {
            "page.col.game": "Game",
            "page.col.rating": "Rating",
            "page.col.games": "Games",
            "page.col.wins": "Wins",
            "page.col.place": "Mean place",
            "page.col.finished": "Finished",
            "page.more": "Mean place {place} · finished {finished}",
            "page.plot": "Rating at {game}, game by game",
            "page.plot.x": "rated games",
            "page.opponents": "Met most: {who}",
            "page.met": "{name} ({games}×, ahead {ahead})",
            "page.nobody": "nobody yet",
            "page.none": "No rated games yet.",
        },
        "de": {
            "page.col.game": "Spiel",
            "page.col.rating": "Wertung",
            "page.col.games": "Spiele",
            "page.col.wins": "Siege",
            "page.col.place": "Mittlerer Rang",
            "page.col.finished": "Beendet",
            "page.more": "Mittlerer Rang {place} · beendet {finished}",
            "page.plot": "Wertung bei {game}, Spiel für Spiel",
            "page.plot.x": "gewertete Spiele",
            "page.opponents": "Am häufigsten getroffen: {who}",
            "page.met": "{name} ({games}×, vorn {ahead})",
            "page.nobody": "noch niemand",
            "page.none": "Noch keine gewerteten Spiele.",
        },
    }
)
