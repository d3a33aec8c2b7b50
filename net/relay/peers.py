"""The relay's side of a room's peers: a join is let in under the room's caps, then each frame
is checked for shape, rate and sequence and handed to the host unchanged, wrapped in a "from"
envelope naming the connection.

The caps hold for everyone. Only a proven seat owner goes past a full room: one whose
resumption carries a ticket the host vouched for (by its hash, net.wire.resume); a ticket is
spent on use, so one seen on the wire buys nothing. An address whose joins the host refused
for a wrong code waits before its next join to that room is passed on (`secret_guard`), so a
stranger who guesses a room's secret is slowed down; other rooms, and everyone after a wrong
room code, are not held up by it (a right join from the same address to the same room is:
the relay cannot tell it from a guess, so that wait is capped at `wrong_code_max_delay`).

The host hears which address group each join came from, by a name it cannot turn back into
an address (`src`, net.relay.tokens), so it can slow a guesser's own joins and nobody else's.

A `resume` for a room this relay does not hold waits for its host first (`resume_wait`,
net.relay.rooms): after a relay died, the room's host and its peers reconnect to the next relay
at the same moment. Only a wait that ends without the room is a wrong code, counted once.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from net.relay import addresses, tokens
from net.relay.conns import Conn
from net.relay.limits import guessing
from net.relay.rooms import Room
from net.wire import codes, resume
from net.wire.frames import FIRST_PEER_FRAMES, PEER_FRAMES, Frame, ProtocolError

if TYPE_CHECKING:
    from net.relay.server import Relay


class PeerDesk:
    """Where peers join rooms on one `Relay`."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    async def serve(self, conn: Conn, frame: Frame, raw: bytes) -> None:
        """A peer's connection, from its 'join' to its last frame."""
        relay = self.relay
        try:
            code = codes.normalise(frame["code"])
            room = relay.rooms.get(code)
        except codes.BadCode as exc:
            code, room, message = "", None, str(exc)
        else:
            message = f"no room {codes.display(code)} here: the code is wrong or has expired"
        if room is None and code and frame["t"] == "resume":
            room = await self._coming(conn, code)
        if room is None:
            await asyncio.sleep(relay.guard.miss(conn.addr))
            error = "no_room" if code else "bad_code"
            relay.cut(conn, error, message, retry_after=relay.guard.delay(conn.addr))
            return
        conn.watch = frame["watch"]
        ticket = frame.get("ticket") if frame["t"] == "resume" else None
        owner = ticket is not None and resume.ticket_id(ticket) in room.seat_ids
        if owner:  # spent: a ticket seen on the wire is no use to anyone after this
            room.seat_ids = room.seat_ids - {resume.ticket_id(ticket)}
        seated, watching = room.counts()
        if not owner and (watching >= relay.limits.spectators if conn.watch
                          else seated >= relay.limits.players):
            who = "spectators" if conn.watch else "players"
            relay.cut(conn, "room_full", f"room {codes.display(code)} has no room for more {who}")
            return
        if frame["t"] == "join" and (wait := relay.secret_guard.penalty(guessing(conn.addr, code))):
            await asyncio.sleep(wait)  # this address guessed this room's secret: it waits
            if conn.fatal:
                return
        conn.cid = room.next_cid
        room.next_cid += 1
        conn.room = room
        conn.join_data = raw
        room.members[conn.cid] = conn
        try:
            if room.host is not None:  # with the joiner's address group, by a name (`src`)
                relay.tell(room.host, "from", cid=conn.cid, data=raw,
                           src=tokens.source_name(relay.secret, code, addresses.group(conn.addr)))
            else:
                relay.tell(conn, "host_gone")
            await self._peer_frames(conn, room)
        finally:
            if room.members.get(conn.cid) is conn:
                self.leave(room, conn)

    async def _coming(self, conn: Conn, code: str) -> Room | None:
        """Room `code` if its host opens it while `conn` waits for it (net.relay.rooms caps
        the waits); None if it does not, or if `conn` closes first (its wait ends with it, so
        a closed connection holds no place and the relay's shutdown is not held up)."""
        waiting = asyncio.ensure_future(self.relay.rooms.wait_for(code, conn.addr))
        closed = asyncio.ensure_future(conn.ws.wait_closed())
        try:
            await asyncio.wait((waiting, closed), return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            closed.cancel()
        return waiting.result() if waiting.done() and not waiting.cancelled() else None

    def leave(self, room: Room, conn: Conn) -> None:
        """`conn` is out of `room`: its host hears so."""
        del room.members[conn.cid]
        if room.host is not None:
            self.relay.tell(room.host, "left", cid=conn.cid)

    async def _peer_frames(self, conn: Conn, room: Room) -> None:
        relay = self.relay
        async for raw in relay.paced(conn):
            if room.members.get(conn.cid) is not conn:
                return  # cut meanwhile
            try:
                frame = relay.accept(conn, raw, PEER_FRAMES, relay.limits.max_frame)
                if frame["t"] in FIRST_PEER_FRAMES:
                    raise ProtocolError("bad_order", f"already joined: {frame['t']!r} only comes "
                                                     "first")
                host = room.host
                if host is None:
                    raise ProtocolError("host_away", "the host is away; frame not delivered")
            except ProtocolError as exc:
                relay.refuse(conn, exc, raw)
                continue
            assert isinstance(raw, bytes)
            room.last_active = conn.last_seen
            relay.tell(host, "from", cid=conn.cid, data=raw)
