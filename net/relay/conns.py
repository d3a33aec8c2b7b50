"""One websocket connection at the relay: who it is (address, room, connection id), the last
sequence number it sent, and its rate bucket. A bucket per connection is what lets the relay
answer a flood with `rate_limit` for that one connection and nobody else."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection

if TYPE_CHECKING:
    from net.relay.rooms import Room


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
