"""A channel that seals nothing, for `bench.net` only: with it a host and a peer run the same
code path, frames and round trips as the product, minus the cryptography (no SPAKE2, no
AEAD), so the difference between the two is what end-to-end encryption costs. The product
never uses it: net.wire.channel.CRYPTO is its one channel."""

from __future__ import annotations

from typing import Any

import msgpack

from net.wire.channel import BUCKETS, TAG_BYTES, TO_PEER, Channel, pad, unpad
from net.wire.frames import unpack

# As long as a real SPAKE2 message (33 bytes), so the frames keep their size.
_MESSAGE = bytes(33)
_BUCKETS = BUCKETS[TO_PEER]


class NullChannel:
    """Counts and pads like the real channel (the host's buckets both ways: a peer's payloads
    never reach the one bucket only the host has); the padded payload goes in the clear,
    followed by a tag's worth of zeros, so frame sizes match."""

    def __init__(self) -> None:
        self.sent = 0
        self.expected = 0
        self.secret = bytes(32)
        self.binding = bytes(32)

    def seal(self, payload: dict[str, Any]) -> tuple[int, bytes]:
        self.sent += 1
        plain = pad(msgpack.packb(payload, use_bin_type=True), _BUCKETS)
        return self.sent - 1, plain + bytes(TAG_BYTES)

    def open(self, n: int, data: bytes) -> dict[str, Any]:
        self.expected += 1
        payload: dict[str, Any] = unpack(unpad(data[:-TAG_BYTES], _BUCKETS))
        return payload


class NullExchange:
    message = _MESSAGE

    def finish(self, theirs: bytes) -> Channel:
        return NullChannel()


class NullCrypto:
    """Stands in for net.wire.channel.Crypto."""

    def peer_exchange(self, room: str, secret: str) -> NullExchange:
        return NullExchange()

    def host_exchange(self, room: str, secret: str) -> NullExchange:
        return NullExchange()


NULL = NullCrypto()
