"""What a screen talks to: a table it can send moves to and hear from.

The TUI never holds a session or an engine state. It holds a `TableLink`, sends moves through
it, and receives plain messages (dicts) through one listener. `LocalLink` runs the host session
in this process; the network client delivers the very same messages from a remote host, so a
screen cannot tell (and need not care) whether the table is local.

Messages a listener receives (all msgpack-safe):
  {"type": "sync",   "seat", "state_no", "view", "legal", "players", "log", "result"}
      the whole table for `seat`: replace everything (after joining, or after a stale move)
  {"type": "update", "seat", "state_no", "view", "legal", "players", "events", "result"}
      after a move: the new view, plus the public events it caused (append them to the log)
  {"type": "error",  "seat", "message"}      a move (or an undo) was refused; nothing changed
  {"type": "chat",   "name", "text"}
  {"type": "presence", "players"}            who sits where and who is connected
"sync" and "update" also carry "clock": None, or an open interrupt window's countdown, and
"clocks": None, or every seat's game clock (net.table.clocks), the same for every seat, and
"undo": whether that seat may take its last move back now (net.table.undo); after an undo
every seat gets a "sync" whose state number is lower than the last one.
"result" is None until the game is over, then the engine's result (plus "verified" on the
network: whether the revealed seed replays to the same game).
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from engines.base import IllegalMove, Move
from net.table import undo, windows
from net.table.session import HostSession, StaleMove

Message = dict[str, Any]
MessageListener = Callable[[Message], None]


class TableLink(ABC):
    """A table as one terminal sees it. `seats` are the seats played at this terminal (several
    in hot-seat play, none for a spectator)."""

    seats: list[int]
    # The room's join code for a networked table (screens show it); None for a local one.
    code: str | None = None
    # Where this terminal keeps the game's record (net.records), once it has one; the results
    # screen counts the finished game for the ladder from it.
    record_path: Path | None = None
    # Whether the game counts for the ladder from its first move (net.players.counted): the
    # screen says so before that move, and what leaving costs.
    rated: bool = False

    def __init__(self) -> None:
        self._listener: MessageListener = lambda message: None

    def set_listener(self, listener: MessageListener) -> None:
        self._listener = listener

    def emit(self, message: Message) -> None:
        self._listener(message)

    @abstractmethod
    async def start(self) -> None:
        """Connect and deliver a first sync for every seat played here."""

    @abstractmethod
    async def send_move(self, seat: int, move: Move, state_no: int) -> None: ...

    @abstractmethod
    async def send_chat(self, text: str) -> None: ...

    @abstractmethod
    async def close(self, crashed: bool = False) -> None:
        """Leave the table; `crashed`: the app is going down with an error (a hosted room is
        then kept for resuming rather than closed)."""

    @abstractmethod
    async def answering(self, seat: int, state_no: int) -> None:
        """`seat` is choosing an answer to the open interrupt window (net.table.windows): the
        table gives it more time, and everyone sees who is answering."""

    @abstractmethod
    async def extend(self, seat: int, state_no: int) -> None:
        """`seat` asks for its one extension of the game ("let me think", net.table.clocks),
        made on state `state_no`: its clock gets more time, and everyone sees it."""

    async def undo(self, seat: int, state_no: int) -> None:
        """`seat` takes its last move back, asked on state `state_no` (net.table.undo): every
        seat here hears the table afresh, or the seat hears why not."""
        self.emit({"type": "error", "seat": seat, "message": undo.NOTHING})

    def finished_record(self) -> dict[str, Any] | None:
        """The whole game (engine, options, seed, players, moves: `HostSession.record`) once it
        is over and this terminal knows it, for its statistics; None before the end."""
        return None


def table_message(
    session: HostSession, seat: int | None, kind: str, events: list[dict[str, Any]] | None = None
) -> Message:
    """A "sync" (whole log) or "update" (just `events`) message for one seat."""
    message: Message = {"type": kind, "seat": seat, **session.sync(seat)}
    if kind == "sync":
        message["log"] = list(session.log)
    else:
        message["events"] = list(events or [])
    message["result"] = session.result() if session.over else None
    message["clock"] = session.windows.public(fresh=kind == "sync")  # an open window's countdown
    message["clocks"] = session.clocks.public()  # every seat's game clock, if the table has them
    message["undo"] = seat is not None and session.undo.target(seat) is not None
    return message


class LocalLink(TableLink):
    """A whole table in this process: hot-seat people at this terminal, plus bots."""

    def __init__(self, session: HostSession, seats: list[int], bot_delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.seats = list(seats)
        self.bot_delay = bot_delay
        self._bots: asyncio.Task[None] | None = None
        # Called when the table is left before its end (not by a crash): a rated game's record
        # ends there, its person counted as having left (set by whoever keeps the record).
        self.on_leave: Callable[[], Awaitable[None]] | None = None
        windows.seat_keyboard(session, self.seats)

    def finished_record(self) -> dict[str, Any] | None:
        return self.session.record() if self.session.over else None

    def _watchers(self) -> list[int | None]:
        return list(self.seats) if self.seats else [None]

    async def start(self) -> None:
        self.session.undo.enable(self.seats, free=self._practice())
        for seat in self._watchers():
            self.emit(table_message(self.session, seat, "sync"))
        self._wake_bots()

    async def send_move(self, seat: int, move: Move, state_no: int) -> None:
        if seat not in self.seats:
            self.emit({"type": "error", "seat": seat, "message": "That seat is not yours"})
            return
        try:
            if self.session.windows.keeps(seat, move, state_no):  # applied when it closes
                self.emit(table_message(self.session, seat, "update", []))
                self._wake_bots()
                return
            events = self.session.submit(seat, move, state_no)
        except IllegalMove as exc:
            self.emit({"type": "error", "seat": seat, "message": exc.reason})
            return
        except StaleMove:
            self.emit({"type": "error", "seat": seat, "message": "The table moved on; try again"})
            self.emit(table_message(self.session, seat, "sync"))
            return
        self._broadcast(events)
        self._wake_bots()

    def _practice(self) -> bool:
        """Whether undo goes back past the bots (net.table.undo): an unrated game of one
        person at this keyboard against bots only."""
        people = [s for s, info in enumerate(self.session.seats) if not info.is_bot]
        return not self.rated and len(self.seats) == 1 and people == self.seats

    async def undo(self, seat: int, state_no: int) -> None:
        session = self.session
        if seat not in self.seats:
            self.emit({"type": "error", "seat": seat, "message": "That seat is not yours"})
            return
        if state_no != session.state_no:
            self.emit({"type": "error", "seat": seat, "message": "The table moved on; try again"})
            return
        try:
            session.take_back(seat)
        except IllegalMove as exc:
            self.emit({"type": "error", "seat": seat, "message": exc.reason})
            return
        for watcher in self._watchers():
            self.emit(table_message(session, watcher, "sync"))
        self._wake_bots()

    async def send_chat(self, text: str) -> None:
        self.emit({"type": "chat", "name": "you", "text": text})

    async def answering(self, seat: int, state_no: int) -> None:
        if seat in self.seats and self.session.windows.answering(seat, state_no):
            self._broadcast([])
            self._wake_bots()

    async def extend(self, seat: int, state_no: int) -> None:
        session = self.session
        if seat in self.seats and state_no == session.state_no and session.clocks.extend(seat):
            self._broadcast([])
            self._wake_bots()

    async def close(self, crashed: bool = False) -> None:
        if self._bots is not None:
            self._bots.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._bots
            self._bots = None
        leave, self.on_leave = self.on_leave, None
        if leave is not None and not crashed and not self.session.over:
            await leave()

    def _broadcast(self, events: list[dict[str, Any]]) -> None:
        for seat in self._watchers():
            self.emit(table_message(self.session, seat, "update", events))

    def _wake_bots(self) -> None:
        # Plan afresh after every person's move: a wait planned before it (a bot's pause, an
        # interrupt window's countdown) may no longer be due.
        if self._bots is not None:
            self._bots.cancel()
        self._bots = asyncio.get_running_loop().create_task(self._play_bots())

    async def _play_bots(self) -> None:
        """Bots move one at a time, paced so people can follow what they did; in an interrupt
        window they answer at once, and its countdown lets it go for silent people
        (net.table.windows); a person whose clock ran out gets the table's move
        (net.table.clocks)."""
        while (pending := await windows.next_local(self.session, self.bot_delay)) is not None:
            events = self.session.submit(*pending)
            self._broadcast(events)
