"""The game screen: one table, seen through a `TableLink`. It never touches an engine state:
views come in as messages, moves go out through the link, so the same screen plays a local
game, a hosted one and a joined one.

It also runs hot-seat play: when the seat that must act changes to another person at this
terminal, the table is covered by a handoff screen first, so nobody sees somebody else's chips.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Resize
from textual.message import Message
from textual.widgets import Static

from engines import get_engine
from net import records
from net.table.link import TableLink
from net.wire import codes
from tui import boards, prefs
from tui.boards.base import GameBoard, Table
from tui.i18n import language, tr
from tui.screens import chat_log
from tui.screens.base import KeySpec, TableScreen, app_crashed
from tui.screens.chat_log import Entry
from tui.screens.handoff import HandoffScreen
from tui.screens.overlays import ConfirmScreen, LogOverlay
from tui.screens.results import ResultsScreen
from tui.screens.takeback import concede_question, undo_line
from tui.widgets import EventLog, room
from tui.widgets.clocks import SeatClocks, setting_words, span
from tui.widgets.footer import Footer
from tui.widgets.hint_line import MAX_ROWS as HINT_ROWS
from tui.widgets.hint_line import HintLine
from tui.widgets.topline import fit_parts

# The log needs this many columns beside the board; narrower windows drop the log first.
LOG_WIDTH = 32
# A wide window gives the log this share of its columns (up to LOG_WIDEST), as long as the
# board keeps the columns it needs: at 160×50 a log of 32 wrapped nearly every line.
LOG_SHARE = 0.3
LOG_WIDEST = 64
# Top bar and footer.
CHROME_HEIGHT = 2
# Columns of the top bar's padding (one each side).
TOPBAR_PADDING = 2
# Columns of the top bar the clocks leave to whose turn it is, however many seats there are.
CLOCKS_LEAVE = 24


class LinkMessage(Message, bubble=False):
    """A message from the link, moved onto the screen's queue so it is handled in order. It is
    the screen's alone: it must not bubble on to the app."""

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__()
        self.data = data


