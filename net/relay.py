"""The relay: rooms of websocket connections, one host and its peers per room.

It knows rooms, connections and limits, not games. A host opens a room and gets a join code;
peers join with the code; every frame a peer sends is checked for shape, size, rate and
sequence, then handed to the host unchanged (wrapped in a "from" envelope naming the
connection). The host answers with "send" frames naming the connections to deliver to, and
the relay forwards those bytes untouched. Never decoding the host's payloads keeps the relay
cheap and keeps it out of the rules entirely: a move means nothing here.

Limits live in `Limits` so tests can tighten them; docs/protocol.md lists the defaults.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from net import codes
from net.protocol import (
    HOST_FRAMES,
    MAX_FRAME,
    PEER_FRAMES,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
    encode,
)

log = logging.getLogger("tabletop.relay")


@dataclass
class Limits:
    max_frame: int = MAX_FRAME  # bytes per frame from a peer
    host_max_frame: int = 4 * MAX_FRAME  # a host's "send" may batch several views
    rate: float = 50.0  # frames per second a peer may send, sustained
    burst: float = 100.0  # ... and in a burst
    host_rate: float = 5000.0
    host_burst: float = 10000.0
    flood_close: int = 200  # frames dropped in a row before the connection is closed
    room_size: int = 16  # connections per room besides the host (players and spectators)
    max_rooms: int = 10000
    hello_timeout: float = 10.0  # seconds to send "open" or "join" after connecting
    idle_timeout: float = 3600.0  # seconds without a frame before a connection is closed
    room_grace: float = 900.0  # seconds a room waits for its host to come back
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    sweep_every: float = 5.0
    wrong_code_free: int = 5  # wrong codes per address per window before slowing down
    wrong_code_window: float = 60.0
    wrong_code_delay: float = 0.5  # first delay; doubles with every further wrong code
    wrong_code_max_delay: float = 10.0


class WrongCodeGuard:
    """Slows down addresses that keep trying codes: after a few misses every further join
    from that address waits, doubling each time, so guessing 40-bit codes is hopeless."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._misses: dict[str, deque[float]] = {}

    def _recent(self, addr: str) -> int:
        misses = self._misses.get(addr)
        if not misses:
            return 0
        horizon = self.clock() - self.limits.wrong_code_window
        while misses and misses[0] < horizon:
            misses.popleft()
        if not misses:
            del self._misses[addr]
            return 0
        return len(misses)

    def delay(self, addr: str) -> float:
        over = self._recent(addr) - self.limits.wrong_code_free
        if over < 0:
            return 0.0
        return min(self.limits.wrong_code_max_delay, self.limits.wrong_code_delay * 2**over)

    def miss(self, addr: str) -> None:
        self._misses.setdefault(addr, deque()).append(self.clock())

    def prune(self) -> None:
        for addr in list(self._misses):
            self._recent(addr)


class Conn:
    """One websocket connection: its rate bucket, sequence and room membership."""

    __slots__ = (
        "addr", "burst", "cid", "dropped", "join_data", "last_seen", "rate", "room", "seq",
        "stamp", "tokens", "warned", "ws",
    )

    def __init__(self, ws: ServerConnection, rate: float, burst: float) -> None:
        self.ws = ws
        remote = ws.remote_address
        self.addr = str(remote[0]) if remote else "?"
        self.room: Room | None = None
        self.cid = -1
        self.seq = -1
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = self.last_seen = time.monotonic()
        self.dropped = 0
        self.warned = 0.0
        self.join_data = b""

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


@dataclass
class Room:
    code: str
    host_token: str
    host: Conn | None = None
    members: dict[int, Conn] = field(default_factory=dict)
    next_cid: int = 1
    host_gone_at: float = 0.0


async def _send(conn: Conn, data: bytes) -> None:
    with contextlib.suppress(ConnectionClosed):
        await conn.ws.send(data)


