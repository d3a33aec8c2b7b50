"""A player's own fair-play figures at one game (net.players.fairplay), for their page: how
often their moves agreed with the expert's and their mean loss of win chance a decision, from
the verified records of this data directory. Reviewing takes a while the first time (rows are
kept after), so it runs in a worker thread, one at a time: a game asked for meanwhile is
reviewed next."""

from __future__ import annotations

import contextlib
import threading

from textual.content import Content
from textual.widgets import Static

from net import records
from net.players import fairplay
from tui.i18n import register, tr


class FairPlayLine(Static):
    DEFAULT_CSS = """
    FairPlayLine { height: auto; color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.busy = False
        self.wanted: tuple[str, str] | None = None
        self.shown: tuple[str, str] | None = None
        self._gone = threading.Event()  # the page has closed: the review stops

    def on_unmount(self) -> None:
        self._gone.set()

    def show(self, ident: str, engine_id: str) -> None:
        """The figures of `ident` at `engine_id` (reviewed in a worker thread); a bot's
        none (its moves are checked to be its level's)."""
        self.display = fairplay.is_person(ident)
        if not self.display:
            return
        self.wanted = (ident, engine_id)
        if self.busy:
            return
        self.busy = True
        self.update(Content(tr("fair.working")))
        app = self.app

        def work() -> None:
            ident_, game = self.wanted or (ident, engine_id)
            found = [e.record for e in records.listing() if e.record is not None]
            figures = fairplay.figures(found, game, only=ident_,
                                       stop=self._gone.is_set).players.get(ident_)
            with contextlib.suppress(RuntimeError):
                app.call_from_thread(self._done, (ident_, game), figures)

        self.run_worker(work, thread=True, group="fair-play")

    def _done(self, asked: tuple[str, str], figures: fairplay.PlayerFigures | None) -> None:
        self.busy = False
        if not self.is_mounted:
            return
        if self.wanted is not None and self.wanted != asked:
            self.show(*self.wanted)  # another game was asked for meanwhile
            return
        self.shown = asked
        if figures is None or not figures.decisions:
            self.update(Content(tr("fair.none")))
            return
        self.update(Content(tr("fair.line", agreed=round(100 * figures.agreement),
                               decisions=figures.decisions, games=figures.games,
                               loss=f"{100 * figures.mean_loss:.1f}")))


register(
    {
        "en": {
            "fair.working": "Fair play: reviewing your verified games…",
            "fair.none": "Fair play: no verified game of yours to review here.",
            "fair.line": "Fair play: your move was the expert's in {agreed}% of {decisions} "
                         "decisions ({games} verified games); you gave away {loss}% of win "
                         "chance a decision on average.",
        },
        "de": {
            "fair.working": "Fairplay: deine geprüften Spiele werden analysiert…",
            "fair.none": "Fairplay: hier kein geprüftes Spiel von dir zu analysieren.",
            "fair.line": "Fairplay: dein Zug war in {agreed} % von {decisions} Entscheidungen "
                         "der des Experten ({games} geprüfte Spiele); im Mittel hast du "
                         "{loss} % Gewinnchance je Entscheidung verschenkt.",
        },
    }
)
