"""End-to-end encryption between the host and each peer: the relay carries, never reads.

The join code's last four symbols (`codes.split`) never reach the relay. Host and peer run
SPAKE2 keyed by the whole code (net.wire.pake, the protocol magic-wormhole uses) through the
relay, so each side learns a shared secret only if both typed the same code, and a relay that
guesses gets one online try per exchange and nothing to test guesses against offline. From
that secret HKDF-SHA256 derives one key per direction; every payload after it travels sealed
with ChaCha20-Poly1305 under a counter nonce, and the receiver takes only the next counter, so
a frame the relay tampered with, replayed or moved ahead is refused and changes nothing.
Payloads are padded to a few fixed sizes before sealing, so that the length of a frame does
not tell the relay which card a move played or what a view holds.

`Crypto` is the whole cryptographic surface the host and client use (exchange plus
channel), so a benchmark can swap in a null one and measure what encryption costs.
docs/protocol.md ("End-to-end encryption") is the normative description.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgpack
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from net.wire.frames import MAX_FRAME, VERSION, ProtocolError, unpack
from net.wire.pake import SIDE_A, SIDE_B, BadMessage, Spake2

ID_PEER, ID_HOST = b"tabletop-tui peer", b"tabletop-tui host"
TO_PEER, TO_HOST = b"host to peer", b"peer to host"  # the two directions, in KDF and AAD
BINDING = b"channel binding"  # what the KDF calls a channel's binding (SealedChannel.binding)
WRONG_CODE = "wrong join code: check the last four symbols"
NONCE_BYTES = 12
TAG_BYTES = 16  # what sealing adds to every payload
# Every sealed plaintext is padded to one of these sizes, so that a frame's length says next to
# nothing of what it holds: every move and hello (and a short chat line) fills 512 bytes,
# a table update mostly 2 or 8 KiB.
# A peer's largest leaves its sealed frame (tag and envelope too) under the relay's MAX_FRAME;
# the host's, batched behind up to 96 KiB of others (net.host.uplink), under the relay's
# 4 x MAX_FRAME for a host. Larger payloads go as they are: padding never makes a frame too big.
PEER_BUCKETS = (512, 2048, 8192, 32768, MAX_FRAME - 4096)
BUCKETS = {TO_HOST: PEER_BUCKETS, TO_PEER: (*PEER_BUCKETS, 2 * MAX_FRAME)}
LENGTH_BYTES = 4  # the body's length, in front of it


class Refused(ProtocolError):
    """A sealed frame this side will not take (`code`: tampered, replayed or reordered).
    Nothing changed: the counter still waits for the frame it expected."""


def password(room: str, secret: str) -> bytes:
    """The SPAKE2 password: the whole code, bound to this protocol version."""
    return f"tabletop-tui v{VERSION} {room}{secret}".encode()


def derive(shared: bytes, room: str, direction: bytes) -> bytes:
    """One direction's 32-byte key from the SPAKE2 result; the room code is the salt."""
    info = b"tabletop-tui v%d " % VERSION + direction
    return HKDF(hashes.SHA256(), 32, room.encode(), info).derive(shared)


def aad(direction: bytes, n: int) -> bytes:
    """What each seal binds besides its payload: version, frame type, direction, counter."""
    return b"tabletop-tui v%d sealed " % VERSION + direction + b" " + n.to_bytes(8, "big")


def padded_size(size: int, buckets: tuple[int, ...]) -> int:
    """How long a plaintext of `size` bytes (length prefix included) is sealed: the smallest
    bucket that holds it; over the largest, as it is."""
    return next((bucket for bucket in buckets if bucket >= size), size)


def pad(body: bytes, buckets: tuple[int, ...]) -> bytes:
    """`body` behind its length (4 bytes, big-endian), then zeros up to its bucket."""
    size = LENGTH_BYTES + len(body)
    return len(body).to_bytes(LENGTH_BYTES, "big") + body + bytes(padded_size(size, buckets) - size)


def unpad(plain: bytes, buckets: tuple[int, ...]) -> bytes:
    """The body `pad` put in `plain`; ProtocolError (malformed) for any other padding."""
    end = LENGTH_BYTES + int.from_bytes(plain[:LENGTH_BYTES], "big")
    if (len(plain) < LENGTH_BYTES or end > len(plain) or len(plain) != padded_size(end, buckets)
            or plain.count(0, end) != len(plain) - end):
        raise ProtocolError("malformed", "a sealed payload is not padded as the protocol says: "
                                         "refused")
    return plain[LENGTH_BYTES:end]


