"""Past games: every record in the data directory, newest first, filtered by game. Enter opens
one in the replay; `t` shows a finished game's statistics; `r` takes an unfinished game up
again, a local one at this terminal and a hosted one by opening its room again (as `host
--resume` does, which a player at an SSH table has no shell to run). A damaged record is listed
too, so a player learns why it will not open rather than missing a game."""

from __future__ import annotations

import time
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Select, Static
from textual.widgets.option_list import Option

from engines import ENGINE_IDS, get_engine
from net import records
from tui.i18n import localised_name, register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.widgets.footer import Footer

ALL = "all"


def _title(engine_id: str) -> str:
    try:
        return get_engine(engine_id).title
    except ImportError:
        return engine_id


def describe(entry: records.Entry) -> Content:
    """One entry in two lines: when, which game and how it ended; who played, and where."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.started))
    record = entry.record
    if record is None:
        return Content(f"{when}  {entry.path.name}\n  {entry.error}")
    names = [localised_name(str(p["name"])) for p in record.players]
    won = records.winners(record)
    if not record.over:
        outcome = tr("past.unfinished")
    elif won:
        outcome = tr("past.winner", names=", ".join(names[w] for w in won if w < len(names)))
    else:
        outcome = tr("past.over")
    where = tr(f"past.kind.{record.kind}")
    if record.code:
        where += f" {record.code}"
    return Content(f"{when}  {_title(record.engine_id)}  ·  {outcome}\n"
                   f"  {', '.join(names)}  ·  {where}")


class PastGamesScreen(TableScreen[None]):
    DEFAULT_CSS = """
    PastGamesScreen #past-box { height: 1fr; padding: 0 1; }
    PastGamesScreen #past-filter { width: 40; margin: 0 0 1 0; }
    PastGamesScreen #past-list { height: 1fr; }
    PastGamesScreen #past-empty { height: auto; color: $text-muted; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("enter", "open", "past.key.open", True),  # the list takes Enter first; this labels it
        ("t", "stats", "stats.key", True),
        ("g", "review", "review.key", False),  # the footer is full at 80 columns
        ("r", "resume", "past.key.resume", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self) -> None:
        super().__init__()
        self.game = ALL
        self.entries: list[records.Entry] = []

    def compose(self) -> ComposeResult:
        self.entries = records.listing()
        choices = [(tr("past.all_games"), ALL)]
        choices += [(_title(e), e) for e in ENGINE_IDS]
        with Vertical(id="past-box"):
            yield Static(tr("menu.past"), id="menu-title")
            yield Select(choices, value=self.game, allow_blank=False, id="past-filter")
            yield OptionList(id="past-list")
            yield Static(id="past-empty")
        yield Footer(compact=True)  # room for every key at 80 columns, in German too

    def on_mount(self) -> None:
        self._fill()
        self.query_one("#past-list", OptionList).focus()

    def on_screen_resume(self) -> None:
        """Back from a replay or a resumed game: the list may have grown or changed."""
        self.entries = records.listing()
        self._fill()

    def shown(self) -> list[records.Entry]:
        return [e for e in self.entries
                if self.game == ALL or (e.record is not None and e.record.engine_id == self.game)]

    def _fill(self) -> None:
        listing = self.query_one("#past-list", OptionList)
        listing.clear_options()
        shown = self.shown()
        listing.add_options([Option(describe(e), id=str(i)) for i, e in enumerate(shown)])
        if shown:
            listing.highlighted = 0
        self.query_one("#past-empty", Static).update(
            "" if shown else tr("past.empty"))

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.game = str(event.value)
        self._fill()

    def _picked(self) -> records.Entry | None:
        listing = self.query_one("#past-list", OptionList)
        shown = self.shown()
        index = listing.highlighted
        return shown[index] if index is not None and index < len(shown) else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def _readable(self) -> records.Record | None:
        """The highlighted game's record; None (and why, for a damaged one) if there is none."""
        entry = self._picked()
        if entry is not None and entry.record is None:
            self.notify(entry.error or "", severity="error", markup=False)
        return entry.record if entry is not None else None

    def action_open(self) -> None:
        """Open the highlighted record in the replay, or say why it cannot be."""
        record = self._readable()
        if record is None:
            return
        from tui.screens.replay import ReplayScreen

        try:
            replay = records.Replay(record)
        except records.RecordError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.app.push_screen(ReplayScreen(replay))

    def action_stats(self) -> None:
        """The highlighted game's statistics, or why it has none."""
        record = self._readable()
        if record is None:
            return
        from tui.screens.stats import stats_overlay

        found = stats_overlay(record)
        if isinstance(found, str):
            self.notify(found, severity="warning", markup=False)
        else:
            self.app.push_screen(found)

    def action_review(self) -> None:
        """The highlighted game's review (of this terminal's seat), or why there is none."""
        record = self._readable()
        if record is None:
            return
        from tui.screens.review import open_review

        open_review(self, record)

    def action_resume(self) -> None:
        entry = self._picked()
        record = entry.record if entry else None
        if record is None or record.over or record.kind not in ("local", "host"):
            self.notify(tr("past.cannot_resume"), severity="warning")
            return
        if record.kind == "host":
            self.app.resume_hosted(record.path)  # type: ignore[attr-defined]
            return
        try:
            self.app.resume_local(record.path)  # type: ignore[attr-defined]
        except records.RecordError as exc:
            self.notify(str(exc), severity="error", markup=False)

    def action_back(self) -> None:
        self.dismiss()

    async def retranslate(self) -> None:
        await super().retranslate()
        self.on_mount()


register(
    {
        "en": {
            "past.all_games": "All games",
            "past.unfinished": "unfinished",
            "past.winner": "won by {names}",
            "past.over": "over",
            "past.kind.local": "local",
            "past.kind.host": "networked, hosted",
            "past.kind.peer": "networked, joined",
            "past.empty": "No games yet: every game you play is kept here.",
            "past.key.open": "Open",
            "past.key.resume": "Resume",
            "past.cannot_resume": "Only an unfinished game played or hosted here can be "
                                  "resumed (one you joined: join its room again with its "
                                  "code)",
        },
        "de": {
            "past.all_games": "Alle Spiele",
            "past.unfinished": "nicht beendet",
            "past.winner": "gewonnen von {names}",
            "past.over": "beendet",
            "past.kind.local": "lokal",
            "past.kind.host": "im Netz, eröffnet",
            "past.kind.peer": "im Netz, beigetreten",
            "past.empty": "Noch keine Spiele: jedes Spiel wird hier aufgehoben.",
            "past.key.open": "Öffnen",
            "past.key.resume": "Fortsetzen",
            "past.cannot_resume": "Nur ein nicht beendetes Spiel, das hier gespielt oder "
                                  "eröffnet wurde, lässt sich fortsetzen (eines, dem du "
                                  "beigetreten bist: tritt dem Raum mit seinem Code wieder bei)",
        },
    }
)