async def _fail(conn: Conn, code: str, message: str, **extra: Any) -> None:
    """A fatal error: tell the connection why, then close it."""
    await _send(conn, encode("error", code=code, message=message, fatal=True, **extra))
    with contextlib.suppress(ConnectionClosed):
        await conn.ws.close(1008, message[:120])


class Relay:
    """A websocket relay. `start()` binds (127.0.0.1 unless told otherwise), `stop()` ends."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.conns: set[Conn] = set()
        self.guard = WrongCodeGuard(self.limits)
        self.forwarded = 0  # frames delivered to a connection, for benchmarks
        self._server: Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
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
            close_timeout=2,
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

    # -- connections ------------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        conn = Conn(ws, self.limits.rate, self.limits.burst)
        self.conns.add(conn)
        try:
            try:
                raw = await asyncio.wait_for(ws.recv(), self.limits.hello_timeout)
            except TimeoutError:
                await _fail(conn, "timeout", "no 'open' or 'join' frame in time")
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
                await _fail(conn, exc.code, exc.message)
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
            if await self._over_rate(conn):
                if conn.dropped >= self.limits.flood_close:
                    return
                continue
            yield raw

    async def _over_rate(self, conn: Conn) -> bool:
        """True (and the sender told, at most once a second) if `conn` is over its rate."""
        if conn.take_token():
            return False
        if conn.dropped >= self.limits.flood_close:
            await _fail(conn, "flood", "too many frames: connection closed")
            return True
        now = time.monotonic()
        if now - conn.warned >= 1.0:
            conn.warned = now
            message = f"rate limit: at most {self.limits.rate:g} frames a second; frames dropped"
            await _send(conn, encode("error", code="rate_limit", message=message, fatal=False))
        return True

    # -- hosts ------------------------------------------------------------------------------
    async def _host(self, conn: Conn, frame: Frame) -> None:
        conn.rate, conn.burst = self.limits.host_rate, self.limits.host_burst
        conn.tokens = conn.burst
        room = await self._open_room(conn, frame)
        if room is None:
            return
        peers = [{"cid": cid, "data": m.join_data} for cid, m in room.members.items()]
        await _send(conn, encode("opened", code=room.code, host_token=room.host_token,
                                 peers=peers))
        if peers:
            back = encode("host_back")
            for member in list(room.members.values()):
                await _send(member, back)
        try:
            async for raw in self._paced(conn):
                try:
                    frame = self._accept(conn, raw, HOST_FRAMES, self.limits.host_max_frame)
                    if frame["t"] == "send":
                        await self._deliver(room, frame["items"])
                    elif frame["t"] == "kick":
                        member = room.members.get(frame["cid"])
                        if member is not None:
                            await _fail(member, "kicked", frame["reason"] or "the host kicked you")
                    elif frame["t"] == "close":
                        await self._close_room(room, frame["reason"] or "the host closed the room")
                        return
                    else:
                        raise ProtocolError("unknown_type", f"a host cannot send {frame['t']!r}")
                except ProtocolError as exc:
                    await _send(conn, encode("error", code=exc.code, message=exc.message,
                                             fatal=False))
        finally:
            if room.host is conn:
                room.host = None
                room.host_gone_at = time.monotonic()
                gone = encode("host_gone")
                for member in list(room.members.values()):
                    await _send(member, gone)

    async def _open_room(self, conn: Conn, frame: Frame) -> Room | None:
        wanted, token = frame.get("code"), frame.get("host_token")
        if wanted is None:
            if len(self.rooms) >= self.limits.max_rooms:
                await _fail(conn, "busy", "this relay has no room for more rooms; try later")
                return None
            code = codes.new_code()
            while code in self.rooms:
                code = codes.new_code()
            room = self.rooms[code] = Room(code, secrets.token_urlsafe(18))
        else:
            try:
                code = codes.normalise(wanted)
            except codes.BadCode as exc:
                await _fail(conn, "bad_code", str(exc))
                return None
            room = self.rooms.get(code)
            if room is None:
                # Reopening after a restart of the relay (a resumed host brings its token).
                room = self.rooms[code] = Room(code, token or secrets.token_urlsafe(18))
            elif token != room.host_token:
                await _fail(conn, "code_taken", "that room belongs to another host")
                return None
            elif room.host is not None:
                await _fail(room.host, "replaced", "the host reconnected elsewhere")
        room.host = conn
        conn.room = room
        log.info("room %s opened by %s", code, conn.addr)
        return room

    async def _deliver(self, room: Room, items: list[Any]) -> None:
        for item in items:
            if not (isinstance(item, dict) and isinstance(item.get("data"), bytes)):
                raise ProtocolError("bad_field", "each 'send' item must be {to, data: bin}")
            to, data = item.get("to"), item["data"]
            if to is None:
                targets = list(room.members.values())
            elif isinstance(to, list) and all(type(c) is int for c in to):
                targets = [m for c in to if (m := room.members.get(c)) is not None]
            else:
                raise ProtocolError("bad_field", "'to' must be a list of connection ids or nil")
            for member in targets:
                await _send(member, data)
            self.forwarded += len(targets)

    async def _close_room(self, room: Room, reason: str) -> None:
        for member in list(room.members.values()):
            await _fail(member, "room_closed", reason)
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        log.info("room %s closed: %s", room.code, reason)

    # -- peers ------------------------------------------------------------------------------
    async def _peer(self, conn: Conn, frame: Frame, raw: bytes) -> None:
        delay = self.guard.delay(conn.addr)
        if delay:
            await asyncio.sleep(delay)
        try:
            code = codes.normalise(frame["code"])
        except codes.BadCode as exc:
            self.guard.miss(conn.addr)
            await _fail(conn, "bad_code", str(exc), retry_after=self.guard.delay(conn.addr))
            return
        room = self.rooms.get(code)
        if room is None:
            self.guard.miss(conn.addr)
            message = f"no room {codes.display(code)} here: the code is wrong or has expired"
            await _fail(conn, "no_room", message, retry_after=self.guard.delay(conn.addr))
            return
        if len(room.members) >= self.limits.room_size:
            await _fail(conn, "room_full", f"room {codes.display(code)} is full")
            return
        conn.cid = room.next_cid
        room.next_cid += 1
        conn.room = room
        conn.join_data = raw
        room.members[conn.cid] = conn
        try:
            if room.host is not None:
                await _send(room.host, encode("from", cid=conn.cid, data=raw))
            else:
                await _send(conn, encode("host_gone"))
            await self._peer_frames(conn, room)
        finally:
            room.members.pop(conn.cid, None)
            if room.host is not None:
                await _send(room.host, encode("left", cid=conn.cid))

    async def _peer_frames(self, conn: Conn, room: Room) -> None:
        async for raw in self._paced(conn):
            try:
                frame = self._accept(conn, raw, PEER_FRAMES, self.limits.max_frame)
                if frame["t"] == "join":
                    raise ProtocolError("bad_order", "already joined: 'join' only comes first")
                host = room.host
                if host is None:
                    raise ProtocolError("host_away", "the host is away; frame not delivered")
            except ProtocolError as exc:
                await _send(conn, encode("error", code=exc.code, message=exc.message,
                                         fatal=False))
                continue
            assert isinstance(raw, bytes)
            await _send(host, encode("from", cid=conn.cid, data=raw))
            self.forwarded += 1

    # -- housekeeping -----------------------------------------------------------------------
    async def _sweep(self) -> None:
        """Close idle connections and rooms whose host never came back."""
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            now = time.monotonic()
            for conn in list(self.conns):
                if now - conn.last_seen > self.limits.idle_timeout:
                    await _fail(conn, "idle", "closed after a long time without frames")
            for room in list(self.rooms.values()):
                if room.host is None and now - room.host_gone_at > self.limits.room_grace:
                    await self._close_room(room, "the host did not come back")
            self.guard.prune()


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
