"""A peer's sealed pipe to its host over one websocket: the frame counter, sealing and
opening with the channel's keys (net.wire.channel), and sending again what the relay dropped.

The relay answers a frame over our rate with `rate_limit` and its `seq`; the pipe keeps the
last sealed frames it sent, so it can send that one and every one after it again, with their
counters and in order, once it may: a dropped move must never hang a game.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from net.wire.channel import WRONG_CODE, Channel, Refused
from net.wire.frames import HOST_TO_PEER, Frame, ProtocolError, check, encode

# Sealed frames kept after sending, to send again (same counter) if the relay drops one.
KEEP_SENT = 64

Spawn = Callable[[Coroutine[Any, Any, Any]], None]


class Pipe:
    """One connection's frames to and from the host. `channel` is None until the key
    exchange is done (and again while a new one runs)."""

    def __init__(self, ws: ClientConnection, spawn: Spawn) -> None:
        self.ws = ws
        self.channel: Channel | None = None
        self.seq = 0  # the last frame's sequence number (the relay wants them rising)
        self._spawn = spawn
        self._sent: dict[int, tuple[int, bytes]] = {}  # seq -> sealed (n, data), to resend
        self._held: list[tuple[int, bytes]] | None = None  # waiting to be sent again, in order
        self._resent: set[int] = set()  # seqs sent again: the host's "reordered" is expected

    def rekey(self, channel: Channel | None) -> None:
        """A new exchange's keys: what was kept for the old ones cannot be sent again."""
        self.channel = channel
        self._held = None
        self._sent.clear()
        self._resent.clear()

    async def send_clear(self, t: str, **fields: Any) -> None:
        """A frame the relay and host read in the clear (join, rejoin)."""
        self.seq += 1
        await self.ws.send(encode(t, seq=self.seq, **fields))

    async def seal(self, t: str, **fields: Any) -> None:
        """Seal frame `t` for the host and send it, keeping it in case the relay drops it."""
        assert self.channel is not None
        n, data = self.channel.seal({"t": t, **fields})
        self.seq += 1
        self._sent[self.seq] = (n, data)
        for old in list(self._sent)[:-KEEP_SENT]:
            del self._sent[old]
        if self._held is not None:  # an earlier frame waits to go again: keep the order
            self._held.append((n, data))
            return
        await self.ws.send(encode("sealed", seq=self.seq, n=n, data=data))

    def open(self, frame: Frame) -> Frame:
        """A sealed frame from the host, opened and checked; Refused (nothing changes) if it
        was tampered with, replayed or reordered on the way. If a channel's very first frame
        does not open, host and peer hold different keys: the code was wrong (or whoever
        answered is not the room's host): Refused("wrong_code")."""
        if self.channel is None:
            raise ProtocolError("bad_order", "a sealed frame came before the key exchange")
        # Only a code-keyed channel (it leaves a resumption secret) can fail for a wrong code:
        # a resumed one proved its keys before anything was sealed.
        first = self.channel.expected == 0 and bool(self.channel.secret)
        try:
            return check(self.channel.open(frame["n"], frame["data"]), HOST_TO_PEER)
        except Refused as exc:
            if first and exc.code == "tampered":
                raise Refused("wrong_code", WRONG_CODE) from None
            raise Refused(exc.code,
                          f"refused a frame the relay passed on: {exc.message}") from None

    def dropped(self, error: dict[str, Any]) -> bool:
        """The relay dropped sealed frame `seq` for our rate (or the host refused a frame
        sent after one the relay dropped): send it, and every sealed frame after it, again,
        with their counters, once we may. True if the error is dealt with that way."""
        seq = error.get("seq")
        if seq in self._resent:
            return True  # already on its way again
        if error["code"] != "rate_limit" or seq not in self._sent:
            return False
        again = [s for s in self._sent if s >= seq]
        self._resent.update(again)
        frames = [self._sent[s] for s in again]
        if self._held is None:
            self._held = frames
            self._spawn(self._send_held(float(error.get("retry_after") or 0.1)))
        else:  # merged in counter order, each once
            self._held = sorted(set(self._held) | set(frames), key=lambda frame: frame[0])
        return True

    async def _send_held(self, after: float) -> None:
        await asyncio.sleep(min(after, 5.0))
        held, self._held = self._held or [], None
        for n, data in held:
            self.seq += 1
            self._sent[self.seq] = (n, data)
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(encode("sealed", seq=self.seq, n=n, data=data))
