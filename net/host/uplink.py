"""The host's end of the relay: one connection to it, kept open, and one writer.

Everything the host sends is queued with `post` (or `kick`) in an outbox that a single writer
task flushes in order, batched into "send" frames: no two moves can interleave their
broadcasts, and a move costs one relay frame however many peers there are. `post` seals each
payload for each receiver with that connection's channel (net.wire.channel), in the order posted, so
counters and the outbox agree; a connection without a channel gets nothing sealed. If the connection
drops, the uplink reopens the room with its code and host token for `reconnect_for` seconds,
so a network hiccup does not end the game. It knows frames, not games: what the frames mean
is the host's business, reached through the callbacks it is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from net.wire import codes
from net.wire.channel import Channel
from net.wire.frames import WS_MAX_SIZE, ProtocolError, decode, encode

log = logging.getLogger("tabletop.host")

# A "send" frame is flushed once its payload passes this size (the relay takes 4x MAX_FRAME).
_BATCH_BYTES = 96 * 1024
# New room codes a host draws before giving up when each is in use (at 40 bits, one more is
# already a surprise).
CODE_TRIES = 3
# What a connection whose new channel awaits its welcome may be sent.
HUSHED_MAY = ("welcome", "error")

Spawn = Callable[[Coroutine[Any, Any, None]], "asyncio.Task[Any]"]


class Uplink:
    """The room's connection to the relay at `url`.

    `spawn` runs its reader and writer (so whoever owns the tasks can cancel them all),
    `rejoin(peers)` hears who is in the room each time it is (re)opened, `receive(raw)` every
    frame the relay sends after that, and `report(state, message)` how the connection fares
    ("reconnecting", or "closed" once it gave up)."""

    def __init__(
        self,
        url: str,
        reconnect_for: float,
        *,
        spawn: Spawn,
        rejoin: Callable[[list[dict[str, Any]]], None],
        receive: Callable[[bytes | str], None],
        report: Callable[[str, str], None],
    ) -> None:
        self.url = url
        self.reconnect_for = reconnect_for
        self.code = ""
        self.host_token: str | None = None
        self.ws: ClientConnection | None = None
        self.closing = False
        self._spawn, self._rejoin, self._receive, self._report = spawn, rejoin, receive, report
        self._seq = 0
        self._outbox: list[tuple[str, Any]] = []
        self._wake = asyncio.Event()
        self._opened: asyncio.Future[None] | None = None
        self.channels: dict[int, Channel] = {}  # cid -> its sealed channel, once exchanged
        # Connections whose new channel (a resumption, a re-key) has not had its welcome yet:
        # they get nothing else first (docs/protocol.md, Order), or a table update would
        # arrive on the new channel before the welcome that starts it.
        self.hushed: set[int] = set()
        self._taken = self._done = 0  # outbox entries the writer took, and has written
        self._flushes: list[tuple[int, asyncio.Future[None]]] = []
        self.listing: dict[str, Any] | None = None  # how the room shows among open tables

    async def open(self) -> None:
        """Connect and open the room (or reopen `code`); OSError if the relay cannot be had."""
        self._opened = asyncio.get_running_loop().create_future()
        self._spawn(self._run())
        self._spawn(self._write())
        await self._opened

    def post(self, to: list[int], t: str, **fields: Any) -> None:
        """Queue frame `t`, sealed for each of the connections `to` that has a channel (one
        whose channel is new gets a `welcome` first, and only an `error` before it)."""
        payload = {"t": t, **fields}
        for cid in to:
            if cid in self.hushed:
                if t not in HUSHED_MAY:
                    continue
                if t == "welcome":
                    self.hushed.discard(cid)
            channel = self.channels.get(cid)
            if channel is not None:
                n, data = channel.seal(payload)
                self._outbox.append(("item", {"to": [cid],
                                              "data": encode("sealed", n=n, data=data)}))
        self._wake.set()

    def post_plain(self, to: list[int], t: str, **fields: Any) -> None:
        """Queue frame `t` in the clear: only "pake", and errors to a connection that has no
        channel yet (they say nothing about the game)."""
        self._outbox.append(("item", {"to": to, "data": encode(t, **fields)}))
        self._wake.set()

    def flushed(self) -> asyncio.Future[None]:
        """Done once everything queued so far is written (or the connection is gone): lets
        CPU-heavy work wait until a frame that others are waiting for is on its way."""
        future = asyncio.get_running_loop().create_future()
        self._flushes.append((self._taken + len(self._outbox), future))
        self._wake.set()
        return future

    def _flushed(self, gone: bool = False) -> None:
        self._done = self._taken
        waiting, self._flushes = self._flushes, []
        for target, future in waiting:
            if target <= self._done or gone:
                if not future.done():
                    future.set_result(None)
            else:
                self._flushes.append((target, future))

    def kick(self, cid: int, reason: str, code: str = "kicked",
             retry_after: float | None = None) -> None:
        """Close connection `cid` with error `code` (kicked, table_full, refused, replaced,
        ...); `retry_after`: seconds after which trying again can succeed."""
        self._outbox.append(("kick", (cid, reason, code, retry_after)))
        self._wake.set()

    def vouch(self, seat_ids: list[str]) -> None:
        """Tell the relay whose seats these are, so their people always get in."""
        self._outbox.append(("seats", seat_ids))
        self._wake.set()

    def show(self, listing: dict[str, Any] | None) -> None:
        """List the room among the relay's open tables with these fields (None: no more);
        a relay the room moves to hears it again."""
        if listing == self.listing:
            return
        self.listing = listing
        self._outbox.append(("list", listing))
        self._wake.set()

    async def say_goodbye(self, reason: str) -> None:
        """Close the room (peers are told `reason`) and stop reconnecting. The writer gets a
        moment to deliver the goodbye; the caller then cancels the tasks and `hang_up`s."""
        # Closing first: the relay hangs up once it closed the room, and that must not read
        # as a lost connection, or the room would be opened again (empty, for nobody).
        open_now = self.ws is not None and not self.closing
        self.closing = True
        if open_now:
            self._outbox.append(("close", reason))
            self._wake.set()
            for _ in range(50):
                await asyncio.sleep(0.01)
                if not self._outbox:
                    break

    async def hang_up(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    async def _connect(self) -> ClientConnection:
        # A new room draws its own code, so its very first connection can name it in the URL
        # (a load balancer routes every connection of a room to the same relay by it).
        for _ in range(CODE_TRIES):
            if not self.code:
                self.code = codes.new_code()
            url = self.url + codes.room_path(self.code)
            ws = await connect(url, max_size=WS_MAX_SIZE, compression=None, open_timeout=10)
            self._seq += 1
            await ws.send(encode("open", seq=self._seq, code=self.code,
                                 host_token=self.host_token))
            frame = decode(await ws.recv(), WS_MAX_SIZE)
            if frame["t"] != "error":
                break
            await ws.close()
            if frame.get("code") != "code_taken" or self.host_token is not None:
                raise ProtocolError(str(frame.get("code")), str(frame.get("message")))
            self.code = ""  # a new room whose code is in use: draw another
        else:
            raise ProtocolError("code_taken", "no free room code after several tries")
        if frame["t"] != "opened":
            raise ProtocolError("bad_order", "the relay did not answer 'open' with 'opened'")
        self.code, self.host_token = frame["code"], frame["host_token"]
        self.ws = ws
        if self.listing is not None:
            self._outbox.append(("list", self.listing))
        self._rejoin(frame.get("peers", []))
        self._wake.set()
        return ws

    async def _run(self) -> None:
        """Keep the room open: read relay frames, reconnect if the relay connection drops."""
        assert self._opened is not None
        give_up = 0.0
        delay = 0.2
        while not self.closing:
            try:
                ws = await self._connect()
            except Exception as exc:  # refused, reset, timed out, refused by the relay
                if not self._opened.done():
                    self._opened.set_exception(
                        exc if isinstance(exc, OSError)
                        else OSError(f"cannot open a room on {self.url}: {exc}")
                    )
                    return
                if give_up and time.monotonic() > give_up:
                    log.error("lost the relay: %s", exc)
                    self._report("closed", f"lost the relay: {exc}")
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 3.0)
                continue
            if not self._opened.done():
                self._opened.set_result(None)
            delay, give_up = 0.2, 0.0
            try:
                async for raw in ws:
                    try:
                        self._receive(raw)
                    except Exception:  # one bad frame must not take the whole room down
                        log.exception("failed to handle a frame")
            except ConnectionClosed:
                pass
            self.ws = None
            if not self.closing:
                give_up = time.monotonic() + self.reconnect_for
                self._report("reconnecting", "lost the relay; reconnecting")

    async def _write(self) -> None:
        """The one sender: flushes the outbox in order, batching frames into "send"s."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            ws = self.ws
            if ws is None or not self._outbox:
                self._flushed(gone=ws is None)
                continue
            batch, self._outbox = self._outbox, []
            self._taken += len(batch)
            items: list[dict[str, Any]] = []
            size = 0
            try:
                for kind, payload in batch:
                    if kind == "item":
                        items.append(payload)
                        size += len(payload["data"])
                        if size < _BATCH_BYTES:
                            continue
                    if items:
                        await self._send_frame(ws, "send", items=items)
                        items, size = [], 0
                    if kind == "kick":
                        await self._send_frame(ws, "kick", cid=payload[0], reason=payload[1],
                                               code=payload[2], retry_after=payload[3])
                    elif kind == "seats":
                        await self._send_frame(ws, "seats", ids=payload)
                    elif kind == "list" and payload is None:
                        await self._send_frame(ws, "unlist")
                    elif kind == "list":
                        await self._send_frame(ws, "list", **payload)
                    elif kind == "close":
                        await self._send_frame(ws, "close", reason=payload)
                if items:
                    await self._send_frame(ws, "send", items=items)
            except ConnectionClosed:
                self._flushed(gone=True)
                continue  # _run reconnects; peers get synced when they rejoin
            self._flushed()

    async def _send_frame(self, ws: ClientConnection, t: str, **fields: Any) -> None:
        self._seq += 1
        await ws.send(encode(t, seq=self._seq, **fields))
