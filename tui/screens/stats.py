"""A past game's statistics, over Past games or its replay (`t` on either): the table the
results screen showed when the game ended, worked out again from the record, so games
recorded before statistics existed have them too. Only a finished game has any."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from engines.stats import Stat
from net import records
from tui import boards
from tui.boards.base import distinct_names
from tui.i18n import localised_name, register, third_person, tr
from tui.screens.results import ranking
from tui.widgets.stats import StatsTable


def stats_overlay(record: records.Record,
                  replay: records.Replay | None = None) -> StatsOverlay | str:
    """The overlay with `record`'s statistics (from `replay` when it is at hand), or the
    sentence saying why the game has none."""
    if not record.over:
        return tr("stats.not_over")
    try:
        replay = replay or records.Replay(record)
    except records.RecordError as exc:
        return str(exc)
    stats = records.stats_of_replay(replay)
    if not stats or not any(stats):
        return tr("stats.none")
    return StatsOverlay(replay, stats)


class StatsOverlay(ModalScreen[None]):
    """The statistics of one finished game; Esc, Enter or `t` closes it."""

    DEFAULT_CSS = """
    StatsOverlay { align: center middle; }
    StatsOverlay > Vertical {
        width: auto; min-width: 40; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    StatsOverlay #stats-title { height: auto; text-style: bold; color: $accent; }
    StatsOverlay #stats-table { width: auto; max-width: 100%; margin: 1 0; }
    StatsOverlay #stats-hint { height: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,t,q", "close", show=False),
    ]

    def __init__(self, replay: records.Replay, stats: list[list[Stat]]) -> None:
        super().__init__()
        self.replay = replay
        self.stats = stats

    def compose(self) -> ComposeResult:
        record, result = self.replay.record, self.replay.result or {}
        boards.board_class(record.engine_id)  # its module registers the words
        names = distinct_names([third_person(localised_name(str(p["name"])), seat)
                                for seat, p in enumerate(record.players)])
        order = ranking(record.engine_id, result) if result else list(range(len(names)))
        with Vertical():
            yield Static(Content(tr("stats.of", game=self.replay.engine.title)),
                         id="stats-title")
            yield StatsTable(record.engine_id, names, self.stats, order, id="stats-table")
            yield Static(tr("stats.hint"), id="stats-hint")

    def action_close(self) -> None:
        self.dismiss()


register(
    {
        "en": {"stats.hint": "Esc closes"},
        "de": {"stats.hint": "Esc schließt"},
    }
)
