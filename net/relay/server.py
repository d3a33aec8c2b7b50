"""The relay: rooms of websocket connections, one host and its peers per room.

It knows rooms, connections and limits, not games. A host opens a room and gets a join code;
peers join with the code; every frame a peer sends is checked for shape, size, rate and
sequence, then handed to the host unchanged (wrapped in a "from" envelope naming the
connection). The host answers with "send" frames naming the connections to deliver to, and
the relay forwards those bytes untouched. Never decoding the host's payloads keeps the relay
cheap and keeps it out of the rules entirely: a move means nothing here.

Delivery never waits for a receiver: frames are written with `websockets.broadcast` (no
backpressure), a peer whose unsent bytes pile up past a cap is cut as too slow, and closing a
connection runs in its own task. So one slow, flooding or half-closed connection can delay
nobody else's frames. Room codes belong to their hosts through signed host tokens (see
net.relay.tokens), so a restarted relay hands a known code to nobody but its host.

Limits live in `net.relay.limits.Limits` so tests can tighten them; docs/protocol.md lists
the defaults.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from net.relay import tokens
from net.relay.limits import Limits, WrongCodeGuard
from net.wire import codes
from net.wire.frames import (
    HOST_FRAMES,
    PEER_FRAMES,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
    encode,
    unpack,
)

__all__ = ["Limits", "Relay", "serve_forever"]

log = logging.getLogger("tabletop.relay")

# Error codes a host may close one of its peers with (docs/protocol.md, "Errors").
KICK_CODES = frozenset({"kicked", "table_full", "refused", "replaced", "wrong_code"})


class Conn:
    """One websocket connection: its rate bucket, sequence and room membership."""

    __slots__ = (
        "addr", "buffer", "burst", "cid", "dropped", "fatal", "join_data", "last_seen", "probing",
        "rate", "room", "seq", "stamp", "tokens", "watch", "ws",
    )

    def __init__(self, ws: ServerConnection, rate: float, burst: float, buffer: int) -> None:
        self.ws = ws
        remote = ws.remote_address
        self.addr = str(remote[0]) if remote else "?"
        self.room: Room | None = None
        self.cid = -1
        self.seq = -1
        self.rate, self.burst = rate, burst
        self.buffer = buffer
        self.tokens = burst
        self.stamp = self.last_seen = time.monotonic()
        self.dropped = 0
        self.join_data = b""
        self.watch = False
        self.probing = False
        self.fatal = ""  # why it is being closed, once it is

    def take_token(self) -> bool:
        now = time.monotonic()
        self.last_seen = now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            self.dropped += 1
            return False
        self.tokens -= 1.0
        self.dropped = 0
        return True

    def wait_for_token(self) -> float:
        return max(0.0, (1.0 - self.tokens) / self.rate)


@dataclass
class Room:
    code: str
    host_token: str
    owner: str  # the address that opened it
    host: Conn | None = None
    members: dict[int, Conn] = field(default_factory=dict)
    next_cid: int = 1
    host_gone_at: float = 0.0
    used: bool = False  # someone joined it
    last_active: float = field(default_factory=time.monotonic)
    seat_ids: frozenset[str] = frozenset()  # seat owners the host vouched for

    def counts(self) -> tuple[int, int]:
        """(connections that asked for a seat, spectators) in the room now."""
        watchers = sum(1 for m in self.members.values() if m.watch)
        return len(self.members) - watchers, watchers


class Relay:
    """A websocket relay. `start()` binds (127.0.0.1 unless told otherwise), `stop()` ends."""

    def __init__(self, limits: Limits | None = None, secret: bytes | None = None) -> None:
        self.limits = limits or Limits()
        self.secret = secret or tokens.relay_secret()
        self.rooms: dict[str, Room] = {}
        self.by_addr: dict[str, set[str]] = {}
        self.conns: set[Conn] = set()
        self.guard = WrongCodeGuard(self.limits)
        self.forwarded = 0  # frames delivered to a connection, for benchmarks
        self._server: Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.host = "127.0.0.1"
        self.port = 0

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}"

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on `host`:`port` (0: any free port); returns the port."""
        self._server = await serve(
            self._handle,
            host,
            port,
            max_size=WS_MAX_SIZE,
            ping_interval=self.limits.ping_interval,
            ping_timeout=self.limits.ping_timeout,
            compression=None,
            write_limit=256 * 1024,
            close_timeout=self.limits.close_timeout,
        )
        self.host = host
        self.port = next(iter(self._server.sockets)).getsockname()[1]
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        log.info("relay listening on %s", self.url)
        return self.port

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for task in list(self._tasks):
            task.cancel()

    # -- writing: never waits for the receiver ------------------------------------------------
    def _push(self, targets: Iterable[Conn], data: bytes) -> None:
        """Queue `data` for every open connection in `targets`; one whose backlog is over its
        cap is cut instead (a peer that stops reading must not grow the relay without end)."""
        ready = []
        for conn in targets:
            ws = conn.ws
            if ws.protocol.state is not State.OPEN:
                continue
            if ws.transport.get_write_buffer_size() > conn.buffer:
                self._cut(conn, "slow", "too slow: frames piled up unread; connection closed")
                continue
            ready.append(ws)
        if ready:
            broadcast(ready, data)
            self.forwarded += len(ready)

    def _tell(self, conn: Conn, t: str, **fields: Any) -> None:
        self._push((conn,), encode(t, **fields))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _cut(self, conn: Conn, code: str, message: str, **extra: Any) -> None:
        """A fatal error for `conn`: it is told why and taken out of its room at once; the
        closing handshake runs in its own task, so nobody waits for it."""
        if conn.fatal:
            return
        conn.fatal = message
        self._push((conn,), encode("error", code=code, message=message, fatal=True, **extra))
        room = conn.room
        if room is not None and room.members.get(conn.cid) is conn:
            self._leave(room, conn)
        self._spawn(self._close(conn, message))

    @staticmethod
    async def _close(conn: Conn, message: str) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            await conn.ws.close(1008, message[:120])

    # -- connections ------------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        conn = Conn(ws, self.limits.rate, self.limits.burst, self.limits.peer_buffer)
        self.conns.add(conn)
        try:
            try:
                raw = await asyncio.wait_for(ws.recv(), self.limits.hello_timeout)
            except TimeoutError:
                self._cut(conn, "timeout", "no 'open' or 'join' frame in time")
                return
            try:
                frame = decode(raw, self.limits.max_frame)
                if frame["t"] == "open":
                    check(frame, HOST_FRAMES)
                elif frame["t"] == "join":
                    check(frame, PEER_FRAMES)
                else:
                    raise ProtocolError(
                        "unknown_type", "the first frame must be 'open' (host) or 'join' (peer)"
                    )
            except ProtocolError as exc:
                self._cut(conn, exc.code, exc.message, seq=_seq_of(raw))
                return
            conn.seq = frame["seq"]
            if frame["t"] == "open":
                await self._host(conn, frame)
            else:
                assert isinstance(raw, bytes)
                await self._peer(conn, frame, raw)
        except ConnectionClosed:
            pass
        finally:
            self.conns.discard(conn)
            if conn.fatal:  # close with 1008 before the server's own close says 1000
                await self._close(conn, conn.fatal)

    def _accept(self, conn: Conn, raw: bytes | str, table: dict[str, Any], max_frame: int) -> Frame:
        """Decode and check one frame after the first; ProtocolError says what is wrong."""
        frame = check(decode(raw, max_frame), table)
        seq = frame["seq"]
        if seq <= conn.seq:
            raise ProtocolError(
                "replayed", f"frame seq {seq} was not above the last one ({conn.seq}); dropped"
            )
        conn.seq = seq
        return frame

    async def _paced(self, conn: Conn) -> AsyncIterator[bytes | str]:
        """The connection's frames, less those over its rate; ends when it floods."""
        async for raw in conn.ws:
            if conn.take_token():
                yield raw
                continue
            if conn.dropped >= self.limits.flood_close:
                self._cut(conn, "flood", "too many frames: connection closed")
                return
            # Every dropped frame is answered (with its seq), so a client can send it again
            # once `retry_after` has passed: a dropped move must never hang a game.
            message = f"rate limit: at most {conn.rate:g} frames a second; frame dropped"
            self._tell(conn, "error", code="rate_limit", message=message, fatal=False,
                       seq=_seq_of(raw), retry_after=round(conn.wait_for_token(), 3))

    def _refuse(self, conn: Conn, exc: ProtocolError, raw: bytes | str) -> None:
        self._tell(conn, "error", code=exc.code, message=exc.message, fatal=False,
                   seq=_seq_of(raw))

    # -- hosts ------------------------------------------------------------------------------
    async def _host(self, conn: Conn, frame: Frame) -> None:
        conn.rate, conn.burst = self.limits.host_rate, self.limits.host_burst
        conn.tokens, conn.buffer = conn.burst, self.limits.host_buffer
        room = self._open_room(conn, frame)
        if room is None:
            return
        peers = [{"cid": cid, "data": m.join_data} for cid, m in room.members.items()]
        self._tell(conn, "opened", code=room.code, host_token=room.host_token, peers=peers)
        if peers:
            self._push(room.members.values(), encode("host_back"))
        try:
            async for raw in self._paced(conn):
                try:
                    frame = self._accept(conn, raw, HOST_FRAMES, self.limits.host_max_frame)
                    if room.host is not conn:
                        return  # replaced by a newer connection of the same host
                    room.last_active = time.monotonic()
                    t = frame["t"]
                    if t == "send":
                        self._deliver(room, frame["items"])
                    elif t == "seats":
                        ids = frame["ids"]
                        if len(ids) > 256 or not all(isinstance(i, str) for i in ids):
                            raise ProtocolError("bad_field", "'ids' must be at most 256 str")
                        room.seat_ids = frozenset(ids)
                    elif t == "kick":
                        self._kick(room, frame)
                    elif t == "close":
                        self._close_room(room, "room_closed",
                                         frame["reason"] or "the host closed the room")
                        return
                    else:
                        raise ProtocolError("unknown_type", f"a host cannot send {frame['t']!r}")
                except ProtocolError as exc:
                    self._refuse(conn, exc, raw)
        finally:
            if room.host is conn:
                room.host = None
                room.host_gone_at = time.monotonic()
                self._push(room.members.values(), encode("host_gone"))

    def _kick(self, room: Room, frame: Frame) -> None:
        code = frame.get("code") or "kicked"
        if code not in KICK_CODES:
            raise ProtocolError("bad_field", f"'code' must be one of {', '.join(KICK_CODES)}")
        member = room.members.get(frame["cid"])
        if member is not None:
            self._cut(member, code, frame["reason"] or "the host closed your connection")

    def _open_room(self, conn: Conn, frame: Frame) -> Room | None:
        wanted, token = frame.get("code"), frame.get("host_token")
        if wanted is None:
            if not self._room_for(conn):
                return None
            code = codes.new_code()
            while code in self.rooms:
                code = codes.new_code()
            room = self._new_room(code, conn.addr)
        else:
            try:
                code = codes.normalise(wanted)
            except codes.BadCode as exc:
                self._cut(conn, "bad_code", str(exc))
                return None
            if not tokens.owns(self.secret, code, token):
                self._cut(conn, "code_taken",
                          "that code belongs to another host: reopening a room needs its host "
                          "token, and a new room gets a new code")
                return None
            room = self.rooms.get(code)
            if room is None:  # reopened after a relay restart: the signed token still holds
                if not self._room_for(conn):
                    return None
                room = self._new_room(code, conn.addr)
                room.used = True
            elif room.host is not None:
                self._cut(room.host, "replaced", "the host reconnected elsewhere")
        room.host = conn
        conn.room = room
        log.info("room %s opened by %s", tokens.log_name(code), conn.addr)
        return room

    def _new_room(self, code: str, addr: str) -> Room:
        room = self.rooms[code] = Room(code, tokens.host_token(self.secret, code), addr)
        self.by_addr.setdefault(addr, set()).add(code)
        return room

    def _room_for(self, conn: Conn) -> bool:
        """Whether `conn` may open one more room: under its address's cap, and under the
        global cap once the heaviest address gave up its oldest idle room."""
        mine = len(self.by_addr.get(conn.addr, ()))
        if mine >= self.limits.rooms_per_address:
            self._cut(conn, "busy", f"this address has {mine} rooms open, the most it may; "
                                    "close one first")
            return False
        if len(self.rooms) >= self.limits.max_rooms and not self._evict():
            self._cut(conn, "busy", "this relay has no room for more rooms; try later")
            return False
        return True

    def _evict(self) -> bool:
        """Close the least recently active room of the address holding the most rooms."""
        if not self.by_addr:
            return False
        heaviest = max(self.by_addr.values(), key=len)
        room = min((self.rooms[c] for c in heaviest), key=lambda r: r.last_active)
        self._close_room(room, "evicted", "the relay was full and this room was idle")
        return True

    def _deliver(self, room: Room, items: list[Any]) -> None:
        for item in items:
            if not (isinstance(item, dict) and isinstance(item.get("data"), bytes)):
                raise ProtocolError("bad_field", "each 'send' item must be {to, data: bin}")
            to, data = item.get("to"), item["data"]
            if to is None:
                self._push(list(room.members.values()), data)
            elif isinstance(to, list) and all(type(c) is int for c in to):
                self._push([m for c in to if (m := room.members.get(c)) is not None], data)
            else:
                raise ProtocolError("bad_field", "'to' must be a list of connection ids or nil")

    def _close_room(self, room: Room, code: str, reason: str) -> None:
        for member in list(room.members.values()):
            self._cut(member, "room_closed", reason)
        if room.host is not None:
            host, room.host = room.host, None
            if code != "room_closed":
                self._cut(host, code, reason)
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            owned = self.by_addr.get(room.owner)
            if owned is not None:
                owned.discard(room.code)
                if not owned:
                    del self.by_addr[room.owner]
        log.info("room %s closed: %s", tokens.log_name(room.code), reason)

    # -- peers ------------------------------------------------------------------------------
    async def _peer(self, conn: Conn, frame: Frame, raw: bytes) -> None:
        try:
            code = codes.normalise(frame["code"])
            room = self.rooms.get(code)
        except codes.BadCode as exc:
            code, room, message = "", None, str(exc)
        else:
            message = f"no room {codes.display(code)} here: the code is wrong or has expired"
        if room is None:
            await asyncio.sleep(self.guard.miss(conn.addr))
            error = "no_room" if code else "bad_code"
            self._cut(conn, error, message, retry_after=self.guard.delay(conn.addr))
            return
        conn.watch = frame["watch"]
        owner = frame.get("seat_id") in room.seat_ids
        seated, watching = room.counts()
        if not owner and (watching >= self.limits.spectators if conn.watch
                          else seated >= self.limits.players):
            who = "spectators" if conn.watch else "players"
            self._cut(conn, "room_full", f"room {codes.display(code)} has no room for more {who}")
            return
        conn.cid = room.next_cid
        room.next_cid += 1
        room.used = True
        conn.room = room
        conn.join_data = raw
        room.members[conn.cid] = conn
        try:
            if room.host is not None:
                self._tell(room.host, "from", cid=conn.cid, data=raw)
            else:
                self._tell(conn, "host_gone")
            await self._peer_frames(conn, room)
        finally:
            if room.members.get(conn.cid) is conn:
                self._leave(room, conn)

    def _leave(self, room: Room, conn: Conn) -> None:
        del room.members[conn.cid]
        if room.host is not None:
            self._tell(room.host, "left", cid=conn.cid)

    async def _peer_frames(self, conn: Conn, room: Room) -> None:
        async for raw in self._paced(conn):
            if room.members.get(conn.cid) is not conn:
                return  # cut meanwhile
            try:
                frame = self._accept(conn, raw, PEER_FRAMES, self.limits.max_frame)
                if frame["t"] == "join":
                    raise ProtocolError("bad_order", "already joined: 'join' only comes first")
                host = room.host
                if host is None:
                    raise ProtocolError("host_away", "the host is away; frame not delivered")
            except ProtocolError as exc:
                self._refuse(conn, exc, raw)
                continue
            assert isinstance(raw, bytes)
            room.last_active = conn.last_seen
            self._tell(host, "from", cid=conn.cid, data=raw)

    # -- housekeeping -----------------------------------------------------------------------
    async def _sweep(self) -> None:
        """Close idle connections and rooms whose host never came back."""
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            now = time.monotonic()
            for conn in list(self.conns):
                if now - conn.last_seen > self.limits.idle_timeout and not conn.probing:
                    conn.probing = True
                    self._spawn(self._probe(conn))
            for room in list(self.rooms.values()):
                if room.host is None:
                    grace = self.limits.room_grace if room.used else self.limits.unused_grace
                    if now - room.host_gone_at > grace:
                        self._close_room(room, "room_closed", "the host did not come back")
            self.guard.prune()

    async def _probe(self, conn: Conn) -> None:
        """A connection silent for the idle time: a listener that still answers pings (a
        spectator following a long game) stays; one that does not is closed."""
        try:
            pong = await conn.ws.ping()
            await asyncio.wait_for(pong, self.limits.ping_timeout or 20.0)
        except (ConnectionClosed, TimeoutError, OSError):
            self._cut(conn, "idle", "closed after a long time without frames")
            return
        finally:
            conn.probing = False
        conn.last_seen = time.monotonic()


def _seq_of(raw: bytes | str) -> int | None:
    """The `seq` of a frame, if it has a readable one: errors name the frame they refuse."""
    if isinstance(raw, str):
        return None
    try:
        frame = unpack(raw)
    except ProtocolError:
        return None
    seq = frame.get("seq") if isinstance(frame, dict) else None
    return seq if type(seq) is int else None


def serve_forever(host: str = "127.0.0.1", port: int = 8765) -> None:
    """`tabletop-tui serve`: a standalone relay logging to stderr until interrupted."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(message)s"
    )

    async def main() -> None:
        relay = Relay()
        try:
            await relay.start(host, port)
        except OSError as exc:
            log.error("cannot listen on %s:%s: %s", host, port, exc.strerror or exc)
            raise SystemExit(1) from None
        try:
            await asyncio.Event().wait()
        finally:
            await relay.stop()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