class GameScreen(TableScreen[None]):
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("escape", "leave", "key.menu", True),
        ("f6", "log", "game.key.log", True),
        ("f7", "extend", "clock.key", True),  # shown only while it can be asked for
        ("u", "undo", "game.key.undo", True),  # shown only while the table allows it
        ("u", "ask_undo", "game.key.undo", False),  # else the table says why not
        ("f8", "concede", "game.key.concede", False),
        # Rules, theme and language still work here, but the footer keeps its room for the
        # game's keys and Quit: at 80 columns there is not enough for all of them.
        ("f1,question_mark", "app.rules", "key.rules", False),
        ("f2", "app.next_theme", "key.theme", False),
        ("f3", "app.next_language", "key.language", False),
    )

    def __init__(
        self,
        link: TableLink,
        engine_id: str,
        *,
        rematch: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.link = link
        self.engine_id = engine_id
        self.title_text = get_engine(engine_id).title
        self.rematch = rematch
        self.tables: dict[int | None, Table] = {}
        self.latest: Table | None = None  # the newest table any seat received
        self.shown: int | None = None  # the seat whose view is on show
        self._at_keys: int | None = None  # hot-seat: whose person took the keyboard last
        self.entries: list[Entry] = []
        self._heard: dict[int, dict[str, Any]] = {}  # chat lines by the host's number
        self.result: dict[str, Any] | None = None
        self._results_open = False
        self._started = False
        self._show_pending = False
        self._leaving = False
        self._link_closed = False
        self._was_my_turn = False
        self._clocks_seen: dict[str, Any] | None = None  # the clocks as last logged
        self._extend_offered = False  # whether the footer offers the extension now
        self._undo: dict[int | None, bool] = {}  # whether each seat here may undo now
        self._undo_offered = False  # whether the footer offers undo now
        # The link's messages that came while the table is composed afresh (F3's language),
        # handled once it is there; None: not recomposing.
        self._held: list[dict[str, Any]] | None = None

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="topline"):
            yield Static(id="topbar")
            yield SeatClocks(id="clocks")
        with Horizontal(id="table"):
            with Vertical(id="board-slot"):
                if self.shown_table is not None:
                    yield self._new_board(self.shown_table)
            with Vertical(id="side"):
                yield from self.side_top()
                yield Static(tr("game.log"), classes="side-title")
                yield EventLog(id="log", lines=[self._entry_text(e) for e in self.entries])
        yield HintLine(id="hint-line")
        yield room.RoomNotice(id="too-small")
        yield Footer(compact=True)

    def side_top(self) -> ComposeResult:
        """Widgets above the log in the side column (a lesson's panel); none here."""
        yield from ()

    @property
    def shown_table(self) -> Table | None:
        return self.tables.get(self.shown) if self.tables else None

    @property
    def board(self) -> GameBoard | None:
        found = self.query(GameBoard)
        return found.first() if found else None

    def _new_board(self, table: Table) -> GameBoard:
        return boards.board_class(self.engine_id)(table, id="board")

    def on_mount(self) -> None:
        if not self._started:
            self._started = True
            self.link.set_listener(self._hear_link)
            self.run_worker(self.link.start(), group="link")
        self._fit(self.size.width, self.size.height)
        self._update_topbar()

    def _hear_link(self, data: dict[str, Any]) -> None:
        """A message from the link, onto the screen's queue; held while the table is
        composed afresh (a move drawn then looked for the new board's parts before they
        were there, and the app crashed)."""
        if self._held is not None:
            self._held.append(data)
        else:
            self.post_message(LinkMessage(data))

    async def retranslate(self) -> None:
        self._held = []
        try:
            await super().retranslate()
        finally:
            held, self._held = self._held, None
        self._fit(self.size.width, self.size.height)
        self._update_topbar()
        if self.board is not None:
            self.board.focus()
        for data in held:
            self.post_message(LinkMessage(data))

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Drop the log when the window is narrow; show a plain request to enlarge it when
        even the board does not fit (a cramped table is worse than none)."""
        board_class = boards.board_class(self.engine_id)
        need_w, need_h = board_class.least_size()
        need = (need_w, need_h + CHROME_HEIGHT)  # the bars above and below the table too
        too_small = room.too_small(need, width, height)
        shown_again = self.has_class("-too-small") and not too_small
        self.set_class(too_small, "-too-small")
        if too_small:
            # Nothing on the hidden table may take a key: no move nobody can see.
            self.set_focus(None)
        elif shown_again and self.board is not None:
            self.board.focus()
        self.set_class(width < board_class.MIN_SIZE[0] + LOG_WIDTH, "-narrow")
        # No row to spare for the hint line (80×24 for most tables): the table gives up its
        # buttons while a hint shows (themes/table.tcss) rather than scroll its hand away.
        self.set_class(height - CHROME_HEIGHT < board_class.MIN_SIZE[1] + HINT_ROWS, "-short")
        self.query_one("#side").styles.width = log_width(width, board_class.MIN_SIZE[0])
        self._update_topbar()
        if too_small:
            self.query_one(room.RoomNotice).say(need, width, height)

    def _update_topbar(self) -> None:
        """One row that fits: the game's name, then who is "you", go first when it is short
        of room (the room's code stays: at 80×24 nothing else shows it)."""
        if not self.query("#topbar") or not self.query(SeatClocks):
            return  # a recompose under way (F3): the new bar is drawn once it is there
        parts = [self.title_text]
        droppable = [0]
        if self.link.code is not None:
            parts.append(tr("game.room", code=codes.display(self.link.code)))
        table = self.shown_table
        if table is not None and table.seat is not None and len(self.link.seats) > 1:
            droppable.append(len(parts))
            parts.append(tr("game.you_are", name=table.name(table.seat)))
        elif not self.link.seats:
            parts.append(tr("game.watching"))
        latest = self.latest
        clocks = self.query_one(SeatClocks)
        clocks.budget, clocks.room = self.size.width // 2, self.size.width - CLOCKS_LEAVE
        clocks.show(latest.clocks if latest else None, latest.names if latest else [],
                    table.seat if table else None,
                    [s for s, p in enumerate(latest.players) if p.get("bot")] if latest else ())
        if (state := self.table_state()) is not None:  # before anyone's turn: nobody plays
            parts.append(state)
        elif latest is not None:
            turn = latest.view.get("turn")
            if latest.view.get("over"):
                parts.append(tr("game.over"))
            elif table is not None and turn == table.seat:
                parts.append(self._your_turn(table))
            elif turn is not None:
                parts.append(tr("game.turn_of", name=latest.name(turn)))
        if self.has_class("-narrow") and self.entries:
            # No room for the log: at least the last thing that happened stays in sight.
            parts.append(self._entry_text(self.entries[-1]))
        width = self.size.width - TOPBAR_PADDING - clocks.width_needed
        line = fit_parts(parts, width, droppable)
        self.query_one("#topbar", Static).update(Content(line))

    def _your_turn(self, table: Table) -> str:
        """"Your turn", unless the bot plays it for the seat on show (its time ran out): then
        that, and F7 while the extension would give the turn back."""
        if not self.query_one(SeatClocks).played_for(table.seat):
            return tr("game.your_turn")
        return tr("clock.bot_plays.extend" if self._may_extend(table) else "clock.bot_plays")

    def table_state(self) -> str | None:
        """The table's state when it is more than whose turn it is (a networked table closed,
        its host away), for the top line; None: play goes on."""
        return None

    # -- the log -----------------------------------------------------------------------------
    def _entry_text(self, entry: Entry) -> str:
        kind, payload = entry
        if kind == "event":
            names = self.latest.names if self.latest else []
            if payload.get("kind") == "undo":  # the table's event, not the game's
                seat = payload.get("seat")
                name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
                return undo_line(name, self.link.seats == [seat])
            return boards.describe(self.engine_id, payload, names, language())
        if kind == "chat":
            return tr("game.chat", name=payload.get("name"), text=payload.get("text"))
        return str(payload)

    def _log(self, entries: list[Entry], note: bool = False) -> None:
        self.entries.extend(entries)
        # A recompose (F3's new language) under way has no log: it draws `entries` anew.
        for log in self.query("#log").results(EventLog):
            log.add(*(self._entry_text(e) for e in entries), note=note)
        self._update_topbar()

    @property
    def chat_lines(self) -> list[str]:
        """What was said at this table (the lobby's last lines first), for the chat prompt."""
        return [self._entry_text(e) for e in self.entries if e[0] == "chat"]

    def chat_history(self) -> list[dict[str, Any]]:
        """The chat the link kept before this screen listened (a networked table's lobby, the
        lines a host sends again on a rejoin); a local table has none."""
        return []

    def _hear_chat(self, line: dict[str, Any]) -> None:
        """A chat line into the log, once, where it was said (see `chat_log`)."""
        no = chat_log.number(line)
        if no is not None:
            if no in self._heard:
                return
            self._heard[no] = line
        index = chat_log.place(self.entries, line)
        if index == len(self.entries):
            self._log([("chat", line)])
            return
        entry = ("chat", line)
        self.entries.insert(index, entry)
        self.query_one("#log", EventLog).insert(len(self.entries) - index - 1,
                                                self._entry_text(entry))

    def _start_log(self, events: list[dict[str, Any]]) -> None:
        """The whole log afresh from a sync: the lobby's chat, the start, then the events
        with what was said between them."""
        for line in self.chat_history():
            no = chat_log.number(line)
            if no is not None:
                self._heard.setdefault(no, line)
        self.entries = []
        log = self.query_one("#log", EventLog)
        log.clear()
        entries = chat_log.merged([("event", e) for e in boards.logged(self.engine_id, events)],
                                  self._heard.values())
        lobby = [e for e in entries if e[0] == "chat" and chat_log.said_at(e[1]) is None]
        self._log(lobby)
        self._log([("note", tr("game.started"))], note=True)
        self._log(entries[len(lobby):])

    # -- messages from the table -------------------------------------------------------------
    def on_link_message(self, message: LinkMessage) -> None:
        data = message.data
        if self._held is not None and data.get("type") in ("sync", "update"):
            self._held.append(data)  # queued before the recompose began: after it
            return
        kind = data.get("type")
        if kind in ("sync", "update"):
            self._table_message(data)
        elif kind == "error":
            if data.get("seat") in self.link.seats:
                text = tr("game.error", message=data.get("message", ""))
                self._log([("note", text)], note=True)
                self.notify(text, severity="error", markup=False)
        elif kind == "chat":
            self._hear_chat(data)
        elif kind == "presence":
            for table in self.tables.values():
                table.players = list(data.get("players", table.players))
            self._show_soon()

    def _table_message(self, data: dict[str, Any]) -> None:
        seat = data.get("seat")
        table = Table(
            seat=seat,
            state_no=data["state_no"],
            view=data["view"],
            legal=list(data.get("legal") or []),
            players=list(data.get("players") or []),
            result=data.get("result"),
            local_seats=tuple(self.link.seats),
            clock=data.get("clock"),
            clocks=data.get("clocks") if isinstance(data.get("clocks"), dict) else None,
            # Hints are on at a local table unless it is rated (a rated game is the person's
            # own: docs/records.md); a networked host says whether it allows them.
            hints=data.get("hints", self.link.code is None and not self.link.rated),
        )
        before = self.tables.get(seat)
        self.tables[seat] = table
        self._undo[seat] = data.get("undo") is True
        # A sync is the table as it is: after an undo its state number is an earlier one.
        if (self.latest is None or table.state_no >= self.latest.state_no
                or data["type"] == "sync"):
            self.latest = table
        if seat == self.shown and before is not None and before.state_no != table.state_no:
            self._clear_hint()  # it spoke of the table before this move
        # Every seat gets the same public events; log them once, from the first seat.
        if seat == self._log_seat():
            board = self.board
            if data["type"] == "sync":
                self._start_log(data.get("log", []))
                if self.link.rated and table.result is None:
                    self._log([("note", f"{tr(self.RATED_NOTE)} {tr('game.concede.note')}")],
                              note=True)
                if table.clocks is not None:  # how the clocks go, and the key for more time
                    words = setting_words(table.clocks)
                    key = "clock.note" if self.link.seats else "clock.note.watching"
                    self._log([("note", tr(key, words=words))], note=True)
                    if any(p.get("bot") for p in table.players):
                        self._log([("note", tr("clock.bots"))], note=True)
                if board is not None:
                    board.take_events(list(data.get("log", [])), whole_log=True)
            else:
                self._log([("event", e)
                           for e in boards.logged(self.engine_id, data.get("events", []))])
                self._log_clocks(table)
                if board is not None:
                    board.take_events(list(data.get("events", [])))
            self._clocks_seen = table.clocks
        if table.result is not None:
            self.result = table.result
        self._show_soon()

    def _log_clocks(self, table: Table) -> None:
        """What the clocks tell everyone: a seat whose time ran out (and what the table did
        for it), a seat that took its extension."""
        now, before = table.clocks or {}, self._clocks_seen or {}
        lines = []
        for seat, name in enumerate(table.names):
            # "You" for the one person at this terminal; hot-seat players by their names.
            you = ".you" if self.link.seats == [seat] else ""
            timeouts, skips = _count(now, "timeouts", seat), _count(now, "skips", seat)
            if timeouts > _count(before, "timeouts", seat):
                skipped = skips > _count(before, "skips", seat)
                what = "clock.ran_out.skip" if skipped else "clock.ran_out.bot"
                lines.append(tr(what + you, name=name))
            if _flag(now, "extended", seat) and not _flag(before, "extended", seat):
                extra = now.get("extension")
                extra = span(float(extra)) if isinstance(extra, int | float) else "?"
                lines.append(tr("clock.extended" + you, name=name, extra=extra))
        if lines:
            self._log([("note", line) for line in lines], note=True)

    def _show_soon(self) -> None:
        """Redraw once after the messages already queued: a burst of bot moves (or one sync
        per hot-seat seat) costs one redraw, not one each."""
        if not self._show_pending:
            self._show_pending = True
            self.call_later(self._show)

    def _log_seat(self) -> int | None:
        return self.link.seats[0] if self.link.seats else None

    def _seat_to_show(self) -> int | None:
        """The person whose turn it is, if they sit at this terminal; else an acting person
        here (an interrupt window), else whoever was on show. The turn comes first because in
        some games everyone may act at any time (Zwergenamulett's "7 Zwerge")."""
        seats = self.link.seats
        if not seats:
            return None
        turn = self.latest.view.get("turn") if self.latest else None
        to_act = self.latest.view.get("to_act", []) if self.latest else []
        acting = [s for s in seats if s in to_act and self._may_answer(s)]
        # An interrupt window the player whose turn it is sits out: ask the others here.
        if turn in seats and (turn in to_act or not acting):
            return int(turn)
        if self.shown in acting or (not acting and self.shown is not None):
            return self.shown
        return acting[0] if acting else seats[0]

    def _may_answer(self, seat: int) -> bool:
        """Whether a seat here has more to do than let an open window go: one who can only
        pass is passed for by the table at once (net.table.windows), so the keyboard is not
        handed to them for it."""
        table = self.tables.get(seat)
        if table is None or not (self.latest and self.latest.view.get("window")):
            return True
        return any(move.get("type") != "pass" for move in table.legal)

    async def _show(self) -> None:
        self._show_pending = False
        target = self._seat_to_show()
        if target not in self.tables:
            return
        over = bool(self.latest and self.latest.view.get("over"))
        slot = self.query_one("#board-slot", Vertical)
        board = self.board
        if board is None or target != self.shown:
            changed_person = self.shown != target
            self.shown = target
            if changed_person:
                self._clear_hint()  # a hint for one seat is no other's
            if board is not None:
                await board.remove()
            board = self._new_board(self.tables[target])
            await slot.mount(board)
            board.take_events([e for kind, e in self.entries if kind == "event"], whole_log=True)
            if not self.has_class("-too-small"):
                board.focus()
            if changed_person and len(self.link.seats) > 1 and not over:
                await self._hand_over(target)
        else:
            board.show(self.tables[target])
        self._update_topbar()
        table = self.tables[target]
        offers = (self._may_extend(table), self._may_undo())
        if offers != (self._extend_offered, self._undo_offered):  # the footer shows them, or not
            self._extend_offered, self._undo_offered = offers
            self.refresh_bindings()
        self._ring_on_turn()
        if self.result is not None and not self._results_open:
            self._open_results()

    def _ring_on_turn(self) -> None:
        """The terminal bell when it becomes the turn of someone at this terminal, so a player
        in another window notices (a setting: in networked games, always, or never)."""
        table = self.latest
        mine = bool(
            table is not None
            and not table.view.get("over")
            and table.view.get("turn") in self.link.seats
        )
        if mine and not self._was_my_turn:
            mode = prefs.load().bell
            if mode == "always" or (mode == "network" and self.link.code is not None):
                self.app.bell()
        self._was_my_turn = mine

    async def _hand_over(self, target: int) -> None:
        """Cover the table until `target`'s person has the keyboard, unless they have it:
        the one who took it last, the table gone back to them before anyone else looked."""
        covered = isinstance(self.app.screen, HandoffScreen)
        if target == self._at_keys:
            if covered:
                self.app.screen.dismiss(False)
            return
        name = self.tables[target].name(target)
        if covered:
            await self.app.screen.hand_to(name)
        else:
            self.app.push_screen(HandoffScreen(name), self._after_handoff)

    async def _after_handoff(self, leave: bool | None) -> None:
        """Esc on the handoff screen (pressed twice there) leaves the game for the menu;
        otherwise the person on show has the keyboard now."""
        if not leave:
            self._at_keys = self.shown
        if leave:
            await self.close_link()
            self.dismiss()

    def action_log(self) -> None:
        """The whole log, chat included, over the table: at 80×24 it has no room beside it."""
        lines = [self._entry_text(entry) for entry in self.entries]
        self.app.push_screen(LogOverlay(lines, tr("game.log")))

    def _open_results(self) -> None:
        self._results_open = True
        table = self.latest
        assert table is not None and self.result is not None
        stats = records.stats_of_game(self.link.finished_record(), self.result)
        screen = ResultsScreen(
            self.engine_id, self.result, table.names, can_rematch=self.rematch is not None,
            stats=stats,
            record_path=self.link.record_path, room=getattr(self.link, "code", None),
        )
        self.app.push_screen(screen, self._after_results)

    def _after_results(self, choice: str | None) -> None:
        """A rematch replaces this screen (a local one closes this table as the screen goes;
        a networked one keeps the room); the menu closes the table first."""
        if choice == "rematch" and self.rematch is not None:
            self.rematch()
        else:
            self.run_worker(self._close_then(self.dismiss), group="link")

    def hand_over_link(self) -> None:
        """The link goes on with another screen (the room's lobby, for a rematch): this one
        stops listening and will not close it."""
        self._link_closed = True
        self.link.set_listener(lambda message: None)

    async def _close_then(self, then: Callable[[], Any]) -> None:
        await self.close_link()
        then()

    async def close_link(self) -> None:
        """Close the link once, whichever way the screen goes."""
        if not self._link_closed:
            self._link_closed = True
            await self.link.close(app_crashed(self.app))

    async def on_unmount(self) -> None:
        """Quitting (ctrl+q) or any other removal closes the table too: bots stop, a hosted
        room says goodbye to its peers."""
        await self.close_link()

    # -- moves -------------------------------------------------------------------------------
    def on_game_board_move_chosen(self, message: GameBoard.MoveChosen) -> None:
        message.stop()
        self._leaving = False
        table = self.shown_table
        if table is None or table.seat is None:
            return
        self.run_worker(self.link.send_move(table.seat, message.move, table.state_no), group="link")

    def on_game_board_answering(self, message: GameBoard.Answering) -> None:
        message.stop()
        table = self.shown_table
        if table is not None and table.seat is not None:
            self.run_worker(self.link.answering(table.seat, table.state_no), group="link")

    def action_extend(self) -> None:
        """The one "let me think" of the game for the seat on show (net.table.clocks)."""
        table = self.shown_table
        if table is not None and self._may_extend(table):
            assert table.seat is not None
            self.run_worker(self.link.extend(table.seat, table.state_no), group="link")

    @staticmethod
    def _may_extend(table: Table) -> bool:
        """Whether the seat on show may ask for its extension: its clock runs, and it has not
        had it yet."""
        clocks = table.clocks or {}
        running = clocks.get("running")
        return (table.seat is not None and not table.replay and isinstance(running, list)
                and table.seat in running and not _flag(clocks, "extended", table.seat))

    def _may_undo(self) -> bool:
        """Whether the seat on show may take its last move back now (the table says so)."""
        table = self.shown_table
        return (table is not None and table.seat is not None and not table.replay
                and self._undo.get(table.seat, False) and self.result is None)

    def action_undo(self) -> None:
        self.action_ask_undo()

    def action_ask_undo(self) -> None:
        """Take the seat on show's last move back (net.table.undo); the table says why not."""
        table = self.shown_table
        if table is None or table.seat is None:
            return
        self._leaving = False
        self.run_worker(self.link.undo(table.seat, table.state_no), group="link")

    def action_concede(self) -> None:
        """Concede: leaving, asked first, saying what it costs in a rated game."""
        table = self.latest
        if not self.link.seats or table is None or table.result is not None:
            return
        rated = self.link.rated and table.state_no > 0
        question = concede_question(rated)
        if (others := self.leave_question()) is not None:
            question = f"{question} {others}"

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._close_then(self.dismiss), group="link")

        self.app.push_screen(ConfirmScreen(question, tr("game.concede.yes"),
                                           tr("game.concede.no")), answered)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "extend":
            table = self.shown_table
            return table is not None and self._may_extend(table)
        if action == "undo":
            return self._may_undo()
        return True

    def _clear_hint(self) -> None:
        for line in self.query(HintLine):  # (none before the screen is composed)
            line.clear()
        self.remove_class("-hinting")

    def on_game_board_hint(self, message: GameBoard.Hint) -> None:
        message.stop()
        self.query_one(HintLine).say(message.text)
        self.add_class("-hinting")

    async def action_leave(self) -> None:
        """Esc twice leaves: one stray key should not throw a game away; a game that others
        play on this table's say (a hosted one) asks first as well."""
        if not self._leaving:
            self._leaving = True
            table = self.latest
            costly = (self.link.rated and table is not None and table.state_no > 0
                      and table.result is None)
            self._log([("note", tr("game.leave_rated" if costly else "game.leave_again"))],
                      note=True)
            return
        self._leaving = False
        question = self.leave_question()
        if question is None:
            await self._close_then(self.dismiss)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._close_then(self.dismiss), group="link")

        self.app.push_screen(ConfirmScreen(question, tr("leave.yes"), tr("leave.no")), answered)

    def leave_question(self) -> str | None:
        """What leaving would do to other people, to ask about first; None: nothing."""
        return None

    # What a rated game says before its first move (a hosted one says what the host's leaving
    # does to the others).
    RATED_NOTE = "game.rated"


def log_width(width: int, board_width: int) -> int:
    """Columns of the log beside a board that needs `board_width`, in a window `width` wide."""
    return max(LOG_WIDTH, min(LOG_WIDEST, int(width * LOG_SHARE), width - board_width))


def _count(clocks: dict[str, Any], key: str, seat: int) -> int:
    """A seat's count in a clocks message (0 if the wire held none)."""
    values = clocks.get(key)
    value = values[seat] if isinstance(values, list) and seat < len(values) else 0
    return value if type(value) is int else 0


def _flag(clocks: dict[str, Any], key: str, seat: int) -> bool:
    values = clocks.get(key)
    return isinstance(values, list) and seat < len(values) and values[seat] is True
