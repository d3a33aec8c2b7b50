"""The review of a finished game: every decision of one seat, graded by the expert
(net.records.review), beside the table as that seat saw it at the decision.

The review runs in a worker thread (a search a decision, a second or so each) while the
screen stays live: a progress bar fills, rows appear as they are judged, and leaving stops it
after the decision at hand. Every judged row is kept in the data directory, so coming back
takes it up where it stopped. The better move of a row stays hidden until the player has
tried the position again (`t`, tui.screens.try_again) or asks to see it (`s`); `w` then says
why in the expert's own numbers.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from engines import coach
from engines.base import Move
from net import records
from net.records import review
from tui import boards
from tui.boards.base import GameBoard, Table, honest
from tui.i18n import register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.screens.coach_words import why
from tui.screens.try_again import TryAgainScreen
from tui.widgets.actions import ActionBar
from tui.widgets.footer import Footer
from tui.widgets.summary import never_offer


class ReviewJob:
    """A review running in a worker thread, the rows it judged so far and its progress; `stop`
    ends it after the decision at hand (what was judged is kept in the data directory)."""

    def __init__(self, replay: records.Replay, seat: int, iterations: int | None) -> None:
        self.replay = replay
        self.seat = seat
        self.iterations = iterations
        self.rows: list[dict[str, Any]] = []
        self.done = 0
        self.total = 0
        self.finished = False
        self._stop = threading.Event()

    def run(self, changed: Any) -> None:
        """The review itself (in a worker thread); `changed()` after each decision."""

        def progress(done: int, total: int) -> None:
            self.done, self.total = done, total
            changed()

        self.rows = review.review(self.replay, self.seat, iterations=self.iterations,
                                  progress=progress, stop=self._stop.is_set)
        self.finished = not self._stop.is_set()
        changed()

    def stop(self) -> None:
        self._stop.set()

    def row_at(self, state: int) -> dict[str, Any] | None:
        return next((r for r in self.rows if r["state"] == state), None)


class ReviewScreen(TableScreen[None]):
    DEFAULT_CSS = """
    ReviewScreen #review-top { height: auto; padding: 0 1; }
    ReviewScreen #review-progress { height: 1; padding: 0 1; }
    ReviewScreen #review-body { height: 1fr; }
    ReviewScreen #review-board-slot { width: 1fr; }
    ReviewScreen #review-side { width: 48; }
    ReviewScreen.-slim #review-board-slot { display: none; }
    ReviewScreen.-slim #review-side { width: 1fr; }
    ReviewScreen #review-list { height: 1fr; }
    ReviewScreen #review-detail { height: auto; max-height: 12; padding: 0 1; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("t", "try_again", "review.key.try", True),
        ("s", "show_best", "review.key.show", True),
        ("w", "why", "review.key.why", True),
        ("escape", "leave", "key.back", True),
    )

    def __init__(self, replay: records.Replay, seat: int,
                 iterations: int | None = None) -> None:
        review.check_seat(replay.record, seat)
        self.replay = replay
        self.seat = seat
        self.job = ReviewJob(replay, seat, iterations)
        self.shown_rows = 0
        self.revealed: set[int] = set()  # states whose better move is on show
        self.explained: set[int] = set()  # states whose "why" is on show
        self._board: GameBoard | None = None
        super().__init__()

    def compose(self) -> ComposeResult:
        yield Static(id="review-top")
        yield ProgressBar(id="review-progress", show_eta=False)
        with Horizontal(id="review-body"):
            yield Vertical(id="review-board-slot")
            with Vertical(id="review-side"):
                yield OptionList(id="review-list")
                yield Static(id="review-detail")
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        never_offer(self)  # a round's summary would take the list's keys
        await self._build()
        if not self.job.finished:
            app = self.app

            def changed() -> None:  # from the worker: draw on the app's thread
                with contextlib.suppress(RuntimeError):  # the app has ended meanwhile
                    app.call_from_thread(self._update)

            self.run_worker(lambda: self.job.run(changed), thread=True, group="review",
                            exclusive=True)

    async def _build(self) -> None:
        """The board of the seat on show and the rows judged so far (again after a
        recompose: the review runs on)."""
        board = boards.board_class(self.replay.engine.id)(self._table(0), id="review-board")
        board.can_focus = False  # the keys are the list's
        await self.query_one("#review-board-slot", Vertical).mount(board)
        for bar in board.query(ActionBar):
            bar.display = False
        self._board = board
        self.shown_rows = 0
        self._update()
        self.query_one("#review-list", OptionList).focus()

    def _table(self, state: int) -> Table:
        return Table(seat=self.seat, state_no=state, view=self.replay.view(state, self.seat),
                     legal=[], players=self.replay.record.players, hints=False, replay=True)

    def describe(self, move: Move | None) -> str:
        return self._board.describe_move(move) if self._board is not None else str(move)

    # -- drawing -----------------------------------------------------------------------------
    def _update(self) -> None:
        if not self.is_mounted:
            return
        job = self.job
        name = self._table(0).name(self.seat)
        tally = review.counts(job.rows)
        top = tr("review.title", game=self.replay.engine.title, name=name)
        top += "  ·  " + ", ".join(tr(f"review.count.{g}", n=tally[g]) for g in coach.GRADES)
        if not job.finished:
            top += "  ·  " + tr("review.working", done=job.done, total=job.total or "…")
        self.query_one("#review-top", Static).update(Content(top))
        bar = self.query_one("#review-progress", ProgressBar)
        bar.update(total=max(job.total, 1), progress=job.done if job.total else 0)
        bar.display = not job.finished
        listing = self.query_one("#review-list", OptionList)
        new = job.rows[self.shown_rows:]
        if new:
            listing.add_options([Option(self._line(r), id=str(r["state"])) for r in new])
            self.shown_rows = len(job.rows)
            if listing.highlighted is None:
                listing.highlighted = 0
        self._detail()

    def _line(self, row: dict[str, Any]) -> Content:
        mark = {"good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}[row["grade"]]
        text = tr("review.row", n=row["state"], move=self.describe(row["move"]),
                  grade=tr(f"review.grade.{row['grade']}"), win=honest(row["after"]))
        return Content(f"{mark:<3}{text}")

    def highlighted_row(self) -> dict[str, Any] | None:
        listing = self.query_one("#review-list", OptionList)
        index = listing.highlighted
        rows = self.job.rows
        return rows[index] if index is not None and index < len(rows) else None

    def _detail(self) -> None:
        row = self.highlighted_row()
        detail = self.query_one("#review-detail", Static)
        if row is None:
            detail.update(tr("review.none") if self.job.finished else "")
            return
        if self._board is not None:
            self._board.show(self._table(row["state"]))
        state = row["state"]
        lines = [tr("review.detail", move=self.describe(row["move"]),
                    grade=tr(f"review.grade.{row['grade']}"),
                    before=honest(row["before"]), after=honest(row["after"]))]
        if state in self.revealed:
            if row["agreed"]:
                lines.append(tr("review.best_same"))
            else:
                lines.append(tr("review.best", move=self.describe(row["best"]),
                                win=honest(row["before"])))
        else:
            lines.append(tr("review.hidden"))
        if state in self.explained:
            lines.append(why(coach.from_row(row), self.describe))
        detail.update(Content("\n".join(lines)))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_try_again()

    # -- keys --------------------------------------------------------------------------------
    def action_try_again(self) -> None:
        """Play the highlighted decision's position again; the better move shows after."""
        row = self.highlighted_row()
        if row is None:
            return
        def done(tried: bool | None) -> None:
            if tried:
                self.revealed.add(row["state"])
                self._detail()

        self.app.push_screen(TryAgainScreen(self.replay, self.seat, row), done)

    def action_show_best(self) -> None:
        row = self.highlighted_row()
        if row is not None:
            self.revealed.add(row["state"])
            self._detail()

    def action_why(self) -> None:
        row = self.highlighted_row()
        if row is None:
            return
        self.revealed.add(row["state"])  # the reasons name the better move
        self.explained ^= {row["state"]}
        self._detail()

    def action_leave(self) -> None:
        self.job.stop()
        self.dismiss()

    def on_unmount(self) -> None:
        self.job.stop()

    async def retranslate(self) -> None:
        await super().retranslate()
        await self._build()


class ReviewNote(Static):
    """The review beside a replay (tui.screens.replay, `g`): the grade of the move that led to
    the step on show, if the reviewed seat made it, and the better move; the review runs in a
    worker thread as on the review screen, and its rows are the same kept ones."""

    DEFAULT_CSS = """
    ReviewNote { height: auto; max-height: 8; padding: 0 1; }
    """

    def __init__(self, replay: records.Replay, seat: int, describe: Any) -> None:
        super().__init__(id="review-note")
        self.job = ReviewJob(replay, seat, None)
        self.describe = describe
        self.step = 0

    def on_mount(self) -> None:
        app = self.app

        def changed() -> None:
            with contextlib.suppress(RuntimeError):
                app.call_from_thread(self.at, self.step)

        self.run_worker(lambda: self.job.run(changed), thread=True, group="review",
                        exclusive=True)
        self.at(self.step)

    def on_unmount(self) -> None:
        self.job.stop()

    def at(self, step: int) -> None:
        """Say the review of the move that led to `step` (made at state step - 1)."""
        self.step = step
        if not self.is_mounted:
            return
        job = self.job
        lines = [tr("review.note.title", done=job.done, total=job.total or "…")
                 if not job.finished else tr("review.note.done")]
        row = job.row_at(step - 1)
        if row is not None:
            lines.append(tr("review.row", n=row["state"], move=self.describe(row["move"]),
                            grade=tr(f"review.grade.{row['grade']}"),
                            win=honest(row["after"])))
            if not row["agreed"]:
                lines.append(tr("review.best", move=self.describe(row["best"]),
                                win=honest(row["before"])))
        self.update(Content("\n".join(lines)))


def open_review(screen: Screen[Any], record: records.Record, seat: int | None = None) -> None:
    """Push the review of `record` (of `seat`, else this terminal's own seat, else the
    first) over `screen`, or say there why it cannot be."""
    try:
        seats = review.seats_to_review(record)
        own = [s for s in record.own_seats() if s in seats]
        chosen = seat if seat is not None else (own[0] if own else 0)
        review_screen = ReviewScreen(records.Replay(record), chosen)
    except records.RecordError as exc:
        screen.notify(tr("review.cannot", error=str(exc)), severity="warning", markup=False)
        return
    screen.app.push_screen(review_screen)


register(
    {
        "en": {
            "review.key": "Review",
            "review.key.try": "Try again",
            "review.key.show": "Show best",
            "review.key.why": "Why",
            "review.title": "Review of {game}: {name}",
            "review.working": "reviewing {done}/{total}",
            "review.count.good": "{n} good",
            "review.count.inaccuracy": "{n} inaccuracies",
            "review.count.mistake": "{n} mistakes",
            "review.count.blunder": "{n} blunders",
            "review.grade.good": "good",
            "review.grade.inaccuracy": "inaccuracy",
            "review.grade.mistake": "mistake",
            "review.grade.blunder": "blunder",
            "review.row": "{n}: {move}: {grade} ({win}%)",
            "review.detail": "Move {move}: {grade}. Chance to win with the best move {before}%, "
                             "with this one {after}%.",
            "review.hidden": "t: try this position again before the better move is shown "
                             "(s: show it now)",
            "review.best": "Better: {move} ({win}%).",
            "review.best_same": "That was the expert's choice too.",
            "review.none": "No decision to judge: every move of this seat was forced.",
            "review.cannot": "No review: {error}",
            "review.note.title": "Review: {done}/{total}",
            "review.note.done": "Review",
            "review.note.seat": "Review: choose a seat's view first (v)",
        },
        "de": {
            "review.key": "Analyse",
            "review.key.try": "Nochmal",
            "review.key.show": "Besten zeigen",
            "review.key.why": "Warum",
            "review.title": "Analyse von {game}: {name}",
            "review.working": "analysiere {done}/{total}",
            "review.count.good": "{n} gut",
            "review.count.inaccuracy": "{n} Ungenauigkeiten",
            "review.count.mistake": "{n} Fehler",
            "review.count.blunder": "{n} grobe Fehler",
            "review.grade.good": "gut",
            "review.grade.inaccuracy": "Ungenauigkeit",
            "review.grade.mistake": "Fehler",
            "review.grade.blunder": "grober Fehler",
            "review.row": "{n}: {move}: {grade} ({win} %)",
            "review.detail": "Zug {move}: {grade}. Gewinnchance mit dem besten Zug {before} %, "
                             "mit diesem {after} %.",
            "review.hidden": "t: die Stellung nochmal spielen, bevor der bessere Zug gezeigt "
                             "wird (s: gleich zeigen)",
            "review.best": "Besser: {move} ({win} %).",
            "review.best_same": "Das war auch die Wahl des Experten.",
            "review.none": "Nichts zu bewerten: jeder Zug dieses Platzes war erzwungen.",
            "review.cannot": "Keine Analyse: {error}",
            "review.note.title": "Analyse: {done}/{total}",
            "review.note.done": "Analyse",
            "review.note.seat": "Analyse: erst die Sicht eines Platzes wählen (v)",
        },
    }
)
