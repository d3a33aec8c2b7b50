"""A hosted game in play: moves from the host's terminal and from peers, checked and applied in
one place, each followed by every connection's own view; and the moves nobody at a keyboard
makes (bots, taken-over seats, clocks that ran out), planned again after every change.

All of it runs in plain methods on the event loop and only queues frames, so no two moves can
interleave their broadcasts.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from engines import IllegalMove
from engines.base import Move
from net.host.driver import unmanned_move
from net.host.seats import Peer, left_seats, players
from net.table.link import Message, table_message
from net.table.session import StaleMove
from net.wire.frames import Frame, is_plain

if TYPE_CHECKING:
    from net.host.authority import NetHost


class Play:
    """The moves of one `NetHost`'s game and what everyone is told of them."""

    def __init__(self, host: NetHost) -> None:
        self.host = host
        self._driver: asyncio.Task[None] | None = None

    # -- moves -------------------------------------------------------------------------------
    def local_move(self, seat_no: int, move: Move, state_no: int) -> None:
        """A move made at the host's own terminal."""
        host = self.host
        seat = host.seats[seat_no] if 0 <= seat_no < len(host.seats) else None
        if seat is None or not seat.local:
            host.audience.local({"type": "error", "seat": seat_no,
                                 "message": "That seat is not yours"})
            return
        problem = self._try(seat_no, move, state_no)
        if problem is not None:
            host.audience.local({"type": "error", "seat": seat_no, "code": problem[0],
                                 "message": problem[1]})
            if problem[0] == "stale":
                host.audience.local(self.table_message(seat_no, "sync"))

    def peer_move(self, peer: Peer, frame: Frame) -> None:
        seat = frame["seat"]
        if peer.seat is None:
            self.host.error(peer.cid, "spectator", "spectators watch; they cannot move",
                            frame["seq"])
            return
        if seat != peer.seat:
            self.host.error(peer.cid, "forged_seat",
                            f"you sit in seat {peer.seat}, not seat {seat}; move refused",
                            frame["seq"])
            return
        problem = self._try(seat, frame["move"], frame["state_no"])
        if problem is not None:
            self.host.error(peer.cid, *problem, seq=frame["seq"])
            if problem[0] == "stale":
                self.sync_peer(peer)

    def _try(self, seat: int, move: Move, state_no: int) -> tuple[str, str] | None:
        """Apply a person's move; (code, reason) if it is refused (nothing changes then)."""
        session = self.host.session
        if session is None:
            return ("not_started", "the game has not started yet")
        if session.over or self.host.dealer.closed is not None:  # ended, or closed mid-way
            return ("over", "the game is over")
        if not is_plain(move) or not isinstance(move.get("type"), str):
            return ("bad_move", "a move is a map with a 'type' and plain values")
        if state_no != session.state_no and not session.windows.same_window(state_no):
            if (late := session.windows.too_late(state_no)) is not None:
                return ("late", late)  # an answer to an interrupt window that has closed
            # an old view, or one from the future: both stale
            return ("stale", f"the table moved on (your view was state {state_no}, it is at "
                             f"{session.state_no}); here is the current table")
        if seat not in self.host.engine.to_act(session.state):
            return ("not_your_turn", "it is not your turn")
        try:
            if session.windows.keeps(seat, move, state_no):  # applied when the window closes
                self._tell_seat(seat)
                self.reschedule()
                return None
            self._apply(seat, move)
        except (IllegalMove, StaleMove) as exc:
            return ("illegal", getattr(exc, "reason", str(exc)))
        return None

    def answering(self, seat: int | None, state_no: int) -> None:
        """A person at `seat` is choosing an answer to the open window: more time, and
        everyone sees who is answering (net.table.windows)."""
        session = self.host.session
        if seat is None or session is None or not session.windows.answering(seat, state_no):
            return
        self.broadcast("update", [])
        self.reschedule()

    def extend(self, seat: int | None, state_no: int) -> None:
        """The person at `seat` asks for their one extension of the game, on state
        `state_no`: their clock gets it while it runs, and everyone sees it (a late or second
        asking changes nothing)."""
        session = self.host.session
        if (seat is None or session is None or state_no != session.state_no
                or not session.clocks.extend(seat)):
            return
        self.broadcast("update", [])
        self.reschedule()

    def undo(self, seat: int | None, state_no: int, cid: int | None = None,
             seq: int | None = None) -> None:
        """The person at `seat` takes their last move back, asked on state `state_no`
        (net.table.undo; `cid` a peer's connection, None the host's own terminal): the record
        keeps only the moves that stand and everyone hears the table afresh; or the asker
        hears why not, and nothing changes."""
        host = self.host
        session = host.session
        problem: tuple[str, str] | None = None
        if seat is None:
            problem = ("spectator", "spectators watch; they cannot undo")
        elif session is None:
            problem = ("not_started", "the game has not started yet")
        elif state_no != session.state_no:
            problem = ("stale", "the table moved on; nothing was taken back")
        else:
            try:
                session.take_back(seat)
            except IllegalMove as exc:
                problem = ("undo_refused", exc.reason)
        if problem is not None:
            if cid is None:
                host.audience.local({"type": "error", "seat": seat, "code": problem[0],
                                     "message": problem[1]})
            else:
                host.error(cid, *problem, seq=seq)
            return
        host.recorder.save_header()  # the record written afresh: the moves that stand
        self.broadcast("sync")
        self.reschedule()

    def _apply(self, seat: int, move: Move) -> None:
        host = self.host
        session = host.session
        assert session is not None
        events = session.submit(seat, move)
        host.recorder.move(seat, session.moves[-1][1])  # the engine's copy, not the sender's
        if session.over:  # who had left by the end: in the reveal and the record alike
            host.dealer.left = left_seats(session.players(), host.seats)
        self.broadcast("update", events)
        if session.over:
            host.recorder.finish(session.result(), host.dealer.left)
            host.presence()
            host.finished.set()
        self.reschedule()

    # -- moves nobody at a keyboard makes --------------------------------------------------------
    def reschedule(self) -> None:
        """(Re)plan who moves without a person: bots, taken-over seats, clocks run out."""
        host = self.host
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current:
            self._driver.cancel()
        self._driver = None
        if (host.session is None or host.session.over or host.uplink.closing
                or host.dealer.closed is not None):
            return
        self._driver = host.spawn(self._drive(host.session.state_no))

    async def _drive(self, state_no: int) -> None:
        host = self.host
        assert host.session is not None
        session = host.session
        due = await unmanned_move(session, host.seats, state_no, level=host.level,
                                  bot_delay=host.bot_delay)
        if due is None or host.dealer.closed is not None:  # its host closed it meanwhile
            return
        seat, move, timed_out = due
        session.undo.by_table()  # nobody at a keyboard made it: it is never taken back
        if timed_out and session.clocks.out_of_time.get(seat) == state_no:
            host.recorder.save_header()  # the record says whose time ran out first, and when
        self._apply(seat, move)

    # -- telling everybody -----------------------------------------------------------------------
    def table_message(
        self, seat: int | None, kind: str, events: list[Any] | None = None
    ) -> Message:
        """A sync or update for one seat (None: the public view), as the wire carries it:
        the local link's message plus who is connected and, at the end, the seed reveal."""
        host = self.host
        session = host.session
        assert session is not None
        message = table_message(session, seat, kind, events)
        message["players"] = players(host.seats)
        message["reveal"] = host.dealer.reveal(session)
        return message

    def _tell_seat(self, seat: int) -> None:
        """`seat` alone hears the table again (its pass is taken, its moves are gone)."""
        host = self.host
        host.audience.seat(seat, self.table_message(seat, "update", []), host.seats[seat].local)

    def broadcast(self, kind: str, events: list[Any] | None = None) -> None:
        host = self.host
        host.audience.table(lambda seat: self.table_message(seat, kind, events),
                            (i for i, seat in enumerate(host.seats) if seat.local))

    def sync_peer(self, peer: Peer) -> None:
        """The whole table (or the lobby, before the game) for one peer."""
        host = self.host
        if host.session is None:
            host.uplink.post([peer.cid], "lobby", **host.lobby.state())
        else:
            host.audience.send([peer.cid], self.table_message(peer.seat, "sync"))
