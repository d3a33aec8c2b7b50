"""A past game, move by move: the game's own board drawn from states the engine rebuilds.

Nothing here is stored as a view: `net.records.Replay` replays the record with the engine and
this screen asks it for the view of the seat on show at the step on show, so the table looks
exactly as it did to that player. While a game is unfinished only this terminal's own seats
may be shown; once it is over every seat may, and "all cards open" stacks every seat's board.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.timer import Timer
from textual.widgets import Static

from net import records
from net.records import review
from tui import boards
from tui.boards.base import GameBoard, Table
from tui.i18n import language, register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.screens.game import TOPBAR_PADDING
from tui.screens.overlays import LogOverlay
from tui.screens.review import ReviewNote
from tui.screens.stats import stats_overlay
from tui.widgets import EventLog, room
from tui.widgets.actions import ActionBar
from tui.widgets.footer import Footer
from tui.widgets.summary import never_offer
from tui.widgets.topline import fit_parts

# Seconds per move in playback, slowest first; `s` cycles through them.
SPEEDS = (2.0, 1.0, 0.5, 0.25)
DEFAULT_SPEED = 1
# Columns the log and scores need beside the board; narrower windows drop them (F6 shows it).
SIDE_WIDTH = 32
# The keys that change what the table shows; they rest while it is hidden for want of room.
TABLE_ACTIONS = frozenset({"step", "jump", "round", "play", "viewer", "all_open"})
CHROME_HEIGHT = 2


class ReplayScreen(TableScreen[None]):
    DEFAULT_CSS = """
    ReplayScreen.-narrow #side { display: none; }
    ReplayScreen.-too-small #table { display: none; }
    ReplayScreen.-too-small #too-small { display: block; }
    ReplayScreen #scores { height: auto; max-height: 8; padding: 0 1; }
    ReplayScreen #all-open { height: 1fr; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("left", "step(-1)", "replay.key.back", True),
        ("right", "step(1)", "replay.key.next", True),
        ("home", "jump('start')", "replay.key.start", False),
        ("end", "jump('end')", "replay.key.end", False),
        ("n", "round(1)", "replay.key.trick", True),
        ("b", "round(-1)", "replay.key.trick_back", False),
        ("N", "round(1, True)", "replay.key.round", False),
        ("B", "round(-1, True)", "replay.key.round_back", False),
        ("p,space", "play", "replay.key.play", True),
        ("s", "speed", "replay.key.speed", False),
        ("v", "viewer", "replay.key.viewer", True),
        ("o", "all_open", "replay.key.open", True),
        ("x", "export", "replay.key.export", True),
        ("g", "review", "review.key", False),
        # Not in the footer, which has no room left at 80 columns: the top bar offers it at the
        # end of a finished game.
        ("t", "stats", "stats.key", False),
        ("f6", "log", "game.key.log", False),
        ("escape", "leave", "key.back", True),
        # As at a table: these still work, but the footer keeps its room for the timeline's
        # keys and Quit (at 80 columns there is not enough for all of them).
        ("f1,question_mark", "app.rules", "key.rules", False),
        ("f2", "app.next_theme", "key.theme", False),
        ("f3", "app.next_language", "key.language", False),
    )

    def __init__(self, replay: records.Replay) -> None:
        self.replay = replay
        self.record = replay.record
        self.engine_id = self.record.engine_id
        self.viewers = self.record.viewers()
        own = self.record.own_seats()
        self.viewer: int | None = own[0] if own and own[0] in self.viewers else self.viewers[0]
        self.step_no = 0
        self.all_open = False
        self.speed = DEFAULT_SPEED
        self._timer: Timer | None = None
        self._logged = -1  # the step the log shows
        super().__init__()

    def key_bindings(self) -> list[Binding]:
        # Priority: a board's own keys (arrows choose cards) must not take the timeline's.
        return [
            Binding(keys, action, tr(label), show=show, priority=True)
            for keys, action, label, show in self.KEYS
        ]

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="topbar")
        with Horizontal(id="table"):
            yield Vertical(id="board-slot")
            with Vertical(id="side"):
                yield Static(tr("game.log"), classes="side-title")
                yield EventLog(id="log")
                yield Static(id="scores")
        yield room.RoomNotice(id="too-small")
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        never_offer(self)
        self._fit(self.size.width, self.size.height)
        await self._rebuild()

    async def retranslate(self) -> None:
        self._stop()
        await super().retranslate()
        self._logged = -1
        self._fit(self.size.width, self.size.height)
        await self._rebuild()

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        board_class = boards.board_class(self.engine_id)
        need_w, need_h = board_class.least_size()
        need = (need_w, need_h + CHROME_HEIGHT)  # the bars above and below the table too
        too_small = room.too_small(need, width, height)
        if too_small != self.has_class("-too-small"):
            self._stop()  # playback would turn the pages of a table nobody sees
            self.set_class(too_small, "-too-small")
            self.refresh_bindings()
        self.set_class(width < board_class.MIN_SIZE[0] + SIDE_WIDTH, "-narrow")
        if too_small:
            self.query_one(room.RoomNotice).say(need, width, height)
        if self.is_mounted:
            self._update_topbar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the table is hidden the keys that move or turn it do nothing (and leave the
        footer): the notice would hide what they did."""
        return not (self.has_class("-too-small") and action in TABLE_ACTIONS)

    # -- what is on show ---------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.replay) - 1

    def table(self, seat: int | None) -> Table:
        """The table `seat` saw after `step_no` moves, rebuilt by the engine. No legal moves:
        a replay only looks."""
        n = self.step_no
        return Table(
            seat=seat,
            state_no=n,
            view=self.replay.view(n, seat),
            legal=[],
            players=self.record.players,
            result=self.replay.result if n == self.last else None,
            hints=False,
            replay=True,
        )

    def boards_shown(self) -> list[GameBoard]:
        return list(self.query(GameBoard))

    def _seats_open(self) -> list[int]:
        return list(range(len(self.record.players)))

    async def _rebuild(self) -> None:
        """New boards: the seat on show changed, or "all cards open" was switched."""
        slot = self.query_one("#board-slot", Vertical)
        await slot.remove_children()
        board_class = boards.board_class(self.engine_id)
        if self.all_open:
            scroll = VerticalScroll(id="all-open")
            await slot.mount(scroll)
            for seat in self._seats_open():
                board = board_class(self.table(seat), classes="open-board")
                board.can_focus = False
                board.styles.height = board_class.MIN_SIZE[1]
                await scroll.mount(board)
            scroll.focus()
        else:
            board = board_class(self.table(self.viewer), id="board")
            board.can_focus = False  # the keys are the timeline's
            await slot.mount(board)
        for bar in slot.query(ActionBar):  # nothing to press in a replay
            bar.display = False
        self._redraw()

    def _redraw(self) -> None:
        for board in self.boards_shown():
            board.show(self.table(board.table.seat))
        self._update_log()
        self._update_scores()
        self._update_topbar()
        for note in self.query(ReviewNote):
            note.at(self.step_no)

    def _update_log(self) -> None:
        log = self.query_one("#log", EventLog)
        n = self.step_no
        if self._logged >= 0 and n == self._logged + 1:
            log.add(*self._texts(self.replay.events[n]))
        elif n != self._logged:
            log.clear()
            log.add(*self._texts(self.replay.log(n)))
        self._logged = n

    def _texts(self, events: list[dict[str, Any]]) -> list[str]:
        names = self.table(None).names
        return [boards.describe(self.engine_id, e, names, language())
                for e in boards.logged(self.engine_id, events)]

    def _update_scores(self) -> None:
        result = self.replay.result if self.step_no == self.last else None
        scores = (result or {}).get("scores") or self.replay.view(self.step_no, None).get("scores")
        names = self.table(None).names
        lines = []
        if isinstance(scores, list) and len(scores) == len(names):
            winners = (result or {}).get("winners") or []
            lines = [f"{'★' if seat in winners else ' '} {name}: {score}"
                     for seat, (name, score) in enumerate(zip(names, scores, strict=True))]
            lines.insert(0, tr("replay.scores"))
        self.query_one("#scores", Static).update(Content("\n".join(lines)))

    def _viewer_label(self) -> str:
        if self.all_open:
            return tr("replay.all_open")
        if self.viewer is None:
            return tr("replay.spectator")
        return tr("replay.view_of", name=self.table(None).name(self.viewer))

    def _update_topbar(self) -> None:
        parts = [
            self.replay.engine.title,
            tr("replay.move", n=self.step_no, total=self.last),
            self._viewer_label(),
        ]
        droppable = [0]
        if self.record.over and self.step_no == self.last:
            droppable.append(len(parts))
            parts.append(tr("replay.stats_hint"))
        if self._timer is not None:
            parts.append(tr("replay.playing", speed=self._speed_label()))
        if not self.record.over:
            parts.append(tr("replay.unfinished"))
        log = self.query_one("#log", EventLog)
        if self.has_class("-narrow") and log.texts and self.step_no:
            parts.append(log.texts[-1])
        line = fit_parts(parts, self.size.width - TOPBAR_PADDING, droppable=droppable)
        self.query_one("#topbar", Static).update(Content(line))

    def _speed_label(self) -> str:
        return f"{1 / SPEEDS[self.speed]:g}/s"

    # -- the timeline ------------------------------------------------------------------------
    def go(self, n: int) -> None:
        self.step_no = max(0, min(self.last, n))
        if self.step_no == self.last:
            self._stop()  # playback ends with the game
        self._redraw()

    def action_step(self, delta: int) -> None:
        self.go(self.step_no + delta)

    def action_jump(self, where: str) -> None:
        self.go(0 if where == "start" else self.last)

    def action_round(self, direction: int, coarse: bool = False) -> None:
        """To the next (or previous) end of a trick or turn; `coarse`: of a hand or round."""
        stops = self.replay.stops(coarse)
        if direction > 0:
            ahead = [n for n in stops if n > self.step_no]
            self.go(ahead[0] if ahead else self.last)
        else:
            behind = [n for n in stops if n < self.step_no]
            self.go(behind[-1] if behind else 0)

    def action_play(self) -> None:
        if self._timer is not None:
            self._stop()
        else:
            if self.step_no == self.last:
                self.go(0)
            self._timer = self.set_interval(SPEEDS[self.speed], self._tick)
        self._update_topbar()

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        self.go(self.step_no + 1)

    def action_speed(self) -> None:
        self.speed = (self.speed + 1) % len(SPEEDS)
        if self._timer is not None:
            self._stop()
            self._timer = self.set_interval(SPEEDS[self.speed], self._tick)
        self.notify(tr("replay.speed", speed=self._speed_label()))
        self._update_topbar()

    async def action_viewer(self) -> None:
        """The next seat whose view may be shown (only this terminal's seats before the end)."""
        if self.all_open:
            self.all_open = False
        else:
            index = self.viewers.index(self.viewer) if self.viewer in self.viewers else -1
            self.viewer = self.viewers[(index + 1) % len(self.viewers)]
        await self._rebuild()

    async def action_all_open(self) -> None:
        if not self.record.over:
            self.notify(tr("replay.not_over"), severity="warning")
            return
        self.all_open = not self.all_open
        await self._rebuild()

    def action_export(self) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.record.started))
        target = Path.cwd() / f"tabletop-{self.engine_id}-{stamp}.jsonl"
        try:
            records.export(self.record, target)
        except records.RecordError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        except OSError as exc:
            self.notify(tr("replay.export_failed", error=exc.strerror or str(exc)),
                        severity="error", markup=False)
            return
        self.notify(tr("replay.exported", path=str(target)), markup=False, timeout=8)

    def action_stats(self) -> None:
        """The game's statistics over the replay (a finished game's only)."""
        self._stop()
        found = stats_overlay(self.record, self.replay)
        if isinstance(found, str):
            self.notify(found, severity="warning", markup=False)
        else:
            self.app.push_screen(found)

    async def action_review(self) -> None:
        """The review of the seat on show beside each move, or away again (`g`)."""
        for note in self.query(ReviewNote):
            await note.remove()
            return
        seat = None if self.all_open else self.viewer
        if seat is None or seat not in review.seats_to_review(self.record):
            self.notify(tr("review.note.seat"), severity="warning")
            return
        board = self.boards_shown()[0]
        await self.query_one("#side", Vertical).mount(ReviewNote(self.replay, seat,
                                                                 board.describe_move))
        self.query_one(ReviewNote).at(self.step_no)

    def action_log(self) -> None:
        self.app.push_screen(LogOverlay(list(self.query_one("#log", EventLog).texts),
                                        tr("game.log")))

    def action_leave(self) -> None:
        self._stop()
        self.dismiss()