class Channel(Protocol):
    """A sealed two-way channel: `seal` what this side sends, `open` what it receives;
    `expected` is the counter of the next frame it will open (0: it has opened none);
    `secret` what it leaves for resumption keys (empty for a resumed channel); `binding` a
    value only its two ends know, for signatures that must hold for this channel alone (a
    hello's identity proof, net.players.identity)."""

    expected: int
    secret: bytes
    binding: bytes

    def seal(self, payload: dict[str, Any]) -> tuple[int, bytes]: ...

    def open(self, n: int, data: bytes) -> dict[str, Any]: ...


class Exchange(Protocol):
    """One side of a key exchange: `message` goes to the other side, `finish` (with its
    message) yields the channel."""

    message: bytes

    def finish(self, theirs: bytes) -> Channel: ...


class SealedChannel:
    """ChaCha20-Poly1305 with a counter per direction, from 0; nonce = counter, big-endian;
    each payload padded to a bucket of its direction. `secret` is what a first exchange
    leaves for the resumption keys (net.wire.resume); `binding` is derived from the same key
    schedule as the keys (never from anything sent in the clear), so a signature over it
    cannot be carried to another channel."""

    def __init__(self, send_key: bytes, recv_key: bytes, send_dir: bytes, recv_dir: bytes,
                 binding: bytes, secret: bytes = b"") -> None:
        self.secret, self.binding = secret, binding
        self._send, self._recv = ChaCha20Poly1305(send_key), ChaCha20Poly1305(recv_key)
        self._send_dir, self._recv_dir = send_dir, recv_dir
        self.sent = 0  # the counter of the next frame sealed
        self.expected = 0  # the counter of the next frame accepted

    def seal(self, payload: dict[str, Any]) -> tuple[int, bytes]:
        n = self.sent
        plain = pad(msgpack.packb(payload, use_bin_type=True), BUCKETS[self._send_dir])
        data = self._send.encrypt(n.to_bytes(NONCE_BYTES, "big"), plain, aad(self._send_dir, n))
        self.sent += 1
        return n, data

    def open(self, n: int, data: bytes) -> dict[str, Any]:
        if n < self.expected:
            raise Refused("replayed", f"sealed frame {n} came again (the next is "
                                      f"{self.expected}): refused as a replay")
        if n > self.expected:
            raise Refused("reordered", f"sealed frame {n} came before frame {self.expected}: "
                                       "refused as out of order")
        try:
            plain = self._recv.decrypt(n.to_bytes(NONCE_BYTES, "big"), data,
                                       aad(self._recv_dir, n))
        except InvalidTag:
            raise Refused("tampered", f"sealed frame {n} does not open with this room's key: "
                                      "refused as forged or damaged") from None
        # Authentic: the counter moves on even if the sender's payload is no good (that is
        # the sender's fault, not the relay's, and a stuck counter would refuse all that comes).
        self.expected += 1
        payload = unpack(unpad(plain, BUCKETS[self._recv_dir]))
        if not isinstance(payload, dict) or not isinstance(payload.get("t"), str):
            raise ProtocolError("malformed", "a sealed payload must be a map with a string 't'")
        return payload


class _Spake2Exchange:
    """One side's exchange (`Spake2`) and, once it finishes, the channel its key gives."""

    def __init__(self, side: bytes, room: str, secret: str) -> None:
        self._spake2 = Spake2(side, password(room, secret), ID_PEER, ID_HOST)
        self._room = room
        self._mine, self._theirs = (TO_HOST, TO_PEER) if side == SIDE_A else (TO_PEER, TO_HOST)
        self.message = self._spake2.message

    def finish(self, theirs: bytes) -> Channel:
        try:
            shared = self._spake2.finish(theirs)
        except BadMessage as exc:
            raise ProtocolError("bad_pake", f"not a valid key-exchange message ({exc})") from None
        return SealedChannel(derive(shared, self._room, self._mine),
                             derive(shared, self._room, self._theirs), self._mine, self._theirs,
                             derive(shared, self._room, BINDING),
                             derive(shared, self._room, b"resumption secret"))


class Crypto(Protocol):
    """Where exchanges come from: the whole cryptographic surface of host and client."""

    def peer_exchange(self, room: str, secret: str) -> Exchange: ...

    def host_exchange(self, room: str, secret: str) -> Exchange: ...


class Spake2Crypto:
    """SPAKE2 (peer = side A, host = side B) plus ChaCha20-Poly1305: what the product uses."""

    def peer_exchange(self, room: str, secret: str) -> Exchange:
        return _Spake2Exchange(SIDE_A, room, secret)

    def host_exchange(self, room: str, secret: str) -> Exchange:
        return _Spake2Exchange(SIDE_B, room, secret)


CRYPTO: Crypto = Spake2Crypto()
