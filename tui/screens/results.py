"""The end of a game: everybody's holdings and score, best first, winners marked, the table
as it ended where the game lies on the table, the game's statistics (`t` shows them alone
where the window has no room for both), each seat's rating change once the game is counted for
the ladder (or why it is not), and the way on (a rematch with the same seats and
options, or the menu)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.widgets import Button, Static

from engines import get_engine
from engines.stats import Stat
from net.players import ladder
from net.players.store import StoreError
from tui import boards
from tui.bindings import bindings_over
from tui.i18n import tr, you_key
from tui.screens.base import KeySpec, TableScreen
from tui.screens.duplicate_verdict import duplicate_line
from tui.screens.ratings import change as shown_change
from tui.screens.ratings import rating_of, unrated
from tui.widgets.footer import Footer
from tui.widgets.stats import StatsTable

# Seconds between looks at the table's store while a duplicate table's round is still on.
ROUND_LOOK = 2.0
# From this many columns a final table (Scho K.O.'s) stands beside the rows, not under them.
BESIDE_WIDTH = 110


def ranking(engine_id: str, result: dict[str, Any]) -> list[int]:
    """Seats in the order the results list them: by the engine's places, the winners first
    (the screen's heading names them, so the list must not put another seat above them),
    then the others by their standing (stable, so ties keep seat order)."""
    places = get_engine(engine_id).places(result)
    return sorted(range(len(places)), key=lambda s: places[s])


class ResultsScreen(TableScreen[str]):
    """Dismissed with "rematch" or "menu"."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("r", "rematch", "results.rematch", True),
        ("t", "stats", "results.key.stats", True),
        ("g", "review", "review.key", False),  # the footer is full at 80 columns
        ("escape,m", "menu", "results.menu", True),
    )

    def __init__(
        self,
        engine_id: str,
        result: dict[str, Any],
        names: list[str],
        *,
        can_rematch: bool,
        stats: list[list[Stat]] | None = None,
        record_path: Path | None = None,
        room: str | None = None,
    ) -> None:
        """`stats`: each seat's statistics of the game (net.records.stats_of_game), if known;
        `record_path`: this terminal's record of the game, counted for the ladder; `room`:
        the join code of a networked game's table (a tournament's duplicate table is checked
        against its round)."""
        self.engine_id = engine_id
        self.result = result
        self.names = names
        self.can_rematch = can_rematch
        self.stats = stats if stats and any(stats) else None
        self.stats_alone = False  # `t`: the statistics in place of the players' rows
        self.record_path = record_path
        self.room = room
        self._round_on = False  # a duplicate table whose round has not closed yet
        self.rated: ladder.Counted | None = None  # once the game was counted (or refused)
        self.trouble: str | None = None  # the ladder could not be used
        super().__init__()

    def key_bindings(self) -> list[Binding]:
        """`t` is labelled with what it shows next: the statistics, or the standings again."""
        shown = "results.key.standings" if self.stats_alone else "results.key.stats"
        return [
            Binding(keys, action, tr(shown if action == "stats" else label), show=show)
            for keys, action, label, show in self.KEYS
        ]

    def compose(self) -> ComposeResult:
        board = boards.board_class(self.engine_id)
        scores: list[int] = self.result["scores"]
        winners: list[int] = self.result["winners"]
        with Vertical(id="results-box"):
            yield Static(tr("results.title"), id="results-title")
            won = ", ".join(self.names[s] for s in winners)
            key = "results.won.many" if len(winners) > 1 else you_key("results.won", won)
            yield Static(Content(tr(key, names=won)), id="results-won")
            if "verified" in self.result:  # networked games: the fair-shuffle check
                line, warns, self._round_on = duplicate_line(self.result, self.room)
                yield Static(
                    Content(line), id="results-verified", classes="-warning" if warns else ""
                )
            note = self._rating_note()
            yield Static(Content(note), id="results-rating", classes="-said" if note else "")
            final = board.result_table(self.result)
            order = ranking(self.engine_id, self.result)
            with Vertical(id="results-main", classes="" if final is None else "-with-table"):
                with VerticalScroll(id="results-rows"):
                    for place, seat in enumerate(order, start=1):
                        winner = seat in winners
                        with Horizontal(classes="result-row -winner" if winner else "result-row"):
                            yield Static(f"{place}.", classes="place")
                            mark = f"★ {tr('results.winner')}" if winner else ""
                            yield Static(Content(f"{self.names[seat]}\n{mark}"), classes="who")
                            detail = board.result_detail(self.result, seat)
                            if detail is not None:  # the column that gives way to the others
                                yield detail.add_class("detail")
                            yield Static(self._rating_text(seat), id=f"rating-{seat}",
                                         classes="rating -rated" if self._counted else "rating")
                            yield Static(
                                f"{scores[seat]}\n{tr(board.SCORE_LABEL)}",
                                classes="score",
                                id=f"score-{seat}",
                            )
                    if self.stats is not None:
                        yield StatsTable(self.engine_id, self.names, self.stats, order,
                                         id="results-stats")
                if final is not None:
                    final.add_class("results-final")
                    yield final
            with Horizontal(id="results-buttons"):
                # Focusable buttons: Tab moves between them, Enter presses (no mouse over SSH).
                if self.can_rematch:
                    yield Button(
                        tr("results.rematch"), id="rematch", variant="success", compact=True
                    )
                yield Button(tr("results.menu"), id="menu", variant="primary", compact=True)
        yield Footer(compact=True)  # seven keys fit 80 columns in German too

    def on_resize(self, event: Resize) -> None:
        """The final table beside the rows where the window is wide enough for both."""
        self.query_one("#results-main").set_class(event.size.width >= BESIDE_WIDTH, "-beside")

    def on_mount(self) -> None:
        if self._round_on:  # a duplicate table's round still on: checked once it closes
            self.set_interval(ROUND_LOOK, self._look_at_round)
        if self.record_path is not None and self.rated is None:
            self.run_worker(self._count(self.record_path), group="rating")

    def _look_at_round(self) -> None:
        """The duplicate table's verdict again: the check runs once the round closed."""
        if not self._round_on:
            return
        line, warns, self._round_on = duplicate_line(self.result, self.room)
        for shown in self.query("#results-verified").results(Static):
            shown.update(Content(line))
            shown.set_class(warns, "-warning")

    async def _count(self, path: Path) -> None:
        """Count the game for the ladder (a replay: in a thread), then show what it did."""
        try:
            self.rated = await asyncio.to_thread(ladder.count_file, path)
        except (StoreError, OSError, sqlite3.Error) as exc:
            self.trouble = str(exc)
        for static in self.query(".rating").results(Static):
            seat = int(str(static.id).removeprefix("rating-"))
            static.update(self._rating_text(seat))
            static.set_class(self._counted, "-rated")
        note = self._rating_note()
        # None once the screen has gone (a rematch pressed while the game was counted).
        for line in self.query("#results-rating").results(Static):
            line.update(Content(note))
            line.set_class(bool(note), "-said")

    @property
    def _counted(self) -> bool:
        return bool(self.rated and self.rated.changes)

    def _rating_text(self, seat: int) -> Content:
        """A seat's rating change and new rating; its person left early, if they did."""
        changes = self.rated.changes if self.rated else []
        change = next((c for c in changes if c.seat == seat), None)
        if change is None:
            return Content("")
        games = self.rated.games.get(change.ident, 0) if self.rated else 0
        lines = [shown_change(change.delta),
                 tr("rated.rating", rating=rating_of(change.after.rating, games, change.ident))]
        if change.left:
            lines.append(tr("rated.left"))
        style = "$success" if change.delta > 0 else "$error" if change.delta < 0 else ""
        return Content("\n".join(lines)).stylize(f"bold {style}".strip(), 0, len(lines[0]))

    def _rating_note(self) -> str:
        """Why the game was not rated ("" if it was, or is still being counted)."""
        if self.trouble is not None:
            return tr("rated.trouble", error=self.trouble)
        if self.rated is not None and self.rated.refused is not None:
            return unrated(self.rated.refused)
        return ""

    def offer_rematch(self) -> None:
        """The host reopened the room after the screen was drawn: a rematch is on offer now."""
        self.can_rematch = True
        self.refresh(recompose=True)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stats":
            return self.stats is not None
        if action == "review":
            return self.record_path is not None
        return self.can_rematch if action == "rematch" else True

    def action_review(self) -> None:
        """The review of this terminal's seat in the game (tui.screens.review)."""
        from net import records
        from tui.screens.review import open_review

        assert self.record_path is not None
        try:
            record = records.load(self.record_path)
        except records.RecordError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        open_review(self, record)

    def action_stats(self) -> None:
        """The statistics alone (the players' rows and the final table hidden), or back."""
        self.stats_alone = not self.stats_alone
        self.set_class(self.stats_alone, "-stats")
        self._bindings = bindings_over(self, self.key_bindings())
        self.refresh_bindings()
        self.query_one("#results-rows", VerticalScroll).scroll_home(animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("rematch" if event.button.id == "rematch" else "menu")

    def action_rematch(self) -> None:
        self.dismiss("rematch")

    def action_menu(self) -> None:
        self.dismiss("menu")
