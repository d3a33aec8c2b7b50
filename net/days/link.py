"""The link a game screen holds to a game over days: the same messages a `LocalLink` sends
(net.table.link), made from the game as the table's store holds it, so the one game screen
plays it unchanged.

The player's app never keeps the game: every move goes to the table (net.days.table, in the
link's own thread, on one connection to the store it keeps: the store may be a database
across the network), and the link reads the game back; a move made elsewhere (the other
player on another node, the table's bot, a keeper's timeout) is found by looking at the
stored state number every `POLL_SECONDS`. Each seat of this player is sent only its own view;
a player with no seat in the game watches it as a spectator.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engines import IllegalMove
from engines.base import Move
from net import home
from net.days import table
from net.days.store import OVER, DaysStore, Game
from net.days.table import DaysError
from net.players import ladder
from net.players.sql import SqlLadders
from net.players.store import StoreError
from net.records import store as record_files
from net.table.link import TableLink, table_message
from net.table.session import HostSession, StaleMove
from net.wire.text import clean_tree

POLL_SECONDS = 2.0
NO_CHAT = "A game over days keeps no chat"


def open_days(where: str | None = None) -> DaysStore:
    """The table's store of games over days (by default where this app counts its games)."""
    opened = ladder.open_store(where)
    if not isinstance(opened, SqlLadders):
        opened.close()
        raise StoreError("this store cannot hold games over days")
    return DaysStore(opened)


def with_store(where: str | None, work: Callable[[DaysStore], Any]) -> Any:
    store = open_days(where)
    try:
        return work(store)
    finally:
        store.close()


class DaysLink(TableLink):
    """A game over days as one player's terminal sees it (see the module docstring)."""

    # The table counts the game for its ladder itself (net.days.table); leaving the screen
    # costs nothing (the game waits), so the screen must not say that leaving counts.
    rated = False

    def __init__(self, game_id: str, ident: str, *, where: str | None = None,
                 now: Callable[[], float] = time.time, poll: float = POLL_SECONDS) -> None:
        super().__init__()
        self.game_id = game_id
        self.ident = ident
        self.where = where
        self.now = now
        self.poll = poll
        self.seats: list[int] = []
        self.game: Game | None = None
        self.session: HostSession | None = None
        self._poller: asyncio.Task[None] | None = None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="days-link")
        self._store: DaysStore | None = None

    async def _run(self, work: Callable[[DaysStore], Any]) -> Any:
        """`work` on the link's own connection to the store, in the link's one thread (an
        SQLite connection stays in the thread that made it); a store that failed is opened
        afresh next time."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._work, work)

    def _work(self, work: Callable[[DaysStore], Any]) -> Any:
        if self._store is None:
            self._store = open_days(self.where)
        try:
            return work(self._store)
        except StoreError:
            self._drop()
            raise

    def _drop(self) -> None:
        if self._store is not None:
            with contextlib.suppress(StoreError, OSError):
                self._store.close()
            self._store = None

    async def start(self) -> None:
        game = await self._run(lambda store: store.load(self.game_id))
        if game is None:
            raise DaysError("There is no such game at this table")
        self._take(game)
        for seat in self._watchers():
            self.emit(self._message(seat, "sync"))
        self._poller = asyncio.get_running_loop().create_task(self._polling())

    def _take(self, game: Game) -> None:
        self.game = game
        self.session = table.session_of(game)
        self.session.hints = False  # a game that counts: no expert at the player's elbow
        self.seats = [s.seat for s in game.seats
                      if s.ident == self.ident and s.timed_out is None]
        if game.status == OVER:
            self._keep_record(game)

    def emit(self, message: dict[str, Any]) -> None:
        """Names in a stored game were typed by other players: cleaned before any screen
        sees them, as a `RemoteLink` cleans what a host sends (net.wire.text)."""
        super().emit(clean_tree(message))

    def _watchers(self) -> list[int | None]:
        return list(self.seats) if self.seats else [None]

    def _message(self, seat: int | None, kind: str,
                 events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        assert self.session is not None
        return table_message(self.session, seat, kind, events)

    async def refresh(self) -> None:
        """Read the game again; tell every seat of this terminal what changed."""
        game = await self._run(lambda store: store.load(self.game_id))
        if game is None or self.game is None or game.state_no == self.game.state_no:
            return
        seen = self.game.state_no
        self._take(game)
        assert self.session is not None
        events = [e for e in self.session.log if e.get("n", 0) > seen]
        for seat in self._watchers():
            self.emit(self._message(seat, "update", events))

    async def _polling(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            with contextlib.suppress(StoreError, OSError):
                number = await self._run(lambda store: store.state_no(self.game_id))
                if self.game is not None and number != self.game.state_no:
                    await self.refresh()

    async def send_move(self, seat: int, move: Move, state_no: int) -> None:
        if seat not in self.seats:
            self.emit({"type": "error", "seat": seat, "message": "That seat is not yours"})
            return
        try:
            await self._run(lambda store: table.play(store, self.game_id, self.ident, seat,
                                                     move, state_no, self.now()))
        except IllegalMove as exc:
            self.emit({"type": "error", "seat": seat, "message": exc.reason})
            return
        except StaleMove:
            self.emit({"type": "error", "seat": seat, "message": "The table moved on; try again"})
        except (DaysError, StoreError) as exc:
            self.emit({"type": "error", "seat": seat, "message": str(exc)})
        await self.refresh()

    async def send_chat(self, text: str) -> None:
        self.emit({"type": "error", "seat": None, "message": NO_CHAT})

    async def answering(self, seat: int, state_no: int) -> None:
        """Windows are answered by standing orders at once (net.days.orders)."""

    async def extend(self, seat: int, state_no: int) -> None:
        """A game over days has its bank of days, and no extension."""

    async def close(self, crashed: bool = False) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
            self._poller = None
        await asyncio.get_running_loop().run_in_executor(self._pool, self._drop)
        self._pool.shutdown(wait=False)

    def finished_record(self) -> dict[str, Any] | None:
        if self.session is None or not self.session.over:
            return None
        return self.session.record()

    def _keep_record(self, game: Game) -> None:
        """A finished game joins this player's Past games (replays, statistics), once."""
        text = table.own_record(game, self.ident)
        if text is None or (not self.seats and not game.seat_of(self.ident)):
            return
        with contextlib.suppress(OSError):
            path = record_files.records_dir() / f"days-{game.id}.jsonl"
            if not path.exists():
                home.write_private(path, text)
            self.record_path = path