register(
    {
        "en": {
            "replay.key.back": "Back",
            "replay.key.next": "Next",
            "replay.key.start": "Start",
            "replay.key.end": "End",
            "replay.key.trick": "Next trick/turn",
            "replay.key.trick_back": "Trick/turn back",
            "replay.key.round": "Next round/hand",
            "replay.key.round_back": "Round/hand back",
            "replay.key.play": "Play",
            "replay.key.speed": "Speed",
            "replay.key.viewer": "View",
            "replay.key.open": "All open",
            "replay.key.export": "Export",
            "replay.move": "move {n}/{total}",
            "replay.view_of": "{name}'s view",
            "replay.spectator": "spectator's view",
            "replay.all_open": "all cards open",
            "replay.playing": "playing {speed}",
            "replay.speed": "Playback: {speed} moves a second",
            "replay.unfinished": "unfinished",
            "replay.scores": "Scores",
            "replay.stats_hint": "t: statistics",
            "replay.not_over": "The game is not over: only your own cards can be shown",
            "replay.exported": "Exported to {path}: open it with `tabletop-tui replay FILE`",
            "replay.export_failed": "Could not export: {error}",
        },
        "de": {
            "replay.key.back": "Zurück",
            "replay.key.next": "Weiter",
            "replay.key.start": "Anfang",
            "replay.key.end": "Ende",
            "replay.key.trick": "Nächster Stich/Zug",
            "replay.key.trick_back": "Stich/Zug zurück",
            "replay.key.round": "Nächste Runde",
            "replay.key.round_back": "Runde zurück",
            "replay.key.play": "Abspielen",
            "replay.key.speed": "Tempo",
            "replay.key.viewer": "Sicht",
            "replay.key.open": "Alle offen",
            "replay.key.export": "Exportieren",
            "replay.move": "Zug {n}/{total}",
            "replay.view_of": "Sicht von {name}",
            "replay.spectator": "Sicht der Zuschauer",
            "replay.all_open": "alle Karten offen",
            "replay.playing": "spielt {speed}",
            "replay.speed": "Wiedergabe: {speed} Züge pro Sekunde",
            "replay.unfinished": "nicht beendet",
            "replay.scores": "Punkte",
            "replay.stats_hint": "t: Statistik",
            "replay.not_over": "Das Spiel ist nicht vorbei: nur deine eigenen Karten sind zu sehen",
            "replay.exported": "Exportiert nach {path}: öffnen mit `tabletop-tui replay DATEI`",
            "replay.export_failed": "Export fehlgeschlagen: {error}",
        },
    }
)
