"""The relay: rooms of websocket connections, one host and its peers per room.

It knows rooms, connections and limits, not games. A host opens a room and gets a join code;
peers join with the code; every frame a peer sends is checked for shape, size, rate and
sequence, then handed to the host unchanged (wrapped in a "from" envelope naming the
connection). The host answers with "send" frames naming the connections to deliver to, and
the relay forwards those bytes untouched. Never decoding the host's payloads keeps the relay
cheap and keeps it out of the rules entirely: a move means nothing here.

The relay is this class (connections, writing, housekeeping) and two desks: `net.relay.hosts`
(opening rooms, carrying a host's frames) and `net.relay.peers` (letting peers in, carrying
theirs); `net.relay.rooms` keeps the books.

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
import gc
import json
import logging
import sys
import time
from collections.abc import AsyncIterator, Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from net.relay import addresses, tokens
from net.relay.conns import Conn
from net.relay.hosts import HostDesk
from net.relay.limits import Limits, WrongCodeGuard, raise_open_files
from net.relay.listing import Billboard, Reputation
from net.relay.peers import PeerDesk
from net.relay.rooms import RoomBook
from net.wire import codes
from net.wire.frames import (
    FIRST_PEER_FRAMES,
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

# What a load balancer asks to know a relay is up (plain HTTP, no websocket).
HEALTH_PATH = "/health"
# The open tables, as JSON (net.relay.listing).
TABLES_PATH = "/tables"

log = logging.getLogger("tabletop.relay")


class Relay:
    """A websocket relay. `start()` binds (127.0.0.1 unless told otherwise), `stop()` ends."""

    def __init__(self, limits: Limits | None = None, secret: bytes | None = None,
                 reputation: Reputation | None = None,
                 proxies: tuple[addresses.Network, ...] | None = None) -> None:
        self.limits = limits or Limits()
        self.secret = secret or tokens.shared_secret() or tokens.relay_secret()
        # Load balancers whose X-Forwarded-For names the client (net.relay.addresses).
        self.proxies = addresses.trusted_proxies() if proxies is None else proxies
        self.rooms = RoomBook(self.limits)
        self.billboard = Billboard(self.rooms, self.limits, reputation)
        self.hosts = HostDesk(self)
        self.peers = PeerDesk(self)
        self.conns: set[Conn] = set()
        self.guard = WrongCodeGuard(self.limits)  # wrong room codes, by address
        # Wrong secrets (the host refused the code), by address and room: that address's
        # next joins to that room wait, so a guesser is slowed and other rooms are not.
        self.secret_guard = WrongCodeGuard(self.limits)
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
            process_request=self._http,
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
    def push(self, targets: Iterable[Conn], data: bytes) -> None:
        """Queue `data` for every open connection in `targets`; one whose backlog is over its
        cap is cut instead (a peer that stops reading must not grow the relay without end)."""
        ready = []
        for conn in targets:
            ws = conn.ws
            if ws.protocol.state is not State.OPEN:
                continue
            if ws.transport.get_write_buffer_size() > conn.buffer:
                self.cut(conn, "slow", "too slow: frames piled up unread; connection closed")
                continue
            ready.append(ws)
        if ready:
            broadcast(ready, data)
            self.forwarded += len(ready)

    def tell(self, conn: Conn, t: str, **fields: Any) -> None:
        self.push((conn,), encode(t, **fields))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cut(self, conn: Conn, code: str, message: str, **extra: Any) -> None:
        """A fatal error for `conn`: it is told why and taken out of its room at once; the
        closing handshake runs in its own task, so nobody waits for it."""
        if conn.fatal:
            return
        conn.fatal = message
        self.push((conn,), encode("error", code=code, message=message, fatal=True, **extra))
        room = conn.room
        if room is not None and room.members.get(conn.cid) is conn:
            self.peers.leave(room, conn)
        self._spawn(self._close(conn, message))

    @staticmethod
    async def _close(conn: Conn, message: str) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            await conn.ws.close(1008, message[:120])

    # -- connections ------------------------------------------------------------------------
    def _http(self, ws: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP before any websocket: `/health` for a load balancer's checks, the open
        tables as JSON; room connections go on to the websocket handshake."""
        if request.path == HEALTH_PATH:
            return ws.respond(200, f"ok: {len(self.rooms)} rooms\n")
        url = urlsplit(request.path)
        if url.path == TABLES_PATH:
            query = parse_qs(url.query)
            game = query.get("game", [None])[0]
            page = query.get("page", ["0"])[0]
            if not (page.isascii() and page.isdigit() and len(page) <= 6):
                return ws.respond(400, "page must be a number from 0\n")
            answer = ws.respond(200, json.dumps(self.billboard.page(game, int(page)),
                                                ensure_ascii=False) + "\n")
            del answer.headers["Content-Type"]  # a multidict: setting alone would add one
            answer.headers["Content-Type"] = "application/json; charset=utf-8"
            return answer
        if request.path != "/" and codes.room_of_path(request.path) is None:
            return ws.respond(404, "a room connection goes to /room/CODE\n")
        return None

    async def _handle(self, ws: ServerConnection) -> None:
        conn = Conn(ws, self.limits.rate, self.limits.burst, self.limits.peer_buffer)
        if ws.request is not None:
            conn.addr = addresses.client(
                conn.addr, ws.request.headers.get_all(addresses.FORWARDED), self.proxies)
        if addresses.is_loopback(conn.addr) and conn.addr == str(ws.remote_address[0]):
            # Not a client a balancer named: on loopback, whose socket it is (a shared
            # machine's users count apart; /proc is read off the loop).
            conn.addr = await asyncio.to_thread(addresses.local_user, conn.addr,
                                                ws.remote_address, ws.local_address)
        self.conns.add(conn)
        try:
            try:
                raw = await asyncio.wait_for(ws.recv(), self.limits.hello_timeout)
            except TimeoutError:
                self.cut(conn, "timeout", "no 'open', 'join' or 'resume' frame in time")
                return
            try:
                frame = decode(raw, self.limits.max_frame)
                if frame["t"] == "open":
                    check(frame, HOST_FRAMES)
                elif frame["t"] in FIRST_PEER_FRAMES:
                    check(frame, PEER_FRAMES)
                else:
                    raise ProtocolError("unknown_type", "the first frame must be 'open' (host), "
                                                        "'join' or 'resume' (peer)")
                routed = codes.room_of_path(ws.request.path) if ws.request else None
                if routed is not None and frame.get("code") is not None and (
                        codes.same_room(routed, str(frame["code"])) is False):
                    raise ProtocolError("bad_code", "the URL names another room than the frame")
            except ProtocolError as exc:
                self.cut(conn, exc.code, exc.message, seq=_seq_of(raw))
                return
            conn.seq = frame["seq"]
            if frame["t"] == "open":
                await self.hosts.serve(conn, frame)
            else:
                assert isinstance(raw, bytes)
                await self.peers.serve(conn, frame, raw)
        except ConnectionClosed:
            pass
        finally:
            self.conns.discard(conn)
            if conn.fatal:  # close with 1008 before the server's own close says 1000
                await self._close(conn, conn.fatal)

    def accept(self, conn: Conn, raw: bytes | str, table: dict[str, Any], max_frame: int) -> Frame:
        """Decode and check one frame after the first; ProtocolError says what is wrong."""
        frame = check(decode(raw, max_frame), table)
        seq = frame["seq"]
        if seq <= conn.seq:
            raise ProtocolError(
                "replayed", f"frame seq {seq} was not above the last one ({conn.seq}); dropped"
            )
        conn.seq = seq
        return frame

    async def paced(self, conn: Conn) -> AsyncIterator[bytes | str]:
        """The connection's frames, less those over its rate; ends when it floods."""
        async for raw in conn.ws:
            if conn.take_token():
                yield raw
                continue
            if conn.dropped >= self.limits.flood_close:
                self.cut(conn, "flood", "too many frames: connection closed")
                return
            # Every dropped frame is answered (with its seq), so a client can send it again
            # once `retry_after` has passed: a dropped move must never hang a game.
            message = f"rate limit: at most {conn.rate:g} frames a second; frame dropped"
            self.tell(conn, "error", code="rate_limit", message=message, fatal=False,
                       seq=_seq_of(raw), retry_after=round(conn.wait_for_token(), 3))

    def refuse(self, conn: Conn, exc: ProtocolError, raw: bytes | str) -> None:
        self.tell(conn, "error", code=exc.code, message=exc.message, fatal=False,
                   seq=_seq_of(raw))

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
            for room in self.rooms.expired(now):
                self.hosts.close_room(room, "room_closed", "the host did not come back")
            self.guard.prune()
            self.secret_guard.prune()

    async def _probe(self, conn: Conn) -> None:
        """A connection silent for the idle time: a listener that still answers pings (a
        spectator following a long game) stays; one that does not is closed."""
        try:
            pong = await conn.ws.ping()
            await asyncio.wait_for(pong, self.limits.ping_timeout or 20.0)
        except (ConnectionClosed, TimeoutError, OSError):
            self.cut(conn, "idle", "closed after a long time without frames")
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


# The young generation's threshold in a relay process (CPython's default is 700): a relay
# makes a few short-lived objects per frame, and collecting them 700 at a time costs a
# collection every few milliseconds under load, each of which may promote and so bring the
# next full collection nearer.
GC_YOUNG = 20_000


def tune_collector() -> None:
    """The collector of a relay process, once it listens: everything made before the first
    room (the imported code, about as many objects as a thousand rooms) is frozen out of
    every later collection, and the young generation is collected less often. A full
    collection still scans every room's objects; `python -m bench.cluster --one-relay`
    prints its pauses."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


def serve_forever(host: str = "127.0.0.1", port: int = 8765, limits: Limits | None = None) -> None:
    """`tabletop-tui serve`: a standalone relay logging to stderr until interrupted."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(message)s"
    )

    async def main() -> None:
        relay = Relay(limits)
        files = raise_open_files()
        try:
            await relay.start(host, port)
        except OSError as exc:
            log.error("cannot listen on %s:%s: %s", host, port, exc.strerror or exc)
            raise SystemExit(1) from None
        tune_collector()
        log.info("open files allowed: %d (a connection is one; raise LimitNOFILE= or the hard "
                 "limit for more)", files)
        try:
            await asyncio.Event().wait()
        finally:
            await relay.stop()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
